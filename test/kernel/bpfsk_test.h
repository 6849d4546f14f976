/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the kernel tests that run inside qemu (scripts/qemu-run.sh):
 * raw bpf(2) wrappers, so that a test shows exactly which attributes it
 * passes, a feature check that makes every test fail on a kernel without
 * the static-keys series, and what several tests do alike (load checks,
 * image and dump printers, sysctls, loads with fewer capabilities). The
 * tests' own headers (bpftool_test.h, static_key_kfunc.h, ...) build on it.
 *
 * Compiled against the patched uapi headers (build/kernel/usr/include).
 */
#ifndef BPFSK_TEST_H
#define BPFSK_TEST_H

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/syscall.h>
#include <linux/bpf.h>
#include <linux/capability.h>
#include <linux/bpf_static_keys.h>	/* runtime-headers: must agree with linux/bpf.h */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Instruction builders (as in the kernel's include/linux/filter.h) */
#define INSN(CODE, DST, SRC, OFF, IMM) \
	((struct bpf_insn){ .code = (CODE), .dst_reg = (DST), .src_reg = (SRC), .off = (OFF), .imm = (IMM) })
#define MOV64_IMM(DST, IMM)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, DST, 0, 0, IMM)
#define MOV64_REG(DST, SRC)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, DST, SRC, 0, 0)
#define ADD64_IMM(DST, IMM)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, DST, 0, 0, IMM)
#define ADD64_REG(DST, SRC)	INSN(BPF_ALU64 | BPF_ADD | BPF_X, DST, SRC, 0, 0)
#define DIV64_REG(DST, SRC)	INSN(BPF_ALU64 | BPF_DIV | BPF_X, DST, SRC, 0, 0)
#define JEQ_IMM(DST, IMM, OFF)	INSN(BPF_JMP | BPF_JEQ | BPF_K, DST, 0, OFF, IMM)
#define JA(OFF)			INSN(BPF_JMP | BPF_JA, 0, 0, OFF, 0)
#define EXIT()			INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL_SUB(OFF)		INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, OFF)
#define LD_MAP_FD(DST, FD)	INSN(BPF_LD | BPF_DW | BPF_IMM, DST, BPF_PSEUDO_MAP_FD, 0, FD), \
				INSN(0, 0, 0, 0, 0)
/* Static branches (docs/abi.md section 1) */
#define GOTO_OR_NOP(OFF)	INSN(BPF_JMP | BPF_JA, 0, BPF_STATIC_BRANCH_JA, OFF, 0)
#define NOP_OR_GOTO(OFF)	INSN(BPF_JMP | BPF_JA, 0, BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP, OFF, 0)
#define GOTOL_OR_NOP(OFF)	INSN(BPF_JMP32 | BPF_JA, 0, BPF_STATIC_BRANCH_JA, 0, OFF)
#define NOP_OR_GOTOL(OFF)	INSN(BPF_JMP32 | BPF_JA, 0, BPF_STATIC_BRANCH_JA | BPF_STATIC_BRANCH_NOP, 0, OFF)

static char verifier_log[1 << 16];

static inline long sys_bpf(int cmd, union bpf_attr *attr)
{
	return syscall(__NR_bpf, cmd, attr, sizeof(*attr));
}

/* BPF_MAP_CREATE of a map named @name (NULL: no name); the fd, or -errno. */
static inline int map_create_named(const char *name, __u32 type, __u32 key_size,
				   __u32 value_size, __u32 max_entries, __u32 map_flags,
				   __u64 map_extra)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = type;
	attr.key_size = key_size;
	attr.value_size = value_size;
	attr.max_entries = max_entries;
	attr.map_flags = map_flags;
	attr.map_extra = map_extra;
	if (name)
		snprintf(attr.map_name, sizeof(attr.map_name), "%s", name);
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : fd;
}

/* Returns the fd, or -errno. */
static inline int map_create(__u32 type, __u32 key_size, __u32 value_size,
			     __u32 max_entries, __u32 map_flags, __u64 map_extra)
{
	return map_create_named(NULL, type, key_size, value_size, max_entries, map_flags,
				map_extra);
}

