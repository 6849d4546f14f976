// SPDX-License-Identifier: GPL-2.0
// Two vCPUs, 10,000 sites in one batch: a thread on CPU 1 flips the key
// instances of 10 programs with 1,000 sites each (one instance per
// program) with one BPF_STATIC_KEY_UPDATE per flip (map_fds of all 10:
// one text poke batch of 10,000 sites, which on x86 is one run of the
// int3 protocol over a kvmalloc'd vector that the int3 handler
// binary-searches) while CPU 0 runs the programs in a loop. No crash,
// no failed flip, every run returns a result of its own program
// (65536 * id + the number of its sites that behaved as "on", 0..1000),
// all-off (0) and all-on (1000) are both seen for every program, runs
// started during flips, and after the flipper stops every program
// behaves as the state last set (1000 for all). A run may see some
// sites of its program flipped and others not (a batch is not atomic
// across sites): such intermediate results are counted and printed, not
// rejected.
//
// Sites: 980 2-byte ones (jmp rel8 / nop2 on x86), both polarities, and
// every 50th one a 5-byte one (nop_or_gotol over 41 instructions: jmp
// rel32 / nop5), so that the vector mixes both lengths.
//
// qemu runs with single-threaded TCG, as the other SMP tests do (see
// test/e2e/stress-flip-while-running-smp.c): both vCPUs share one host
// thread. The runner sleeps 1 ms after each round of 10 runs, so that
// CPU 0 goes idle and qemu switches to CPU 1: with a runner that never
// sleeps, a 10,000-site flip took 39 s on arm64 (one
// aarch64_insn_patch_text_nosync() per site, and CPU 0 got the host
// thread for about 4 ms per site) and 0.55 s on x86. With the pause a
// flip takes about 0.12 s (arm64) to 0.35 s (x86), 0.04-0.1 s idle, and
// the runs still overlap it.
//
// RUN: env BPFSK_QEMU_SMP=2 BPFSK_QEMU_TCG_THREAD=single BPFSK_QEMU_TIMEOUT=300 %qemu-run %s | FileCheck %s
#define _GNU_SOURCE /* CPU affinity */
#include "static_key_batch.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <time.h>
#include <sys/sysinfo.h>

#define PROGS	10
#define SITES	1000
#define FLIPS	100	/* even: the last flip (odd index) turns the keys on */
#define MAXINSNS (SITES * 3 + 41 * (SITES / 50) + 8)
#define PAUSE_US 1000	/* the runner's sleep after each round of PROGS runs */
#define RESULT(id, on) (65536u * (id) + (on))

static int keys[PROGS], progs[PROGS];
static atomic_int flipping, in_flip;
static int flip_errors;
static double flip_ms;

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/*
 * r2 = skb->len; r4 = 0; 1,000 sites, each adding 1 to r2 when it behaves
 * as "on"; r0 = r2 - skb->len + 65536 * id. r2 and r4 are unknown to the
 * verifier (from skb->len) or not precise, so it prunes at each join and
 * the load stays linear in the number of sites (as bench/flip-batch does).
 *   site % 50 == 49: nop_or_gotol +41; r2 += 1; 40 x r4 += 1  (5 bytes)
 *   odd site:        nop_or_goto +1; r2 += 1                  (2 bytes)
 *   even site:       goto_or_nop +1; ja +1; r2 += 1           (2 bytes)
 */
static void load(int id)
{
	static struct bpf_insn p[MAXINSNS];
	static __u32 offs[SITES];
	int n = 0, s, i;

	p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1,
		      offsetof(struct __sk_buff, len), 0);
	p[n++] = MOV64_IMM(BPF_REG_4, 0);
	for (s = 0; s < SITES; s++) {
		offs[s] = n;
		if (s % 50 == 49) {
			p[n++] = NOP_OR_GOTOL(41);
			p[n++] = ADD64_IMM(BPF_REG_2, 1);
			for (i = 0; i < 40; i++)
				p[n++] = ADD64_IMM(BPF_REG_4, 1);
		} else if (s & 1) {
			p[n++] = NOP_OR_GOTO(1);
			p[n++] = ADD64_IMM(BPF_REG_2, 1);
		} else {
			p[n++] = GOTO_OR_NOP(1);
			p[n++] = JA(1);
			p[n++] = ADD64_IMM(BPF_REG_2, 1);
		}
	}
	p[n++] = INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_3, BPF_REG_1,
		      offsetof(struct __sk_buff, len), 0);
	p[n++] = INSN(BPF_ALU64 | BPF_SUB | BPF_X, BPF_REG_2, BPF_REG_3, 0, 0);
	p[n++] = MOV64_REG(BPF_REG_0, BPF_REG_2);
	p[n++] = ADD64_IMM(BPF_REG_0, RESULT(id, 0));
	p[n++] = EXIT();

	/* a frozen static key (off) with the sites; no verifier log */
	keys[id] = static_key_create(BPF_F_STATIC_KEY, offs, SITES, true);
	progs[id] = prog_load_log(p, n, &keys[id], 1, 0);
	if (progs[id] < 0) {
		printf("FAIL: load program %d (%d insns): %s\n", id, n, errname(progs[id]));
		exit(1);
	}
}

