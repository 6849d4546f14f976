/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the static_key_batch_*.c tests: programs with four sites of one
 * key (2-byte and 5-byte, both polarities), one key instance each, and
 * BPF_STATIC_KEY_UPDATE on several instances at once (map_fds, map_fd_cnt,
 * flags: docs/abi.md section 6).
 */
#ifndef STATIC_KEY_BATCH_H
#define STATIC_KEY_BATCH_H

#include "bpfsk_test.h"

/*
 * r0 = 16 * @id + the bits of the sites that do not jump:
 *   site A (insn 2) goto_or_nop,  2 bytes: bit 0 added while the key is off
 *   site B (insn 4) nop_or_goto,  2 bytes: bit 1 added while the key is on
 *   site C (insn 6) gotol_or_nop, 5 bytes: bit 2 added while off
 *   site D (insn 48) nop_or_gotol, 5 bytes: bit 3 added while on
 * C and D jump over 41 instructions (more than 127 bytes of x86), so the
 * JIT emits them as jmp rel32 / nop5; A and B as jmp rel8 / nop2.
 * Key off: 16 * id + 5; key on: 16 * id + 10; any other low nibble is a run
 * that saw some sites flipped and others not.
 */
/*
 * flags bit of BPF_STATIC_KEY_UPDATE that selects the one-text-poke-per-site
 * path: not uapi, accepted only by a kernel built with
 * CONFIG_BPF_STATIC_KEY_DEBUG (the test config has it), EINVAL otherwise.
 */
#define TEST_STATIC_KEY_UPDATE_PER_SITE	(1U << 31)

#define BATCH_INSNS	91
#define BATCH_OFF	5
#define BATCH_ON	10
static const __u32 batch_sites[] = { 2, 4, 6, 48 };

static inline void batch_prog(struct bpf_insn *p, int id)
{
	int i, n = 0;

	p[n++] = MOV64_IMM(BPF_REG_0, 16 * id);
	p[n++] = MOV64_IMM(BPF_REG_2, 0);
	p[n++] = GOTO_OR_NOP(1);		/* 2 */
	p[n++] = ADD64_IMM(BPF_REG_0, 1);
	p[n++] = NOP_OR_GOTO(1);		/* 4 */
	p[n++] = ADD64_IMM(BPF_REG_0, 2);
	p[n++] = GOTOL_OR_NOP(41);		/* 6 */
	p[n++] = ADD64_IMM(BPF_REG_0, 4);
	for (i = 0; i < 40; i++)
		p[n++] = ADD64_IMM(BPF_REG_2, 1);
	p[n++] = NOP_OR_GOTOL(41);		/* 48 */
	p[n++] = ADD64_IMM(BPF_REG_0, 8);
	for (i = 0; i < 40; i++)
		p[n++] = ADD64_IMM(BPF_REG_2, 1);
	p[n++] = EXIT();			/* 90 */
	if (n != BATCH_INSNS) {
		printf("FAIL: batch_prog has %d instructions\n", n);
		exit(1);
	}
}

/* A key instance (off at load) and the program @id bound to it. */
static inline void batch_load(int id, int *key_fd, int *prog_fd)
{
	struct bpf_insn p[BATCH_INSNS];

	batch_prog(p, id);
	*key_fd = static_key_create(BPF_F_STATIC_KEY, batch_sites, ARRAY_SIZE(batch_sites), true);
	*prog_fd = prog_load(p, BATCH_INSNS, key_fd, 1);
	if (*prog_fd < 0) {
		printf("FAIL: load program %d: %s\n%s\n", id, errname(*prog_fd), verifier_log);
		exit(1);
	}
}

/* BPF_STATIC_KEY_UPDATE with every field given; returns 0 or -errno. */
static inline int keys_update_raw(__u32 map_fd, __u32 on, const void *map_fds, __u32 cnt,
				  __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.static_key.map_fd = map_fd;
	attr.static_key.on = on;
	attr.static_key.map_fds = (__u64)(unsigned long)map_fds;
	attr.static_key.map_fd_cnt = cnt;
	attr.static_key.flags = flags;
	return sys_bpf(BPF_STATIC_KEY_UPDATE, &attr) ? -errno : 0;
}

