// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/insn-count/run.sh: runs in the patched kernel under
 * qemu with -icount shift=0, where the guest's clock advances exactly 1 ns
 * per retired guest instruction, so a time in ns is a count of
 * instructions. Not a test: it prints what it measured.
 *
 * /files/insn_count.o is variants.c after bpfld and `bpfkeys resolve`,
 * loaded with the patched libbpf (stable interfaces only: open, load,
 * bpf_program__set_static_key(), BPF_PROG_TEST_RUN, prog info). For each
 * variant, ROUNDS times (the variants interleaved within each round), one
 * BPF_PROG_TEST_RUN of REPEAT runs; two readings of the same call:
 *
 *   test_run   the kernel's duration: ktime around the loop of REPEAT
 *              runs, divided by REPEAT and rounded down (net/bpf/test_run.c,
 *              bpf_test_timer_continue()): an integer
 *   call       CLOCK_MONOTONIC around the whole syscall, divided by REPEAT:
 *              the same loop plus the syscall's fixed cost spread over
 *              REPEAT runs (a few thousand instructions / 1e6), two decimals
 *
 * Both include the loop of test_run around the program (the same for every
 * variant); run.sh subtracts the no-branch program's count. Prints
 *   "variant NAME RETVAL GUARDED min median max (test_run) min median max (call)"
 *   "jited NAME HEX" (the JIT image; run.sh disassembles it)
 * and checks each variant's return value and guarded-path counter: the
 * guarded path runs on every run with the key on, on none otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#define MAX_JIT 4096
#define MAX_ROUNDS 64

struct variant {
	const char *name;	/* row name run.sh prints */
	const char *prog;	/* program in variants.c */
	int key_on;		/* static_branch: bench_key's state; else -1 */
	__u32 retval;		/* TC_ACT_OK: the guarded path did not run */
};

static const struct variant variants[] = {
	{ "no_branch", "no_branch", -1, TC_ACT_OK },
	{ "calibration", "calibration", -1, TC_ACT_OK },
	{ "always", "always", -1, TC_ACT_SHOT },
	{ "static_off", "static_branch", 0, TC_ACT_OK },
	{ "static_on", "static_branch", 1, TC_ACT_SHOT },
	{ "rodata_global", "rodata_global", -1, TC_ACT_OK },
	{ "bss_global", "bss_global", -1, TC_ACT_OK },
	{ "map_lookup", "map_lookup", -1, TC_ACT_OK },
	{ "hash_lookup", "hash_lookup", -1, TC_ACT_OK },
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static void fail(const char *fmt, const char *what, int err)
{
	printf("FAIL: ");
	printf(fmt, what);
	printf(": %s\n", strerror(err));
	exit(1);
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vprintf(fmt, ap) : 0;
}

static __u64 guarded_runs(struct bpf_map *runs_map)
{
	__u32 zero = 0;
	__u64 runs;

	if (bpf_map__lookup_elem(runs_map, &zero, sizeof(zero), &runs, sizeof(runs), 0))
		fail("%s", "read guarded_runs", errno);
	return runs;
}

static void print_jited(const char *name, int prog_fd)
{
	static unsigned char image[MAX_JIT];
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	info.jited_prog_insns = (__u64)(unsigned long)image;
	info.jited_prog_len = sizeof(image);
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len))
		fail("%s: prog info", name, errno);
	if (!info.jited_prog_len || info.jited_prog_len > sizeof(image)) {
		printf("FAIL: %s: JIT image of %u bytes\n", name, info.jited_prog_len);
		exit(1);
	}
	printf("jited %s ", name);
	for (__u32 i = 0; i < info.jited_prog_len; i++)
		printf("%02x", image[i]);
	printf("\n");
}

static void read_params(unsigned int *repeat, int *rounds)
{
	FILE *f = fopen("/files/params", "r");

	if (!f || fscanf(f, "%u %d", repeat, rounds) != 2 || !*repeat || *rounds < 1 ||
	    *rounds > MAX_ROUNDS) {
		printf("FAIL: /files/params: expected \"REPEAT ROUNDS\" (ROUNDS 1..%d)\n",
		       MAX_ROUNDS);
		exit(1);
	}
	fclose(f);
}

