// SPDX-License-Identifier: GPL-2.0
// The RFC's own selftest (seed 011) as written, through the whole toolchain:
// its BPF programs (Inputs/seed_static_keys.c: fentry on __x64_sys_nanosleep
// or __arm64_sys_nanosleep, bpf_printk, bpf_jiffies64) compiled by the
// patched clang, linked by bpfld, resolved by bpfkeys and loaded by the
// patched libbpf; then the seed's user-space check_syscall(): attach one
// program, trigger it with the nanosleep syscall, check skel->bss->ret_user,
// flip its key(s) with bpf_static_key_update() on the key's map fd, and
// again, for every value the seed expects. The seed reads the key's map fd
// with bpf_map__fd(skel->maps.keyN); here one key has one instance per
// program, so the fd is bpf_program__static_key_fd(prog, "keyN")
// (docs/abi.md 5.4). Each check also runs once before the first flip (keys
// start off). Last, the bpf_printk() lines are counted in the trace buffer.
//
// A kernel without fentry (no BPF_EVENTS / ftrace direct calls) fails at
// load or attach.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags %bpf_target_arch -c %e2e_inputs/seed_static_keys.c -o %t/seed.o
// RUN: %bpfld -o %t/linked.o %t/seed.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/seed.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_tracing.h"

#define VAL_ON	7
#define VAL_OFF	3

static struct bpf_object *obj;
static int *ret_user;	/* skel->bss->ret_user */

static void trigger_prog(void)
{
	/*
	 * The seed calls usleep(1); glibc implements it with clock_nanosleep,
	 * which does not go through sys_nanosleep: call the syscall itself.
	 */
	struct timespec ts = { .tv_nsec = 1000 };

	syscall(SYS_nanosleep, &ts, NULL);
}

static void expect_ret(const char *what, int want)
{
	*ret_user = 0;
	trigger_prog();
	printf("  %s: ret_user = %d\n", what, *ret_user);
	if (*ret_user != want) {
		printf("FAIL: %s: ret_user = %d, expected %d\n", what, *ret_user, want);
		failures++;
	}
}

static void flip(struct bpf_program *prog, const char *key, bool on)
{
	int fd = bpf_program__static_key_fd(prog, key);
	char what[128];

	snprintf(what, sizeof(what), "bpf_static_key_update(%s, %s)", key, on ? "ON" : "OFF");
	if (fd < 0) {
		printf("FAIL: %s: no instance of %s in %s\n", what, key, bpf_program__name(prog));
		failures++;
		return;
	}
	e2e_ok(what, bpf_static_key_update(fd, on, NULL));
}

/* __check_one_key() of the seed, after one check before any flip */
static void check_one_key(const char *name, const char *key, int val_off, int val_on)
{
	struct bpf_program *prog = e2e_prog(obj, name);
	struct bpf_link *link = e2e_attach(prog);

	expect_ret("loaded (off)", val_off);
	flip(prog, key, true);
	expect_ret("ON", val_on);
	flip(prog, key, false);
	expect_ret("OFF", val_off);
	bpf_link__destroy(link);
}

/* __check_multiple_keys() of the seed */
static void check_multiple_keys(const char *name, int off_off, int off_on, int on_off, int on_on)
{
	struct bpf_program *prog = e2e_prog(obj, name);
	struct bpf_link *link = e2e_attach(prog);

	expect_ret("loaded (off, off)", off_off);
	flip(prog, "key5", false);
	flip(prog, "key6", false);
	expect_ret("key5 OFF, key6 OFF", off_off);
	flip(prog, "key5", true);
	flip(prog, "key6", false);
	expect_ret("key5 ON, key6 OFF", off_on);
	flip(prog, "key5", false);
	flip(prog, "key6", true);
	expect_ret("key5 OFF, key6 ON", on_off);
	flip(prog, "key5", true);
	flip(prog, "key6", true);
	expect_ret("key5 ON, key6 ON", on_on);
	bpf_link__destroy(link);
}

int main(void)
{
	int lines;

	obj = e2e_open("/files/seed.o");
	e2e_mount_tracefs();
	e2e_load(obj);
	ret_user = e2e_global_data(obj, ".bss", sizeof(*ret_user));

	// CHECK-LABEL: check_one_key_likely: attached
	// CHECK-NEXT: loaded (off): ret_user = 3
	// CHECK-NEXT: ON: ret_user = 7
	// CHECK-NEXT: OFF: ret_user = 3
	check_one_key("check_one_key_likely", "key1", VAL_OFF, VAL_ON);
	// CHECK-LABEL: check_one_key_unlikely: attached
	// CHECK-NEXT: loaded (off): ret_user = 3
	// CHECK-NEXT: ON: ret_user = 7
	// CHECK-NEXT: OFF: ret_user = 3
	check_one_key("check_one_key_unlikely", "key2", VAL_OFF, VAL_ON);
	// CHECK-LABEL: check_one_key_multiple: attached
	// CHECK-NEXT: loaded (off): ret_user = 9
	// CHECK-NEXT: ON: ret_user = 21
	// CHECK-NEXT: OFF: ret_user = 9
	check_one_key("check_one_key_multiple", "key3", VAL_OFF * 3, VAL_ON * 3);
	// CHECK-LABEL: check_one_key_long_jump: attached
	// CHECK-NEXT: loaded (off): ret_user = 1000
	// CHECK-NEXT: ON: ret_user = 2000
	// CHECK-NEXT: OFF: ret_user = 1000
	check_one_key("check_one_key_long_jump", "key4", 1000, 2000);
	// CHECK-LABEL: check_multiple_keys: attached
	// CHECK-NEXT: loaded (off, off): ret_user = 0
	// CHECK-NEXT: key5 OFF, key6 OFF: ret_user = 0
	// CHECK-NEXT: key5 ON, key6 OFF: ret_user = 3
	// CHECK-NEXT: key5 OFF, key6 ON: ret_user = 30
	// CHECK-NEXT: key5 ON, key6 ON: ret_user = 33
	check_multiple_keys("check_multiple_keys", 0, 3, 30, 33);

	/*
	 * bpf_printk: 2 lines per run of check_one_key_multiple (3 runs) and
	 * of check_multiple_keys (5 runs).
	 */
	// CHECK: bpf_trace_printk lines: 16
	lines = e2e_count_trace_lines("bpf_trace_printk: ");
	printf("bpf_trace_printk lines: %d\n", lines);
	if (lines != 16) {
		printf("FAIL: expected 16 bpf_printk lines in the trace buffer\n");
		failures++;
	}

	bpf_object__close(obj);
	// CHECK-NOT: FAIL
	// CHECK: PASSED
	return finish();
}
