// SPDX-License-Identifier: GPL-2.0
// A write that fails in the middle of BPF_STATIC_KEY_UPDATE is rolled back:
// with the fault injection of CONFIG_BPF_STATIC_KEY_DEBUG (the test config
// has it; a site number k in flags bits 16-30, in no uapi header:
// docs/abi.md section 6) the write of the k-th site of the call fails with
// EIO after the k - 1 before it were done. Three keys in different states
// (off, on, off), twelve sites, k first, second, in the middle and last,
// both directions, on the batch path (x86: its check of the site, since a
// text poke batch cannot fail once it writes; arm64: its write, then the
// put-back loop) and the per-site path (flags bit 31: one poke per site,
// then the generic undo). Each call fails with EIO and changes nothing:
// every program returns what it did, every key's map_extra says its old
// state, the xlated sites are as loaded, the jited images are byte for
// byte the same. Then the same keys flip on both paths.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_batch.h"

/* flags bits 16-30: the site (from 1) whose write fails; not uapi */
#define TEST_STATIC_KEY_UPDATE_FAIL_SITE(k)	((__u32)(k) << 16)

#define NPROG 3
#define NSITES (NPROG * (int)ARRAY_SIZE(batch_sites))
static int keys[NPROG], progs[NPROG], state[NPROG] = { 0, 1, 0 };
static unsigned char jit[NPROG][BATCH_JIT_MAX];
static __u32 jit_len[NPROG];

static const char *const path_name[] = { "batch", "per site" };
static const __u32 path_flags[] = { 0, TEST_STATIC_KEY_UPDATE_PER_SITE };

/* keys @fds[0..@cnt) to @on with the write of site @k failing: EIO, nothing changed */
static void fault_at(const int *fds, __u32 cnt, int k)
{
	char name[128];
	int p, on;

	for (p = 0; p < 2; p++) {
		for (on = 0; on < 2; on++) {
			snprintf(name, sizeof(name), "%u key%s, site %d fails, %s, on=%d", cnt,
				 cnt > 1 ? "s" : "", k, path_name[p], on);
			expect_err(name, keys_update(fds, cnt, on,
						     path_flags[p] |
						     TEST_STATIC_KEY_UPDATE_FAIL_SITE(k)),
				   -EIO);
			failures += batch_unchanged(name, keys, progs, state, NPROG, jit, jit_len);
		}
	}
}

int main(void)
{
	int i;

	require_static_keys_kernel();
	for (i = 0; i < NPROG; i++)
		batch_load(i, &keys[i], &progs[i]);

	// CHECK: key 1 on: OK
	expect_err("key 1 on", static_key_update(keys[1], 1), 0);
	batch_snapshot(progs, NPROG, jit, jit_len);
	failures += batch_unchanged("start", keys, progs, state, NPROG, jit, jit_len);

	// CHECK-NEXT: 3 keys, site 1 fails, batch, on=0: EIO
	// CHECK-NEXT: 3 keys, site 1 fails, batch, on=1: EIO
	// CHECK-NEXT: 3 keys, site 1 fails, per site, on=0: EIO
	// CHECK-NEXT: 3 keys, site 1 fails, per site, on=1: EIO
	fault_at(keys, NPROG, 1);
	// CHECK-NEXT: 3 keys, site 2 fails, batch, on=0: EIO
	// CHECK-NEXT: 3 keys, site 2 fails, batch, on=1: EIO
	// CHECK-NEXT: 3 keys, site 2 fails, per site, on=0: EIO
	// CHECK-NEXT: 3 keys, site 2 fails, per site, on=1: EIO
	fault_at(keys, NPROG, 2);
	// CHECK-NEXT: 3 keys, site 6 fails, batch, on=0: EIO
	// CHECK-NEXT: 3 keys, site 6 fails, batch, on=1: EIO
	// CHECK-NEXT: 3 keys, site 6 fails, per site, on=0: EIO
	// CHECK-NEXT: 3 keys, site 6 fails, per site, on=1: EIO
	fault_at(keys, NPROG, 6);
	// CHECK-NEXT: 3 keys, site 12 fails, batch, on=0: EIO
	// CHECK-NEXT: 3 keys, site 12 fails, batch, on=1: EIO
	// CHECK-NEXT: 3 keys, site 12 fails, per site, on=0: EIO
	// CHECK-NEXT: 3 keys, site 12 fails, per site, on=1: EIO
	fault_at(keys, NPROG, NSITES);
	// One key: its last site fails after its first three were written.
	// CHECK-NEXT: 1 key, site 4 fails, batch, on=0: EIO
	// CHECK-NEXT: 1 key, site 4 fails, batch, on=1: EIO
	// CHECK-NEXT: 1 key, site 4 fails, per site, on=0: EIO
	// CHECK-NEXT: 1 key, site 4 fails, per site, on=1: EIO
	fault_at(&keys[0], 1, 4);
	// CHECK-NEXT: 1 key, site 4 fails, batch, on=0: EIO
	// CHECK-NEXT: 1 key, site 4 fails, batch, on=1: EIO
	// CHECK-NEXT: 1 key, site 4 fails, per site, on=0: EIO
	// CHECK-NEXT: 1 key, site 4 fails, per site, on=1: EIO
	fault_at(&keys[1], 1, 4);

	// The same keys still flip, on each path.
	// CHECK-NEXT: keys 0-2 on, per site: OK
	expect_err("keys 0-2 on, per site",
		   keys_update(keys, NPROG, 1, TEST_STATIC_KEY_UPDATE_PER_SITE), 0);
	state[0] = state[1] = state[2] = 1;
	batch_snapshot(progs, NPROG, jit, jit_len);
	failures += batch_unchanged("after per-site flip", keys, progs, state, NPROG, jit, jit_len);
	// CHECK-NEXT: keys 0-2 off, batch: OK
	expect_err("keys 0-2 off, batch", keys_update(keys, NPROG, 0, 0), 0);
	state[0] = state[1] = state[2] = 0;
	batch_snapshot(progs, NPROG, jit, jit_len);
	failures += batch_unchanged("after batch flip", keys, progs, state, NPROG, jit, jit_len);
	// CHECK: PASSED
	return finish();
}
