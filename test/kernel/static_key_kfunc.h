/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers for the tests of the static key kfuncs (kernel-patches/0013,
 * docs/abi.md "Flipping a key from BPF"): the kfuncs' BTF ids in the
 * running kernel, the programs that flip a key (loaded with bpfsk_test.h's
 * prog_load_as()), and the program whose branch the tests flip.
 */
#ifndef STATIC_KEY_KFUNC_H
#define STATIC_KEY_KFUNC_H

#include "bpfsk_test.h"
#include <fcntl.h>
#include <bpf/btf.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>

#define KFUNC_CALL(BTF_ID)	INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, BTF_ID)
#define HELPER_CALL(ID)		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, ID)
#define LDX_W(DST, SRC, OFF)	INSN(BPF_LDX | BPF_MEM | BPF_W, DST, SRC, OFF, 0)
#define STX_W(DST, SRC, OFF)	INSN(BPF_STX | BPF_MEM | BPF_W, DST, SRC, OFF, 0)
#define ST_W(DST, OFF, IMM)	INSN(BPF_ST | BPF_MEM | BPF_W, DST, 0, OFF, IMM)
#define JNE_IMM(DST, IMM, OFF)	INSN(BPF_JMP | BPF_JNE | BPF_K, DST, 0, OFF, IMM)

/* BTF id of the kernel function @name in vmlinux BTF; dies if it has none */
static inline int kfunc_id(const char *name)
{
	static struct btf *vmlinux;
	int id;

	if (!vmlinux)
		vmlinux = btf__load_vmlinux_btf();
	if (!vmlinux) {
		printf("FAIL: no vmlinux BTF: %s\n", strerror(errno));
		exit(1);
	}
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	if (id <= 0) {
		printf("FAIL: kernel has no kfunc %s\n", name);
		exit(1);
	}
	return id;
}

/*
 * The error line of the last verifier log, as "  log: <line>": its last
 * line that is not the statistics ("processed N insns ...").
 */
static inline void print_last_log_line(void)
{
	size_t len = strlen(verifier_log);
	const char *end, *start;

	for (;;) {
		while (len && verifier_log[len - 1] == '\n')
			len--;
		end = verifier_log + len;
		start = end;
		while (start > verifier_log && start[-1] != '\n')
			start--;
		if (start == verifier_log || strncmp(start, "processed ", 10))
			break;
		len = start - verifier_log;
	}
	printf("  log: %.*s\n", (int)(end - start), start);
}

/*
 * BPF_PROG_TEST_RUN of a BPF_PROG_TYPE_SYSCALL program with the 8-byte
 * context @ctx; returns the program's r0 (as an int), dies if the run fails.
 */
static inline int syscall_prog_run(int prog_fd, __u32 *ctx)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.test.prog_fd = prog_fd;
	attr.test.ctx_in = (__u64)(unsigned long)ctx;
	attr.test.ctx_size_in = 2 * sizeof(*ctx);
	if (sys_bpf(BPF_PROG_TEST_RUN, &attr)) {
		printf("FAIL: BPF_PROG_TEST_RUN (syscall): %s\n", strerror(errno));
		exit(1);
	}
	return (int)attr.test.retval;
}

/*
 * The program whose branch is flipped: a socket filter with one site of a
 * key created with @map_extra, returning 1 while the key is off and 2 while
 * it is on. The key's fd is in *@key; the program's fd is returned.
 */
static inline int target_load(__u64 map_extra, int *key)
{
	static const struct bpf_insn insns[] = {
		GOTOL_OR_NOP(2),	/* 0: the site: jumps while the key is on */
		MOV64_IMM(BPF_REG_0, 1),
		EXIT(),
		MOV64_IMM(BPF_REG_0, 2),
		EXIT(),
	};
	static const __u32 offs[] = { 0 };

	*key = static_key_create(map_extra, offs, 1, true);
	return prog_load_or_die("target load", insns, ARRAY_SIZE(insns), key, 1);
}

/*
 * A syscall program that calls the kfunc @kfunc_btf_id(key, ctx[0]) on the
 * key behind @key_fd (an ld_imm64 reference) and returns its result.
 */
static inline int flipper_load(int key_fd, int kfunc_btf_id, __u32 flags)
{
	const struct bpf_insn insns[] = {
		LDX_W(BPF_REG_2, BPF_REG_1, 0),
		LD_MAP_FD(BPF_REG_1, key_fd),
		KFUNC_CALL(kfunc_btf_id),
		EXIT(),
	};

	return prog_load_as(BPF_PROG_TYPE_SYSCALL, flags, insns, ARRAY_SIZE(insns), NULL, 0);
}


/*
 * A kprobe program that calls bpf_static_key_set(key, @on) on the key behind
 * @key_fd (kfunc id @set_id) and returns 0.
 */
static inline int kprobe_flipper_load(int key_fd, int set_id, __u32 on)
{
	const struct bpf_insn insns[] = {
		LD_MAP_FD(BPF_REG_1, key_fd),
		MOV64_IMM(BPF_REG_2, on),
		KFUNC_CALL(set_id),
		MOV64_IMM(BPF_REG_0, 0),
		EXIT(),
	};
	int fd = prog_load_as(BPF_PROG_TYPE_KPROBE, 0, insns, ARRAY_SIZE(insns), NULL, 0);

	if (fd < 0) {
		printf("FAIL: kprobe flipper load: %s\n%s", errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* The entry of the getpid/getppid syscalls on this architecture */
#if defined(__x86_64__)
#define SYSCALL_SYM(NAME)	"__x64_sys_" NAME
#elif defined(__aarch64__)
#define SYSCALL_SYM(NAME)	"__arm64_sys_" NAME
#else
#error "x86_64 or arm64"
#endif

/*
 * Attach @prog_fd to a kprobe on @func on every CPU (perf_event_open with
 * pid -1 is per CPU); the perf event fds go to @fds[0 .. @ncpu). Dies on
 * error.
 */
static inline void kprobe_attach(int prog_fd, const char *func, int *fds, int ncpu)
{
	struct perf_event_attr attr;
	char buf[32] = "";
	int fd, type, cpu;
	ssize_t n;

	fd = open("/sys/bus/event_source/devices/kprobe/type", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		printf("FAIL: no kprobe PMU: %s\n", strerror(errno));
		exit(1);
	}
	type = atoi(buf);

	for (cpu = 0; cpu < ncpu; cpu++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = type;
		attr.config1 = (__u64)(unsigned long)func;
		fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_SET_BPF, prog_fd) ||
		    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0)) {
			printf("FAIL: kprobe on %s, CPU %d: %s\n", func, cpu, strerror(errno));
			exit(1);
		}
		fds[cpu] = fd;
	}
}

#endif /* STATIC_KEY_KFUNC_H */
