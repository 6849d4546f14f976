// SPDX-License-Identifier: GPL-2.0
// bpftool from the patched tree (build/kernel/bpftool, in the initramfs as
// /bin/bpftool) dumps the xlated program with the static-branch mnemonics,
// as the program was loaded whatever the key's state: a FALSE key's
// goto_or_nop site shows as gotol_or_nop after the load and still after
// BPF_STATIC_KEY_UPDATE turns the key on (the NOP bit is the polarity; the
// state is the key's map_extra, which the comment line bpftool prints
// before the site gives: off, nop, then on, jump; kernel-patches/0056).
// `bpftool map show` names the key's map type insn_array.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"
#include <sys/wait.h>

/* bpftool @obj @verb [@what] id @id */
static void bpftool(const char *obj, const char *verb, const char *what, __u32 id)
{
	char ids[16];
	int status;
	pid_t pid;

	snprintf(ids, sizeof(ids), "%u", id);
	pid = fork();
	if (pid == 0) {
		if (what)
			execl("/bin/bpftool", "bpftool", obj, verb, what, "id", ids, (char *)NULL);
		else
			execl("/bin/bpftool", "bpftool", obj, verb, "id", ids, (char *)NULL);
		printf("FAIL: cannot run /bin/bpftool: %s\n", strerror(errno));
		_exit(127);
	}
	waitpid(pid, &status, 0);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		failures++;
}

static void dump(int prog_fd)
{
	bpftool("prog", "dump", "xlated", prog_id_of(prog_fd));
}

int main(void)
{
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	struct bpf_map_info info;
	int key, prog_fd;

	require_static_keys_kernel();

	key = static_key_create(BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1, true);
	prog_fd = prog_load_or_die("load", prog, ARRAY_SIZE(prog), &key, 1);
	// CHECK: key off, result 1
	// CHECK-NEXT: 0: (b7) r0 = 1
	// CHECK-NEXT: ; static key  (map_id {{[0-9]+}}): off, nop
	// CHECK-NEXT: 1: (06) gotol_or_nop pc+1
	// CHECK-NEXT: 2: (95) exit
	printf("key off, result %u\n", prog_run(prog_fd));
	dump(prog_fd);
	static_key_update(key, 1);
	// CHECK: key on (map_extra 0x3), result 2
	// CHECK-NEXT: 0: (b7) r0 = 1
	// CHECK-NEXT: ; static key  (map_id {{[0-9]+}}): on, jump
	// CHECK-NEXT: 1: (06) gotol_or_nop pc+1
	// CHECK-NEXT: 2: (95) exit
	if (map_info_of(key, &info)) {
		printf("FAIL: map info\n");
		return 1;
	}
	printf("key on (map_extra %#llx), result %u\n", (unsigned long long)info.map_extra,
	       prog_run(prog_fd));
	if (info.map_extra != (BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_ON) || prog_run(prog_fd) != 2)
		failures++;
	dump(prog_fd);
	// CHECK: {{^[0-9]+}}: insn_array  flags 0x80
	// CHECK-NEXT: key 4B  value 16B  max_entries 1
	bpftool("map", "show", NULL, info.id);
	// CHECK: PASSED
	return finish();
}
