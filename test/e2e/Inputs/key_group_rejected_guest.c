// SPDX-License-Identifier: GPL-2.0
// Guest side of key-group-loader-rejects-unrecorded-reference.test: loads
// /files/unrecorded.o, which must fail with -EINVAL before anything is
// loaded: no program and no map of the object is left in the kernel.
#include "../e2e_loader.h"

static int count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (!next(id, &id))
		n++;
	return n;
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/unrecorded.o");
	int err = bpf_object__load(obj);

	printf("load: %s\n", errname(err));
	if (err != -EINVAL) {
		printf("FAIL: expected EINVAL\n");
		failures++;
	}
	bpf_object__close(obj);
	printf("left in the kernel: %d program(s), %d map(s)\n",
	       count_ids(bpf_prog_get_next_id), count_ids(bpf_map_get_next_id));
	return finish();
}
