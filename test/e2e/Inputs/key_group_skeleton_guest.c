// SPDX-License-Identifier: GPL-2.0
// Guest side of key-group-skeleton-setter-and-bpftool-list.test: included
// after the skeleton bpftool generated for the object of key_group_progs.c,
// so that key_group__static_keys__set_debug_key() is the generated setter.
#include "../e2e_key_group.h"
#include "bpftool_test.h"

static void expect_programs(struct key_group *skel, bool on)
{
	e2e_expect_run(skel->progs.xdp_debug, on ? 2 : 1);
	e2e_expect_run(skel->progs.tc_debug, on ? 20 : 10);
}

int main(void)
{
	struct key_group *skel;
	int err;

	require_static_keys_kernel();
	libbpf_set_print(e2e_libbpf_print);
	skel = key_group__open();
	if (!skel) {
		printf("FAIL: key_group__open: %s\n", strerror(errno));
		return 1;
	}
	/* before load: the state the anchor is created with, which members take */
	e2e_ok("set debug_key on before load", key_group__static_keys__set_debug_key(skel, true));
	if (key_group__load(skel)) {
		printf("FAIL: key_group__load\n");
		return 1;
	}
	printf("skeleton loaded, debug_key set on before load\n");
	key_group_show_map("skel->maps.debug_key", bpf_map__fd(skel->maps.debug_key),
			   bpf_map__fd(skel->maps.debug_key));
	expect_programs(skel, true);
	bpftool_ok("static-key", "list");

	err = key_group__static_keys__set_debug_key(skel, false);
	printf("key_group__static_keys__set_debug_key(skel, false) = %d\n", err);
	e2e_ok("set debug_key off", err);
	expect_programs(skel, false);
	bpftool_ok("static-key", "list");

	/* every member by name in one call: the anchor and both instances */
	bpftool_ok("static-key", "set", "debug_key", "on");
	expect_programs(skel, true);

	key_group__destroy(skel);
	return finish();
}
