/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Kernel ABI for BPF static keys, as added to include/uapi/linux/bpf.h by
 * kernel-patches/. Kept standalone so that BPF programs and user-space tools
 * can be built against a stock <linux/bpf.h>; every value here must equal the
 * patched kernel's (test/abi checks it against the patched tree).
 */
#ifndef _UAPI_LINUX_BPF_STATIC_KEYS_H
#define _UAPI_LINUX_BPF_STATIC_KEYS_H

#include <linux/types.h>

/*
 * enum bpf_map_type. Provisional until upstream assigns a value: the first
 * one after upstream's last (34 BPF_MAP_TYPE_INSN_ARRAY, 35
 * BPF_MAP_TYPE_RHASH), so that no upstream map type is misread.
 */
#define BPF_MAP_TYPE_INSN_SET 36

/*
 * enum bpf_cmd. Provisional until upstream assigns a value: the first one
 * after upstream's last (37 BPF_PROG_STREAM_READ_BY_FD, 38
 * BPF_PROG_ASSOC_STRUCT_OPS).
 */
#define BPF_STATIC_KEY_UPDATE 39

/*
 * map_extra flags of a BPF_MAP_TYPE_INSN_SET map.
 * BPF_F_STATIC_KEY: the map is a static key; every entry must point at a
 *   static branch (JA with BPF_STATIC_BRANCH_JA in src_reg).
 * BPF_F_STATIC_KEY_ON: the key is on right after the program is loaded
 *   (DEFINE_STATIC_KEY_TRUE); without it the key starts off.
 */
#define BPF_F_STATIC_KEY	(1ULL << 0)
#define BPF_F_STATIC_KEY_ON	(1ULL << 1)

/*
 * src_reg flags of BPF_JMP|BPF_JA (goto_or_nop / nop_or_goto, 16-bit off) and
 * BPF_JMP32|BPF_JA (gotol_or_nop / nop_or_gotol, 32-bit imm).
 * JA alone     = "goto_or_nop": jumps while its key is on, falls through while off.
 * JA | NOP     = "nop_or_goto": falls through while its key is on, jumps while off.
 */
#define BPF_STATIC_BRANCH_JA	(1 << 0)
#define BPF_STATIC_BRANCH_NOP	(1 << 1)
#define BPF_STATIC_BRANCH_MASK	(BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP)

/* union bpf_attr member for BPF_STATIC_KEY_UPDATE ("static_key"). */
struct bpf_static_key_update_attr {
	__u32 map_fd;	/* a BPF_F_STATIC_KEY insn-set map bound to a program; 0 with map_fd_cnt */
	__u32 on;	/* 0 or 1; other bits are -EINVAL */
	__aligned_u64 map_fds;	/* map_fd_cnt __u32 fds, all set in one batch (docs/abi.md 6) */
	__u32 map_fd_cnt;	/* 0: the single map_fd form; 1..4096, <= 65536 sites in all */
	__u32 flags;		/* 0 or BPF_F_STATIC_KEY_UPDATE_PER_SITE */
};

/*
 * Most sites one BPF_STATIC_KEY_UPDATE sets: the sum of max_entries of its
 * maps; past it -E2BIG (docs/abi.md 6). The fds must be open for writing
 * (else -EPERM).
 */
#define BPF_STATIC_KEY_UPDATE_MAX_SITES	65536

/* flags: write the sites one text_poke_bp() at a time (the pre-batch path, for benchmarks) */
#define BPF_F_STATIC_KEY_UPDATE_PER_SITE	(1U << 0)

/*
 * fd_array_cnt (upstream 6.14, backported by kernel-patches/): the u32 in
 * union bpf_attr's prog-load struct right after prog_token_fd. Maps in
 * fd_array[0..fd_array_cnt) are bound to the program; this is how static-key
 * maps, which no instruction references, reach the verifier.
 */

#endif /* _UAPI_LINUX_BPF_STATIC_KEYS_H */
