// A static key switches a program's result off/on/off/on with
// BPF_STATIC_KEY_UPDATE, with no reload. Uses only the static libbpf of the
// patched tree: bpf_map_create() with map_extra, bpf_prog_load() with
// fd_array_cnt, bpf_static_key_update(), bpf_prog_test_run_opts().
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"
#include <bpf/bpf.h>

static __u32 run(int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, topts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = 1);

	if (bpf_prog_test_run_opts(prog_fd, &topts)) {
		printf("FAIL: bpf_prog_test_run_opts: %s\n", strerror(errno));
		exit(1);
	}
	return topts.retval;
}

int main(void)
{
	/* return key ? 2 : 1 */
	struct bpf_insn prog[] = {
		/* 0 */ MOV64_IMM(BPF_REG_0, 1),
		/* 1 */ GOTOL_OR_NOP(1),
		/* 2 */ EXIT(),
		/* 3 */ MOV64_IMM(BPF_REG_0, 2),
		/* 4 */ EXIT(),
	};
	LIBBPF_OPTS(bpf_map_create_opts, mopts, .map_extra = BPF_F_STATIC_KEY);
	LIBBPF_OPTS(bpf_prog_load_opts, popts);
	__u32 key = 0, site = 1;
	int map_fd, prog_fd, i;

	require_static_keys_kernel();

	map_fd = bpf_map_create(BPF_MAP_TYPE_INSN_SET, "debug_key", 4, 4, 1, &mopts);
	if (map_fd < 0 || bpf_map_update_elem(map_fd, &key, &site, BPF_ANY) ||
	    bpf_map_freeze(map_fd)) {
		printf("FAIL: key setup: %s\n", strerror(errno));
		return 1;
	}
	popts.fd_array = &map_fd;
	popts.fd_array_cnt = 1;
	prog_fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "switch", "GPL", prog,
				ARRAY_SIZE(prog), &popts);
	if (prog_fd < 0) {
		printf("FAIL: bpf_prog_load: %s\n", strerror(errno));
		return 1;
	}

	// CHECK: loaded (key off): 1
	// CHECK-NEXT: on: 2
	// CHECK-NEXT: off: 1
	// CHECK-NEXT: on: 2
	// CHECK-NEXT: on again: 2
	// CHECK-NEXT: off: 1
	printf("loaded (key off): %u\n", run(prog_fd));
	const int states[] = { 1, 0, 1, 1, 0 };
	for (i = 0; i < (int)ARRAY_SIZE(states); i++) {
		if (bpf_static_key_update(map_fd, states[i])) {
			printf("FAIL: bpf_static_key_update: %s\n", strerror(errno));
			return 1;
		}
		printf("%s: %u\n", i == 3 ? "on again" : states[i] ? "on" : "off", run(prog_fd));
	}
	if (run(prog_fd) != 1)
		failures++;
	close(prog_fd);
	close(map_fd);
	// CHECK: PASSED
	return finish();
}
