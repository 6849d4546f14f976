// SPDX-License-Identifier: GPL-2.0
// Guest side of skeleton-loads-and-flips.test: included after the skeleton
// that bpftool (patched tree) generated for the resolved e2e object.
#include "../e2e_loader.h"

/*
 * A key's skeleton map is the template of its instances (docs/abi.md 5.3,
 * 5.4): it has no fd, so bpf_map__fd() and the bpf_map__*_elem() calls fail
 * with EOPNOTSUPP (libbpf warns once per key) instead of handing out a
 * placeholder fd that no update would ever reach.
 */
static void expect_no_fd(const char *what, int got)
{
	int err = errno;

	expect_err(what, got, -EOPNOTSUPP);
	if (got < 0 && err != EOPNOTSUPP) {
		printf("FAIL: %s: errno %s, expected EOPNOTSUPP\n", what, errname(err));
		failures++;
	}
}

int main(void)
{
	__u32 zero = 0, val = 0;
	struct e2e *skel;

	require_static_keys_kernel();
	libbpf_set_print(e2e_libbpf_print);
	skel = e2e__open();
	if (!skel) {
		printf("FAIL: e2e__open: %s\n", strerror(errno));
		return 1;
	}
	e2e_ok("key_b off before load", bpf_object__set_static_key(skel->obj, "key_b", false));
	expect_no_fd("bpf_map__fd(key_b) before load", bpf_map__fd(skel->maps.key_b));
	if (e2e__load(skel)) {
		printf("FAIL: e2e__load\n");
		return 1;
	}
	printf("skeleton loaded\n");
	e2e_expect_run(skel->progs.prog_one, 0);
	e2e_expect_run(skel->progs.prog_two, 0);
	expect_no_fd("bpf_map__fd(key_a)", bpf_map__fd(skel->maps.key_a));
	expect_no_fd("bpf_map__fd(key_a) again", bpf_map__fd(skel->maps.key_a));
	expect_no_fd("bpf_map__update_elem(key_a)",
		     bpf_map__update_elem(skel->maps.key_a, &zero, sizeof(zero), &val,
					  sizeof(val), 0));
	expect_no_fd("bpf_object__find_map_fd_by_name(key_b)",
		     bpf_object__find_map_fd_by_name(skel->obj, "key_b"));
	e2e_ok("key_a on", bpf_object__set_static_key(skel->obj, "key_a", true));
	printf("key_a on\n");
	e2e_expect_run(skel->progs.prog_one, 5);
	e2e_expect_run(skel->progs.prog_two, 24);
	e2e__destroy(skel);
	return finish();
}
