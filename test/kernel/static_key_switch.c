// SPDX-License-Identifier: GPL-2.0
// A static key switches a program's result off/on/off/on with
// BPF_STATIC_KEY_UPDATE, with no reload, and map_extra reports each state.
// Uses only the static libbpf of the patched tree: bpf_map_create() of an
// INSN_ARRAY with map_extra, bpf_prog_load() with fd_array_cnt,
// bpf_static_key_update() with and without its opts,
// bpf_map_get_info_by_fd(), bpf_prog_test_run_opts().
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
	LIBBPF_OPTS(bpf_static_key_update_opts, uopts);
	struct bpf_insn_array_value site = { .orig_off = 1 };
	struct bpf_map_info info;
	__u32 key = 0, len;
	int map_fd, prog_fd, i;

	require_static_keys_kernel();

	map_fd = bpf_map_create(BPF_MAP_TYPE_INSN_ARRAY, "debug_key", 4, sizeof(site), 1, &mopts);
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
	// CHECK-NEXT: on: 2, map_extra 0x3
	// CHECK-NEXT: off: 1, map_extra 0x1
	// CHECK-NEXT: on: 2, map_extra 0x3
	// CHECK-NEXT: on again: 2, map_extra 0x3
	// CHECK-NEXT: off: 1, map_extra 0x1
	printf("loaded (key off): %u\n", run(prog_fd));
	const int states[] = { 1, 0, 1, 1, 0 };
	for (i = 0; i < (int)ARRAY_SIZE(states); i++) {
		/* every other call with opts, the others with NULL */
		if (bpf_static_key_update(map_fd, states[i], i & 1 ? &uopts : NULL)) {
			printf("FAIL: bpf_static_key_update: %s\n", strerror(errno));
			return 1;
		}
		len = sizeof(info);
		memset(&info, 0, sizeof(info));
		if (bpf_map_get_info_by_fd(map_fd, &info, &len)) {
			printf("FAIL: bpf_map_get_info_by_fd: %s\n", strerror(errno));
			return 1;
		}
		printf("%s: %u, map_extra %#llx\n", i == 3 ? "on again" : states[i] ? "on" : "off",
		       run(prog_fd), (unsigned long long)info.map_extra);
		if (info.map_extra != (BPF_F_STATIC_KEY | (states[i] ? BPF_F_STATIC_KEY_ON : 0)))
			failures++;
	}
	if (run(prog_fd) != 1)
		failures++;
	/* opts with a non-zero byte past what this libbpf knows: refused */
	{
		struct {
			struct bpf_static_key_update_opts o;
			long more;
		} big = { .o.sz = sizeof(big), .more = 1 };

		// CHECK-NEXT: libbpf: bpf_static_key_update_opts has non-zero extra bytes
		// CHECK-NEXT: opts with unknown non-zero fields: EINVAL, result 1
		i = bpf_static_key_update(map_fd, 1, &big.o);
		printf("opts with unknown non-zero fields: %s, result %u\n", errname(i), run(prog_fd));
		if (i != -EINVAL || run(prog_fd) != 1)
			failures++;
	}
	close(prog_fd);
	close(map_fd);
	// CHECK: PASSED
	return finish();
}
