// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// A pinned flip that moves a PROG_ARRAY entry, killed at any of its
// syscalls, is completed or rolled back by the next opener, the entry
// with it. Inputs/tail_call_pair.c: caller, on a pinned XDP link,
// tail-calls slot 0 of jump_table (initialised in the object to target);
// caller_key and target_key are flipped together by another process, so a
// flip moves the entry (before the link update) and updates the link.
// strace counts that process's bpf, rename and unlink syscalls; then, for
// every syscall of each kind and every invocation N, a flip runs under
// strace killed as it enters its Nth such call, and the directory is
// checked: it opens (the recovery), the recorded states are what a run of
// caller through its link and its progs/ pin gives through the tail call
// (BPF_PROG_TEST_RUN), jump_table's entry is the program progs/target
// pins, no journal or :new pin is left, and one program uses target_runs
// (the old target is not held by the array) and one jump_table. Then a
// flip killed as it enters the entry's move is recovered by an opener
// killed at each syscall of its recovery, and the next opener checked.
// Last, a flip that fails (meta frozen) is killed at each of its syscalls
// from the entry's move on, its undo included: the recovery rolls it back,
// the entry with it.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/tail_call_pair.c -o %t/tail.o
// RUN: %bpfld -o %t/linked.o %t/tail.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: flip under strace: bpf {{[1-9][0-9]*}}, rename {{[1-9][0-9]*}}, unlink {{[1-9][0-9]*}} syscalls; the entry moves at bpf #{{[1-9][0-9]*}}, before the link update at bpf #{{[1-9][0-9]*}}
// CHECK-NEXT: kill points: [[N:[0-9]+]], killed [[N]], consistent after recovery [[N]]
// CHECK-NEXT: states after recovery: {{[1-9][0-9]*}} flips done, {{[1-9][0-9]*}} undone
// CHECK-NEXT: flip killed at the entry's move: journal left: yes, entry on the old target: yes
// CHECK-NEXT: recovering open under strace: bpf {{[1-9][0-9]*}}, rename {{[1-9][0-9]*}}, unlink {{[1-9][0-9]*}} syscalls
// CHECK-NEXT: recovery kill points: [[R:[0-9]+]], killed [[R]], consistent after the next recovery [[R]]
// CHECK-NEXT: a flip after the kills: replaced 2, consistent: yes
// CHECK-NEXT: failing flip (meta frozen) kill points: [[F:[0-9]+]], killed [[F]], unchanged and consistent after recovery [[F]]
#include "kill_check.h"
#include "strace_kill.h"

/* a run of caller or target: the caller state it wrote, the target state it
 * returned (-1: no tail call, or not a state) */
static int tail_run(int prog_fd, int *caller, int *target)
{
	unsigned char packet[64] = { 0xee }, out[64] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
		    .data_out = out, .data_size_out = sizeof(out), .repeat = 1);

	if (prog_fd < 0 || bpf_prog_test_run_opts(prog_fd, &opts))
		return -1;
	*caller = out[0] <= 1 ? out[0] : -1;
	*target = opts.retval == 10 ? 0 : opts.retval == 20 ? 1 : -1;
	return 0;
}

static int target_key_state(void)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(kill_pin_dir, &opts);
	int on = obj ? bpfkeys_key_state(obj, "target_key") : -1;

	bpfkeys_close(obj);
	return on;
}

/* one flip of both keys to the opposite of target_key's state */
static int tail_flip(const char *dir)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(dir, &opts);
	bool on;
	int n;

	if (!obj)
		return 1;
	on = !bpfkeys_key_state(obj, "target_key");
	struct bpfkeys_setting both[] = { { "caller_key", on }, { "target_key", on } };
	n = bpfkeys_flip(obj, both, 2);
	bpfkeys_close(obj);
	return n == 2 ? 0 : 1;
}

static uint32_t map_id_of(const char *pin)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info);
	int fd = pinned_fd(kill_pin_dir, pin);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		fail("%s: %s", pin, strerror(errno));
	close(fd);
	return info.id;
}

/* the id jump_table[0] holds (0: empty), and the one progs/target pins,
 * read from the pins without opening (which would recover) */
static uint32_t entry_id(void)
{
	int fd = pinned_fd(kill_pin_dir, "maps/jump_table");
	uint32_t slot = 0, id = 0;

	bpf_map_lookup_elem(fd, &slot, &id);
	close(fd);
	return id;
}

static uint32_t pinned_target_id(void)
{
	int fd = pinned_fd(kill_pin_dir, "progs/target");
	uint32_t id = prog_id_of_fd(fd);

	close(fd);
	return id;
}

/* every pin of SUB runs the state (a caller through the tail call); no :new
 * pin; how many, or -1 with why */
