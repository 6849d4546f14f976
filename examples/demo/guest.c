// SPDX-License-Identifier: GPL-2.0
/*
 * /tests/guest of the demo's initramfs (scripts/demo.sh runs it through
 * scripts/qemu-run.sh): mounts the BPF file system and runs the demo session
 * /files/session.sh with busybox, inside the patched kernel.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>

int main(void)
{
	int status;
	pid_t pid;

	mkdir("/sys/fs/bpf", 0755);
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, NULL)) {
		printf("demo: mount bpffs: %s\n", strerror(errno));
		return 1;
	}
	pid = fork();
	if (pid == 0) {
		execl("/files/busybox", "sh", "/files/session.sh", (char *)NULL);
		perror("exec busybox");
		_exit(127);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
