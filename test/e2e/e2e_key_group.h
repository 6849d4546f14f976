/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Guest side of the key group tests (a key flipped from BPF, docs/abi.md
 * 6.1 "Key groups"): the object of Inputs/key_group_progs.c, resolved by
 * bpfkeys (.bpfkeys version 3), loaded by the patched libbpf. debug_key is
 * tested by xdp_debug (1 off / 2 on) and tc_debug (10 off / 20 on) and
 * flipped by kprobe_anomaly (queued) and syscall_quiet (sync, to off).
 */
#ifndef E2E_KEY_GROUP_H
#define E2E_KEY_GROUP_H

#include "e2e_tracing.h"
#include "Inputs/key_group_bss.h"

/* Runs both programs that test debug_key; counts a failure unless both show @on. */
static inline void key_group_expect(struct bpf_object *obj, bool on)
{
	e2e_expect_run(e2e_prog(obj, "xdp_debug"), on ? 2 : 1);
	e2e_expect_run(e2e_prog(obj, "tc_debug"), on ? 20 : 10);
}

/* Whether both programs see debug_key on: one run each, nothing printed. */
static inline bool key_group_both_on(struct bpf_object *obj)
{
	return prog_run(bpf_program__fd(e2e_prog(obj, "xdp_debug"))) == 2 &&
	       prog_run(bpf_program__fd(e2e_prog(obj, "tc_debug"))) == 20;
}

/* BPF_PROG_TEST_RUN of a BPF_PROG_TYPE_SYSCALL program (no packet); dies on error. */
static inline void key_group_run_syscall(struct bpf_program *prog)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);
	int err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);

	if (err) {
		printf("FAIL: run %s: %s\n", bpf_program__name(prog), errname(err));
		exit(1);
	}
}

/* "map_extra 0xN, max_entries N, group id same|other as @ref_fd" of a key's fd. */
static inline void key_group_show_map(const char *what, int fd, int ref_fd)
{
	struct bpf_map_info info;
	int err = map_info_of(fd, &info);

	if (err) {
		printf("FAIL: %s: map info: %s\n", what, errname(err));
		failures++;
		return;
	}
	printf("%s: type %u, map_extra 0x%llx, max_entries %u, group %s\n", what, info.type,
	       (unsigned long long)info.map_extra, info.max_entries,
	       fdinfo_field(fd, "static_key_group_id") > 0 &&
	       fdinfo_field(fd, "static_key_group_id") == fdinfo_field(ref_fd, "static_key_group_id") ?
	       "of the anchor" : "OTHER");
}

#endif /* E2E_KEY_GROUP_H */