static inline int map_delete(int fd, __u32 key)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)&key;
	return sys_bpf(BPF_MAP_DELETE_ELEM, &attr) ? -errno : 0;
}

static inline int map_freeze(int fd)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	return sys_bpf(BPF_MAP_FREEZE, &attr) ? -errno : 0;
}

/*
 * BPF_PROG_LOAD of a @type program with @flags, named @name (NULL: no name);
 * maps in @fds are bound with fd_array_cnt. Returns the fd, or -errno (the
 * verifier log, if @log_level, is in verifier_log). The one loader: the
 * others below and in the tests' headers are shorthands for it.
 */
static inline int prog_load_full(__u32 type, __u32 flags, const char *name,
				 const struct bpf_insn *insns, __u32 cnt,
				 const int *fds, __u32 fd_cnt, __u32 log_level)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	verifier_log[0] = 0;
	attr.prog_type = type;
	attr.prog_flags = flags;
	attr.insns = (__u64)(unsigned long)insns;
	attr.insn_cnt = cnt;
	attr.license = (__u64)(unsigned long)"GPL";
	attr.fd_array = (__u64)(unsigned long)fds;
	attr.fd_array_cnt = fd_cnt;
	if (name)
		snprintf(attr.prog_name, sizeof(attr.prog_name), "%s", name);
	/* log_level 0: no log (the kernel refuses a log buffer without a level) */
	if (log_level) {
		attr.log_buf = (__u64)(unsigned long)verifier_log;
		attr.log_size = sizeof(verifier_log);
		attr.log_level = log_level;
	}
	fd = sys_bpf(BPF_PROG_LOAD, &attr);
	return fd < 0 ? -errno : fd;
}

/* A socket filter, log level @log_level; the fd or -errno. */
static inline int prog_load_log(const struct bpf_insn *insns, __u32 cnt,
				const int *fds, __u32 fd_cnt, __u32 log_level)
{
	return prog_load_full(BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL, insns, cnt, fds, fd_cnt,
			      log_level);
}

/* A socket filter, log level 1; the fd or -errno. */
static inline int prog_load(const struct bpf_insn *insns, __u32 cnt,
			    const int *fds, __u32 fd_cnt)
{
	return prog_load_log(insns, cnt, fds, fd_cnt, 1);
}

/* A program of @type with @flags, log level 1; the fd or -errno. */
static inline int prog_load_as(__u32 type, __u32 flags, const struct bpf_insn *insns,
			       __u32 cnt, const int *fds, __u32 fd_cnt)
{
	return prog_load_full(type, flags, NULL, insns, cnt, fds, fd_cnt, 1);
}

/* BPF_PROG_TEST_RUN on a 64-byte packet; returns the program's r0. */
static inline __u32 prog_run(int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.data_in = (__u64)(unsigned long)pkt;
	attr.test.data_size_in = sizeof(pkt);
	attr.test.repeat = 1;
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr)) {
		printf("FAIL: BPF_PROG_TEST_RUN: %s\n", strerror(errno));
		exit(1);
	}
	return attr.test.retval;
}

/* BPF_STATIC_KEY_UPDATE; returns 0 or -errno. */
static inline int static_key_update(int map_fd, __u32 on)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.static_key.map_fd = map_fd;
	attr.static_key.on = on;
	return sys_bpf(BPF_STATIC_KEY_UPDATE, &attr) ? -errno : 0;
}

/*
 * BPF_OBJ_GET_INFO_BY_FD of a program into @info as the caller set it up:
 * zeroed, with the lengths and addresses of any buffers the kernel is to
 * fill (unlike map_info_of(), which zeroes it). 0 or -errno.
 */
static inline int prog_info_fill(int prog_fd, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) ? -errno : 0;
}

/* The program's info into @info, set up as for prog_info_fill(); dies on error. */
static inline void prog_info_or_die(int prog_fd, struct bpf_prog_info *info)
{
	int err = prog_info_fill(prog_fd, info);

	if (err) {
		printf("FAIL: BPF_OBJ_GET_INFO_BY_FD: %s\n", strerror(-err));
		exit(1);
	}
}