static inline int keys_update(const int *fds, __u32 cnt, __u32 on, __u32 flags)
{
	return keys_update_raw(0, on, fds, cnt, flags);
}

/*
 * A key bound to program @id's code whose program was loaded and closed
 * again: the kernel frees the program after an RCU grace period and a work
 * item, so this waits (up to 2 s) until updating the key alone fails, and
 * returns that error in *err. Dies if the load fails.
 */
static inline int batch_key_of_freed_program(int id, int *err)
{
	struct bpf_insn p[BATCH_INSNS];
	int key, prog, i;

	batch_prog(p, id);
	key = static_key_create(BPF_F_STATIC_KEY, batch_sites, ARRAY_SIZE(batch_sites), true);
	prog = prog_load(p, BATCH_INSNS, &key, 1);
	if (prog < 0) {
		printf("FAIL: load: %s\n", errname(prog));
		exit(1);
	}
	close(prog);
	for (i = 0; i < 100; i++) {
		*err = keys_update(&key, 1, 1, 0);
		if (*err)
			break;
		usleep(20 * 1000);
	}
	return key;
}

/*
 * The xlated dump of batch_prog @prog_fd: how many of its four sites do not
 * show the instruction as loaded (A and C goto_or_nop, B and D nop_or_goto).
 * The NOP bit is the polarity, whatever the key's state (docs/abi.md
 * section 4): the kernel never rewrites it.
 */
static inline int batch_xlated_changed(int prog_fd)
{
	struct bpf_insn p[BATCH_INSNS], x[BATCH_INSNS + 16];
	__u32 n = prog_xlated(prog_fd, x, ARRAY_SIZE(x));
	int i, changed = 0;

	batch_prog(p, 0);
	for (i = 0; i < (int)ARRAY_SIZE(batch_sites); i++) {
		__u32 s = batch_sites[i];

		if (s >= n || x[s].code != p[s].code || x[s].src_reg != p[s].src_reg ||
		    x[s].off != p[s].off || x[s].imm != p[s].imm)
			changed++;
	}
	return changed;
}

/*
 * After a failed update: every program @progs[i] (batch_prog(i), its key
 * @keys[i] in state @state[i]) still returns its old result, its key's
 * map_extra still says that state, its xlated sites are as loaded, and its
 * jited image is byte for byte @jit[i] (@jit_len[i] bytes, taken before the
 * call). Prints and counts what differs.
 */
#define BATCH_JIT_MAX 4096

/* The jited images of @progs[0..n) into @jit/@jit_len: what batch_unchanged() compares with. */
static inline void batch_snapshot(const int *progs, int n, unsigned char (*jit)[BATCH_JIT_MAX],
				  __u32 *jit_len)
{
	int i;

	for (i = 0; i < n; i++)
		jit_len[i] = prog_jited(progs[i], jit[i], BATCH_JIT_MAX);
}

static inline int batch_unchanged(const char *what, const int *keys, const int *progs,
				  const int *state, int n, unsigned char (*jit)[BATCH_JIT_MAX],
				  const __u32 *jit_len)
{
	static unsigned char now[BATCH_JIT_MAX];
	int i, bad = 0;

	for (i = 0; i < n; i++) {
		__u32 got = prog_run(progs[i]), want = 16 * i + (state[i] ? BATCH_ON : BATCH_OFF);
		__u32 len = prog_jited(progs[i], now, sizeof(now));

		if (got != want) {
			printf("FAIL: %s: program %d returns %u, want %u\n", what, i, got, want);
			bad++;
		}
		if (static_key_state(keys[i]) != !!state[i]) {
			printf("FAIL: %s: key %d: map_extra does not say state %d\n", what, i,
			       state[i]);
			bad++;
		}
		if (batch_xlated_changed(progs[i])) {
			printf("FAIL: %s: program %d: xlated sites not as loaded\n", what, i);
			bad++;
		}
		if (len != jit_len[i] || memcmp(now, jit[i], len)) {
			printf("FAIL: %s: program %d: jited image changed\n", what, i);
			bad++;
		}
	}
	return bad;
}

#endif /* STATIC_KEY_BATCH_H */
