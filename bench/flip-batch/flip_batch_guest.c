// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/flip-batch/run.sh (runs in the patched kernel under
 * qemu; not a test, it prints what it measured): the cost of flipping one
 * key with S sites in each of P programs (one key instance per program),
 * S in 1, 10, 100, 1000 and P in 1, 10, three ways in the same kernel:
 *
 *   per-site   P BPF_STATIC_KEY_UPDATE calls (one per instance) with
 *              BENCH_STATIC_KEY_UPDATE_PER_SITE: one text_poke_bp() per
 *              site, the path before batching (what libbpf's
 *              bpf_object__set_static_key() did: one call per program)
 *   per-prog   P calls, each one text poke batch (patch 0010 alone)
 *   one batch  1 call with the P instance fds (map_fds, map_fd_cnt): one
 *              text poke batch for all S x P sites (patches 0010 + 0011)
 *   no-op      the same call to the state the key is in: everything but
 *              the text pokes (the kernel writes no site whose bytes are
 *              already right), i.e. the syscall and bookkeeping share
 *
 * Then the largest call the kernel allows (65,536 sites: 16 instances of
 * 4,096 sites), one batch and no-op: the whole call runs under the
 * update mutex and the batch under text_mutex, so the time of one call
 * is an upper bound of how long text_mutex is held (which blocks ftrace,
 * jump labels, static calls and kprobes meanwhile).
 *
 * Each time is the median over ROUNDS rounds of the mean wall time of one
 * flip (on, off, on, ...) in a round of 200 flips (20 at >= 1000 sites in
 * total, 6 for the per-site path at 10,000 sites), after one warm-up flip
 * each way. The three ways alternate within each round, so that a change
 * of the host's load hits all of them alike; 1,000 untimed flips of each
 * way come first (the first flips after boot are slower). The programs
 * are checked outside the timing: they must show the key on after the
 * warm-up's first flip and off after the last flip of each round.
 *
 * Program with S sites (socket filter, BPF_PROG_TEST_RUN):
 *   r2 = skb->len; r0 = 1; S x { goto_or_nop +1; r2 += 1 }; (key on: r0 = 2) exit
 * The last site guards "r0 = 2", so a run tells the state; the others skip
 * an add to r2, which the verifier does not track precisely, so it prunes
 * at each join and the load stays linear in S.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/bpf.h>

#include "bpfsk_test.h"	/* test/kernel: sys_bpf, static_key_create, prog_load_log, prog_run */

/*
 * flags bit of BPF_STATIC_KEY_UPDATE for the one-text-poke-per-site path:
 * not uapi; a kernel built with CONFIG_BPF_STATIC_KEY_DEBUG (the test
 * config) accepts it, any other refuses it with EINVAL
 */
#define BENCH_STATIC_KEY_UPDATE_PER_SITE (1U << 31)

#define MAXP 16
#define MAX_SITES 4096	/* the most entries of a static key: the largest instance */
#define LIMIT_PROGS 16	/* 16 x 4,096 = 65,536 sites: the most one call may set */
#ifdef FLIP_BATCH_SMOKE	/* BENCH_SMOKE=1 run.sh (test/bench): every row, 2 flips each */
#define ROUNDS 1
#define FLIPS 2
#define FLIPS_LARGE 2
#define FLIPS_PER_SITE_10K 2
#define WARMUP_FLIPS 2
#else
#define ROUNDS 5
#define FLIPS 200		/* per round, below 1,000 sites in total */
#define FLIPS_LARGE 20		/* at >= 1,000 sites */
#define FLIPS_PER_SITE_10K 6	/* the per-site path at 10,000 sites */
#define WARMUP_FLIPS 1000
#endif

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static void die(const char *what)
{
	printf("bench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void load(int sites, int *key_fd, int *prog_fd)
{
	static struct bpf_insn insns[2 * MAX_SITES + 8];
	static __u32 offs[MAX_SITES];
	int n = 0, s;

	insns[n++] = INSN(BPF_LDX | BPF_MEM | BPF_W, BPF_REG_2, BPF_REG_1,
			  offsetof(struct __sk_buff, len), 0);
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 1);
	for (s = 0; s < sites; s++) {
		offs[s] = n;
		insns[n++] = INSN(BPF_JMP | BPF_JA, 0, BPF_STATIC_BRANCH_JA, 1, 0);
		if (s == sites - 1)
			insns[n++] = INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0);	/* off: skip r0 = 2 */
		else
			insns[n++] = INSN(BPF_ALU64 | BPF_ADD | BPF_K, BPF_REG_2, 0, 0, 1);
	}
	/* the last site jumps here when on */
	insns[n++] = INSN(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 2);
	insns[n++] = INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);

	/* a frozen static key (off) with the sites; no verifier log: S can be 1,000 */
	*key_fd = static_key_create(BPF_F_STATIC_KEY, offs, sites, true);
	*prog_fd = prog_load_log(insns, n, key_fd, 1, 0);
	if (*prog_fd < 0) {
		errno = -*prog_fd;
		die("load");
	}
}

