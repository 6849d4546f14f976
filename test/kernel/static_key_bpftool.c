// bpftool from the patched tree (build/kernel/bpftool, in the initramfs as
// /bin/bpftool) dumps the xlated program with the static-branch mnemonics,
// and the dump follows the key: a FALSE key's goto_or_nop site shows as
// nop_or_gotol (a nop now) after the load and as gotol_or_nop (a jump now)
// after BPF_STATIC_KEY_UPDATE turns it on.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"
#include <sys/wait.h>

static void dump(int prog_fd)
{
	struct bpf_prog_info info;
	union bpf_attr attr;
	char id[16];
	int status;
	pid_t pid;

	memset(&info, 0, sizeof(info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog_fd;
	attr.info.info_len = sizeof(info);
	attr.info.info = (__u64)(unsigned long)&info;
	if (sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr)) {
		printf("FAIL: BPF_OBJ_GET_INFO_BY_FD: %s\n", strerror(errno));
		exit(1);
	}
	snprintf(id, sizeof(id), "%u", info.id);
	pid = fork();
	if (pid == 0) {
		execl("/bin/bpftool", "bpftool", "prog", "dump", "xlated", "id", id, (char *)NULL);
		printf("FAIL: cannot run /bin/bpftool: %s\n", strerror(errno));
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		failures++;
}

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	int key, prog_fd;

	require_static_keys_kernel();

	key = insn_set_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	prog_fd = prog_load(prog, ARRAY_SIZE(prog), &key, 1);
	if (prog_fd < 0) {
		printf("FAIL: load: %s\n%s", errname(prog_fd), verifier_log);
		return 1;
	}
	// CHECK: key off
	// CHECK-NEXT: 0: (b7) r0 = 1
	// CHECK-NEXT: 1: (06) nop_or_gotol pc+1
	// CHECK-NEXT: 2: (95) exit
	printf("key off\n");
	dump(prog_fd);
	static_key_update(key, 1);
	// CHECK: key on
	// CHECK-NEXT: 0: (b7) r0 = 1
	// CHECK-NEXT: 1: (06) gotol_or_nop pc+1
	// CHECK-NEXT: 2: (95) exit
	printf("key on\n");
	dump(prog_fd);
	// CHECK: PASSED
	return finish();
}
