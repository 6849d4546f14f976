// SPDX-License-Identifier: GPL-2.0
/*
 * Guest side of bench/stock-flip/run.sh (runs in the patched kernel under
 * qemu; not a test, it prints what it measured): the patched kernel's flip
 * of the same programs the host flips by program replacement. For each
 * line "INSNS PROGS" of /files/rows, /files/resolved_INSNS_PROGS.o is the
 * bench object (bench_key reached by prog_0..PROGS-1) after `bpfkeys
 * resolve`; it is loaded with the patched libbpf, not attached (a flip
 * pokes the JIT image whatever runs it), and timed with CLOCK_MONOTONIC:
 *
 *   bpf_object__set_static_key(obj, "bench_key", on/off): every instance in
 *   one BPF_STATIC_KEY_UPDATE, one text-poke batch (docs/abi.md section 6)
 *
 * FLIPS flips (from /files/flips) after 10 untimed ones; prints
 * "patched-flip INSNS PROGS MEDIAN_US MIN_US". Outside the timing, prog_0
 * must return another value with the key on than off (its block adds 7).
 *
 * For the first row it also prints what one site costs a run: prog_0's
 * xlated instructions that differ between key off and on, and both JIT
 * images in hex ("patched-jit off|on HEX"), which run.sh disassembles.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfsk_test.h"	/* test/kernel: require_static_keys_kernel, prog_xlated, prog_jited */

#define MAX_FLIPS 10000
#define MAX_INSNS 16384
#define MAX_JIT (1 << 20)

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
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

static void set_key(struct bpf_object *obj, bool on)
{
	int err = bpf_object__set_static_key(obj, "bench_key", on);

	if (err) {
		printf("FAIL: set bench_key %s: %s\n", on ? "on" : "off", strerror(-err));
		exit(1);
	}
}

static __u32 run_once(int prog_fd)
{
	unsigned char packet[64] = {0};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);

	if (bpf_prog_test_run_opts(prog_fd, &opts)) {
		printf("FAIL: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		exit(1);
	}
	return opts.retval;
}

static void print_hex(const char *what, const unsigned char *buf, __u32 len)
{
	printf("patched-jit %s ", what);
	for (__u32 i = 0; i < len; i++)
		printf("%02x", buf[i]);
	printf("\n");
}

/* prog_0's image with the key off and on: what the site is in each state */
static void site_cost(struct bpf_object *obj, int prog_fd)
{
	static struct bpf_insn off_insns[MAX_INSNS], on_insns[MAX_INSNS];
	static unsigned char off_jit[MAX_JIT], on_jit[MAX_JIT];
	__u32 n_off, n_on, j_off, j_on, changed = 0;

	set_key(obj, false);
	n_off = prog_xlated(prog_fd, off_insns, MAX_INSNS);
	j_off = prog_jited(prog_fd, off_jit, MAX_JIT);
	set_key(obj, true);
	n_on = prog_xlated(prog_fd, on_insns, MAX_INSNS);
	j_on = prog_jited(prog_fd, on_jit, MAX_JIT);
	set_key(obj, false);
	if (n_off != n_on || j_off != j_on) {
		printf("FAIL: a flip changed the program's size (xlated %u -> %u, JIT %u -> %u)\n",
		       n_off, n_on, j_off, j_on);
		exit(1);
	}
	for (__u32 i = 0; i < n_off; i++)
		changed += !!memcmp(&off_insns[i], &on_insns[i], sizeof(off_insns[i]));
	printf("patched-xlated %u insns, %u changed by a flip\n", n_off, changed);
	print_hex("off", off_jit, j_off);
	print_hex("on", on_jit, j_on);
}

int main(void)
{
	static double times[MAX_FLIPS];
	int insns, progs, flips = 0, row = 0;
	FILE *rows, *f;

	require_static_keys_kernel();
	libbpf_set_print(quiet);
	f = fopen("/files/flips", "r");
	if (!f || fscanf(f, "%d", &flips) != 1 || flips < 1 || flips > MAX_FLIPS) {
		printf("FAIL: /files/flips: expected a count from 1 to %d\n", MAX_FLIPS);
		return 1;
	}
	fclose(f);
	rows = fopen("/files/rows", "r");
	if (!rows) {
		printf("FAIL: /files/rows: %s\n", strerror(errno));
		return 1;
	}
	while (fscanf(rows, "%d %d", &insns, &progs) == 2) {
		char path[128];
		struct bpf_object *obj;
		struct bpf_program *prog0;
		int err, fd0, loaded = 0;
		__u32 ret_off, ret_on;

		snprintf(path, sizeof(path), "/files/resolved_%d_%d.o", insns, progs);
		obj = bpf_object__open_file(path, NULL);
		if (!obj) {
			printf("FAIL: open %s: %s\n", path, strerror(errno));
			return 1;
		}
		err = bpf_object__load(obj);
		if (err) {
			printf("FAIL: load %s: %s\n", path, strerror(-err));
			return 1;
		}
		for (struct bpf_program *p = bpf_object__next_program(obj, NULL); p;
		     p = bpf_object__next_program(obj, p))
			loaded += bpf_program__static_key_fd(p, "bench_key") >= 0;
		prog0 = bpf_object__find_program_by_name(obj, "prog_0");
		if (loaded != progs || !prog0) {
			printf("FAIL: %s: %d of %d programs hold a bench_key instance\n", path, loaded,
			       progs);
			return 1;
		}
		fd0 = bpf_program__fd(prog0);
		for (int i = 0; i < 10; i++)
			set_key(obj, !(i & 1));
		for (int i = 0; i < flips; i++) {
			double t0 = now_us();

			set_key(obj, !(i & 1));
			times[i] = now_us() - t0;
		}
		set_key(obj, false);
		ret_off = run_once(fd0);
		set_key(obj, true);
		ret_on = run_once(fd0);
		if (ret_off == ret_on) {
			printf("FAIL: %s: prog_0 returns %u with bench_key off and on\n", path, ret_on);
			return 1;
		}
		qsort(times, (size_t)flips, sizeof(double), cmp_double);
		printf("patched-flip %d %d %.1f %.1f\n", insns, progs, times[flips / 2], times[0]);
		if (!row++)
			site_cost(obj, fd0);
		bpf_object__close(obj);
	}
	fclose(rows);
	if (!row) {
		printf("FAIL: /files/rows: no row\n");
		return 1;
	}
	printf("PASS: patched-flip\n");
	return 0;
}
