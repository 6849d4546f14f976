// SPDX-License-Identifier: GPL-2.0
// One BPF_STATIC_KEY_UPDATE sets at most 65,536 sites in total (the sum of
// the max_entries of its maps, docs/abi.md section 6): 16 programs with a
// key instance of 4,096 sites each (the largest instance) flip in one call,
// batched and site by site; the same 16 plus a one-site key, or plus the
// key of a second full program, get E2BIG and nothing changes (every
// program still returns the old state, every xlated site shows it).
//
// RUN: env BPFSK_QEMU_TIMEOUT=300 %qemu-run %s | FileCheck %s
#include "static_key_batch.h"
#include <stddef.h>

#define PROGS	16
#define SITES	4096		/* most entries of a static key */
#define MAXINSNS (2 * SITES + 8)

static int keys[PROGS + 2], progs[PROGS + 2], sites[PROGS + 2];
static __u32 offs[SITES];
static struct bpf_insn insns[MAXINSNS], xlated[MAXINSNS];

/*
 * r2 = skb->len; r0 = 1; @n x { goto_or_nop +1; r2 += 1 } where the last
 * site skips "ja +1" instead; r0 = 2; exit. Every site is a goto_or_nop
 * (jumps while the key is on): the program returns 2 when the last site
 * jumps, 1 when it does not. r2 is not tracked precisely, so the verifier
 * prunes at each join.
 */
static void load(int id, int n)
{
	int len = 0, s;

	insns[len++] = INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1,
			    offsetof(struct __sk_buff, len), 0);
	insns[len++] = MOV64_IMM(BPF_REG_0, 1);
	for (s = 0; s < n; s++) {
		offs[s] = len;
		insns[len++] = GOTO_OR_NOP(1);
		insns[len++] = s == n - 1 ? JA(1) : ADD64_IMM(BPF_REG_2, 1);
	}
	insns[len++] = MOV64_IMM(BPF_REG_0, 2);
	insns[len++] = EXIT();
	keys[id] = static_key_create(BPF_F_STATIC_KEY, offs, n, true);
	progs[id] = prog_load_log(insns, len, &keys[id], 1, 0);
	sites[id] = n;
	if (progs[id] < 0) {
		printf("FAIL: load program %d (%d sites): %s\n", id, n, errname(progs[id]));
		exit(1);
	}
}

/*
 * programs [0, @cnt) behave as key state @on, their keys' map_extra says
 * it, and every xlated site is as loaded (goto_or_nop: the NOP bit is the
 * polarity, never the state)
 */
static void check(const char *what, int cnt, int on)
{
	int p, s, bad_runs = 0, bad_sites = 0, bad_states = 0;

	for (p = 0; p < cnt; p++) {
		__u32 n = prog_xlated(progs[p], xlated, MAXINSNS);

		if (prog_run(progs[p]) != (on ? 2u : 1u))
			bad_runs++;
		if (static_key_state(keys[p]) != on)
			bad_states++;
		for (s = 0; s < sites[p]; s++) {
			__u32 off = 2 + 2 * s;

			if (off >= n || xlated[off].src_reg != BPF_STATIC_BRANCH_JA)
				bad_sites++;
		}
	}
	printf("%s: %d programs, %d wrong runs, %d wrong xlated sites, %d wrong key states\n",
	       what, cnt, bad_runs, bad_sites, bad_states);
	if (bad_runs || bad_sites || bad_states)
		failures++;
}

int main(void)
{
	int p, fds[PROGS + 1];

	require_static_keys_kernel();
	for (p = 0; p < PROGS + 1; p++)
		load(p, SITES);
	load(PROGS + 1, 1);
	// CHECK: loaded: 18 programs
	printf("loaded: %d programs\n", PROGS + 2);

	/* over the limit by one site: the 16 full keys and the one-site key */
	for (p = 0; p < PROGS; p++)
		fds[p] = keys[p];
	fds[PROGS] = keys[PROGS + 1];
	// CHECK-NEXT: 65,537 sites: E2BIG
	expect_err("65,537 sites", keys_update(fds, PROGS + 1, 1, 0), -E2BIG);
	// CHECK-NEXT: 65,537 sites, per site: E2BIG
	expect_err("65,537 sites, per site",
		   keys_update(fds, PROGS + 1, 1, TEST_STATIC_KEY_UPDATE_PER_SITE), -E2BIG);
	// CHECK-NEXT: 69,632 sites: E2BIG
	expect_err("69,632 sites", keys_update(keys, PROGS + 1, 1, 0), -E2BIG);
	// CHECK-NEXT: after E2BIG: 18 programs, 0 wrong runs, 0 wrong xlated sites, 0 wrong key states
	check("after E2BIG", PROGS + 2, 0);

	/* at the limit */
	// CHECK-NEXT: 65,536 sites on: OK
	expect_err("65,536 sites on", keys_update(keys, PROGS, 1, 0), 0);
	// CHECK-NEXT: on: 16 programs, 0 wrong runs, 0 wrong xlated sites, 0 wrong key states
	check("on", PROGS, 1);
	// CHECK-NEXT: others: 2 programs, 0 wrong runs, 0 wrong xlated sites, 0 wrong key states
	{
		int saved[2] = { progs[0], progs[1] }, saved_sites[2] = { sites[0], sites[1] };
		int saved_keys[2] = { keys[0], keys[1] };

		progs[0] = progs[PROGS];
		progs[1] = progs[PROGS + 1];
		keys[0] = keys[PROGS];
		keys[1] = keys[PROGS + 1];
		sites[0] = sites[PROGS];
		sites[1] = sites[PROGS + 1];
		check("others", 2, 0);
		progs[0] = saved[0];
		progs[1] = saved[1];
		keys[0] = saved_keys[0];
		keys[1] = saved_keys[1];
		sites[0] = saved_sites[0];
		sites[1] = saved_sites[1];
	}
	// CHECK-NEXT: 65,536 sites off, per site: OK
	expect_err("65,536 sites off, per site",
		   keys_update(keys, PROGS, 0, TEST_STATIC_KEY_UPDATE_PER_SITE), 0);
	// CHECK-NEXT: off: 18 programs, 0 wrong runs, 0 wrong xlated sites, 0 wrong key states
	check("off", PROGS + 2, 0);
	// CHECK: PASSED
	return finish();
}
