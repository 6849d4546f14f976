// SPDX-License-Identifier: GPL-2.0
/*
 * bench/stock-flip: one object (bench_key reached by programs prog_0..N-1,
 * each on an XDP link of its own veth in a network namespace of this
 * process), timed three ways with CLOCK_MONOTONIC:
 *   bare:   bpfkeys_set(bench_key, !state) with no link: lower in memory,
 *           open, verify every program that reaches the key;
 *   flip:   the same with every program on its XDP link: plus one
 *           BPF_LINK_UPDATE per link;
 *   tcx:    the same programs as tc (TC_LINKED.o) on tcx ingress links;
 *   reload: what a stock user does without libbpfkeys: close the object
 *           (links detached), open, load every program, attach again.
 * Prints one row: medians and minima over ROUNDS (reload: ROUNDS / 3, at
 * least 3), the xlated length of prog_0 in instructions, and reload / flip
 * (medians).
 */
#include <errno.h>
#include <stdbool.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <bpfkeys/libbpfkeys.h>

#define MAX_PROGS 64

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* ROUNDS flips of bench_key, each replacing every program: the times in us */
static void time_flips(struct bpfkeys_object *obj, int progs, double *times, int rounds)
{
	for (int r = 0; r < rounds; r++) {
		double t0 = now_us();
		int n = bpfkeys_set(obj, "bench_key", !(r & 1));

		times[r] = now_us() - t0;
		if (n != progs) {
			fprintf(stderr, "flip_latency: flip replaced %d of %d programs: %s\n", n,
				progs, bpfkeys_errmsg(obj));
			exit(1);
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void format_us(char *buf, size_t size, double us)
{
	if (us >= 1000)
		snprintf(buf, size, "%.1f ms", us / 1000);
	else
		snprintf(buf, size, "%.0f us", us);
}

enum attach { NO_LINKS, XDP_LINKS, TCX_LINKS };

static struct bpfkeys_object *load_and_attach(const char *path, int *progs, enum attach attach)
{
	struct bpfkeys_object *obj = bpfkeys_open_file(path, NULL);
	char name[32];

	if (!obj || bpfkeys_load(obj)) {
		fprintf(stderr, "flip_latency: %s: cannot load\n", path);
		exit(1);
	}
	for (*progs = 0; *progs < MAX_PROGS; (*progs)++) {
		char dev[IFNAMSIZ];

		snprintf(name, sizeof(name), "prog_%d", *progs);
		if (!bpfkeys_program(obj, name))
			break;
		snprintf(dev, sizeof(dev), "bench_rx%d", *progs);
		if ((attach == XDP_LINKS &&
		     !bpfkeys_attach_xdp(obj, name, (int)if_nametoindex(dev))) ||
		    (attach == TCX_LINKS &&
		     !bpfkeys_attach_tcx(obj, name, (int)if_nametoindex(dev), false))) {
			fprintf(stderr, "flip_latency: attach %s: %s\n", name, bpfkeys_errmsg(obj));
			exit(1);
		}
	}
	return obj;
}

int main(int argc, char **argv)
{
	int rounds, reloads, progs;
	struct bpfkeys_object *obj;
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	double *bare, *flip, *tcx, *reload;
	char b_med[24], b_min[24], f_med[24], f_min[24], t_med[24], t_min[24], r_med[24], r_min[24];
	char b_cell[64], f_cell[64], t_cell[64], r_cell[64];

	if (argc != 5) {
		fprintf(stderr, "usage: flip_latency XDP_LINKED.o TC_LINKED.o ROUNDS LABEL\n");
		return 2;
	}
	rounds = atoi(argv[3]);
	reloads = rounds / 3 < 3 ? 3 : rounds / 3;
	libbpf_set_print(quiet);
	if (unshare(CLONE_NEWNET)) {
		perror("flip_latency: unshare(CLONE_NEWNET)");
		return 1;
	}
	for (int i = 0; i < MAX_PROGS && i < 16; i++) {
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "ip link add bench_tx%d type veth peer name bench_rx%d",
			 i, i);
		if (system(cmd)) {
			fprintf(stderr, "flip_latency: %s failed\n", cmd);
			return 1;
		}
	}
	bare = calloc((size_t)rounds, sizeof(double));
	flip = calloc((size_t)rounds, sizeof(double));
	tcx = calloc((size_t)rounds, sizeof(double));
	reload = calloc((size_t)reloads, sizeof(double));
	obj = load_and_attach(argv[1], &progs, NO_LINKS);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpfkeys_program_fd(obj, "prog_0"), &info, &len)) {
		perror("flip_latency: prog info");
		return 1;
	}
	time_flips(obj, progs, bare, rounds);
	bpfkeys_close(obj);
	obj = load_and_attach(argv[1], &progs, XDP_LINKS);
	time_flips(obj, progs, flip, rounds);
	bpfkeys_close(obj);
	obj = load_and_attach(argv[2], &progs, TCX_LINKS);
	time_flips(obj, progs, tcx, rounds);
	for (int r = 0; r < reloads; r++) {
		double t0 = now_us();

		bpfkeys_close(obj);
		obj = load_and_attach(argv[1], &progs, XDP_LINKS);
		reload[r] = now_us() - t0;
	}
	bpfkeys_close(obj);
	qsort(bare, (size_t)rounds, sizeof(double), cmp_double);
	qsort(flip, (size_t)rounds, sizeof(double), cmp_double);
	qsort(tcx, (size_t)rounds, sizeof(double), cmp_double);
	qsort(reload, (size_t)reloads, sizeof(double), cmp_double);
	format_us(b_med, sizeof(b_med), bare[rounds / 2]);
	format_us(b_min, sizeof(b_min), bare[0]);
	format_us(f_med, sizeof(f_med), flip[rounds / 2]);
	format_us(f_min, sizeof(f_min), flip[0]);
	format_us(t_med, sizeof(t_med), tcx[rounds / 2]);
	format_us(t_min, sizeof(t_min), tcx[0]);
	format_us(r_med, sizeof(r_med), reload[reloads / 2]);
	format_us(r_min, sizeof(r_min), reload[0]);
	snprintf(b_cell, sizeof(b_cell), "%s (%s)", b_med, b_min);
	snprintf(f_cell, sizeof(f_cell), "%s (%s)", f_med, f_min);
	snprintf(t_cell, sizeof(t_cell), "%s (%s)", t_med, t_min);
	snprintf(r_cell, sizeof(r_cell), "%s (%s)", r_med, r_min);
	printf("%-18s %-11u %-20s %-20s %-20s %-20s %.1fx\n", argv[4], info.xlated_prog_len / 8,
	       b_cell, f_cell, t_cell, r_cell, reload[reloads / 2] / flip[rounds / 2]);
	free(bare);
	free(flip);
	free(tcx);
	free(reload);
	return 0;
}
