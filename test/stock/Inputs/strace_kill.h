/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kill tests' strace driver: this test program run again (SELF MODE
 * DIR) under strace, either counting its bpf, rename and unlink syscalls or
 * killed (SIGKILL) as it enters the Nth syscall of one kind. Include after
 * kill_check.h (kill_pin_dir).
 */
#ifndef STRACE_KILL_H
#define STRACE_KILL_H

static const char *const kinds[] = { "bpf", "rename", "unlink" };
#define KIND_COUNT 3
static char self[4096]; /* this program, for strace to run */

static inline void strace_kill_init(void)
{
	if (readlink("/proc/self/exe", self, sizeof(self) - 1) <= 0)
		fail("/proc/self/exe: %s", strerror(errno));
}

/* strace -o OUT [-e inject=KIND:signal=KILL:when=N] SELF MODE DIR; status of strace.
 * MODE flip: open the pins and flip both keys; open: only open (and recover) */
static inline int under_strace(const char *mode, const char *out, int kind, int when)
{
	char inject[128], trace[64];
	pid_t child;
	int status;

	snprintf(trace, sizeof(trace), "trace=%s", when ? kinds[kind] : "bpf,rename,unlink");
	snprintf(inject, sizeof(inject), "inject=%s:signal=KILL:when=%d", kinds[kind], when);
	fflush(stdout);
	child = fork();
	if (child < 0)
		fail("fork: %s", strerror(errno));
	if (child == 0) {
		/* LeakSanitizer cannot run under ptrace */
		setenv("ASAN_OPTIONS", "detect_leaks=0", 1);
		if (when)
			execlp("strace", "strace", "-qq", "-o", out, "-e", trace, "-e", inject,
			       self, mode, kill_pin_dir, (char *)NULL);
		else
			execlp("strace", "strace", "-qq", "-o", out, "-e", trace, self, mode,
			       kill_pin_dir, (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &status, 0) != child)
		fail("waitpid: %s", strerror(errno));
	return status;
}

/* the syscalls of one whole run, by kind, from strace's log; and which bpf
 * syscall is the first BPF_LINK_UPDATE */
static inline void count_syscalls(const char *log, int *count, int *first_link_update)
{
	char line[4096];
	FILE *f = fopen(log, "r");

	if (!f)
		fail("%s: %s", log, strerror(errno));
	while (fgets(line, sizeof(line), f))
		for (int k = 0; k < KIND_COUNT; k++)
			if (!strncmp(line, kinds[k], strlen(kinds[k])) &&
			    line[strlen(kinds[k])] == '(') {
				count[k]++;
				if (first_link_update && !*first_link_update && k == 0 &&
				    !strncmp(line, "bpf(BPF_LINK_UPDATE", 19))
					*first_link_update = count[k];
			}
	fclose(f);
	unlink(log);
}

#endif /* STRACE_KILL_H */
