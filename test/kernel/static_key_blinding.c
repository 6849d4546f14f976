// SPDX-License-Identifier: GPL-2.0
// Static keys with constant blinding (net.core.bpf_jit_harden=2): the JIT
// compiles a copy of the program in which every instruction with a
// constant became a sequence through BPF_REG_AX (r11), so the static
// branches move. Keys must still flip the right sites, and the offsets of
// the instruction arrays must still point to them in the xlated program as
// BPF_OBJ_GET_INFO_BY_FD dumps it:
//
//  1. one function, two keys (16-bit goto_or_nop, 32-bit nop_or_gotol) and
//     a plain insn array: blinding really happened (the dump uses r11, it is
//     longer and the image larger than with harden=0), the offsets moved to
//     the sites in the blinded dump, every key state gives the right result,
//     a flip leaves the dump as it was (the NOP bit is the polarity) and
//     sets the state in the key's map_extra, and changes only the site's
//     bytes in the image;
//  2. three functions (main -> sub -> sub2), a key in each and one with a
//     site in each: each function is blinded on its own, the dump is the
//     one before blinding, and the key entries' xlated_off follow
//     upstream's INSN_ARRAY rule (offsets into the blinded functions one
//     after the other); every flip gives the right result;
//  3. a flip while another CPU runs the program: every run gives one of the
//     two results, and every run started after a flip returned sees it.
//
// On a kernel that refuses static keys with blinding the first load fails.
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single %qemu-run %s | FileCheck %s
#define _GNU_SOURCE /* CPU affinity */
#include "static_key_blinding.h"
#include <pthread.h>
#include <sched.h>
#include <sys/sysinfo.h>

