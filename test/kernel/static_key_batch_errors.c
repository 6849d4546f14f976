// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE on several keys is all or nothing: a bad fd, an fd
// that is not a map, a map that is not a static key, a static key bound to
// no program or whose program is gone, the same map twice (same fd or a
// dup() of it), among valid keys, fail and change none of them (every
// program still returns its old result). Also the attribute rules: map_fd
// together with map_fd_cnt, map_fds without map_fd_cnt, too many fds,
// unreadable map_fds, any flags (1, once BPF_F_STATIC_KEY_UPDATE_PER_SITE,
// is gone from the uapi), on > 1.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_batch.h"
#include <bpf/bpf.h>
#include <fcntl.h>

#define NPROG 3
static int keys[NPROG], progs[NPROG];
static int state;	/* the state all programs must be in */

static void unchanged(void)
{
	int i;

	for (i = 0; i < NPROG; i++) {
		__u32 got = prog_run(progs[i]), want = 16 * i + (state ? BATCH_ON : BATCH_OFF);

		if (got != want) {
			printf("FAIL: program %d returns %u, want %u (state %d)\n", i, got, want,
			       state);
			failures++;
		}
		if (static_key_state(keys[i]) != state) {
			printf("FAIL: key %d: map_extra says %d, want %d\n", i,
			       static_key_state(keys[i]), state);
			failures++;
		}
	}
}

/* keys[0], keys[1], @odd, keys[2]: the call fails with @want, nothing flips */
static void mixed(const char *what, int odd, int want)
{
	int fds[NPROG + 1] = { keys[0], keys[1], odd, keys[2] };

	expect_err(what, keys_update(fds, NPROG + 1, !state, 0), want);
	unchanged();
	expect_err(what, keys_update(fds, NPROG + 1, !state, TEST_STATIC_KEY_UPDATE_PER_SITE),
		   want);
	unchanged();
}

int main(void)
{
	int arr, plain, unbound, gone, closed, dupfd, i, err;
	static int many[4097];

	require_static_keys_kernel();
	for (i = 0; i < NPROG; i++)
		batch_load(i, &keys[i], &progs[i]);

	arr = map_create(BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, 0);
	plain = insn_array_create(batch_sites, ARRAY_SIZE(batch_sites), true);
	unbound = static_key_create(BPF_F_STATIC_KEY, batch_sites, ARRAY_SIZE(batch_sites), true);
	closed = 1000;	/* a free fd number */
	dupfd = dup(keys[1]);
	if (arr < 0 || dupfd < 0 || fcntl(closed, F_GETFD) != -1) {
		printf("FAIL: setup\n");
		return 1;
	}

	gone = batch_key_of_freed_program(7, &err);
	// CHECK: program gone, alone: EINVAL
	expect_err("program gone, alone", err, -EINVAL);

	// CHECK: all on: OK
	expect_err("all on", keys_update(keys, NPROG, 1, 0), 0);
	state = 1;
	unchanged();

	// CHECK-NEXT: closed fd among keys: EBADF
	// CHECK-NEXT: closed fd among keys: EBADF
	mixed("closed fd among keys", closed, -EBADF);
	// CHECK-NEXT: program fd among keys: EINVAL
	// CHECK-NEXT: program fd among keys: EINVAL
	mixed("program fd among keys", progs[0], -EINVAL);
	// CHECK-NEXT: array map among keys: EINVAL
	// CHECK-NEXT: array map among keys: EINVAL
	mixed("array map among keys", arr, -EINVAL);
	// CHECK-NEXT: insn array that is no key among keys: EINVAL
	// CHECK-NEXT: insn array that is no key among keys: EINVAL
	mixed("insn array that is no key among keys", plain, -EINVAL);
	// CHECK-NEXT: unbound key among keys: EINVAL
	// CHECK-NEXT: unbound key among keys: EINVAL
	mixed("unbound key among keys", unbound, -EINVAL);
	// CHECK-NEXT: key of a freed program among keys: EINVAL
	// CHECK-NEXT: key of a freed program among keys: EINVAL
	mixed("key of a freed program among keys", gone, -EINVAL);
	// CHECK-NEXT: same fd twice: EINVAL
	// CHECK-NEXT: same fd twice: EINVAL
	mixed("same fd twice", keys[2], -EINVAL);
	// CHECK-NEXT: dup of a key among keys: EINVAL
	// CHECK-NEXT: dup of a key among keys: EINVAL
	mixed("dup of a key among keys", dupfd, -EINVAL);

	// CHECK-NEXT: map_fd with map_fd_cnt: EINVAL
	expect_err("map_fd with map_fd_cnt", keys_update_raw(keys[0], 0, keys, NPROG, 0), -EINVAL);
	// CHECK-NEXT: map_fds without map_fd_cnt: EINVAL
	expect_err("map_fds without map_fd_cnt", keys_update_raw(keys[0], 0, keys, 0, 0), -EINVAL);
	// CHECK-NEXT: 4097 fds: E2BIG
	for (i = 0; i < 4097; i++)
		many[i] = keys[0];
	expect_err("4097 fds", keys_update(many, 4097, 0, 0), -E2BIG);
	// CHECK-NEXT: unreadable map_fds: EFAULT
	expect_err("unreadable map_fds", keys_update((const int *)8, NPROG, 0, 0), -EFAULT);
	/* 1 was BPF_F_STATIC_KEY_UPDATE_PER_SITE, gone from the uapi */
	// CHECK-NEXT: flags 1: EINVAL
	expect_err("flags 1", keys_update(keys, NPROG, 0, 1), -EINVAL);
	// CHECK-NEXT: flags 2: EINVAL
	expect_err("flags 2", keys_update(keys, NPROG, 0, 2), -EINVAL);
	// CHECK-NEXT: on = 2: EINVAL
	expect_err("on = 2", keys_update(keys, NPROG, 2, 0), -EINVAL);
	unchanged();
	// CHECK-NEXT: libbpf, closed fd among keys: EBADF
	{
		int fds[NPROG + 1] = { keys[0], keys[1], keys[2], closed };

		expect_err("libbpf, closed fd among keys", bpf_static_keys_update(fds, NPROG + 1,
									    false, NULL),
			   -EBADF);
	}
	unchanged();

	// the valid keys still flip after all that
	// CHECK-NEXT: all off: OK
	expect_err("all off", keys_update(keys, NPROG, 0, 0), 0);
	state = 0;
	unchanged();
	// CHECK: PASSED
	return finish();
}
