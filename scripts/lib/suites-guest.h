/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest halves of scripts/upstream-suites.sh
 * (upstream-suites-guest.c) and scripts/upstream-suites-progs.sh
 * (upstream-suites-progs-guest.c) share: the set-up of the initramfs for a
 * suite, the sysctls, and the kernel log the host checks. Included by each,
 * which is then built alone ("cc -static upstream-suites-*-guest.c"), in the
 * way of the kselftest.h header.
 */
#ifndef SUITES_GUEST_H
#define SUITES_GUEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

static void die(const char *what)
{
	printf("=== GUEST ERROR %s: %s\n", what, strerror(errno));
	exit(2);
}

/*
 * Mounts a file system of TYPE on DIR (made if missing). One that cannot be
 * mounted is fatal if REQUIRED, else noted on the console (a suite that needs
 * it then fails on its own).
 */
static void mount_at(const char *type, const char *dir, const char *options, int required)
{
	mkdir(dir, 0755);
	if (!mount(type, dir, type, 0, options) || errno == EBUSY)
		return;
	if (required)
		die(dir);
	printf("=== GUEST NOTE mount %s on %s: %s\n", type, dir, strerror(errno));
}

/* Writes a sysctl and prints what it reads back, for the host to check. */
static void set_sysctl(const char *path, int value)
{
	char buf[32];
	int fd = open(path, O_RDWR);
	ssize_t n;

	if (fd < 0)
		die(path);
	n = snprintf(buf, sizeof(buf), "%d\n", value);
	if (write(fd, buf, n) != n)
		die(path);
	if (lseek(fd, 0, SEEK_SET) < 0 || (n = read(fd, buf, sizeof(buf) - 1)) <= 0)
		die(path);
	buf[n] = 0;
	buf[strcspn(buf, "\n")] = 0;
	printf("=== SYSCTL %s=%s\n", path, buf);
	close(fd);
}

/*
 * libbpf resolves a program's __kconfig externs (test_maps'
 * read_bpf_task_storage_busy reads CONFIG_PREEMPT) from
 * /boot/config-<release> or /proc/config.gz. The suites kernels have no
 * IKCONFIG, so the host puts the kernel's .config in /suites/config (when it
 * does) and it is linked where libbpf looks.
 */
static void link_kernel_config(void)
{
	char path[sizeof(((struct utsname *)0)->release) + 16];
	struct utsname uts;

	if (access("/suites/config", R_OK))
		return;
	if (uname(&uts))
		die("uname");
	if (mkdir("/boot", 0755) && errno != EEXIST)
		die("/boot");
	snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
	if (symlink("/suites/config", path))
		die(path);
	printf("=== KCONFIG %s\n", path);
}

/*
 * Both suites: kernel.unprivileged_bpf_disabled=0 (else the verifier tests
 * skip their unprivileged half, the half that exercises the dead-code
 * sanitizing the series touches), net.core.bpf_jit_harden=HARDEN, the
 * kernel's config where libbpf reads it, and /suites (the suite, its BPF
 * objects and bpf_testmod.ko) as the working directory.
 */
static void enter_suites(int harden)
{
	link_kernel_config();
	set_sysctl("/proc/sys/kernel/unprivileged_bpf_disabled", 0);
	set_sysctl("/proc/sys/net/core/bpf_jit_harden", harden);
	if (chdir("/suites"))
		die("/suites");
}

/*
 * The kernel log between "=== DMESG BEGIN" and "=== DMESG END", for the host
 * to check for warnings and oopses.
 */
static void print_kernel_log(void)
{
	int size = klogctl(10 /* SYSLOG_ACTION_SIZE_BUFFER */, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		die("klogctl size");
	buf = malloc(size);
	if (!buf)
		die("malloc");
	n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, buf, size);
	if (n < 0)
		die("klogctl read");
	printf("=== DMESG BEGIN\n");
	fwrite(buf, 1, n, stdout);
	if (n && buf[n - 1] != '\n')
		printf("\n");
	printf("=== DMESG END\n");
	free(buf);
}

#endif /* SUITES_GUEST_H */
