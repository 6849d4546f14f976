/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers of the stock-kernel tests (test/stock): open and load with
 * libbpfkeys or fail the test, run a program once with BPF_PROG_TEST_RUN,
 * read program and link ids and the counters the test programs keep, open
 * pins and flip keys from another process. Any unexpected failure prints
 * "FAIL: ..." and exits 1: a test never skips.
 */
#ifndef STOCK_TEST_H
#define STOCK_TEST_H

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <bpfkeys/libbpfkeys.h>

__attribute__((format(printf, 1, 2), noreturn)) static inline void fail(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("FAIL: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	exit(1);
}

/* libbpf's warnings to stdout, where FileCheck sees them in order */
static int stock_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stdout, fmt, ap);
}

static inline struct bpfkeys_object *stock_open(const char *path, const struct bpfkeys_open_opts *opts)
{
	struct bpfkeys_object *obj;

	setvbuf(stdout, NULL, _IOLBF, 0);
	libbpf_set_print(stock_libbpf_print);
	if (geteuid() != 0)
		fail("needs root (BPF programs, links, network namespaces)");
	obj = bpfkeys_open_file(path, opts);
	if (!obj)
		fail("open %s: %s", path, strerror(errno));
	return obj;
}

static inline struct bpfkeys_object *stock_open_and_load(const char *path)
{
	struct bpfkeys_object *obj = stock_open(path, NULL);
	int err = bpfkeys_load(obj);

	if (err)
		fail("load %s: %s", path, strerror(-err));
	return obj;
}

/* one BPF_PROG_TEST_RUN of the program's current version on a 64-byte packet */
static inline unsigned int run_once(struct bpfkeys_object *obj, const char *program)
{
	unsigned char packet[64] = {0};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .repeat = 1);
	int fd = bpfkeys_program_fd(obj, program);
	int err;

	if (fd < 0)
		fail("program %s: no fd: %s", program, strerror(-fd));
	err = bpf_prog_test_run_opts(fd, &opts);
	if (err)
		fail("program %s: test run: %s", program, strerror(-err));
	return opts.retval;
}

static inline uint32_t prog_id_of_fd(int prog_fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		fail("program info: %s", strerror(errno));
	return info.id;
}

static inline uint32_t prog_id(struct bpfkeys_object *obj, const char *program)
{
	return prog_id_of_fd(bpfkeys_program_fd(obj, program));
}

/* the id of the program the link runs now */
static inline uint32_t link_prog_id(int link_fd)
{
	struct bpf_link_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(link_fd, &info, &len))
		fail("link info: %s", strerror(errno));
	return info.prog_id;
}

/* slot `slot` of a test program's counter map (an array of __u64, e.g. "seen") */
static inline uint64_t seen_count(int map_fd, uint32_t slot)
{
	uint64_t n;

	if (bpf_map_lookup_elem(map_fd, &slot, &n))
		fail("seen[%u]: %s", slot, strerror(errno));
	return n;
}

/* every run the program counted: the sum of slots 0 .. slot_cnt - 1 */
static inline uint64_t runs_counted(int map_fd, uint32_t slot_cnt)
{
	uint64_t total = 0;

	for (uint32_t slot = 0; slot < slot_cnt; slot++)
		total += seen_count(map_fd, slot);
	return total;
}

/* an fd of the object pinned at PIN_DIR/NAME (e.g. "maps/seen") */
static inline int pinned_fd(const char *pin_dir, const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", pin_dir, name);
	fd = bpf_obj_get(path);
	if (fd < 0)
		fail("%s: %s", path, strerror(errno));
	return fd;
}

/*
 * Another process flips keys through the pins: a child opens the object
 * pinned at `pin_dir` (bpfkeys_open_pinned), runs `in_child` on it (which
 * flips and prints what the test checks), closes it and exits. The test
 * fails unless `in_child` returned 0.
 */
static inline void flip_from_pins_in_child(const char *pin_dir,
					   int (*in_child)(struct bpfkeys_object *pinned))
{
	int status;
	pid_t child;

	fflush(stdout);
	child = fork();
	if (child < 0)
		fail("fork: %s", strerror(errno));
	if (child == 0) {
		struct bpfkeys_object *pinned = bpfkeys_open_pinned(pin_dir, NULL);
		int err;

		if (!pinned)
			fail("open pinned: %s", strerror(errno));
		err = in_child(pinned);
		bpfkeys_close(pinned);
		fflush(stdout);
		_exit(err ? 1 : 0);
	}
	if (waitpid(child, &status, 0) != child || !WIFEXITED(status) || WEXITSTATUS(status))
		fail("the child did not flip");
}

static inline void flip_or_fail(struct bpfkeys_object *obj, const char *key, int on, int replaced)
{
	int n = bpfkeys_set(obj, key, on);

	if (n != replaced)
		fail("flip %s=%s: %d programs replaced, expected %d (%s)", key, on ? "on" : "off", n,
		     replaced, bpfkeys_errmsg(obj));
}

static inline int run_cmd(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static inline int run_cmd(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

#endif /* STOCK_TEST_H */