static void print_clocksource(void)
{
	char name[64] = "?";
	FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "r");

	if (f) {
		if (!fgets(name, sizeof(name), f))
			strcpy(name, "?\n");
		fclose(f);
	}
	printf("clocksource %s", name);
}

int main(void)
{
	static double test_run_ns[NVARIANTS][MAX_ROUNDS], call_ns[NVARIANTS][MAX_ROUNDS];
	unsigned char packet[64] = { 0 };
	struct bpf_program *progs[NVARIANTS];
	struct bpf_map *runs_map, *hash_map;
	struct bpf_object *obj;
	unsigned int repeat;
	int rounds, err;
	__u32 zero = 0;

	libbpf_set_print(quiet);
	read_params(&repeat, &rounds);
	print_clocksource();
	obj = bpf_object__open_file("/files/insn_count.o", NULL);
	if (!obj)
		fail("%s", "open /files/insn_count.o", errno);
	err = bpf_object__load(obj);
	if (err)
		fail("%s", "load /files/insn_count.o", -err);
	runs_map = bpf_object__find_map_by_name(obj, ".data.runs");
	if (!runs_map)
		fail("%s", "no map .data.runs (guarded_runs)", ENOENT);
	/* the hash map holds the flag, 0, as the array map does: a lookup that hits */
	hash_map = bpf_object__find_map_by_name(obj, "flag_hash");
	if (!hash_map || bpf_map__update_elem(hash_map, &zero, sizeof(zero), &zero, sizeof(zero), 0))
		fail("%s", "set flag_hash[0] = 0", hash_map ? errno : ENOENT);
	for (size_t v = 0; v < NVARIANTS; v++) {
		progs[v] = bpf_object__find_program_by_name(obj, variants[v].prog);
		if (!progs[v])
			fail("no program %s", variants[v].prog, ENOENT);
	}

	for (int r = 0; r < rounds; r++) {
		for (size_t v = 0; v < NVARIANTS; v++) {
			const struct variant *var = &variants[v];
			LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet,
				    .data_size_in = sizeof(packet), .repeat = repeat);
			__u64 runs_before, runs_after, want;
			double t0, t1;

			if (var->key_on >= 0) {
				err = bpf_program__set_static_key(progs[v], "bench_key",
								  var->key_on);
				if (err)
					fail("%s: set bench_key", var->name, -err);
			}
			runs_before = guarded_runs(runs_map);
			t0 = now_ns();
			err = bpf_prog_test_run_opts(bpf_program__fd(progs[v]), &opts);
			t1 = now_ns();
			if (err)
				fail("%s: BPF_PROG_TEST_RUN", var->name, errno);
			runs_after = guarded_runs(runs_map);
			want = var->retval == TC_ACT_OK ? 0 : repeat;
			if (opts.retval != var->retval || runs_after - runs_before != want) {
				printf("FAIL: %s: returned %u, guarded path ran %llu times (want %u, %llu)\n",
				       var->name, opts.retval,
				       (unsigned long long)(runs_after - runs_before), var->retval,
				       (unsigned long long)want);
				return 1;
			}
			test_run_ns[v][r] = opts.duration;
			call_ns[v][r] = (t1 - t0) / repeat;
		}
	}

	printf("repeat %u rounds %d\n", repeat, rounds);
	for (size_t v = 0; v < NVARIANTS; v++) {
		qsort(test_run_ns[v], rounds, sizeof(double), cmp_double);
		qsort(call_ns[v], rounds, sizeof(double), cmp_double);
		printf("variant %s %u %s %.0f %.0f %.0f %.2f %.2f %.2f\n", variants[v].name,
		       variants[v].retval, variants[v].retval == TC_ACT_OK ? "never" : "always",
		       test_run_ns[v][0], test_run_ns[v][rounds / 2], test_run_ns[v][rounds - 1],
		       call_ns[v][0], call_ns[v][rounds / 2], call_ns[v][rounds - 1]);
	}
	for (size_t v = 0; v < NVARIANTS; v++) {
		const struct variant *var = &variants[v];

		if (var->key_on >= 0) {
			err = bpf_program__set_static_key(progs[v], "bench_key", var->key_on);
			if (err)
				fail("%s: set bench_key", var->name, -err);
		}
		print_jited(var->name, bpf_program__fd(progs[v]));
	}
	bpf_object__close(obj);
	printf("PASS: insn-count\n");
	return 0;
}
