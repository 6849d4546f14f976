// SPDX-License-Identifier: GPL-2.0
/*
 * /init of the initramfs built by scripts/qemu-run.sh: mounts the pseudo
 * file systems, runs every program in /tests in name order with its output
 * on the serial console, prints "=== EXIT <name> rc=<n>" after each, and
 * reboots (qemu runs with -no-reboot, so it exits).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(void)
{
	struct dirent **names;
	int n, i, fd;

	mkdir("/dev", 0755);
	mkdir("/proc", 0755);
	mkdir("/sys", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);

	/* no /dev/console in the archive: open it now that devtmpfs is up */
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IONBF, 0);

	n = scandir("/tests", &names, NULL, by_name);
	if (n < 0) {
		printf("=== no /tests\n");
		n = 0;
	}
	for (i = 0; i < n; i++) {
		char path[512];
		int status = 0, rc;
		pid_t pid;

		if (names[i]->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/tests/%s", names[i]->d_name);
		printf("=== RUN %s\n", names[i]->d_name);
		pid = fork();
		if (pid == 0) {
			execl(path, path, (char *)NULL);
			perror("exec");
			_exit(127);
		}
		waitpid(pid, &status, 0);
		if (WIFEXITED(status))
			rc = WEXITSTATUS(status);
		else
			rc = 128 + WTERMSIG(status);
		printf("=== EXIT %s rc=%d\n", names[i]->d_name, rc);
	}
	printf("=== DONE\n");
	/*
	 * The serial tty sends what was written after write() returns, and the
	 * kernel's "reboot: Restarting system" goes straight to the console:
	 * without waiting, it could land inside the last "=== EXIT" line, which
	 * qemu-run.sh then did not find (a passing test reported as failed).
	 */
	tcdrain(1);
	sync();
	reboot(RB_AUTOBOOT);
	return 0;
}
