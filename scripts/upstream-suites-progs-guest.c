// SPDX-License-Identifier: GPL-2.0
/*
 * The guest half of scripts/upstream-suites-progs.sh: put in /tests of the
 * initramfs, run by scripts/qemu-init.c. Mounts what test_progs expects
 * (bpffs, debugfs, tracefs, a tmpfs on /tmp, /mnt for cgroup2), sets
 * kernel.unprivileged_bpf_disabled=0 (the verifier tests' unprivileged
 * half) and net.core.bpf_jit_harden=0, runs /suites/test_progs in /suites
 * (where its BPF objects and bpf_testmod.ko are) with its output on the
 * console (only the tests named by bpfsk.tests=A,B on the kernel command
 * line, as test_progs -t A,B, if it is given), and prints its exit status and then the kernel log between
 * "=== DMESG BEGIN" and "=== DMESG END" for the host to check for warnings
 * and oopses.
 */
#define _GNU_SOURCE
#include <sys/wait.h>

#include "lib/suites-guest.h"	/* die, mount_at, enter_suites, print_kernel_log */

/* The value of bpfsk.tests= on the kernel command line, or NULL. */
static char *tests_from_cmdline(void)
{
	static char cmdline[4096];
	char *tok, *save;
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY);
	if (fd < 0)
		die("/proc/cmdline");
	n = read(fd, cmdline, sizeof(cmdline) - 1);
	close(fd);
	if (n < 0)
		die("/proc/cmdline");
	cmdline[n] = 0;
	for (tok = strtok_r(cmdline, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strncmp(tok, "bpfsk.tests=", 12))
			return tok + 12;
	return NULL;
}

int main(void)
{
	char *tests;
	int status, rc;
	pid_t pid;

	setvbuf(stdout, NULL, _IONBF, 0);
	mount_at("bpf", "/sys/fs/bpf", NULL, 0);
	mount_at("debugfs", "/sys/kernel/debug", NULL, 0);
	mount_at("tracefs", "/sys/kernel/tracing", NULL, 0);
	mount_at("tmpfs", "/tmp", NULL, 0);
	mkdir("/mnt", 0755);	/* cgroup_helpers.c mounts cgroup2 there */
	enter_suites(0);
	tests = tests_from_cmdline();
	printf("=== SUITE test_progs\n");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		if (tests)
			execl("./test_progs", "test_progs", "-t", tests, (char *)NULL);
		else
			execl("./test_progs", "test_progs", (char *)NULL);
		perror("exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	printf("=== TEST_PROGS-EXIT rc=%d\n", rc);
	print_kernel_log();
	printf("=== SUITE-DONE test_progs\n");
	return 0;
}
