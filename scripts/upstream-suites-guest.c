// SPDX-License-Identifier: GPL-2.0
/*
 * The guest half of scripts/upstream-suites.sh: put in /tests of the
 * initramfs, run by scripts/qemu-init.c. It reads its orders from the kernel
 * command line:
 *
 *   bpfsk.suite=test_verifier   the suite (/suites/<name>, run in /suites,
 *                               where bpf_testmod.ko is)
 *   bpfsk.harden=N              net.core.bpf_jit_harden for the run
 *   bpfsk.ranges=A-B,C-D        test_verifier's case ranges to run
 *                               (inclusive, within its cases: test_verifier
 *                               runs all cases when a bound is out of range);
 *                               the other suites (test_maps) take no
 *                               arguments and run once, ranges ignored
 *   bpfsk.budget=S              seconds a case may run without printing a
 *                               line (default 0: no limit)
 *
 * sets kernel.unprivileged_bpf_disabled=0 (else test_verifier skips the
 * unprivileged half of every case), brings the loopback interface up
 * (test_maps' sockmap and reuseport tests bind to 127.0.0.1), runs the suite with its output on the
 * console through a pseudo-terminal (so that it is line-buffered and a case
 * that overruns its budget can be named), and at the end prints the kernel
 * log between "=== DMESG BEGIN" and "=== DMESG END" for the host to check
 * for warnings and oopses.
 *
 * A case over budget: test_verifier prints "#N/u desc " and "#N/p desc "
 * (unprivileged half, then privileged half) and the verdict on the same
 * line, so the last complete line names the last finished half. The runner
 * kills it, prints "=== BUDGET after <last line's #N/x>", and resumes after
 * the case that was running. A suite without case ranges is killed and not
 * resumed.
 */
#define _GNU_SOURCE
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>

#include "lib/suites-guest.h"	/* die, mount_at, enter_suites, print_kernel_log */

#define MAX_RANGES 64

struct case_range {
	long first, last;
};

struct orders {
	char suite[64];
	int harden;
	long budget_s;
	struct case_range ranges[MAX_RANGES];
	int range_cnt;
};

static int parse_ranges(const char *text, struct orders *o)
{
	const char *p = text;

	while (*p) {
		char *end;
		long first = strtol(p, &end, 10), last;

		if (end == p || *end != '-')
			return -1;
		p = end + 1;
		last = strtol(p, &end, 10);
		if (end == p || last < first || o->range_cnt == MAX_RANGES)
			return -1;
		o->ranges[o->range_cnt].first = first;
		o->ranges[o->range_cnt].last = last;
		o->range_cnt++;
		p = end;
		if (*p == ',')
			p++;
		else if (*p)
			return -1;
	}
	return 0;
}

static void read_orders(struct orders *o)
{
	char line[4096], *tok, *save;
	FILE *f = fopen("/proc/cmdline", "r");

	memset(o, 0, sizeof(*o));
	strcpy(o->suite, "test_verifier");
	if (!f || !fgets(line, sizeof(line), f))
		die("/proc/cmdline");
	fclose(f);
	line[strcspn(line, "\n")] = 0;
	for (tok = strtok_r(line, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strncmp(tok, "bpfsk.suite=", 12))
			snprintf(o->suite, sizeof(o->suite), "%s", tok + 12);
		else if (!strncmp(tok, "bpfsk.harden=", 13))
			o->harden = atoi(tok + 13);
		else if (!strncmp(tok, "bpfsk.budget=", 13))
			o->budget_s = atol(tok + 13);
		else if (!strncmp(tok, "bpfsk.ranges=", 13) && parse_ranges(tok + 13, o)) {
			printf("=== GUEST ERROR bad bpfsk.ranges: %s\n", tok + 13);
			exit(2);
		}
	}
}

/* The initramfs has no network set-up: "lo" starts down. */
static void bring_up_loopback(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || ioctl(fd, SIOCGIFFLAGS, &ifr))
		die("lo");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(fd, SIOCSIFFLAGS, &ifr))
		die("lo up");
	printf("=== LOOPBACK up\n");
	close(fd);
}