/* The program's xlated instructions or jitted bytes (root: not sanitized). */
static inline __u32 prog_xlated(int prog_fd, struct bpf_insn *insns, __u32 max)
{
	struct bpf_prog_info info;

	memset(&info, 0, sizeof(info));
	info.xlated_prog_len = max * sizeof(*insns);
	info.xlated_prog_insns = (__u64)(unsigned long)insns;
	prog_info_or_die(prog_fd, &info);
	return info.xlated_prog_len / sizeof(*insns);
}

static inline __u32 prog_jited(int prog_fd, unsigned char *buf, __u32 max)
{
	struct bpf_prog_info info;

	memset(&info, 0, sizeof(info));
	info.jited_prog_len = max;
	info.jited_prog_insns = (__u64)(unsigned long)buf;
	prog_info_or_die(prog_fd, &info);
	if (info.jited_prog_len > max) {
		printf("FAIL: jited image of %u bytes is too large\n", info.jited_prog_len);
		exit(1);
	}
	return info.jited_prog_len;
}

/*
 * Prints each instruction of jited image @a (@len bytes) that differs in @b,
 * as "  site N (B bytes): <bytes in a> -> <bytes in b>", then
 * "  N site(s) changed"; returns N. A site is one instruction: on arm64 the
 * aligned 4 bytes, on x86 a 2-byte nop or jmp rel8, or a 5-byte nop or jmp
 * rel32 (0f ... or e9 ... in either image), from its first differing byte.
 */
static inline __u32 print_jited_diff(const unsigned char *a, const unsigned char *b, __u32 len)
{
	__u32 i = 0, j, start, sites = 0;

	while (i < len) {
		if (a[i] == b[i]) {
			i++;
			continue;
		}
#if defined(__aarch64__)
		start = i & ~3u;
		j = 4;
#else
		start = i;
		j = (a[i] == 0x0f || a[i] == 0xe9 || b[i] == 0x0f || b[i] == 0xe9) ? 5 : 2;
#endif
		printf("  site %u (%u bytes):", ++sites, j);
		for (i = start; i < start + j; i++)
			printf(" %02x", a[i]);
		printf(" ->");
		for (i = start; i < start + j; i++)
			printf(" %02x", b[i]);
		printf("\n");
	}
	printf("  %u site(s) changed\n", sites);
	return sites;
}

/* The program's id; dies on error. */
static inline __u32 prog_id_of(int prog_fd)
{
	struct bpf_prog_info info;

	memset(&info, 0, sizeof(info));
	prog_info_or_die(prog_fd, &info);
	return info.id;
}

static inline const char *errname(int err)
{
	switch (err < 0 ? -err : err) {
	case 0: return "OK";
	case EINVAL: return "EINVAL";
	case EBUSY: return "EBUSY";
	case E2BIG: return "E2BIG";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case EBADF: return "EBADF";
	case ENOENT: return "ENOENT";
	case EACCES: return "EACCES";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EFAULT: return "EFAULT";
	case EIO: return "EIO";
	default: return strerror(err < 0 ? -err : err);
	}
}

/*
 * Every test starts here: on a kernel without the series the map type does
 * not exist, and the test must fail, not skip.
 */
static inline void require_static_keys_kernel(void)
{
	int fd = map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, sizeof(struct bpf_insn_array_value), 1, 0,
			    BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON);

	if (fd < 0) {
		printf("FAIL: kernel has no static keys (BPF_MAP_TYPE_INSN_ARRAY with BPF_F_STATIC_KEY: %s)\n",
		       errname(fd));
		exit(1);
	}
	close(fd);
	setvbuf(stdout, NULL, _IONBF, 0);
}

/* Print "<what>: <errno name>" and check it against @want. */
static int failures;
static inline void expect_err(const char *what, int got, int want)
{
	printf("%s: %s\n", what, errname(got < 0 ? got : 0));
	if ((got < 0 ? got : 0) != want) {
		printf("FAIL: %s: expected %s\n", what, errname(want));
		failures++;
	}
}

