// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/e2e/run.sh (runs in the patched kernel under qemu):
 *  1. per-run cost with BPF_PROG_TEST_RUN, --repeat runs per measurement
 *     (the kernel's mean ns per run), rounds interleaved over the five
 *     programs of branches.o, median of the rounds, ratio to bench_no_branch;
 *  2. flip cost: mean time of bpf_object__set_static_key() for objects
 *     flip_S_P.o (S sites in each of P programs).
 * Not a test: it prints what it measured.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define ROUNDS 11

static int print_fn(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stdout, fmt, ap);
}

static struct bpf_object *load(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);

	if (!obj || bpf_object__load(obj)) {
		printf("bench: cannot load %s\n", path);
		exit(1);
	}
	return obj;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void print_file(const char *what, const char *path)
{
	char buf[128] = "?";
	FILE *f = fopen(path, "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			strcpy(buf, "?");
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = 0;
	printf("%s: %s\n", what, buf);
}

static double now_ns(void);

/* ns per run: wall time around one BPF_PROG_TEST_RUN of repeat runs
 * (the kernel's own duration is in whole ns and the guest clock is coarse)
 */
static double run(struct bpf_program *prog, __u32 repeat)
{
	double start;
	unsigned char pkt[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = repeat);

	start = now_ns();
	if (bpf_prog_test_run_opts(bpf_program__fd(prog), &opts) || opts.retval != XDP_PASS) {
		printf("bench: %s: run failed (%s, retval %u)\n", bpf_program__name(prog),
		       strerror(errno), opts.retval);
		exit(1);
	}
	return (now_ns() - start) / repeat;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	static const char *names[] = { "bench_no_branch", "bench_static_off", "bench_static_on",
				       "bench_const_volatile", "bench_map_lookup" };
	enum { N = sizeof(names) / sizeof(names[0]) };
	__u32 repeat = argc > 1 ? strtoul(argv[1], NULL, 0) : 1000000;
	double ns[N][ROUNDS], med[N];
	struct bpf_program *progs[N];
	struct bpf_object *obj;
	int i, r;

	libbpf_set_print(print_fn);
	setvbuf(stdout, NULL, _IONBF, 0);
	obj = load("/files/branches.o");
	for (i = 0; i < N; i++)
		progs[i] = bpf_object__find_program_by_name(obj, names[i]);
	if (bpf_program__set_static_key(progs[2], "bench_key", true)) {
		printf("bench: cannot turn bench_key on\n");
		return 1;
	}
	print_file("guest clocksource",
		   "/sys/devices/system/clocksource/clocksource0/current_clocksource");
	printf("per-run cost: BPF_PROG_TEST_RUN repeat=%u, %d rounds, median ns/run\n", repeat,
	       ROUNDS);
	for (r = 0; r < ROUNDS; r++)
		for (i = 0; i < N; i++)
			ns[i][r] = run(progs[i], repeat);
	for (i = 0; i < N; i++) {
		qsort(ns[i], ROUNDS, sizeof(double), cmp_double);
		med[i] = ns[i][ROUNDS / 2];
	}
	for (i = 0; i < N; i++)
		printf("  %-22s %8.1f ns/run  (min %.1f, max %.1f)  ratio to no branch %.3f\n",
		       names[i], med[i], ns[i][0], ns[i][ROUNDS - 1], med[i] / med[0]);
	bpf_object__close(obj);

	printf("flip cost: bpf_object__set_static_key() (every instance of the key),\n"
	       "  mean over 200 flips (20 for >= 1000 sites in total)\n");
	for (i = 2; i < argc; i++) {
		/* argv: flip_S_P.o ... */
		const char *path = argv[i];
		int sites = 0, nprogs = 0, flips, f;
		double t0, t1;

		if (sscanf(strrchr(path, '/') ? strrchr(path, '/') + 1 : path, "flip_%d_%d.o", &sites,
			   &nprogs) != 2)
			continue;
		t0 = now_ns();
		obj = load(path);
		t1 = now_ns();
		flips = sites * nprogs >= 1000 ? 20 : 200;
		/* warm up once each way */
		bpf_object__set_static_key(obj, "flip_key", true);
		bpf_object__set_static_key(obj, "flip_key", false);
		{
			double start = now_ns();

			for (f = 0; f < flips; f++) {
				if (bpf_object__set_static_key(obj, "flip_key", !(f & 1))) {
					printf("bench: flip failed\n");
					return 1;
				}
			}
			printf("  %4d site(s) x %2d program(s): %10.1f us/flip  (%.1f us/site; load %.0f ms)\n",
			       sites, nprogs, (now_ns() - start) / flips / 1e3,
			       (now_ns() - start) / flips / 1e3 / (sites * nprogs), (t1 - t0) / 1e6);
		}
		bpf_object__close(obj);
	}
	return 0;
}
