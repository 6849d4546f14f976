// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pinned flip of a program whose link cannot be updated (a raw
// tracepoint, attached with BPFKEYS_ATTACH_OVERLAP: the new link is
// attached, then the old one detached) killed at any of its syscalls is
// completed or rolled back by the next opener. strace counts the bpf,
// rename and unlink syscalls of one flip of trace_key from another process,
// then kills a flip at each of them; after each kill the opener's recovery
// leaves one link (no :new pin, no journal), one program using the
// object's map, and a getppid(2) counted once, by the version of the
// recorded state.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/raw_tp_counter.c -o %t/raw_tp.o
// RUN: %bpfld -o %t/linked.o %t/raw_tp.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: flip under strace: bpf {{[1-9][0-9]*}}, rename {{[1-9][0-9]*}}, unlink {{[1-9][0-9]*}} syscalls
// CHECK-NEXT: kill points: [[N:[0-9]+]], killed [[N]], consistent after recovery [[N]]
// CHECK-NEXT: states after recovery: {{[1-9][0-9]*}} flips done, {{[1-9][0-9]*}} undone
#include <sys/syscall.h>

#include "kill_check.h"
#include "strace_kill.h"

static int trace_key_state(void)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(kill_pin_dir, &opts);
	int on = obj ? bpfkeys_key_state(obj, "trace_key") : -1;

	bpfkeys_close(obj);
	return on;
}

static int flip_trace_key(const char *dir)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(dir, &opts);
	int n;

	if (!obj)
		return 1;
	n = bpfkeys_set(obj, "trace_key", !bpfkeys_key_state(obj, "trace_key"));
	bpfkeys_close(obj);
	return n == 1 ? 0 : 1;
}

static uint64_t slot_of(int calls, uint32_t slot)
{
	uint64_t n = 0;

	bpf_map_lookup_elem(calls, &slot, &n);
	return n;
}

/* 0 if consistent after the opener's recovery, else why */
static int check(uint32_t map_id, char *why, size_t why_size)
{
	int on = trace_key_state(), calls, links = 0, programs = 0;
	uint64_t before[2], pid = (uint64_t)getpid(), nr = SYS_getppid;
	char path[256];
	struct dirent *e;
	DIR *d;

	if (on < 0) {
		snprintf(why, why_size, "open: %s", strerror(errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/journal", kill_pin_dir);
	if (access(path, F_OK) == 0) {
		snprintf(why, why_size, "%s left", path);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/links", kill_pin_dir);
	d = opendir(path);
	while (d && (e = readdir(d)))
		links += e->d_name[0] != '.';
	if (d)
		closedir(d);
	if (links != 1) {
		snprintf(why, why_size, "%d pins in links/, 1 expected", links);
		return -1;
	}
	for (int i = 0; i < 200 && (programs = kill_programs_using(map_id)) != 1; i++)
		usleep(10000);
	if (programs != 1) {
		snprintf(why, why_size, "%d programs use the object's map, 1 expected", programs);
		return -1;
	}
	calls = pinned_fd(kill_pin_dir, "maps/calls");
	if (bpf_map_update_elem(calls, &(uint32_t){ 2 }, &pid, BPF_ANY) ||
	    bpf_map_update_elem(calls, &(uint32_t){ 3 }, &nr, BPF_ANY))
		fail("calls: %s", strerror(errno));
	before[0] = slot_of(calls, 0);
	before[1] = slot_of(calls, 1);
	syscall(SYS_getppid);
	if (slot_of(calls, (uint32_t)on) != before[on] + 1 ||
	    slot_of(calls, (uint32_t)!on) != before[!on]) {
		snprintf(why, why_size, "getppid counted off +%llu, on +%llu; recorded %s",
			 (unsigned long long)(slot_of(calls, 0) - before[0]),
			 (unsigned long long)(slot_of(calls, 1) - before[1]), on ? "on" : "off");
		close(calls);
		return -1;
	}
	close(calls);
	return 0;
}

int main(int argc, char **argv)
{
	int count[KIND_COUNT] = { 0 }, points = 0, killed = 0, consistent = 0, done = 0, undone = 0,
	    status;
	struct bpfkeys_object *obj;
	char log[256], why[512];
	uint32_t map_id;

	if (argc == 3 && !strcmp(argv[1], "flip"))
		return flip_trace_key(argv[2]);
	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	if (geteuid() != 0)
		fail("needs root");
	strace_kill_init();
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/bpfkeys-kill-overlap-%d",
		 getpid());
	atexit(kill_remove_pins);
	obj = stock_open(argv[1], NULL);
	if (bpfkeys_load(obj) || !bpfkeys_attach(obj, "count_syscall", BPFKEYS_ATTACH_OVERLAP) ||
	    bpfkeys_pin(obj, kill_pin_dir))
		fail("load, attach, pin: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);
	{
		int calls = pinned_fd(kill_pin_dir, "maps/calls");
		struct bpf_map_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(calls, &info, &len))
			fail("maps/calls: %s", strerror(errno));
		map_id = info.id;
		close(calls);
	}
	snprintf(log, sizeof(log), "/tmp/bpfkeys-kill-overlap-%d.log", getpid());

	status = under_strace("flip", log, 0, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the flip under strace did not succeed (status %#x)", status);
	count_syscalls(log, count, NULL);
	printf("flip under strace: bpf %d, rename %d, unlink %d syscalls\n", count[0], count[1],
	       count[2]);
	if (check(map_id, why, sizeof(why)))
		fail("after the whole flip: %s", why);
	for (int k = 0; k < KIND_COUNT; k++)
		for (int n = 1; n <= count[k]; n++) {
			int was = trace_key_state();

			points++;
			status = under_strace("flip", "/dev/null", k, n);
			killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
			if (check(map_id, why, sizeof(why)))
				printf("kill at %s #%d: inconsistent: %s\n", kinds[k], n, why);
			else
				consistent++;
			if (trace_key_state() != was)
				done++;
			else
				undone++;
		}
	printf("kill points: %d, killed %d, consistent after recovery %d\n", points, killed,
	       consistent);
	printf("states after recovery: %d flips done, %d undone\n", done, undone);
	return 0;
}