/* The first line of the last verifier log, as "  log: <line>". */
static inline void print_log_line(void)
{
	const char *nl = strchr(verifier_log, '\n');

	printf("  log: %.*s\n", nl ? (int)(nl - verifier_log) : (int)strlen(verifier_log),
	       verifier_log);
}

static inline int finish(void)
{
	if (failures) {
		printf("FAILED (%d)\n", failures);
		return 1;
	}
	printf("PASSED\n");
	return 0;
}

/*
 * prog_load() that dies on error, printing "FAIL: <what>: <errno name>" and
 * the verifier log.
 */
static inline int prog_load_or_die(const char *what, const struct bpf_insn *insns, __u32 cnt,
				   const int *fds, __u32 fd_cnt)
{
	int fd = prog_load(insns, cnt, fds, fd_cnt);

	if (fd < 0) {
		printf("FAIL: %s: %s\n%s", what, errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/*
 * prog_load() whose success the test checks: prints "load: OK" (expect_err());
 * if the load fails, prints the verifier log and ends the test with finish().
 */
static inline int prog_load_checked(const struct bpf_insn *insns, __u32 cnt,
				    const int *fds, __u32 fd_cnt)
{
	int fd = prog_load(insns, cnt, fds, fd_cnt);

	expect_err("load", fd, 0);
	if (fd < 0) {
		printf("%s", verifier_log);
		exit(finish());
	}
	return fd;
}

/*
 * BPF_MAP_TYPE_INSN_ARRAY (upstream's, kernel-patches/0016-0019): 16-byte
 * values { orig_off, xlated_off, jitted_off, pad }.
 */
static inline int insn_array_update(int fd, __u32 key, const struct bpf_insn_array_value *value,
				    __u64 flags)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)value;
	attr.flags = flags;
	return sys_bpf(BPF_MAP_UPDATE_ELEM, &attr) ? -errno : 0;
}

static inline int insn_array_lookup(int fd, __u32 key, struct bpf_insn_array_value *value)
{
	union bpf_attr attr;

	memset(value, 0xa5, sizeof(*value));
	memset(&attr, 0, sizeof(attr));
	attr.map_fd = fd;
	attr.key = (__u64)(unsigned long)&key;
	attr.value = (__u64)(unsigned long)value;
	return sys_bpf(BPF_MAP_LOOKUP_ELEM, &attr) ? -errno : 0;
}

/*
 * An INSN_ARRAY map named @name (NULL: no name) with @map_extra, entry i's
 * orig_off = @offs[i], frozen if @freeze; dies on error, naming the map @what.
 */
static inline int insn_array_create_named(const char *what, const char *name, __u64 map_extra,
					  const __u32 *offs, __u32 n, bool freeze)
{
	struct bpf_insn_array_value v;
	int fd, err;
	__u32 i;

	fd = map_create_named(name, BPF_MAP_TYPE_INSN_ARRAY, 4, sizeof(v), n, 0, map_extra);
	if (fd < 0) {
		printf("FAIL: %s map create: %s\n", what, errname(fd));
		exit(1);
	}
	for (i = 0; i < n; i++) {
		memset(&v, 0, sizeof(v));
		v.orig_off = offs[i];
		err = insn_array_update(fd, i, &v, BPF_ANY);
		if (err) {
			printf("FAIL: %s update %u: %s\n", what, i, errname(err));
			exit(1);
		}
	}
	if (freeze && (err = map_freeze(fd))) {
		printf("FAIL: %s freeze: %s\n", what, errname(err));
		exit(1);
	}
	return fd;
}

/* The same without a map name. */
static inline int insn_array_create_with(const char *what, __u64 map_extra, const __u32 *offs,
					 __u32 n, bool freeze)
{
	return insn_array_create_named(what, NULL, map_extra, offs, n, freeze);
}

/* A plain INSN_ARRAY map (map_extra 0) with orig_off = @offs; dies on error. */
static inline int insn_array_create(const __u32 *offs, __u32 n, bool freeze)
{
	return insn_array_create_with("INSN_ARRAY", 0, offs, n, freeze);
}

/*
 * A static key (docs/abi.md section 4): an INSN_ARRAY map with @map_extra
 * (BPF_F_STATIC_KEY [| BPF_F_STATIC_KEY_ON]), entry i's orig_off = @offs[i],
 * frozen if @freeze; dies on error.
 */
static inline int static_key_create(__u64 map_extra, const __u32 *offs, __u32 n, bool freeze)
{
	return insn_array_create_with("static key", map_extra, offs, n, freeze);
}

/* xlated_off of entry @i of an INSN_ARRAY map (a key too); dies on error */
static inline __u32 xlated_off_of(int fd, __u32 i)
{
	struct bpf_insn_array_value v;
	int err = insn_array_lookup(fd, i, &v);

	if (err) {
		printf("FAIL: lookup [%u]: %s\n", i, errname(err));
		exit(1);
	}
	return v.xlated_off;
}

/* BPF_OBJ_GET_INFO_BY_FD of a map: the one map-info getter; 0 or -errno */
static inline int map_info_of(int fd, struct bpf_map_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = fd;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (__u64)(unsigned long)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr) ? -errno : 0;
}

