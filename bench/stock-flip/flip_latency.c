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
 *   prepared: the same on tcx and on XDP links, each flip prepared first
 *           (bpfkeys_prepare, not timed): only the link updates remain;
 *   updates: the peer, in the same run: bare BPF_LINK_UPDATE of the same
 *           links between the programs of two loaded copies of the object,
 *           one update per link, timed as one flip;
 *   threads: the same bare updates of the XDP links, one thread per link,
 *           all started at once (does the kernel take them in parallel?);
 *   window: first to last link update inside a prepared flip (the
 *           library's debug message says it), on the tcx and XDP links, and
 *           with prog_0 alone on two XDP links (two links of one program);
 *   reload: what a stock user does without libbpfkeys: close the object
 *           (links detached), open, load every program, attach again.
 * Prints one row: medians and minima over ROUNDS (reload: ROUNDS / 3, at
 * least 3; windows: median and max), the xlated length of prog_0 in
 * instructions, prepared / updates on tcx and XDP, and reload / flip
 * (medians).
 */
#include <errno.h>
#include <stdbool.h>
#include <net/if.h>
#include <pthread.h>
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

/* the last flip's window, from the library's debug message */
static double last_window_us;

static int catch_window(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	char line[512];
	const char *in;

	(void)ctx;
	vsnprintf(line, sizeof(line), fmt, ap);
	if (level == LIBBPFKEYS_WARN)
		fputs(line, stderr);
	in = strstr(line, " update(s) in ");
	if (level == LIBBPFKEYS_DEBUG && in)
		last_window_us = atof(in + strlen(" update(s) in "));
	return 0;
}

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

/* ROUNDS flips of bench_key, each replacing every program: the times in us;
 * prepared: each flip prepared first (not timed), its windows in windows[] */
static void time_flips(struct bpfkeys_object *obj, int progs, double *times, int rounds,
		       bool prepared, double *windows)
{
	for (int r = 0; r < rounds; r++) {
		struct bpfkeys_setting next = { "bench_key", !bpfkeys_key_state(obj, "bench_key") };
		double t0;
		int n;

		if (prepared && bpfkeys_prepare(obj, &next, 1) != progs) {
			fprintf(stderr, "flip_latency: prepare: %s\n", bpfkeys_errmsg(obj));
			exit(1);
		}
		t0 = now_us();
		n = bpfkeys_flip(obj, &next, 1);
		times[r] = now_us() - t0;
		if (windows)
			windows[r] = last_window_us;
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
	else if (us < 10)
		snprintf(buf, size, "%.1f us", us);
	else
		snprintf(buf, size, "%.0f us", us);
}

enum attach { NO_LINKS, XDP_LINKS, TCX_LINKS, TWO_XDP_LINKS_OF_PROG_0 };

static struct bpfkeys_object *load_and_attach(const char *path, int *progs, enum attach attach)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = catch_window);
	struct bpfkeys_object *obj = bpfkeys_open_file(path, &opts);
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
		     !bpfkeys_attach_tcx(obj, name, (int)if_nametoindex(dev), false)) ||
		    (attach == TWO_XDP_LINKS_OF_PROG_0 && *progs == 0 &&
		     (!bpfkeys_attach_xdp(obj, name, (int)if_nametoindex("bench_rx0")) ||
		      !bpfkeys_attach_xdp(obj, name, (int)if_nametoindex("bench_rx1"))))) {
			fprintf(stderr, "flip_latency: attach %s: %s\n", name, bpfkeys_errmsg(obj));
			exit(1);
		}
	}
	return obj;
}

struct one_update {
	int link, from, to;
};

static void *update_in_thread(void *arg)
{
	const struct one_update *u = arg;
	LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE, .old_prog_fd = u->from);

	if (bpf_link_update(u->link, u->to, &opts)) {
		perror("flip_latency: BPF_LINK_UPDATE");
		exit(1);
	}
	return NULL;
}