static void update(const int *fds, __u32 cnt, int on, __u32 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.static_key.on = on;
	attr.static_key.map_fds = (__u64)(unsigned long)fds;
	attr.static_key.map_fd_cnt = cnt;
	attr.static_key.flags = flags;
	if (sys_bpf(BPF_STATIC_KEY_UPDATE, &attr))
		die("BPF_STATIC_KEY_UPDATE");
}

enum { PER_SITE, PER_PROG, ONE_BATCH, NOOP, NWAYS };
static const char *const way_names[NWAYS] = { "per-site", "per-prog", "one batch", "no-op" };

static void flip(int way, const int *keys, int progs, int on)
{
	int p;

	switch (way) {
	case PER_SITE:
		for (p = 0; p < progs; p++)
			update(&keys[p], 1, on, BENCH_STATIC_KEY_UPDATE_PER_SITE);
		break;
	case PER_PROG:
		for (p = 0; p < progs; p++)
			update(&keys[p], 1, on, 0);
		break;
	case ONE_BATCH:
		update(keys, progs, on, 0);
		break;
	default:
		/* one batch to "off" while off: no site to write */
		update(keys, progs, 0, 0);
	}
}

static void check(const int *prog_fds, int progs, int on, const char *way)
{
	int p;

	for (p = 0; p < progs; p++) {
		if (prog_run(prog_fds[p]) != (on ? 2u : 1u)) {
			printf("bench: %s: program %d does not show the key %s\n", way, p,
			       on ? "on" : "off");
			exit(1);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* mean us per flip */
static double measure(int way, const int *keys, const int *prog_fds, int progs, int flips)
{
	double start, t;
	int f;

	flip(way, keys, progs, 1);
	check(prog_fds, progs, way != NOOP, way_names[way]);
	flip(way, keys, progs, 0);
	check(prog_fds, progs, 0, way_names[way]);
	start = now_us();
	for (f = 0; f < flips; f++)
		flip(way, keys, progs, !(f & 1));
	t = (now_us() - start) / flips;
	/* flips is even: the last one turned the key off */
	check(prog_fds, progs, 0, way_names[way]);
	return t;
}

/* the largest allowed call: one batch and no-op, LIMIT_PROGS x MAX_SITES sites */
static void largest_call(void)
{
	double round_t[2][ROUNDS];
	int keys[LIMIT_PROGS], prog_fds[LIMIT_PROGS];
	int p, r;

	for (p = 0; p < LIMIT_PROGS; p++)
		load(MAX_SITES, &keys[p], &prog_fds[p]);
	for (r = 0; r < ROUNDS; r++) {
		round_t[0][r] = measure(ONE_BATCH, keys, prog_fds, LIMIT_PROGS, FLIPS_LARGE);
		round_t[1][r] = measure(NOOP, keys, prog_fds, LIMIT_PROGS, FLIPS_LARGE);
	}
	qsort(round_t[0], ROUNDS, sizeof(double), cmp_double);
	qsort(round_t[1], ROUNDS, sizeof(double), cmp_double);
	printf("largest allowed call: %d sites (%d x %d) in one batch: %.1f ms per flip, "
	       "no-op %.1f ms\n  (text_mutex is held for at most the batch's time: the upper "
	       "bound of its hold time)\n", LIMIT_PROGS * MAX_SITES, LIMIT_PROGS, MAX_SITES,
	       round_t[0][ROUNDS / 2] / 1e3, round_t[1][ROUNDS / 2] / 1e3);
	for (p = 0; p < LIMIT_PROGS; p++) {
		close(prog_fds[p]);
		close(keys[p]);
	}
}

int main(void)
{
	static const int site_counts[] = { 1, 10, 100, 1000 }, prog_counts[] = { 1, 10 };
	double t[2][4][NWAYS], round_t[NWAYS][ROUNDS], base;
	int keys[MAXP], prog_fds[MAXP];
	int si, pi, p, w, n, r;

	setvbuf(stdout, NULL, _IONBF, 0);
	printf("flip cost: us per flip of one key (S sites in each of P programs),\n"
	       "  median of %d rounds of the mean over %d flips (%d at >= 1000 sites)\n", ROUNDS,
	       FLIPS, FLIPS_LARGE);
	/* warm up (first syscalls and flips after boot are slower), untimed */
	load(1, &keys[0], &prog_fds[0]);
	for (w = 0; w < NWAYS; w++)
		measure(w, keys, prog_fds, 1, WARMUP_FLIPS);
	close(prog_fds[0]);
	close(keys[0]);

	for (pi = 0; pi < 2; pi++) {
		for (si = 0; si < 4; si++) {
			int sites = site_counts[si], progs = prog_counts[pi];

			for (p = 0; p < progs; p++)
				load(sites, &keys[p], &prog_fds[p]);
			for (r = 0; r < ROUNDS; r++) {
				for (w = 0; w < NWAYS; w++) {
					n = sites * progs >= 1000 ? FLIPS_LARGE : FLIPS;
					if (w == PER_SITE && sites * progs >= 10000)
						n = FLIPS_PER_SITE_10K;
					round_t[w][r] = measure(w, keys, prog_fds, progs, n);
				}
			}
			for (w = 0; w < NWAYS; w++) {
				qsort(round_t[w], ROUNDS, sizeof(double), cmp_double);
				t[pi][si][w] = round_t[w][ROUNDS / 2];
			}
			for (p = 0; p < progs; p++) {
				close(prog_fds[p]);
				close(keys[p]);
			}
		}
	}
	base = t[0][0][ONE_BATCH];
	printf("  %5s x %-3s %12s %12s %12s %12s %9s %13s\n", "sites", "P", "per-site",
	       "per-prog", "one batch", "no-op", "speedup", "vs 1x1 batch");
	for (pi = 0; pi < 2; pi++)
		for (si = 0; si < 4; si++)
			printf("  %5d x %-3d %9.1f us %9.1f us %9.1f us %9.1f us %8.1fx %12.2fx\n",
			       site_counts[si], prog_counts[pi], t[pi][si][PER_SITE],
			       t[pi][si][PER_PROG], t[pi][si][ONE_BATCH], t[pi][si][NOOP],
			       t[pi][si][PER_SITE] / t[pi][si][ONE_BATCH],
			       t[pi][si][ONE_BATCH] / base);
	printf("target: 1000 sites x 10 programs within 3x of 1 site: %.2fx (one batch), %s\n",
	       t[1][3][ONE_BATCH] / base, t[1][3][ONE_BATCH] / base <= 3 ? "met" : "NOT met");
	printf("  (vs 1 site on the per-site path: %.2fx)\n", t[1][3][ONE_BATCH] / t[0][0][PER_SITE]);
	largest_call();
	return 0;
}
