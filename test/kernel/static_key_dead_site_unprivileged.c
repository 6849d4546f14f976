// SPDX-License-Identifier: GPL-2.0
// A static branch that the verifier proves dead, in a program loaded by a
// thread without CAP_BPF: the verifier does not remove dead code for such a
// loader, it overwrites it with `ja -1` (sanitize_dead_code()). The dead
// site leaves its key as it does when a privileged loader's dead code is
// removed (static_key_dead_site.c): its entry reads 0xffffffff and updates
// skip it, while the key's live site still flips. The load must not WARN:
// the test sets kernel.panic_on_warn=1, so a WARN kills the guest and the
// test never prints its result; the kernel log is checked for WARNING too.
// The test kernels are built with CONFIG_BUG=y (kernel-patches/config*.fragment;
// tinyconfig leaves it off, and then WARN_ON_ONCE() is a silent check and the
// bug showed only as the load failing with EFAULT).
//
// Who does what: root creates the key (INSN_ARRAY creation needs CAP_BPF),
// reads it, dumps the program and flips the key (BPF_STATIC_KEY_UPDATE
// needs CAP_BPF); a thread that gave up every capability loads the socket
// filter (kernel.unprivileged_bpf_disabled=0, set by root here).
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"
#include <sys/klog.h>

static const struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ GOTOL_OR_NOP(1),		/* live site */
	/* 2 */ JA(1),
	/* 3 */ MOV64_IMM(BPF_REG_0, 2),
	/* 4 */ MOV64_IMM(BPF_REG_1, 0),
	/* 5 */ JEQ_IMM(BPF_REG_1, 0, 2),	/* always taken */
	/* 6 */ GOTOL_OR_NOP(0),		/* dead site */
	/* 7 */ MOV64_IMM(BPF_REG_0, 5),	/* dead */
	/* 8 */ EXIT(),
};

/* Whether the kernel log has a WARNING (a WARN_ON that did not panic). */
static bool kernel_log_has_warning(void)
{
	static char log[1 << 17];
	int n = klogctl(3 /* SYSLOG_ACTION_READ_ALL */, log, sizeof(log) - 1);

	if (n < 0) {
		printf("FAIL: klogctl: %s\n", strerror(errno));
		exit(1);
	}
	log[n] = 0;
	return strstr(log, "WARNING:") != NULL;
}

int main(void)
{
	struct bpf_insn dump[16];
	__u32 v0 = 0, v1 = 0, n;
	int key, fd;

	require_static_keys_kernel();

	// CHECK: unprivileged_bpf_disabled=0: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "0");
	// CHECK-NEXT: panic_on_warn=1: OK
	must_kernel_sysctl("panic_on_warn", "1");

	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1, 6 }, 2, true);
	/* a thread that gave up every capability loads it */
	fd = prog_load_with_caps(0, prog, ARRAY_SIZE(prog), &key, 1);
	// CHECK-NEXT: load without capabilities: OK
	expect_err("load without capabilities", fd, 0);
	if (fd < 0) {
		printf("%s", verifier_log);
		return finish();
	}

	v0 = xlated_off_of(key, 0);
	v1 = xlated_off_of(key, 1);
	// CHECK-NEXT: live site: 1, dead site: 0xffffffff
	printf("live site: %u, dead site: 0x%x\n", v0, v1);
	if (v0 != 1 || v1 != 0xffffffff)
		failures++;

	/* the dead code was overwritten, not removed: this is the unprivileged path */
	n = prog_xlated(fd, dump, ARRAY_SIZE(dump));
	// CHECK-NEXT: 9 xlated insns, insn 6: ja -1 (src_reg 0)
	printf("%u xlated insns, insn 6: %s (src_reg %u)\n", n,
	       n > 6 && dump[6].code == (BPF_JMP | BPF_JA) && dump[6].off == -1 ? "ja -1" : "?",
	       n > 6 ? dump[6].src_reg : 0);
	if (n != 9 || dump[6].code != (BPF_JMP | BPF_JA) || dump[6].off != -1 || dump[6].src_reg)
		failures++;

	// CHECK-NEXT: off: 1
	printf("off: %u\n", prog_run(fd));
	// CHECK-NEXT: update on: OK
	expect_err("update on", static_key_update(key, 1), 0);
	// CHECK-NEXT: on: 2
	printf("on: %u\n", prog_run(fd));
	// CHECK-NEXT: update off: OK
	expect_err("update off", static_key_update(key, 0), 0);
	// CHECK-NEXT: off again: 1
	printf("off again: %u\n", prog_run(fd));

	// CHECK-NEXT: kernel log has no WARNING: OK
	if (kernel_log_has_warning()) {
		printf("kernel log has no WARNING: FAIL\n");
		failures++;
	} else {
		printf("kernel log has no WARNING: OK\n");
	}
	close(fd);
	close(key);

	// CHECK-NEXT: panic_on_warn=0: OK
	must_kernel_sysctl("panic_on_warn", "0");
	// CHECK-NEXT: unprivileged_bpf_disabled=2: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "2");
	// CHECK-NEXT: PASSED
	return finish();
}