/* The peer: ROUNDS times, one BPF_LINK_UPDATE per link of obj (prog_I on
 * link I), alternating between obj's programs and those of a second loaded
 * copy of the same object; ends on obj's own. */
static void time_bare_updates(struct bpfkeys_object *obj, const char *path, int progs,
			      double *times, int rounds, bool threads)
{
	struct bpfkeys_object *copy = load_and_attach(path, &progs, NO_LINKS);
	int own[MAX_PROGS], other[MAX_PROGS], links[MAX_PROGS];

	for (int p = 0; p < progs; p++) {
		char name[32];

		snprintf(name, sizeof(name), "prog_%d", p);
		own[p] = bpfkeys_program_fd(obj, name);
		other[p] = bpfkeys_program_fd(copy, name);
	}
	/* the object's links, in attach order: prog_0's first */
	for (int p = 0; p < progs; p++)
		links[p] = -1;
	{
		uint32_t id = 0;
		int found = 0;

		/* every link of this process's namespace whose program is one of own[] */
		while (!bpf_link_get_next_id(id, &id) && found < progs) {
			int fd = bpf_link_get_fd_by_id(id);
			struct bpf_link_info info;
			uint32_t len = sizeof(info);

			if (fd < 0)
				continue;
			memset(&info, 0, sizeof(info));
			if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
				close(fd);
				continue;
			}
			for (int p = 0; p < progs; p++) {
				struct bpf_prog_info prog;
				uint32_t plen = sizeof(prog);

				memset(&prog, 0, sizeof(prog));
				if (links[p] < 0 && !bpf_obj_get_info_by_fd(own[p], &prog, &plen) &&
				    prog.id == info.prog_id) {
					links[p] = fd;
					found++;
					fd = -1;
					break;
				}
			}
			if (fd >= 0)
				close(fd);
		}
		if (found != progs) {
			fprintf(stderr, "flip_latency: found %d of %d links\n", found, progs);
			exit(1);
		}
	}
	for (int r = 0; r < rounds + (rounds & 1); r++) {
		const int *from = r & 1 ? other : own, *to = r & 1 ? own : other;
		struct one_update updates[MAX_PROGS];
		pthread_t thread[MAX_PROGS];
		double t0 = now_us();

		for (int p = 0; p < progs; p++) {
			updates[p] = (struct one_update){ links[p], from[p], to[p] };
			if (!threads)
				update_in_thread(&updates[p]);
			else if (pthread_create(&thread[p], NULL, update_in_thread, &updates[p])) {
				perror("flip_latency: pthread_create");
				exit(1);
			}
		}
		for (int p = 0; threads && p < progs; p++)
			pthread_join(thread[p], NULL);
		if (r < rounds)
			times[r] = now_us() - t0;
	}
	for (int p = 0; p < progs; p++)
		close(links[p]);
	bpfkeys_close(copy);
}

static void cell(char *buf, size_t size, double *times, int count, bool with_max)
{
	char med[24], other[24];

	qsort(times, (size_t)count, sizeof(double), cmp_double);
	format_us(med, sizeof(med), times[count / 2]);
	format_us(other, sizeof(other), with_max ? times[count - 1] : times[0]);
	snprintf(buf, size, "%s (%s)", med, other);
}

