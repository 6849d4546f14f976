// SPDX-License-Identifier: GPL-2.0
// A group is set all or nothing: when the write of one site fails (the
// fault injection of CONFIG_BPF_STATIC_KEY_DEBUG, a site number k in flags
// bits 16-30: docs/abi.md section 6), BPF_STATIC_KEY_UPDATE on one member
// fails with EIO and nothing changed in any member: every program returns
// what it did, every member's map_extra says the old state (the anchor's
// too), the jited images are byte for byte the same. Sites are counted
// over the whole group (three programs, twelve sites): the first, one in
// the second program, the last. A call that also names a key in no group
// whose program is gone fails with EINVAL and sets no member either.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_group.h"

#define TEST_STATIC_KEY_UPDATE_FAIL_SITE(k)	((__u32)(k) << 16)

#define N 3
static int anchor, keys[N], progs[N], state[N];
static unsigned char jit[N][BATCH_JIT_MAX];
static __u32 jit_len[N];

static void unchanged(const char *what)
{
	int want = state[0];

	failures += batch_unchanged(what, keys, progs, state, N, jit, jit_len);
	if (static_key_state(anchor) != want) {
		printf("FAIL: %s: the anchor does not say state %d\n", what, want);
		failures++;
	}
}

int main(void)
{
	static const int sites[] = { 1, 6, 12 };
	int i, k, on, dead_key, err;
	char name[96];

	require_static_keys_kernel();
	anchor = group_anchor_create(false);
	for (i = 0; i < N; i++) {
		keys[i] = group_member_create(anchor);
		progs[i] = group_prog_load(i, keys[i]);
	}
	batch_snapshot(progs, N, jit, jit_len);

	for (on = 1; on >= 0; on--) {
		for (k = 0; k < (int)ARRAY_SIZE(sites); k++) {
			snprintf(name, sizeof(name), "member 1 to %d, site %d fails", on, sites[k]);
			expect_err(name, keys_update(&keys[1], 1, on,
						     TEST_STATIC_KEY_UPDATE_FAIL_SITE(sites[k])),
				   -EIO);
			unchanged(name);
		}
		// CHECK: member 1 to 1, site 1 fails: EIO
		// CHECK-NEXT: member 1 to 1, site 6 fails: EIO
		// CHECK-NEXT: member 1 to 1, site 12 fails: EIO
		// CHECK-NEXT: member 1 on: OK
		// CHECK-NEXT: member 1 to 0, site 1 fails: EIO
		// CHECK-NEXT: member 1 to 0, site 6 fails: EIO
		// CHECK-NEXT: member 1 to 0, site 12 fails: EIO
		// CHECK-NEXT: member 1 off: OK
		expect_err(on ? "member 1 on" : "member 1 off", static_key_update(keys[1], on), 0);
		for (i = 0; i < N; i++)
			state[i] = on;
		batch_snapshot(progs, N, jit, jit_len);
		unchanged(on ? "after on" : "after off");
	}

	/* a key in no group whose program is gone fails the whole call */
	dead_key = batch_key_of_freed_program(N, &err);
	// CHECK-NEXT: key of a freed program alone: EINVAL
	expect_err("key of a freed program alone", err, -EINVAL);
	// CHECK-NEXT: member 0 with it: EINVAL
	expect_err("member 0 with it", keys_update((int[]){ keys[0], dead_key }, 2, 1, 0), -EINVAL);
	unchanged("member 0 with it");
	// CHECK-NEXT: PASSED
	return finish();
}
