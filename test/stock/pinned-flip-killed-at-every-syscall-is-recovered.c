// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pinned flip killed at any of its syscalls is completed or rolled back
// by the next opener. Two programs (flip_one, flip_two), each on a pinned
// XDP link, both keys flipped together by another process. strace counts
// that process's bpf, rename and unlink syscalls; then, for every syscall
// of each kind and every invocation N, a flip runs under strace with
// `-e inject=SYSCALL:signal=KILL:when=N` (killed as it enters its Nth such
// call) and the directory is checked (Inputs/kill_check.h): it opens, the
// recorded states are what every link and progs/ pin runs, nothing of the
// flip is left, and exactly 2 programs use the object's maps. Then the
// recovery itself is killed the same way: a flip killed after its first
// link update, an opener killed at each syscall of its recovery, and the
// next opener's recovery checked. Last, a flip that fails (meta frozen)
// is killed at each of its syscalls, its undo included: the recovery
// rolls it back, the states unchanged.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: flip under strace: bpf {{[1-9][0-9]*}}, rename {{[1-9][0-9]*}}, unlink {{[1-9][0-9]*}} syscalls
// CHECK-NEXT: kill points: [[N:[0-9]+]], killed [[N]], consistent after recovery [[N]]
// CHECK-NEXT: states after recovery: {{[1-9][0-9]*}} flips done, {{[1-9][0-9]*}} undone
// CHECK-NEXT: recovering open under strace: bpf {{[1-9][0-9]*}}, rename {{[1-9][0-9]*}}, unlink {{[1-9][0-9]*}} syscalls
// CHECK-NEXT: recovery kill points: [[R:[0-9]+]], killed [[R]], consistent after the next recovery [[R]]
// CHECK-NEXT: a flip after the kills: replaced 2, consistent: yes
// CHECK-NEXT: failing flip (meta frozen) kill points: [[F:[0-9]+]], killed [[F]], unchanged and consistent after recovery [[F]]
#include "kill_check.h"
#include "strace_kill.h"

static int key_a_state(void)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(kill_pin_dir, &opts);
	int on = obj ? bpfkeys_key_state(obj, "key_a") : -1;

	bpfkeys_close(obj);
	return on;
}

/* a flip killed after its first link update: the journal's, to recover */
static void interrupted_flip(int first_link_update)
{
	int status = under_strace("flip", "/dev/null", 0, first_link_update + 1);

	if (!WIFSIGNALED(status))
		fail("the flip to interrupt was not killed (status %#x)", status);
}

int main(int argc, char **argv)
{
	int count[KIND_COUNT] = { 0 }, recovery[KIND_COUNT] = { 0 }, first_link_update = 0,
	    points = 0, killed = 0, consistent = 0, done = 0, undone = 0, status;
	char log[256], why[512];
	uint32_t map_id;

	if (argc == 3 && !strcmp(argv[1], "flip"))
		return kill_flip(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "open")) {
		LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
		struct bpfkeys_object *obj = bpfkeys_open_pinned(argv[2], &opts);

		bpfkeys_close(obj);
		return !obj;
	}
	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	if (geteuid() != 0)
		fail("needs root");
	strace_kill_init();
	kill_setup(argv[1], "bpfkeys-kill-every-syscall");
	map_id = kill_map_id(kill_pin_dir);
	snprintf(log, sizeof(log), "/tmp/bpfkeys-kill-every-syscall-%d.log", getpid());

	status = under_strace("flip", log, 0, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the flip under strace did not succeed (status %#x)", status);
	count_syscalls(log, count, &first_link_update);
	printf("flip under strace: bpf %d, rename %d, unlink %d syscalls\n", count[0], count[1],
	       count[2]);
	if (kill_check(kill_pin_dir, map_id, why, sizeof(why)))
		fail("after the whole flip: %s", why);

	for (int k = 0; k < KIND_COUNT; k++)
		for (int n = 1; n <= count[k]; n++) {
			int was = key_a_state();

			points++;
			status = under_strace("flip", "/dev/null", k, n);
			/* strace ends as its tracee did: killed */
			killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
			if (kill_check(kill_pin_dir, map_id, why, sizeof(why)))
				printf("kill at %s #%d: inconsistent: %s\n", kinds[k], n, why);
			else
				consistent++;
			if (key_a_state() != was)
				done++;
			else
				undone++;
		}
	printf("kill points: %d, killed %d, consistent after recovery %d\n", points, killed,
	       consistent);
	printf("states after recovery: %d flips done, %d undone\n", done, undone);

	/* the recovery killed in turn, at each of its syscalls, then recovered */
	interrupted_flip(first_link_update);
	status = under_strace("open", log, 0, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the recovering open under strace did not succeed (status %#x)", status);
	count_syscalls(log, recovery, NULL);
	printf("recovering open under strace: bpf %d, rename %d, unlink %d syscalls\n", recovery[0],
	       recovery[1], recovery[2]);
	points = killed = consistent = 0;
	for (int k = 0; k < KIND_COUNT; k++)
		for (int n = 1; n <= recovery[k]; n++) {
			interrupted_flip(first_link_update);
			points++;
			status = under_strace("open", "/dev/null", k, n);
			killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
			if (kill_check(kill_pin_dir, map_id, why, sizeof(why)))
				printf("recovery killed at %s #%d: inconsistent: %s\n", kinds[k], n,
				       why);
			else
				consistent++;
		}
	printf("recovery kill points: %d, killed %d, consistent after the next recovery %d\n",
	       points, killed, consistent);

	status = kill_flip(kill_pin_dir);
	printf("a flip after the kills: replaced %d, consistent: %s\n", status ? 0 : 2,
	       kill_check(kill_pin_dir, map_id, why, sizeof(why)) ? why : "yes");

	/* a flip that fails (meta frozen: its states cannot be written), killed
	 * at each syscall, its undo included: the recovery rolls it back */
	{
		int meta = pinned_fd(kill_pin_dir, "meta"), failing[KIND_COUNT] = { 0 }, was;

		if (bpf_map_freeze(meta))
			fail("freeze meta: %s", strerror(errno));
		close(meta);
		was = key_a_state();
		status = under_strace("flip", log, 0, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
			fail("the flip with meta frozen did not fail (status %#x)", status);
		count_syscalls(log, failing, NULL);
		points = killed = consistent = 0;
		for (int k = 0; k < KIND_COUNT; k++)
			for (int n = 1; n <= failing[k]; n++) {
				points++;
				status = under_strace("flip", "/dev/null", k, n);
				killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
				if (kill_check(kill_pin_dir, map_id, why, sizeof(why)))
					printf("failing flip killed at %s #%d: inconsistent: %s\n",
					       kinds[k], n, why);
				else if (key_a_state() != was)
					printf("failing flip killed at %s #%d: the states "
					       "changed\n",
					       kinds[k], n);
				else
					consistent++;
			}
		printf("failing flip (meta frozen) kill points: %d, killed %d, unchanged and "
		       "consistent after recovery %d\n",
		       points, killed, consistent);
	}
	return 0;
}
