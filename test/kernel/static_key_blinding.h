/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the constant-blinding tests share (static_key_blinding.c,
 * static_key_blinding_harden1.c): sysctls, the two-key program both load,
 * and the flip of one key checked against the dump and image before it.
 */
#ifndef STATIC_KEY_BLINDING_H
#define STATIC_KEY_BLINDING_H

#include "bpfsk_test.h"

#define REG_AX 11	/* BPF_REG_AX: the kernel's blinding register */
#define MAX_INSNS 256
#define MAX_IMAGE 8192

static void must_harden(const char *v)
{
	must_sysctl("bpf_jit_harden", "/proc/sys/net/core/bpf_jit_harden", v);
}

static bool is_static_branch(const struct bpf_insn *insn)
{
	return (insn->code == (BPF_JMP | BPF_JA) || insn->code == (BPF_JMP32 | BPF_JA)) &&
	       (insn->src_reg & BPF_STATIC_BRANCH_JA);
}

/* xlated_off of entry @key of INSN_ARRAY map @map (a static key or not) */
static __u32 lookup(int map, __u32 key)
{
	return xlated_off_of(map, key);
}

static void check(bool ok, const char *what)
{
	printf("%s: %s\n", what, ok ? "OK" : "FAIL");
	if (!ok)
		failures++;
}

static unsigned char img0[MAX_IMAGE], img[MAX_IMAGE];

static __u32 jited_len(int fd)
{
	return prog_jited(fd, img, sizeof(img));
}

/* r0 = 1 + (A ? 10 : 0) + (B ? 100 : 0); every mov/add has a constant */
static const struct bpf_insn prog1[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ MOV64_IMM(BPF_REG_1, 0x1234),
	/* 2 */ GOTO_OR_NOP(1),			/* key A: jumps while on */
	/* 3 */ JA(1),
	/* 4 */ ADD64_IMM(BPF_REG_0, 10),
	/* 5 */ ADD64_IMM(BPF_REG_1, 0x55),
	/* 6 */ NOP_OR_GOTOL(1),		/* key B: jumps while off */
	/* 7 */ ADD64_IMM(BPF_REG_0, 100),
	/* 8 */ EXIT(),
};

static struct bpf_insn dump0[MAX_INSNS], dump[MAX_INSNS];

/* Flip @key; check the result, the dump and the image against before. */
static void flip1(int prog_fd, int key, __u32 site, bool on,
		  const char *what, __u32 want)
{
	__u32 n0, n, len0, len, i, diff = 0, first = 0, last = 0, r0;
	int err;

	n0 = prog_xlated(prog_fd, dump0, MAX_INSNS);
	len0 = prog_jited(prog_fd, img0, sizeof(img0));
	err = static_key_update(key, on);
	n = prog_xlated(prog_fd, dump, MAX_INSNS);
	len = prog_jited(prog_fd, img, sizeof(img));
	r0 = prog_run(prog_fd);
	printf("%s: %s, result %u\n", what, errname(err), r0);
	if (err || r0 != want)
		failures++;

	/*
	 * the xlated program is as it was (the NOP bit is the polarity, never
	 * rewritten); the key's map_extra has the new state
	 */
	check(n == n0 && !memcmp(dump, dump0, n * sizeof(*dump)) &&
	      is_static_branch(&dump[site]) && static_key_state(key) == on,
	      "  xlated: unchanged, map_extra: the new state");
	for (i = 0; len == len0 && i < len; i++) {
		if (img[i] == img0[i])
			continue;
		if (!diff++)
			first = i;
		last = i;
	}
	check(len == len0 && diff && last - first < 5,
	      "  jited: only the site's bytes changed");
}

#endif /* STATIC_KEY_BLINDING_H */
