// SPDX-License-Identifier: GPL-2.0
// Static keys with net.core.bpf_jit_harden=1: the kernel blinds constants
// only in programs whose loader is not privileged, that is has neither
// CAP_BPF nor CAP_SYS_ADMIN (bpf_jit_blinding_enabled() in
// include/linux/filter.h: harden == 1 && bpf_token_capable(token, CAP_BPF),
// which CAP_SYS_ADMIN also satisfies, means no blinding). Whether a program
// is blinded is decided per load, and a blinded static-key program must
// load and work like one at harden=2:
//
//  1. loaded by root (all capabilities) at harden=1, a program with two keys
//     (16-bit goto_or_nop, 32-bit nop_or_gotol) and a plain insn array is not
//     blinded: the dump has no r11, the same length as at harden=0, the
//     image the same size, the offsets are those of the ELF, the keys flip
//     with the right results;
//  2. loaded by a thread that dropped CAP_SYS_ADMIN but kept CAP_BPF: still
//     not blinded (CAP_BPF is what counts);
//  3. loaded by a thread without CAP_BPF and CAP_SYS_ADMIN: blinded (the dump
//     uses r11, it is longer, the image larger), the key instances' offsets
//     point to the static branches of the blinded dump, and flipping each
//     key each way gives the right results, the dump unchanged (the NOP bit
//     is the polarity), the new state in the key's map_extra, and only the
//     site's bytes of the image changing.
//
// Loads in parts 2 and 3 are done by a thread that gave up capabilities
// with capset(2) (credentials are per thread): the main thread keeps them
// all and uses the program fd, which the process shares. Who does what in
// part 3: without CAP_BPF the loader can only load the socket filter
// (kernel.unprivileged_bpf_disabled=0, set by root here), binding INSN_ARRAY
// maps root created (INSN_ARRAY creation needs CAP_BPF). Root dumps the
// program (BPF_OBJ_GET_INFO_BY_FD reports no instructions without CAP_BPF)
// and flips the keys (BPF_STATIC_KEY_UPDATE needs CAP_BPF);
// BPF_PROG_TEST_RUN needs nothing. The dump of a blinded program also needs
// the fd's opener, the loader, to pass kallsyms_show_value()
// (bpf_dump_raw_ok()): the loader keeps CAP_SYSLOG, which plays no part in
// blinding.
//
// On a kernel that refuses static keys with blinding, the load in part 3
// fails (EOPNOTSUPP) and so does the test.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_blinding.h"

/* key A off, key B on (the map_extra of maps[1]); and a plain insn array */
static void make_maps(int maps[3])
{
	maps[0] = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 2 }, 1, true);
	maps[1] = static_key_create(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON, (__u32[]){ 6 }, 1, true);
	maps[2] = insn_array_create((__u32[]){ 7, 8 }, 2, true);
}

static void close_maps(int maps[3])
{
	for (int i = 0; i < 3; i++)
		close(maps[i]);
}

/* ---------------------------------------------- loading with fewer caps */

#define CAP_BIT(c) (1ull << (c))

/*
 * A thread that keeps only @keep loads prog1 with @maps; the fd is the
 * process's, the main thread keeps all its capabilities. Dies if the load
 * fails.
 */