/*
 * The key's current state: BPF_F_STATIC_KEY_ON in the map_extra of its map
 * info (docs/abi.md: the one state getter; the xlated NOP bit is the
 * polarity as loaded, never the state). 1 on, 0 off; dies on error.
 */
static inline int static_key_state(int fd)
{
	struct bpf_map_info info;
	int err = map_info_of(fd, &info);

	if (err) {
		printf("FAIL: map info: %s\n", errname(err));
		exit(1);
	}
	return !!(info.map_extra & BPF_F_STATIC_KEY_ON);
}

/* BPF_MAP_GET_FD_BY_ID for the map behind @fd, opened with @open_flags */
static inline int map_fd_reopen(int fd, __u32 open_flags)
{
	struct bpf_map_info info;
	union bpf_attr attr;
	int err = map_info_of(fd, &info);

	if (err)
		return err;
	memset(&attr, 0, sizeof(attr));
	attr.map_id = info.id;
	attr.open_flags = open_flags;
	fd = sys_bpf(BPF_MAP_GET_FD_BY_ID, &attr);
	return fd < 0 ? -errno : fd;
}

/* Every insn_array test starts here: fails, not skips, without the backport. */
static inline void require_insn_array_kernel(void)
{
	int fd = map_create(BPF_MAP_TYPE_INSN_ARRAY, 4, sizeof(struct bpf_insn_array_value),
			    1, 0, 0);

	if (fd < 0) {
		printf("FAIL: kernel has no BPF_MAP_TYPE_INSN_ARRAY (%s)\n", errname(fd));
		exit(1);
	}
	close(fd);
	setvbuf(stdout, NULL, _IONBF, 0);
}

/*
 * Prints "xlated <when>:", then " [i] src_reg S" for each static branch of
 * the program's xlated dump (a ja with a src_reg: as loaded, whatever the
 * state), then ", state on|off" from the key's map_extra.
 */
static inline void print_xlated_sites(int prog_fd, int key, const char *when)
{
	struct bpf_insn x[128];
	__u32 n = prog_xlated(prog_fd, x, ARRAY_SIZE(x)), i;

	printf("xlated %s:", when);
	for (i = 0; i < n; i++)
		if ((x[i].code == (BPF_JMP | BPF_JA) || x[i].code == (BPF_JMP32 | BPF_JA)) &&
		    x[i].src_reg)
			printf(" [%u] src_reg %u", i, x[i].src_reg);
	printf(", state %s\n", static_key_state(key) ? "on" : "off");
}

/* "removed" for a removed instruction (xlated_off 0xffffffff), else the number */
static inline const char *xoff(__u32 off)
{
	static char buf[4][16];
	static int n;
	char *b = buf[n++ % 4];

	if (off == 0xffffffff)
		return "removed";
	snprintf(b, sizeof(buf[0]), "%u", off);
	return b;
}

