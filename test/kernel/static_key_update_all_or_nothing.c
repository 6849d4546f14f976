// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE is all or nothing on both paths, the batch and
// TEST_STATIC_KEY_UPDATE_PER_SITE, in both directions: three keys in
// different states (off, on, off) and, as the last fd of the call, a
// closed fd (EBADF), a read-only fd of a fourth key (EPERM), a key whose
// program is gone (EINVAL), a key bound to no program (EINVAL). Each call
// fails and changes nothing: every program returns what it did, its xlated
// sites show its key's state and its jited image is byte for byte the
// same. Then the same keys flip on both paths.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_batch.h"
#include <fcntl.h>

#define NPROG 4	/* programs 0-2 in the calls; 3 owns the read-only fd's key */
static int keys[NPROG], progs[NPROG], state[NPROG] = { 0, 1, 0, 0 };
static unsigned char jit[NPROG][BATCH_JIT_MAX];
static __u32 jit_len[NPROG];

static void snap(void)
{
	batch_snapshot(progs, NPROG, jit, jit_len);
}

/* keys 0-2 then @last: fails with @want on both paths and both states */
static void last_fails(const char *what, int last, int want)
{
	static const char *const path[] = { "batch", "per site" };
	int fds[4] = { keys[0], keys[1], keys[2], last };
	char name[128];
	int p, on;

	for (p = 0; p < 2; p++) {
		for (on = 0; on < 2; on++) {
			snprintf(name, sizeof(name), "%s last, %s, on=%d", what, path[p], on);
			expect_err(name, keys_update(fds, 4, on,
						     p ? TEST_STATIC_KEY_UPDATE_PER_SITE : 0),
				   want);
			failures += batch_unchanged(name, keys, progs, state, NPROG, jit, jit_len);
		}
	}
}

int main(void)
{
	int ro, gone, unbound, closed = 1000, i, err;

	require_static_keys_kernel();
	for (i = 0; i < NPROG; i++)
		batch_load(i, &keys[i], &progs[i]);
	ro = map_fd_reopen(keys[3], BPF_F_RDONLY);
	unbound = static_key_create(BPF_F_STATIC_KEY, batch_sites, ARRAY_SIZE(batch_sites), true);
	if (ro < 0 || fcntl(closed, F_GETFD) != -1) {
		printf("FAIL: setup: %s\n", errname(ro));
		return 1;
	}

	gone = batch_key_of_freed_program(7, &err);
	// CHECK: program gone: EINVAL
	expect_err("program gone", err, -EINVAL);

	// CHECK-NEXT: key 1 on: OK
	expect_err("key 1 on", static_key_update(keys[1], 1), 0);
	snap();
	failures += batch_unchanged("start", keys, progs, state, NPROG, jit, jit_len);

	// CHECK-NEXT: closed fd last, batch, on=0: EBADF
	// CHECK-NEXT: closed fd last, batch, on=1: EBADF
	// CHECK-NEXT: closed fd last, per site, on=0: EBADF
	// CHECK-NEXT: closed fd last, per site, on=1: EBADF
	last_fails("closed fd", closed, -EBADF);
	// CHECK-NEXT: read-only fd last, batch, on=0: EPERM
	// CHECK-NEXT: read-only fd last, batch, on=1: EPERM
	// CHECK-NEXT: read-only fd last, per site, on=0: EPERM
	// CHECK-NEXT: read-only fd last, per site, on=1: EPERM
	last_fails("read-only fd", ro, -EPERM);
	// CHECK-NEXT: key of a freed program last, batch, on=0: EINVAL
	// CHECK-NEXT: key of a freed program last, batch, on=1: EINVAL
	// CHECK-NEXT: key of a freed program last, per site, on=0: EINVAL
	// CHECK-NEXT: key of a freed program last, per site, on=1: EINVAL
	last_fails("key of a freed program", gone, -EINVAL);
	// CHECK-NEXT: unbound key last, batch, on=0: EINVAL
	// CHECK-NEXT: unbound key last, batch, on=1: EINVAL
	// CHECK-NEXT: unbound key last, per site, on=0: EINVAL
	// CHECK-NEXT: unbound key last, per site, on=1: EINVAL
	last_fails("unbound key", unbound, -EINVAL);

	// The same keys still flip, on each path.
	// CHECK-NEXT: keys 0-2 on, per site: OK
	expect_err("keys 0-2 on, per site",
		   keys_update(keys, 3, 1, TEST_STATIC_KEY_UPDATE_PER_SITE), 0);
	state[0] = state[1] = state[2] = 1;
	snap();
	failures += batch_unchanged("after per-site flip", keys, progs, state, NPROG, jit, jit_len);
	// CHECK-NEXT: keys 0-2 off, batch: OK
	expect_err("keys 0-2 off, batch", keys_update(keys, 3, 0, 0), 0);
	state[0] = state[1] = state[2] = 0;
	snap();
	failures += batch_unchanged("after batch flip", keys, progs, state, NPROG, jit, jit_len);
	// CHECK: PASSED
	return finish();
}