static int load_with_caps(const char *what, __u64 keep, const int maps[3])
{
	int fd = prog_load_with_caps(keep, prog1, ARRAY_SIZE(prog1), maps, 3);

	printf("%s: %s\n", what, errname(fd < 0 ? fd : 0));
	if (fd < 0) {
		printf("FAIL: %s: %s\n%s", what, errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* Root loads prog1 with @maps; dies if the load fails. */
static int load_as_root(const int maps[3])
{
	int fd = prog_load(prog1, ARRAY_SIZE(prog1), maps, 3);

	printf("load as root: %s\n", errname(fd < 0 ? fd : 0));
	if (fd < 0) {
		printf("FAIL: %s\n%s", errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* ------------------------------------------------------------ the checks */

/* Counts the dump's r11 uses and static branches (the first two in @sites). */
static __u32 scan(int fd, __u32 *ax, __u32 sites[2], __u32 *nsites)
{
	__u32 n, i;

	memset(dump, 0, sizeof(dump));	/* nothing copied: no sites found */
	n = prog_xlated(fd, dump, MAX_INSNS);
	*ax = *nsites = 0;
	for (i = 0; i < n; i++) {
		if (dump[i].dst_reg == REG_AX || dump[i].src_reg == REG_AX)
			(*ax)++;
		if (is_static_branch(&dump[i]) && *nsites < 2)
			sites[(*nsites)++] = i;
	}
	return n;
}

static void keys_are_the_sites(const int maps[3], const __u32 sites[2], __u32 nsites)
{
	check(nsites == 2 && lookup(maps[0], 0) == sites[0] && lookup(maps[1], 0) == sites[1] &&
	      dump[sites[0]].code == (BPF_JMP | BPF_JA) &&
	      dump[sites[1]].code == (BPF_JMP32 | BPF_JA),
	      "  key offsets are the static branches of the dump");
}

/* A off, B on -> A on, B off, A off, B on: results 101, 111, 11, 1, 101 */
static void flips(int fd, const int maps[3], const __u32 sites[2])
{
	__u32 r0 = prog_run(fd);

	printf("  A off, B on: %u\n", r0);
	if (r0 != 101)
		failures++;
	flip1(fd, maps[0], sites[0], 1, "  A on", 111);
	flip1(fd, maps[1], sites[1], 0, "  B off", 11);
	flip1(fd, maps[0], sites[0], 0, "  A off", 1);
	flip1(fd, maps[1], sites[1], 1, "  B on", 101);
}

int main(void)
{
	__u32 n0, len0, n, ax, len, sites[2], nsites, i;
	int maps[3], fd;

	require_static_keys_kernel();

	// CHECK-LABEL: reference at harden=0
	printf("reference at harden=0\n");
	// CHECK-NEXT: bpf_jit_harden=0: OK
	must_harden("0");
	make_maps(maps);
	// CHECK-NEXT: load as root: OK
	fd = load_as_root(maps);
	n0 = scan(fd, &ax, sites, &nsites);
	len0 = jited_len(fd);
	// CHECK-NEXT: 9 xlated insns, 0 use r11, 2 static branches
	printf("  %u xlated insns, %u use r11, %u static branches\n", n0, ax, nsites);
	close(fd);
	close_maps(maps);

	/* ------------------------------------------------- 1: root */
	// CHECK-LABEL: root at harden=1
	printf("root at harden=1\n");
	// CHECK-NEXT: bpf_jit_harden=1: OK
	must_harden("1");
	make_maps(maps);
	// CHECK-NEXT: load as root: OK
	fd = load_as_root(maps);
	n = scan(fd, &ax, sites, &nsites);
	len = jited_len(fd);
	// CHECK-NEXT: 9 xlated insns, 0 use r11, 2 static branches
	printf("  %u xlated insns, %u use r11, %u static branches\n", n, ax, nsites);
	// CHECK-NEXT: not blinded: dump and image as at harden=0: OK
	check(n == n0 && !ax && len == len0, "  not blinded: dump and image as at harden=0");
	// CHECK-NEXT: key A: 2, key B: 6, insn array: 7, 8
	printf("  key A: %u, key B: %u, insn array: %u, %u\n", lookup(maps[0], 0),
	       lookup(maps[1], 0), lookup(maps[2], 0), lookup(maps[2], 1));
	// CHECK-NEXT: key offsets are the static branches of the dump: OK
	keys_are_the_sites(maps, sites, nsites);
	// CHECK-NEXT: A off, B on: 101
	// CHECK-NEXT: A on: OK, result 111
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: B off: OK, result 11
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: A off: OK, result 1
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: B on: OK, result 101
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flips(fd, maps, sites);
	close(fd);
	close_maps(maps);

	/* ------------------------------- 2: CAP_BPF without CAP_SYS_ADMIN */
	// CHECK-LABEL: CAP_BPF without CAP_SYS_ADMIN at harden=1
	printf("CAP_BPF without CAP_SYS_ADMIN at harden=1\n");
	make_maps(maps);
	// CHECK-NEXT: load with CAP_BPF, CAP_SYSLOG: OK
	fd = load_with_caps("load with CAP_BPF, CAP_SYSLOG",
			    CAP_BIT(CAP_BPF) | CAP_BIT(CAP_SYSLOG), maps);
	n = scan(fd, &ax, sites, &nsites);
	len = jited_len(fd);
	// CHECK-NEXT: 9 xlated insns, 0 use r11, 2 static branches
	printf("  %u xlated insns, %u use r11, %u static branches\n", n, ax, nsites);
	// CHECK-NEXT: not blinded: dump and image as at harden=0: OK
	check(n == n0 && !ax && len == len0, "  not blinded: dump and image as at harden=0");
	// CHECK-NEXT: key offsets are the static branches of the dump: OK
	keys_are_the_sites(maps, sites, nsites);
	close(fd);
	close_maps(maps);

	/* ------------------------------- 3: neither CAP_BPF nor CAP_SYS_ADMIN */
	// CHECK-LABEL: unprivileged at harden=1
	printf("unprivileged at harden=1\n");
	// CHECK-NEXT: unprivileged_bpf_disabled=0: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "0");
	make_maps(maps);
	/* a kernel that refuses static keys with blinding fails here */
	// CHECK-NEXT: load with CAP_SYSLOG only: OK
	fd = load_with_caps("load with CAP_SYSLOG only", CAP_BIT(CAP_SYSLOG), maps);
	n = scan(fd, &ax, sites, &nsites);
	len = jited_len(fd);
	// CHECK-NEXT: 19 xlated insns, 15 use r11, 2 static branches
	printf("  %u xlated insns, %u use r11, %u static branches\n", n, ax, nsites);
	// CHECK-NEXT: blinded: dump longer, image larger than at harden=0: OK
	check(n > n0 && ax && len > len0, "  blinded: dump longer, image larger than at harden=0");
	// CHECK-NEXT: jited image: {{[0-9]+}} bytes, {{[0-9]+}} at harden=0
	printf("  jited image: %u bytes, %u at harden=0\n", len, len0);
	// CHECK-NEXT: key A: 2 -> 6, key B: 6 -> 14, insn array: 7 -> 15, 8 -> 18
	printf("  key A: 2 -> %u, key B: 6 -> %u, insn array: 7 -> %u, 8 -> %u\n",
	       lookup(maps[0], 0), lookup(maps[1], 0), lookup(maps[2], 0), lookup(maps[2], 1));
	// CHECK-NEXT: key offsets are the static branches of the dump: OK
	keys_are_the_sites(maps, sites, nsites);
	/* 7: r0 += 100 became r11 = rnd ^ 100; r11 ^= rnd; r0 += r11 */
	i = lookup(maps[2], 0);
	// CHECK-NEXT: insn array offsets: the blinded r0 += 100 and the exit: OK
	check(i + 3 < n && dump[i].dst_reg == REG_AX &&
	      dump[i + 2].code == (BPF_ALU64 | BPF_ADD | BPF_X) &&
	      dump[i + 2].dst_reg == BPF_REG_0 && dump[i + 2].src_reg == REG_AX &&
	      lookup(maps[2], 1) == i + 3 && dump[i + 3].code == (BPF_JMP | BPF_EXIT),
	      "  insn array offsets: the blinded r0 += 100 and the exit");
	if (nsites != 2) {
		printf("FAIL: static branches lost\n");
		return 1;
	}
	// CHECK-NEXT: A off, B on: 101
	// CHECK-NEXT: A on: OK, result 111
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: B off: OK, result 11
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: A off: OK, result 1
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	// CHECK-NEXT: B on: OK, result 101
	// CHECK-NEXT: xlated: unchanged, map_extra: the new state: OK
	// CHECK-NEXT: jited: only the site's bytes changed: OK
	flips(fd, maps, sites);
	close(fd);
	close_maps(maps);

	// CHECK: unprivileged_bpf_disabled=2: OK
	must_kernel_sysctl("unprivileged_bpf_disabled", "2");
	// CHECK-NEXT: bpf_jit_harden=0: OK
	must_harden("0");
	// CHECK: PASSED
	return finish();
}