/* test_verifier takes case ranges; the other suites run once, whole. */
static int takes_ranges(const struct orders *o)
{
	return !strcmp(o->suite, "test_verifier");
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Runs the suite on cases first..last. Returns -1 when it finished (its
 * exit status is printed), else the case to resume at after a budget kill.
 */
static long run_range(const struct orders *o, long first, long last)
{
	char path[128], a[24], b[24], line[8192];
	size_t line_len = 0;
	long last_index = -1;
	char last_half = 0;
	double last_progress;
	int master, status, rc;
	struct termios tio;
	pid_t pid;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		die("posix_openpt");
	snprintf(path, sizeof(path), "/suites/%s", o->suite);
	snprintf(a, sizeof(a), "%ld", first);
	snprintf(b, sizeof(b), "%ld", last);
	if (takes_ranges(o))
		printf("=== RANGE %ld-%ld\n", first, last);
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		int slave;

		setsid();
		slave = open(ptsname(master), O_RDWR);
		if (slave < 0)
			die("open pts");
		/* no \r\n translation: the host reads lines as printed */
		if (!tcgetattr(slave, &tio)) {
			tio.c_oflag &= ~OPOST;
			tcsetattr(slave, TCSANOW, &tio);
		}
		dup2(slave, 1);
		dup2(slave, 2);
		close(slave);
		close(master);
		if (takes_ranges(o))
			execl(path, path, a, b, (char *)NULL);
		else
			execl(path, path, (char *)NULL);
		perror("exec");
		_exit(127);
	}

	last_progress = now_s();
	for (;;) {
		struct pollfd pfd = { .fd = master, .events = POLLIN };
		char buf[4096];
		ssize_t n;
		int timeout_ms = -1;

		if (o->budget_s > 0) {
			double left = o->budget_s - (now_s() - last_progress);

			timeout_ms = left > 0 ? (int)(left * 1000) + 1 : 0;
		}
		n = poll(&pfd, 1, timeout_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0) {
			long resume;

			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			close(master);
			if (line_len)
				printf("\n");
			if (!takes_ranges(o)) {
				printf("=== BUDGET %ld s exceeded: killed\n", o->budget_s);
				return -1;
			}
			/* as root, every case has a /p half after its /u half */
			if (last_index < 0)
				resume = first + 1;
			else
				resume = last_half == 'u' ? last_index + 1 : last_index + 2;
			printf("=== BUDGET %ld s exceeded after #%ld/%c: killed, resuming at #%ld\n",
			       o->budget_s, last_index, last_half ? last_half : '-', resume);
			return resume;
		}
		n = read(master, buf, sizeof(buf));
		if (n <= 0)
			break; /* EIO: the child closed the terminal */
		fwrite(buf, 1, n, stdout);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] != '\n') {
				if (line_len < sizeof(line) - 1)
					line[line_len++] = buf[i];
				continue;
			}
			line[line_len] = 0;
			last_progress = now_s();
			if (line[0] == '#') {
				char *end;
				long index = strtol(line + 1, &end, 10);

				if (end != line + 1 && end[0] == '/' &&
				    (end[1] == 'u' || end[1] == 'p')) {
					last_index = index;
					last_half = end[1];
				}
			}
			line_len = 0;
		}
	}
	close(master);
	if (waitpid(pid, &status, 0) < 0)
		die("waitpid");
	rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	if (takes_ranges(o))
		printf("=== RANGE-EXIT %ld-%ld rc=%d\n", first, last, rc);
	else
		printf("=== SUITE-EXIT %s rc=%d\n", o->suite, rc);
	return -1;
}

int main(void)
{
	struct orders o;

	setvbuf(stdout, NULL, _IONBF, 0);
	read_orders(&o);
	mount_at("devpts", "/dev/pts", "ptmxmode=0666", 1);
	enter_suites(o.harden);
	bring_up_loopback();
	printf("=== SUITE %s harden=%d budget=%ld\n", o.suite, o.harden, o.budget_s);
	if (!takes_ranges(&o)) {
		run_range(&o, 0, 0);
	} else if (!o.range_cnt) {
		printf("=== GUEST ERROR no bpfsk.ranges\n");
		return 2;
	}
	for (int i = 0; takes_ranges(&o) && i < o.range_cnt; i++) {
		long first = o.ranges[i].first;

		while (first >= 0 && first <= o.ranges[i].last)
			first = run_range(&o, first, o.ranges[i].last);
	}
	print_kernel_log();
	printf("=== SUITE-DONE %s\n", o.suite);
	return 0;
}