static int check_pins(const char *sub, int state, char *why, size_t why_size)
{
	char path[256];
	struct dirent *e;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), "%s/%s", kill_pin_dir, sub);
	d = opendir(path);
	while (d && n >= 0 && (e = readdir(d))) {
		int fd, prog, caller = -1, target = -1;
		bool is_target = !strcmp(e->d_name, "target");
		char pin[512];

		if (e->d_name[0] == '.')
			continue;
		snprintf(pin, sizeof(pin), "%s/%s", path, e->d_name);
		if (strstr(e->d_name, ":new")) {
			snprintf(why, why_size, "%s left", pin);
			n = -1;
			break;
		}
		fd = bpf_obj_get(pin);
		prog = strcmp(sub, "links") ? fd : bpf_prog_get_fd_by_id(link_prog_id(fd));
		if (tail_run(prog, &caller, &target)) {
			snprintf(why, why_size, "%s: cannot run: %s", pin, strerror(errno));
			n = -1;
		} else if (target != state || (!is_target && caller != state)) {
			snprintf(why, why_size,
				 "%s runs caller state %d, target state %d, %d recorded", pin,
				 is_target ? state : caller, target, state);
			n = -1;
		} else {
			n++;
		}
		if (prog != fd)
			close(prog);
		close(fd);
	}
	if (d)
		closedir(d);
	return n;
}

/* 0 if the directory is consistent after a recovery, else why in why[] */
static int check(uint32_t runs_id, uint32_t table_id, char *why, size_t why_size)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = kill_quiet);
	struct bpfkeys_object *obj = bpfkeys_open_pinned(kill_pin_dir, &opts);
	int caller_on, target_on, links, progs, runs = 0, callers = 0;
	char journal[256];

	why[0] = '\0';
	if (!obj) {
		snprintf(why, why_size, "open: %s", strerror(errno));
		return -1;
	}
	caller_on = bpfkeys_key_state(obj, "caller_key");
	target_on = bpfkeys_key_state(obj, "target_key");
	bpfkeys_close(obj);
	if (caller_on != target_on) {
		snprintf(why, why_size, "recorded states caller %d, target %d: a key flipped alone",
			 caller_on, target_on);
		return -1;
	}
	snprintf(journal, sizeof(journal), "%s/journal", kill_pin_dir);
	if (access(journal, F_OK) == 0) {
		snprintf(why, why_size, "%s left", journal);
		return -1;
	}
	links = check_pins("links", target_on, why, why_size);
	progs = links < 0 ? -1 : check_pins("progs", target_on, why, why_size);
	if (links < 0 || progs < 0)
		return -1;
	if (links != 1 || progs != 2) {
		snprintf(why, why_size, "%d links, %d programs pinned", links, progs);
		return -1;
	}
	if (entry_id() != pinned_target_id()) {
		snprintf(why, why_size, "jump_table[0] holds program id %u, progs/target is %u",
			 entry_id(), pinned_target_id());
		return -1;
	}
	/* a killed flipper's programs are freed after its exit, asynchronously */
	for (int i = 0; i < 200; i++) {
		runs = kill_programs_using(runs_id);
		callers = kill_programs_using(table_id);
		if (runs == 1 && callers == 1)
			break;
		usleep(10000);
	}
	if (runs != 1 || callers != 1) {
		snprintf(why, why_size,
			 "%d programs use target_runs, %d jump_table: 1 and 1 expected (an orphan)",
			 runs, callers);
		return -1;
	}
	return 0;
}

/* in strace's log of a whole flip: which bpf syscall moves the entry (the
 * first BPF_MAP_UPDATE_ELEM after the journal's pin) and which is the first
 * BPF_LINK_UPDATE; then the counts by kind (count_syscalls) */
static void count_flip_syscalls(const char *log, int *count, int *entry_move, int *link_update)
{
	bool journal = false;
	char line[4096];
	FILE *f = fopen(log, "r");
	int bpf = 0;

	if (!f)
		fail("%s: %s", log, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "bpf(", 4))
			continue;
		bpf++;
		if (!strncmp(line, "bpf(BPF_OBJ_PIN", 15) && strstr(line, "/journal\""))
			journal = true;
		if (journal && !*entry_move && !strncmp(line, "bpf(BPF_MAP_UPDATE_ELEM", 23))
			*entry_move = bpf;
		if (!*link_update && !strncmp(line, "bpf(BPF_LINK_UPDATE", 19))
			*link_update = bpf;
	}
	fclose(f);
	count_syscalls(log, count, NULL);
	if (!*entry_move || !*link_update)
		fail("the flip under strace moved no entry (bpf #%d) or updated no link (bpf #%d)",
		     *entry_move, *link_update);
}

/* load, attach caller over veth_rx, pin, close */
static void setup(const char *object)
{
	struct bpfkeys_object *obj;
	int rx;

	setvbuf(stderr, NULL, _IONBF, 0);
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/bpfkeys-kill-tail-call-%d",
		 getpid());
	atexit(kill_remove_pins);
	rx = veth_pair_in_own_netns();
	obj = stock_open(object, NULL);
	if (bpfkeys_load(obj) || !bpfkeys_attach_xdp(obj, "caller", rx) ||
	    bpfkeys_pin(obj, kill_pin_dir))
		fail("load, attach, pin: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);
}

