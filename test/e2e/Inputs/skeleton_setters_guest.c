// SPDX-License-Identifier: GPL-2.0
// Guest side of skeleton-static-key-setters-flip.test: included after the
// skeleton that bpftool (patched tree) generated for the resolved e2e object,
// so that e2e__static_keys__set_key_a/_b() are the generated setters.
#include "../e2e_loader.h"

static const char *key_state(struct bpf_program *prog, const char *key)
{
	int state = bpf_program__static_key_state(prog, key);

	if (state < 0) {
		printf("FAIL: bpf_program__static_key_state(%s, %s): %s\n",
		       bpf_program__name(prog), key, errname(state));
		failures++;
		return "?";
	}
	return state ? "on" : "off";
}

/* Runs both programs and prints the state of both keys in each of them. */
static void show(struct e2e *skel, __u32 want_one, __u32 want_two)
{
	e2e_expect_run(skel->progs.prog_one, want_one);
	e2e_expect_run(skel->progs.prog_two, want_two);
	printf("  key_a: prog_one %s, prog_two %s\n", key_state(skel->progs.prog_one, "key_a"),
	       key_state(skel->progs.prog_two, "key_a"));
	printf("  key_b: prog_one %s, prog_two %s\n", key_state(skel->progs.prog_one, "key_b"),
	       key_state(skel->progs.prog_two, "key_b"));
}

#define SET(key, on, want_one, want_two)						\
	do {										\
		int err = e2e__static_keys__set_##key(skel, on);			\
											\
		printf("e2e__static_keys__set_" #key "(skel, " #on ") = %d\n", err);	\
		e2e_ok("e2e__static_keys__set_" #key, err);				\
		show(skel, want_one, want_two);						\
	} while (0)

int main(void)
{
	struct e2e *skel;

	require_static_keys_kernel();
	libbpf_set_print(e2e_libbpf_print);
	skel = e2e__open();
	if (!skel) {
		printf("FAIL: e2e__open: %s\n", strerror(errno));
		return 1;
	}
	/* key_b is DEFINE_STATIC_KEY_TRUE: load it off */
	e2e_ok("e2e__static_keys__set_key_b before load", e2e__static_keys__set_key_b(skel, false));
	if (e2e__load(skel)) {
		printf("FAIL: e2e__load\n");
		return 1;
	}
	printf("skeleton loaded, key_b set off before load\n");
	show(skel, 0, 0);
	SET(key_a, true, 1 | 4, 8 | 16);
	SET(key_b, true, 1 | 2 | 4, 8 | 16 | 32);
	SET(key_a, false, 2, 32);
	SET(key_b, false, 0, 0);
	e2e__destroy(skel);
	return finish();
}