int main(int argc, char **argv)
{
	int rounds, reloads, progs;
	struct bpfkeys_object *obj;
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	double *bare, *flip, *tcx, *reload, *p_tcx, *u_tcx, *p_xdp, *u_xdp, *t_xdp, *w_tcx, *w_xdp,
		*w_two, *unused;
	double ratio_tcx, ratio_xdp, reload_ratio;
	char c_bare[64], c_flip[64], c_tcx[64], c_reload[64], c_ptcx[64], c_utcx[64], c_pxdp[64],
		c_uxdp[64], c_txdp[64], c_wtcx[64], c_wxdp[64], c_wtwo[64];

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
	p_tcx = calloc((size_t)rounds, sizeof(double));
	u_tcx = calloc((size_t)rounds, sizeof(double));
	p_xdp = calloc((size_t)rounds, sizeof(double));
	u_xdp = calloc((size_t)rounds, sizeof(double));
	t_xdp = calloc((size_t)rounds, sizeof(double));
	w_xdp = calloc((size_t)rounds, sizeof(double));
	w_tcx = calloc((size_t)rounds, sizeof(double));
	w_two = calloc((size_t)rounds, sizeof(double));
	unused = calloc((size_t)rounds, sizeof(double));
	reload = calloc((size_t)reloads, sizeof(double));
	obj = load_and_attach(argv[1], &progs, NO_LINKS);
	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpfkeys_program_fd(obj, "prog_0"), &info, &len)) {
		perror("flip_latency: prog info");
		return 1;
	}
	time_flips(obj, progs, bare, rounds, false, NULL);
	bpfkeys_close(obj);
	obj = load_and_attach(argv[1], &progs, XDP_LINKS);
	time_flips(obj, progs, flip, rounds, false, NULL);
	time_flips(obj, progs, p_xdp, rounds, true, w_xdp);
	time_bare_updates(obj, argv[1], progs, u_xdp, rounds, false);
	time_bare_updates(obj, argv[1], progs, t_xdp, rounds, true);
	bpfkeys_close(obj);
	obj = load_and_attach(argv[1], &progs, TWO_XDP_LINKS_OF_PROG_0);
	time_flips(obj, progs, unused, rounds, true, w_two);
	bpfkeys_close(obj);
	obj = load_and_attach(argv[2], &progs, TCX_LINKS);
	time_flips(obj, progs, tcx, rounds, false, NULL);
	time_flips(obj, progs, p_tcx, rounds, true, w_tcx);
	time_bare_updates(obj, argv[2], progs, u_tcx, rounds, false);
	for (int r = 0; r < reloads; r++) {
		double t0 = now_us();

		bpfkeys_close(obj);
		obj = load_and_attach(argv[1], &progs, XDP_LINKS);
		reload[r] = now_us() - t0;
	}
	bpfkeys_close(obj);
	cell(c_bare, sizeof(c_bare), bare, rounds, false);
	cell(c_flip, sizeof(c_flip), flip, rounds, false);
	cell(c_tcx, sizeof(c_tcx), tcx, rounds, false);
	cell(c_ptcx, sizeof(c_ptcx), p_tcx, rounds, false);
	cell(c_utcx, sizeof(c_utcx), u_tcx, rounds, false);
	cell(c_pxdp, sizeof(c_pxdp), p_xdp, rounds, false);
	cell(c_uxdp, sizeof(c_uxdp), u_xdp, rounds, false);
	cell(c_txdp, sizeof(c_txdp), t_xdp, rounds, false);
	cell(c_wtcx, sizeof(c_wtcx), w_tcx, rounds, true);
	cell(c_wxdp, sizeof(c_wxdp), w_xdp, rounds, true);
	cell(c_wtwo, sizeof(c_wtwo), w_two, rounds, true);
	cell(c_reload, sizeof(c_reload), reload, reloads, false);
	/* medians (the arrays are sorted now) */
	ratio_tcx = p_tcx[rounds / 2] / u_tcx[rounds / 2];
	ratio_xdp = p_xdp[rounds / 2] / u_xdp[rounds / 2];
	reload_ratio = reload[reloads / 2] / flip[rounds / 2];
	printf("%-16s %-6u %-18s %-18s %-18s %-18s %-18s %-6.1fx %-20s %-18s %-18s %-6.1fx "
	       "%-18s %-20s %-20s %-18s %.1fx\n",
	       argv[4], info.xlated_prog_len / 8, c_bare, c_flip, c_tcx, c_ptcx, c_utcx, ratio_tcx,
	       c_wtcx, c_pxdp, c_uxdp, ratio_xdp, c_txdp, c_wxdp, c_wtwo, c_reload, reload_ratio);
	return 0;
}
