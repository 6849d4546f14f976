/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the end-to-end tests that run in the patched kernel under qemu
 * (scripts/qemu-run.sh, BPFSK_QEMU_FILES puts the test's objects in /files):
 * open and load an object with the patched libbpf, run its programs, check
 * their results. Every test first checks that the kernel has static keys,
 * so that it fails, not skips, without them.
 */
#ifndef E2E_LOADER_H
#define E2E_LOADER_H

#include "bpfsk_test.h"
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static int e2e_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stdout, fmt, ap);
}

static inline struct bpf_object *e2e_open(const char *path)
{
	struct bpf_object *obj;

	require_static_keys_kernel();
	libbpf_set_print(e2e_libbpf_print);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		printf("FAIL: open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return obj;
}

static inline void e2e_load(struct bpf_object *obj)
{
	int err = bpf_object__load(obj);

	if (err) {
		printf("FAIL: load: %s\n", strerror(-err));
		exit(1);
	}
}

static inline struct bpf_program *e2e_prog(struct bpf_object *obj, const char *name)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(obj, name);

	if (!prog) {
		printf("FAIL: no program %s\n", name);
		exit(1);
	}
	return prog;
}

/* Runs prog once, prints "name = retval", counts a failure if it is not want. */
static inline __u32 e2e_expect_run(struct bpf_program *prog, __u32 want)
{
	__u32 got = prog_run(bpf_program__fd(prog));

	printf("  %s = %u\n", bpf_program__name(prog), got);
	if (got != want) {
		printf("FAIL: %s returned %u, expected %u\n", bpf_program__name(prog), got, want);
		failures++;
	}
	return got;
}

static inline void e2e_ok(const char *what, int err)
{
	if (err) {
		printf("FAIL: %s: %s\n", what, errname(err));
		failures++;
	}
}

/*
 * The bpfkeyctl sessions: runs the shell script @script with /files/busybox,
 * the BPF file system mounted at /sys/fs/bpf; returns the script's exit
 * status (1 if it did not exit).
 */
static inline int e2e_shell_session(const char *script)
{
	int status;
	pid_t pid;

	require_static_keys_kernel();
	mkdir("/sys/fs/bpf", 0755);
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL)) {
		printf("FAIL: mount bpffs: %s\n", strerror(errno));
		exit(1);
	}
	pid = fork();
	if (pid == 0) {
		execl("/files/busybox", "sh", script, (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

#endif /* E2E_LOADER_H */