/* Writes @v to the sysctl file @path (/proc/sys/...); 0 or -errno. */
static inline int write_sysctl(const char *path, const char *v)
{
	int fd = open(path, O_WRONLY);
	int ok = fd >= 0 && write(fd, v, strlen(v)) == (ssize_t)strlen(v);
	int err = ok ? 0 : -errno;

	if (fd >= 0)
		close(fd);
	return err;
}

/* Sets sysctl @name (file @path) to @v, printing "<name>=<v>: OK"; dies on error. */
static inline void must_sysctl(const char *name, const char *path, const char *v)
{
	int err = write_sysctl(path, v);

	printf("%s=%s: %s\n", name, v, errname(err));
	if (err)
		exit(1);
}

/* must_sysctl() of kernel.@name (/proc/sys/kernel/@name). */
static inline void must_kernel_sysctl(const char *name, const char *v)
{
	char path[128];

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	must_sysctl(name, path, v);
}

/*
 * Keep only the capabilities in @keep (bits 1ull << CAP_*) in the calling
 * thread's effective, permitted and inheritable sets (capabilities are per
 * thread: a loader thread gives them up, the main thread keeps its own),
 * then read the effective set back: 0, -errno of capset/capget, or -EPROTO
 * if the effective set is not @keep.
 */
static inline int drop_caps_to(__u64 keep)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = d[0].inheritable = (__u32)keep;
	d[1].effective = d[1].permitted = d[1].inheritable = (__u32)(keep >> 32);
	if (syscall(SYS_capset, &h, d))
		return -errno;
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capget, &h, d))
		return -errno;
	return (d[0].effective | (__u64)d[1].effective << 32) == keep ? 0 : -EPROTO;
}

struct caps_load {
	__u64 keep;
	const struct bpf_insn *insns;
	__u32 cnt;
	const int *fds;
	__u32 fd_cnt;
	int fd;			/* or -errno */
};

static inline void *caps_load_thread(void *arg)
{
	struct caps_load *l = arg;
	int err = drop_caps_to(l->keep);

	l->fd = err ? err : prog_load(l->insns, l->cnt, l->fds, l->fd_cnt);
	return NULL;
}

/*
 * prog_load() on a thread that keeps only the capabilities in @keep
 * (drop_caps_to()); the calling thread keeps its own and gets the fd, which
 * the process shares. The fd, or -errno of drop_caps_to() or of the load
 * (the verifier log is in verifier_log). Dies if the thread cannot run.
 */
static inline int prog_load_with_caps(__u64 keep, const struct bpf_insn *insns, __u32 cnt,
				      const int *fds, __u32 fd_cnt)
{
	struct caps_load l = { keep, insns, cnt, fds, fd_cnt, -EPROTO };
	pthread_t t;

	if (pthread_create(&t, NULL, caps_load_thread, &l) || pthread_join(t, NULL)) {
		printf("FAIL: loader thread\n");
		exit(1);
	}
	return l.fd;
}

#ifdef _GNU_SOURCE
#include <sched.h>

/* SMP tests: run the calling thread on @cpu only; dies if it cannot. */
static inline void pin_self_or_die(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		printf("FAIL: cannot run on CPU %d: %s\n", cpu, strerror(errno));
		exit(1);
	}
}

/* SMP tests: start @fn(@arg) on a thread that runs on @cpu only. */
static inline pthread_t start_pinned_or_die(int cpu, const char *what,
					    void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	pthread_t t;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (pthread_attr_init(&attr) ||
	    pthread_attr_setaffinity_np(&attr, sizeof(set), &set) ||
	    pthread_create(&t, &attr, fn, arg)) {
		printf("FAIL: cannot start %s on CPU %d\n", what, cpu);
		exit(1);
	}
	pthread_attr_destroy(&attr);
	return t;
}
#endif /* _GNU_SOURCE */

/* The value of @field in @fd's fdinfo, or -1 if it has no such line. */
static inline long fdinfo_field(int fd, const char *field)
{
	char path[64], line[256];
	size_t len = strlen(field);
	long value = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f) {
		printf("FAIL: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, len) && line[len] == ':') {
			value = strtol(line + len + 1, NULL, 10);
			break;
		}
	fclose(f);
	return value;
}

#endif /* BPFSK_TEST_H */
