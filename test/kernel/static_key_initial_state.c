// SPDX-License-Identifier: GPL-2.0
// Right after the load, before any BPF_STATIC_KEY_UPDATE, each site behaves
// as its key's initial state says (docs/abi.md section 4): a site jumps iff
// (goto_or_nop: jump while on) == (key defined TRUE). Checked for FALSE and
// TRUE keys, both polarities, 32- and 16-bit forms; then one update to the
// other state flips every case. The key's map_extra reports its state at
// load and after the update.
//
// RUN: %qemu-run %s | FileCheck %s
#include "bpfsk_test.h"

static const char *behaviour(__u32 r0)
{
	return r0 == 2 ? "jump" : r0 == 1 ? "nop" : "???";
}

static void check(bool key_true, const char *name, struct bpf_insn site)
{
	/* r0 = 1; site +1; exit; r0 = 2; exit: returns 2 if the site jumps */
	struct bpf_insn prog[] = {
		MOV64_IMM(BPF_REG_0, 1), site, EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
	};
	__u64 extra = BPF_F_STATIC_KEY | (key_true ? BPF_F_STATIC_KEY_ON : 0);
	int fd = static_key_create(extra, (__u32[]){ 1 }, 1, true);
	int prog_fd = prog_load(prog, ARRAY_SIZE(prog), &fd, 1);
	bool goto_when_on = !(site.src_reg & BPF_STATIC_BRANCH_NOP);
	bool want_jump = goto_when_on == key_true;
	__u32 r0, r1;

	if (prog_fd < 0) {
		printf("FAIL: load %s: %s\n%s", name, errname(prog_fd), verifier_log);
		failures++;
		return;
	}
	r0 = prog_run(prog_fd);
	/* map_extra reports the state: the initial one, then the updated one */
	if (static_key_state(fd) != key_true) {
		printf("FAIL: %s: map_extra does not say the initial state\n", name);
		failures++;
	}
	static_key_update(fd, !key_true);
	r1 = prog_run(prog_fd);
	if (static_key_state(fd) != !key_true) {
		printf("FAIL: %s: map_extra does not say the updated state\n", name);
		failures++;
	}
	printf("%-5s %-12s loaded: %-4s after update to %s: %s\n", key_true ? "TRUE" : "FALSE",
	       name, behaviour(r0), key_true ? "off" : "on", behaviour(r1));
	if (r0 != (want_jump ? 2u : 1u) || r1 != (want_jump ? 1u : 2u))
		failures++;
	close(prog_fd);
	close(fd);
}

int main(void)
{
	require_static_keys_kernel();

	// CHECK: FALSE gotol_or_nop loaded: nop  after update to on: jump
	// CHECK: FALSE nop_or_gotol loaded: jump after update to on: nop
	// CHECK: TRUE  gotol_or_nop loaded: jump after update to off: nop
	// CHECK: TRUE  nop_or_gotol loaded: nop  after update to off: jump
	// CHECK: FALSE goto_or_nop  loaded: nop  after update to on: jump
	// CHECK: FALSE nop_or_goto  loaded: jump after update to on: nop
	// CHECK: TRUE  goto_or_nop  loaded: jump after update to off: nop
	// CHECK: TRUE  nop_or_goto  loaded: nop  after update to off: jump
	check(false, "gotol_or_nop", GOTOL_OR_NOP(1));
	check(false, "nop_or_gotol", NOP_OR_GOTOL(1));
	check(true, "gotol_or_nop", GOTOL_OR_NOP(1));
	check(true, "nop_or_gotol", NOP_OR_GOTOL(1));
	check(false, "goto_or_nop", GOTO_OR_NOP(1));
	check(false, "nop_or_goto", NOP_OR_GOTO(1));
	check(true, "goto_or_nop", GOTO_OR_NOP(1));
	check(true, "nop_or_goto", NOP_OR_GOTO(1));
	// CHECK: PASSED
	return finish();
}
