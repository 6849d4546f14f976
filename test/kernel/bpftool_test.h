/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the tests of bpftool's static-key support (kernel-patches/0055,
 * 0056): named keys and programs (bpftool shows names), and a runner for
 * /bin/bpftool, the patched tree's bpftool that scripts/qemu-run.sh puts in
 * the initramfs. Each run prints "$ bpftool ARGS", bpftool's output
 * (stdout and stderr, both on the console) and "exit N", so that FileCheck
 * sees the command, what it printed and how it ended. prog_id_of() is
 * bpfsk_test.h's.
 */
#ifndef BPFTOOL_TEST_H
#define BPFTOOL_TEST_H

#include "bpfsk_test.h"
#include <stdarg.h>
#include <sys/mount.h>
#include <sys/wait.h>

/* runs bpftool with the NULL-terminated arguments; returns its exit status */
static inline int bpftool(const char *arg, ...)
{
	const char *argv[32] = { "bpftool" };
	int argc = 1, status;
	va_list ap;
	pid_t pid;

	va_start(ap, arg);
	for (; arg && argc < 31; arg = va_arg(ap, const char *))
		argv[argc++] = arg;
	va_end(ap);
	argv[argc] = NULL;

	printf("$");
	for (int i = 0; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv("/bin/bpftool", (char **)argv);
		printf("FAIL: cannot run /bin/bpftool: %s\n", strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		printf("FAIL: bpftool did not exit\n");
		exit(1);
	}
	printf("\nexit %d\n", WEXITSTATUS(status));
	return WEXITSTATUS(status);
}

/* bpftool ... that must succeed */
#define bpftool_ok(...)                                            \
	do {                                                       \
		if (bpftool(__VA_ARGS__, NULL)) {                  \
			printf("FAIL: bpftool failed\n");          \
			failures++;                                \
		}                                                  \
	} while (0)

static inline const char *u32str(__u32 v)
{
	static char bufs[8][16];
	static int next;
	char *s = bufs[next++ % 8];

	snprintf(s, sizeof(bufs[0]), "%u", v);
	return s;
}

/* a static key named @name with orig_off = @offs, frozen; dies on error */
static inline int named_static_key(const char *name, __u64 map_extra, const __u32 *offs,
				   __u32 n)
{
	return insn_array_create_named(name, name, map_extra, offs, n, true);
}

/* a program of @type with @flags named @name, @fds bound by fd_array_cnt; dies on error */
static inline int named_prog_as(const char *name, __u32 type, __u32 flags,
				const struct bpf_insn *insns, __u32 cnt, const int *fds, __u32 fd_cnt)
{
	int fd = prog_load_full(type, flags, name, insns, cnt, fds, fd_cnt, 1);

	if (fd < 0) {
		printf("FAIL: load %s: %s\n%s", name, errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* a socket filter named @name, @fds bound by fd_array_cnt; dies on error */
static inline int named_prog(const char *name, const struct bpf_insn *insns, __u32 cnt,
			     const int *fds, __u32 fd_cnt)
{
	return named_prog_as(name, BPF_PROG_TYPE_SOCKET_FILTER, 0, insns, cnt, fds, fd_cnt);
}

/* BPF_OBJ_PIN; 0 or -1 with errno */
static inline int bpf_obj_pin_path(int fd, const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.bpf_fd = fd;
	attr.pathname = (__u64)(unsigned long)path;
	return sys_bpf(BPF_OBJ_PIN, &attr) ? -1 : 0;
}

static inline __u32 map_id_of(int fd)
{
	struct bpf_map_info info;

	if (map_info_of(fd, &info)) {
		printf("FAIL: map info: %s\n", strerror(errno));
		exit(1);
	}
	return info.id;
}

#endif
