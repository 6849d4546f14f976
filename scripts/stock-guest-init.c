// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the stock-kernel guest (scripts/stock-guest-run.sh): mounts the
 * host's root file system, shared read-only over 9p, and the test's
 * directory, shared read-write at the same path, chroots into the host's
 * root, mounts the pseudo file systems a BPF test uses there and runs one
 * command, as the exchange directory describes it (its path in the
 * environment variable bpfsk_x, set on the kernel command line):
 *
 *   argv, env   NUL-separated arguments and environment
 *   cwd         working directory
 *   stdin       standard input
 *   merge       present when stdout and stderr go to the same file
 *
 * The command's output goes to out (and err unless merged), its exit status
 * (128 + signal when killed) to rc; then the guest reboots, which ends qemu (-no-reboot).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void fail(const char *what)
{
	printf("stock-guest-init: error: %s: %s\n", what, strerror(errno));
	sync();
	reboot(RB_AUTOBOOT);
	_exit(1);
}

static void mount_or_fail(const char *src, const char *dir, const char *type, unsigned long flags,
			  const char *data)
{
	char what[512];

	if (mount(src, dir, type, flags, data) == 0)
		return;
	snprintf(what, sizeof(what), "mount %s on %s", type, dir);
	fail(what);
}

/* Reads a whole file of the exchange directory, NUL-terminated. */
static char *read_file(const char *dir, const char *name, size_t *len)
{
	char path[4096];
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0 || !buf)
		fail(path);
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += r;
		if (n == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				fail(path);
		}
	}
	if (r < 0)
		fail(path);
	close(fd);
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* Splits NUL-separated strings into a NULL-terminated vector. */
static char **split(char *buf, size_t len)
{
	size_t count = 0, i, k = 0;
	char **vec;

	for (i = 0; i < len; i++)
		count += buf[i] == '\0';
	vec = calloc(count + 1, sizeof(*vec));
	if (!vec)
		fail("calloc");
	for (i = 0; i < len; i += strlen(buf + i) + 1)
		vec[k++] = buf + i;
	return vec;
}

/* lo is up on the host: tests that stay in the initial namespace may use it. */
static void loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		fail("socket");
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		fail("SIOCGIFFLAGS lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		fail("SIOCSIFFLAGS lo");
	close(fd);
}

int main(void)
{
	const char *xdir = getenv("bpfsk_x"), *rw = getenv("bpfsk_rw");
	char path[4096], *argv_buf, *env_buf, *cwd;
	char **args, **envs;
	size_t len;
	int status = 0, rc, out, err, in;
	pid_t pid;
	FILE *f;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 1);
		dup2(fd, 2);
	}
	setvbuf(stdout, NULL, _IONBF, 0);
	if (!xdir || !rw)
		fail("bpfsk_x and bpfsk_rw must be on the kernel command line");

	mkdir("/host", 0755);
	mount_or_fail("hostroot", "/host", "9p", MS_RDONLY,
		      "trans=virtio,version=9p2000.L,msize=262144,cache=loose");
	snprintf(path, sizeof(path), "/host%s", rw);
	mount_or_fail("work", path, "9p", 0, "trans=virtio,version=9p2000.L,msize=262144");
	if (chroot("/host") || chdir("/"))
		fail("chroot /host");
	mount_or_fail("proc", "/proc", "proc", 0, NULL);
	mount_or_fail("sysfs", "/sys", "sysfs", 0, NULL);
	mount_or_fail("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount_or_fail("tmpfs", "/tmp", "tmpfs", 0, NULL);
	mount_or_fail("tmpfs", "/run", "tmpfs", 0, NULL);
	mount_or_fail("bpf", "/sys/fs/bpf", "bpf", 0, NULL);
	mount_or_fail("cgroup2", "/sys/fs/cgroup", "cgroup2", 0, NULL);
	mount_or_fail("tracefs", "/sys/kernel/tracing", "tracefs", 0, NULL);
	loopback_up();

	argv_buf = read_file(xdir, "argv", &len);
	args = split(argv_buf, len);
	env_buf = read_file(xdir, "env", &len);
	envs = split(env_buf, len);
	cwd = read_file(xdir, "cwd", &len);
	if (!args[0])
		fail("empty argv");

	snprintf(path, sizeof(path), "%s/out", xdir);
	out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	snprintf(path, sizeof(path), "%s/merge", xdir);
	if (access(path, F_OK) == 0) {
		err = out;
	} else {
		snprintf(path, sizeof(path), "%s/err", xdir);
		err = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	snprintf(path, sizeof(path), "%s/stdin", xdir);
	in = open(path, O_RDONLY);
	if (out < 0 || err < 0 || in < 0)
		fail("exchange files");

	pid = fork();
	if (pid < 0)
		fail("fork");
	if (pid == 0) {
		environ = envs;
		if (chdir(cwd))
			fail(cwd);
		dup2(in, 0);
		dup2(out, 1);
		dup2(err, 2);
		execvp(args[0], args);
		fprintf(stderr, "stock-guest-run: %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	snprintf(path, sizeof(path), "%s/rc", xdir);
	f = fopen(path, "w");
	if (!f)
		fail(path);
	fprintf(f, "%d\n", rc);
	fclose(f);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