int main(int argc, char **argv)
{
	int count[KIND_COUNT] = { 0 }, recovery[KIND_COUNT] = { 0 }, entry_move = 0,
	    link_update = 0, points = 0, killed = 0, consistent = 0, done = 0, undone = 0, status;
	uint32_t runs_id, table_id, old_target;
	char log[256], why[512];

	if (argc == 3 && !strcmp(argv[1], "flip"))
		return tail_flip(argv[2]);
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
	setup(argv[1]);
	runs_id = map_id_of("maps/target_runs");
	table_id = map_id_of("maps/jump_table");
	snprintf(log, sizeof(log), "/tmp/bpfkeys-kill-tail-call-%d.log", getpid());
	if (check(runs_id, table_id, why, sizeof(why)))
		fail("after load: %s", why);

	status = under_strace("flip", log, 0, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the flip under strace did not succeed (status %#x)", status);
	count_flip_syscalls(log, count, &entry_move, &link_update);
	printf("flip under strace: bpf %d, rename %d, unlink %d syscalls; the entry moves at bpf "
	       "#%d, before the link update at bpf #%d\n",
	       count[0], count[1], count[2], entry_move, link_update);
	if (entry_move >= link_update)
		fail("the entry moved after the link update");
	if (check(runs_id, table_id, why, sizeof(why)))
		fail("after the whole flip: %s", why);

	for (int k = 0; k < KIND_COUNT; k++)
		for (int n = 1; n <= count[k]; n++) {
			int was = target_key_state();

			points++;
			status = under_strace("flip", "/dev/null", k, n);
			/* strace ends as its tracee did: killed */
			killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
			if (check(runs_id, table_id, why, sizeof(why)))
				printf("kill at %s #%d: inconsistent: %s\n", kinds[k], n, why);
			else
				consistent++;
			if (target_key_state() != was)
				done++;
			else
				undone++;
		}
	printf("kill points: %d, killed %d, consistent after recovery %d\n", points, killed,
	       consistent);
	printf("states after recovery: %d flips done, %d undone\n", done, undone);

	/* the recovery killed in turn, at each of its syscalls, then recovered:
	 * of a flip killed as it enters the entry's move, so that the recovery
	 * moves the entry and the link */
	old_target = pinned_target_id();
	status = under_strace("flip", "/dev/null", 0, entry_move);
	if (!WIFSIGNALED(status))
		fail("the flip to interrupt was not killed (status %#x)", status);
	snprintf(why, sizeof(why), "%s/journal", kill_pin_dir);
	printf("flip killed at the entry's move: journal left: %s, entry on the old target: %s\n",
	       access(why, F_OK) ? "no" : "yes", entry_id() == old_target ? "yes" : "no");
	status = under_strace("open", log, 0, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		fail("the recovering open under strace did not succeed (status %#x)", status);
	count_syscalls(log, recovery, NULL);
	printf("recovering open under strace: bpf %d, rename %d, unlink %d syscalls\n", recovery[0],
	       recovery[1], recovery[2]);
	if (check(runs_id, table_id, why, sizeof(why)))
		fail("after the recovering open: %s", why);
	points = killed = consistent = 0;
	for (int k = 0; k < KIND_COUNT; k++)
		for (int n = 1; n <= recovery[k]; n++) {
			status = under_strace("flip", "/dev/null", 0, entry_move);
			if (!WIFSIGNALED(status))
				fail("the flip to interrupt was not killed (status %#x)", status);
			points++;
			status = under_strace("open", "/dev/null", k, n);
			killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
			if (check(runs_id, table_id, why, sizeof(why)))
				printf("recovery killed at %s #%d: inconsistent: %s\n", kinds[k], n,
				       why);
			else
				consistent++;
		}
	printf("recovery kill points: %d, killed %d, consistent after the next recovery %d\n",
	       points, killed, consistent);

	status = tail_flip(kill_pin_dir);
	printf("a flip after the kills: replaced %d, consistent: %s\n", status ? 0 : 2,
	       check(runs_id, table_id, why, sizeof(why)) ? why : "yes");

	/* a flip that fails (meta frozen: its states cannot be written), killed
	 * at each syscall from the entry's move on (the ones before are a
	 * succeeding flip's), its undo included: the recovery rolls it back */
	{
		int meta = pinned_fd(kill_pin_dir, "meta"), failing[KIND_COUNT] = { 0 }, was,
		    failing_move = 0, failing_update = 0;

		if (bpf_map_freeze(meta))
			fail("freeze meta: %s", strerror(errno));
		close(meta);
		was = target_key_state();
		status = under_strace("flip", log, 0, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status) != 1)
			fail("the flip with meta frozen did not fail (status %#x)", status);
		count_flip_syscalls(log, failing, &failing_move, &failing_update);
		points = killed = consistent = 0;
		for (int k = 0; k < KIND_COUNT; k++)
			for (int n = k ? 1 : failing_move; n <= failing[k]; n++) {
				points++;
				status = under_strace("flip", "/dev/null", k, n);
				killed += WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
				if (check(runs_id, table_id, why, sizeof(why)))
					printf("failing flip killed at %s #%d: inconsistent: %s\n",
					       kinds[k], n, why);
				else if (target_key_state() != was)
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
