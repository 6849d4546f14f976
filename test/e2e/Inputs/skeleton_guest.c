// Guest side of skeleton-loads-and-flips.test: included after the skeleton
// that bpftool (patched tree) generated for the resolved e2e object.
#include "../e2e_loader.h"

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
	e2e_ok("key_b off before load", bpf_object__set_static_key(skel->obj, "key_b", false));
	if (e2e__load(skel)) {
		printf("FAIL: e2e__load\n");
		return 1;
	}
	printf("skeleton loaded\n");
	e2e_expect_run(skel->progs.prog_one, 0);
	e2e_expect_run(skel->progs.prog_two, 0);
	e2e_ok("key_a on", bpf_object__set_static_key(skel->obj, "key_a", true));
	printf("key_a on\n");
	e2e_expect_run(skel->progs.prog_one, 5);
	e2e_expect_run(skel->progs.prog_two, 24);
	e2e__destroy(skel);
	return finish();
}
