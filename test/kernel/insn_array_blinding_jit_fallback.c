// SPDX-License-Identifier: GPL-2.0
// Instruction array offsets when the JIT fails after constant blinding and
// the program would fall back to the interpreter (the test kernel has
// CONFIG_BPF_JIT_ALWAYS_ON off).
//
// The JIT failure is forced the way 6.12 does it for an unprivileged loader:
// bpf_jit_binary_pack_alloc() first charges the image to bpf_jit_limit
// (bpf_jit_charge_modmem()), which fails with EPERM past the limit unless
// the loader has CAP_BPF or CAP_SYS_ADMIN (bpf_capable()); the x86 and arm64
// JITs then free their blinded copy and return the original program, which
// bpf_prog_select_runtime() runs in the interpreter. So: bpf_jit_harden=2
// (every program is blinded), net.core.bpf_jit_limit=1, and a loader thread
// without CAP_BPF and CAP_SYS_ADMIN (kernel.unprivileged_bpf_disabled=0; it
// keeps CAP_SYSLOG so that root may dump a blinded program it loaded, see
// static_key_blinding_harden1.c). Root creates the INSN_ARRAY maps (that
// needs CAP_BPF), dumps the program and reads the maps.
//
//  1. with the JIT failing: a program with an instruction array (no static
//     key) is refused with EFAULT, upstream's rule for an array whose
//     entries the JIT did not place: nothing reads offsets of a blinded copy
//     the JIT threw away (before, the old instruction sets read 6, 10, 11,
//     past the end of the 6-instruction interpreted program);
//  2. with the limit back: the same load is jitted and blinded, and a new
//     array reads 6, 10, 11, the marked instructions in the blinded dump.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_blinding.h"

/* r0 = 1 + 0x1234 + 10 = 4671; the constants at 0, 1 and 3 are blinded
 * (three instructions each), the marked ones at 2, 4 and 5 are not.
 */
static const struct bpf_insn prog[] = {
	/* 0 */ MOV64_IMM(BPF_REG_0, 1),
	/* 1 */ MOV64_IMM(BPF_REG_1, 0x1234),
	/* 2 */ ADD64_REG(BPF_REG_0, BPF_REG_1),	/* marked */
	/* 3 */ ADD64_IMM(BPF_REG_0, 10),
	/* 4 */ MOV64_REG(BPF_REG_2, BPF_REG_0),	/* marked */
	/* 5 */ EXIT(),				/* marked */
};
static const __u32 marked[] = { 2, 4, 5 };

/* An unprivileged thread loads prog with a new insn array of the marked
 * instructions (*map); returns the program fd or -errno.
 */
static int load_unprivileged(int *map)
{
	int fd;

	*map = insn_array_create(marked, ARRAY_SIZE(marked), true);
	fd = prog_load_with_caps(1ull << CAP_SYSLOG, prog, ARRAY_SIZE(prog), map, 1);
	printf("  load without CAP_BPF: %s\n", errname(fd < 0 ? fd : 0));
	return fd;
}

/* Prints the dump and the insn set; checks each offset holds its marked insn. */
static void check_offsets(int fd, int map)
{
	__u32 n, ax = 0, i, off[ARRAY_SIZE(marked)];
	bool match = true;

	memset(dump, 0, sizeof(dump));
	n = prog_xlated(fd, dump, MAX_INSNS);
	for (i = 0; i < n; i++)
		if (dump[i].dst_reg == REG_AX || dump[i].src_reg == REG_AX)
			ax++;
	for (i = 0; i < ARRAY_SIZE(marked); i++) {
		off[i] = lookup(map, i);
		match = match && off[i] < n &&
			!memcmp(&dump[off[i]], &prog[marked[i]], sizeof(*prog));
	}
	printf("  %s, %u xlated insns, %u use r11, result %u\n",
	       jited_len(fd) ? "jited" : "not jited", n, ax, prog_run(fd));
	printf("  insn array: %u, %u, %u\n", off[0], off[1], off[2]);
	check(match, "  insn array offsets hold the marked insns of the dump");
}

static void read_sysctl(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY);
	ssize_t len = fd >= 0 ? read(fd, buf, size - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (len <= 0) {
		printf("FAIL: read %s: %s\n", path, strerror(errno));
		exit(1);
	}
	buf[len] = 0;
	buf[strcspn(buf, "\n")] = 0;
}

int main(void)
{
	static const char limit_path[] = "/proc/sys/net/core/bpf_jit_limit";
	char limit[32];
	int map, fd;

	require_insn_array_kernel();
	read_sysctl(limit_path, limit, sizeof(limit));

	// CHECK: bpf_jit_harden=2: OK
	must_harden("2");
	// CHECK-NEXT: unprivileged_bpf_disabled=0: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "0");

	// CHECK-LABEL: JIT fails
	printf("JIT fails\n");
	// CHECK-NEXT: bpf_jit_limit=1: OK
	must_sysctl("bpf_jit_limit", limit_path, "1");
	// CHECK-NEXT: load without CAP_BPF: EFAULT
	fd = load_unprivileged(&map);
	if (fd != -EFAULT) {
		printf("FAIL: want EFAULT\n");
		failures++;
		if (fd >= 0) {
			check_offsets(fd, map);
			close(fd);
		}
	}
	close(map);

	// CHECK-LABEL: JIT succeeds
	printf("JIT succeeds\n");
	printf("bpf_jit_limit restored: %s\n", errname(write_sysctl(limit_path, limit)));
	// CHECK-NEXT: bpf_jit_limit restored: OK
	// CHECK-NEXT: load without CAP_BPF: OK
	fd = load_unprivileged(&map);
	if (fd < 0) {
		printf("FAIL: %s\n%s", errname(fd), verifier_log);
		return 1;
	}
	// CHECK-NEXT: jited, 12 xlated insns, 9 use r11, result 4671
	// CHECK-NEXT: insn array: 6, 10, 11
	// CHECK-NEXT: insn array offsets hold the marked insns of the dump: OK
	check_offsets(fd, map);
	close(fd);
	close(map);

	// CHECK: unprivileged_bpf_disabled=2: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "2");
	// CHECK-NEXT: bpf_jit_harden=0: OK
	must_harden("0");
	// CHECK: PASSED
	return finish();
}