/* Every program gives RESULT(id, @want); prints the results. */
static void check_all(const char *what, unsigned int want)
{
	int p, bad = 0;

	printf("%s:", what);
	for (p = 0; p < PROGS; p++) {
		__u32 got = prog_run(progs[p]);

		printf(" %u", got % 65536);
		if (got != RESULT(p, want))
			bad++;
	}
	printf("%s\n", bad ? " (WRONG)" : "");
	if (bad)
		failures++;
}

static void flip(int on)
{
	if (keys_update(keys, PROGS, on, 0))
		flip_errors++;
}

static void *flipper(void *arg)
{
	double start;
	int i;

	(void)arg;
	start = now_ms();
	for (i = 0; i < FLIPS; i++) {
		atomic_store(&in_flip, 1);
		flip(i & 1);
		atomic_store(&in_flip, 0);
	}
	flip_ms = (now_ms() - start) / FLIPS;
	atomic_store(&flipping, 0);
	return NULL;
}

int main(void)
{
	unsigned long runs = 0, during = 0, bad = 0, mixed = 0;
	unsigned long off[PROGS] = { 0 }, on[PROGS] = { 0 }, mid[PROGS] = { 0 };
	unsigned int mid_min = SITES, mid_max = 0;
	int p, both = 0, off_seen = 0, on_seen = 0;
	struct timespec pause = { 0, PAUSE_US * 1000 };
	pthread_t t;
	double start;

	require_static_keys_kernel();
	// CHECK: online cpus: 2
	printf("online cpus: %d\n", get_nprocs());
	pin_self_or_die(0);
	for (p = 0; p < PROGS; p++)
		load(p);
	// CHECK: loaded 10 programs x 1000 sites
	printf("loaded %d programs x %d sites\n", PROGS, SITES);

	/* one batch of 10,000 sites each way, nothing running concurrently */
	// CHECK-NEXT: at load: 0 0 0 0 0 0 0 0 0 0{{$}}
	check_all("at load", 0);
	start = now_ms();
	flip(1);
	printf("one flip on, idle: %.1f ms\n", now_ms() - start);
	// CHECK: after on: 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000{{$}}
	check_all("after on", SITES);
	start = now_ms();
	flip(0);
	printf("one flip off, idle: %.1f ms\n", now_ms() - start);
	// CHECK: after off: 0 0 0 0 0 0 0 0 0 0{{$}}
	check_all("after off", 0);

	atomic_store(&flipping, 1);
	t = start_pinned_or_die(1, "the flipper", flipper, NULL);
	while (atomic_load(&flipping)) {
		for (p = 0; p < PROGS; p++) {
			int started_in_flip = atomic_load(&in_flip);
			__u32 got = prog_run(progs[p]), n = got % 65536;

			runs++;
			during += started_in_flip;
			if (got / 65536 != (__u32)p || n > SITES) {
				if (bad++ < 5)
					printf("invalid result of p%d: %u\n", p, got);
				continue;
			}
			if (n == 0) {
				off[p]++;
			} else if (n == SITES) {
				on[p]++;
			} else {
				mid[p]++;
				mixed++;
				mid_min = n < mid_min ? n : mid_min;
				mid_max = n > mid_max ? n : mid_max;
			}
		}
		/* let CPU 0 go idle: see the header comment */
		nanosleep(&pause, NULL);
	}
	pthread_join(t, NULL);
	// CHECK: stress: 100 flips of 10000 sites, 0 errors, {{[0-9]+}} runs, 0 invalid results
	printf("stress: %d flips of %d sites, %d errors, %lu runs, %lu invalid results\n",
	       FLIPS, PROGS * SITES, flip_errors, runs, bad);
	printf("stress: %.1f ms per flip (flipper wall time, shared with the runner)\n", flip_ms);
	for (p = 0; p < PROGS; p++) {
		printf("  p%d: all off %lu, all on %lu, intermediate %lu\n", p, off[p], on[p],
		       mid[p]);
		off_seen += !!off[p];
		on_seen += !!on[p];
		both += off[p] && on[p];
	}
	// CHECK: stress: all off and all on both seen by 10 of 10 programs
	printf("stress: all off and all on both seen by %d of %d programs "
	       "(all off by %d, all on by %d)\n", both, PROGS, off_seen, on_seen);
	// CHECK: stress: runs started during a flip: {{[1-9][0-9]*}}
	printf("stress: runs started during a flip: %lu of %lu\n", during, runs);
	if (mixed)
		printf("stress: %lu runs saw a flip part done (%u..%u sites on)\n", mixed,
		       mid_min, mid_max);
	else
		printf("stress: 0 runs saw a flip part done\n");
	if (flip_errors || bad || both != PROGS || !during) {
		printf("FAIL: stress\n");
		failures++;
	}
	// CHECK: final: 1000 1000 1000 1000 1000 1000 1000 1000 1000 1000{{$}}
	check_all("final", SITES);
	flip(0);
	// CHECK: final off: 0 0 0 0 0 0 0 0 0 0{{$}}
	check_all("final off", 0);
	if (flip_errors) {
		printf("FAIL: %d flips failed\n", flip_errors);
		failures++;
	}
	// CHECK: PASSED
	return finish();
}