static int load_or_die(const char *what, const struct bpf_insn *insns, __u32 cnt,
		       const int *fds, __u32 fd_cnt)
{
	int fd = prog_load(insns, cnt, fds, fd_cnt);

	printf("%s: %s\n", what, errname(fd < 0 ? fd : 0));
	if (fd < 0) {
		printf("FAIL: %s: %s\n%s", what, errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* ---------------------------------------------------------------- part 1 */

static void part1(void)
{
	__u32 n, i, ax = 0, sites[2], nsites = 0, plain_len, blind_len;
	int maps[3], fd, plain;

	// CHECK-LABEL: one function
	printf("one function\n");
	must_harden("0");
	maps[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	maps[1] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 6 }, 1, true);
	maps[2] = insn_array_create((__u32[]){ 7, 8 }, 2, true);
	plain = load_or_die("load at harden=0", prog1, ARRAY_SIZE(prog1), maps, 3);
	plain_len = jited_len(plain);
	n = prog_xlated(plain, dump, MAX_INSNS);
	printf("  %u xlated insns\n", n);
	for (i = 0; i < 3; i++)
		close(maps[i]);

	// CHECK: bpf_jit_harden=2: OK
	must_harden("2");
	maps[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	maps[1] = static_key_create(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON, (__u32[]){ 6 }, 1, true);
	maps[2] = insn_array_create((__u32[]){ 7, 8 }, 2, true);
	// CHECK-NEXT: load at harden=2: OK
	fd = load_or_die("load at harden=2", prog1, ARRAY_SIZE(prog1), maps, 3);

	/* blinding happened: r11 in the dump, longer dump, larger image */
	n = prog_xlated(fd, dump, MAX_INSNS);
	for (i = 0; i < n; i++) {
		if (dump[i].dst_reg == REG_AX || dump[i].src_reg == REG_AX)
			ax++;
		if (is_static_branch(&dump[i]) && nsites < 2)
			sites[nsites++] = i;
	}
	blind_len = jited_len(fd);
	// CHECK-NEXT: 19 xlated insns, 15 use r11, 2 static branches
	printf("  %u xlated insns, %u use r11, %u static branches\n", n, ax, nsites);
	// CHECK-NEXT: jited image larger than at harden=0: OK
	check(blind_len > plain_len, "  jited image larger than at harden=0");
	if (!ax || nsites != 2) {
		printf("FAIL: no blinding or sites lost\n");
		exit(1);
	}

	/* the offsets point to the sites of the blinded program */
	// CHECK-NEXT: key A: 2 -> 6, key B: 6 -> 14, insn array: 7 -> 15, 8 -> 18
	printf("  key A: 2 -> %u, key B: 6 -> %u, insn array: 7 -> %u, 8 -> %u\n",
	       lookup(maps[0], 0), lookup(maps[1], 0), lookup(maps[2], 0), lookup(maps[2], 1));
	// CHECK-NEXT: key offsets are the static branches of the dump: OK
	check(lookup(maps[0], 0) == sites[0] && lookup(maps[1], 0) == sites[1] &&
	      dump[sites[0]].code == (BPF_JMP | BPF_JA) &&
	      dump[sites[1]].code == (BPF_JMP32 | BPF_JA),
	      "  key offsets are the static branches of the dump");
	/* 7: r0 += 100 became r11 = rnd ^ 100; r11 ^= rnd; r0 += r11 */
	i = lookup(maps[2], 0);
	// CHECK-NEXT: insn array offsets: the blinded r0 += 100 and the exit: OK
	check(i + 2 < n && dump[i].dst_reg == REG_AX &&
	      dump[i + 2].code == (BPF_ALU64 | BPF_ADD | BPF_X) &&
	      dump[i + 2].dst_reg == BPF_REG_0 && dump[i + 2].src_reg == REG_AX &&
	      lookup(maps[2], 1) == i + 3 && dump[i + 3].code == (BPF_JMP | BPF_EXIT),
	      "  insn array offsets: the blinded r0 += 100 and the exit");

	// CHECK-NEXT: A off, B on: 101
	printf("  A off, B on: %u\n", prog_run(fd));
	if (prog_run(fd) != 101)
		failures++;
	// CHECK-NEXT: A on: OK, result 111
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flip1(fd, maps[0], sites[0], 1, "  A on", 111);
	// CHECK-NEXT: B off: OK, result 11
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flip1(fd, maps[1], sites[1], 0, "  B off", 11);
	// CHECK-NEXT: A off: OK, result 1
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flip1(fd, maps[0], sites[0], 0, "  A off", 1);
	// CHECK-NEXT: B on: OK, result 101
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flip1(fd, maps[1], sites[1], 1, "  B on", 101);

	close(fd);
	close(plain);
	for (i = 0; i < 3; i++)
		close(maps[i]);
}

/* ---------------------------------------------------------------- part 2 */

/* main: r0 = sub() + (A ? 10 : 0); sub: r0 = sub2() + (B ? 100 : 0);
 * sub2: r0 = C ? 2 : 1. Each function blinds constants before its site.
 */
static const struct bpf_insn prog2[] = {
	/*  0 */ MOV64_IMM(BPF_REG_6, 0x777),
	/*  1 */ CALL_SUB(4),			/* sub */
	/*  2 */ GOTOL_OR_NOP(1),		/* A */
	/*  3 */ EXIT(),
	/*  4 */ ADD64_IMM(BPF_REG_0, 10),
	/*  5 */ EXIT(),
	/*  6 */ MOV64_IMM(BPF_REG_2, 0x4242),	/* sub */
	/*  7 */ CALL_SUB(4),			/* sub2 */
	/*  8 */ GOTOL_OR_NOP(1),		/* B */
	/*  9 */ EXIT(),
	/* 10 */ ADD64_IMM(BPF_REG_0, 100),
	/* 11 */ EXIT(),
	/* 12 */ MOV64_IMM(BPF_REG_0, 1),	/* sub2 */
	/* 13 */ MOV64_IMM(BPF_REG_3, 0x999),
	/* 14 */ GOTOL_OR_NOP(1),		/* C */
	/* 15 */ EXIT(),
	/* 16 */ MOV64_IMM(BPF_REG_0, 2),
	/* 17 */ EXIT(),
};

static void set2(int fd, int key, __u32 site, int on, const char *what, __u32 want)
{
	int err = static_key_update(key, on);
	__u32 r0 = prog_run(fd);

	int state = static_key_state(key);

	/* the dump keeps the polarity as loaded; the state is in map_extra */
	prog_xlated(fd, dump, MAX_INSNS);
	printf("  %s: %s, result %u, xlated %s, state %s\n", what, errname(err), r0,
	       dump[site].src_reg & BPF_STATIC_BRANCH_NOP ? "nop_or_gotol" : "gotol_or_nop",
	       state ? "on" : "off");
	if (err || r0 != want || (dump[site].src_reg & BPF_STATIC_BRANCH_NOP) || state != on)
		failures++;
}

static void part2(void)
{
	__u32 plain_len, blind_len, n, i, ax = 0;
	int keys[3], plain, fd, d;

	// CHECK-LABEL: three functions
	printf("three functions\n");
	must_harden("0");
	d = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2, 8, 14 }, 3, true);
	plain = load_or_die("load at harden=0", prog2, ARRAY_SIZE(prog2), &d, 1);
	plain_len = jited_len(plain);
	close(plain);
	close(d);

	// CHECK: bpf_jit_harden=2: OK
	must_harden("2");
	keys[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	keys[1] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 8 }, 1, true);
	keys[2] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 14 }, 1, true);
	// CHECK-NEXT: load at harden=2: OK
	fd = load_or_die("load at harden=2", prog2, ARRAY_SIZE(prog2), keys, 3);
	blind_len = jited_len(fd);
	// CHECK-NEXT: jited images larger than at harden=0: OK
	check(blind_len > plain_len, "  jited images larger than at harden=0");
	n = prog_xlated(fd, dump, MAX_INSNS);
	for (i = 0; i < n; i++)
		if (dump[i].dst_reg == REG_AX || dump[i].src_reg == REG_AX)
			ax++;
	/* only the functions' copies are blinded */
	/*
	 * the entries follow upstream's INSN_ARRAY rule: offsets into the
	 * blinded functions laid one after the other (main grows by 2 + 2
	 * insns before its end, sub by 2 + 2, sub2 by 2 + 2 before C)
	 */
	// CHECK-NEXT: 18 xlated insns, 0 use r11; A at 4, B at 14, C at 26
	printf("  %u xlated insns, %u use r11; A at %u, B at %u, C at %u\n", n, ax,
	       lookup(keys[0], 0), lookup(keys[1], 0), lookup(keys[2], 0));
	// CHECK-NEXT: all off: 1
	printf("  all off: %u\n", prog_run(fd));
	if (prog_run(fd) != 1)
		failures++;
	// CHECK-NEXT: C on (sub2): OK, result 2, xlated gotol_or_nop, state on
	set2(fd, keys[2], 14, 1, "C on (sub2)", 2);
	// CHECK-NEXT: B on (sub): OK, result 102, xlated gotol_or_nop, state on
	set2(fd, keys[1], 8, 1, "B on (sub)", 102);
	// CHECK-NEXT: A on (main): OK, result 112, xlated gotol_or_nop, state on
	set2(fd, keys[0], 2, 1, "A on (main)", 112);
	// CHECK-NEXT: C off (sub2): OK, result 111, xlated gotol_or_nop, state off
	set2(fd, keys[2], 14, 0, "C off (sub2)", 111);
	// CHECK-NEXT: B off (sub): OK, result 11, xlated gotol_or_nop, state off
	set2(fd, keys[1], 8, 0, "B off (sub)", 11);
	// CHECK-NEXT: A off (main): OK, result 1, xlated gotol_or_nop, state off
	set2(fd, keys[0], 2, 0, "A off (main)", 1);
	close(fd);
	for (i = 0; i < 3; i++)
		close(keys[i]);

	/* one key with a site in each function */
	d = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2, 8, 14 }, 3, true);
	// CHECK-NEXT: load with one key in all three: OK
	fd = load_or_die("  load with one key in all three", prog2, ARRAY_SIZE(prog2), &d, 1);
	// CHECK-NEXT: D on: OK, result 112, xlated gotol_or_nop, state on
	set2(fd, d, 8, 1, "D on", 112);
	// CHECK-NEXT: D off: OK, result 1, xlated gotol_or_nop, state off
	set2(fd, d, 14, 0, "D off", 1);
	close(fd);
	close(d);
}

/* ---------------------------------------------------------------- part 3 */

/* r0 = A ? 11 : 1 */
static const struct bpf_insn prog3[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ MOV64_IMM(BPF_REG_1, 0x1234),
	/* 2 */ GOTO_OR_NOP(1),			/* A */
	/* 3 */ JA(1),
	/* 4 */ ADD64_IMM(BPF_REG_0, 10),
	/* 5 */ EXIT(),
};

static int run_fd;
static __u32 flips_done;		/* flips that returned */
static __u32 last_seq, last_r0;		/* the last run: flips_done at its start */
static __u32 runs, bad_runs;
static int stop;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *runner(void *arg)
{
	__u32 seq, r0;

	(void)arg;
	pin_self_or_die(0);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		seq = __atomic_load_n(&flips_done, __ATOMIC_ACQUIRE);
		r0 = prog_run(run_fd);
		pthread_mutex_lock(&lock);
		if (r0 != 1 && r0 != 11)
			bad_runs++;
		runs++;
		last_seq = seq;
		last_r0 = r0;
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void part3(void)
{
	__u32 i, seq, r0, stale = 0, errors = 0;
	const __u32 flips = 200;
	pthread_t t;
	int key;

	// CHECK-LABEL: flip while running
	printf("flip while running\n");
	// CHECK-NEXT: bpf_jit_harden=2: OK
	must_harden("2");
	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	// CHECK-NEXT: load: OK
	run_fd = load_or_die("  load", prog3, ARRAY_SIZE(prog3), &key, 1);
	if (pthread_create(&t, NULL, runner, NULL)) {
		printf("FAIL: pthread_create\n");
		exit(1);
	}
	if (get_nprocs() > 1)
		pin_self_or_die(1);
	for (i = 1; i <= flips; i++) {
		if (static_key_update(key, i & 1))
			errors++;
		__atomic_store_n(&flips_done, i, __ATOMIC_RELEASE);
		/* wait for a run that started after this flip returned */
		do {
			sched_yield();
			pthread_mutex_lock(&lock);
			seq = last_seq;
			r0 = last_r0;
			pthread_mutex_unlock(&lock);
		} while (seq != i);
		if (r0 != ((i & 1) ? 11 : 1))
			stale++;
	}
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	// CHECK-NEXT: 200 flips: 0 errors; runs after a flip that missed it: 0
	printf("  %u flips: %u errors; runs after a flip that missed it: %u\n", flips, errors, stale);
	// CHECK-NEXT: runs with an invalid result: 0 of {{[0-9]+}}
	printf("  runs with an invalid result: %u of %u\n", bad_runs, runs);
	if (errors || stale || bad_runs)
		failures++;
	// CHECK-NEXT: final state off: 1
	static_key_update(key, 0);
	printf("  final state off: %u\n", prog_run(run_fd));
	close(run_fd);
	close(key);
}

int main(void)
{
	require_static_keys_kernel();
	part1();
	part2();
	part3();
	// CHECK: bpf_jit_harden=0: OK
	must_harden("0");
	// CHECK: PASSED
	return finish();
}
