// SPDX-License-Identifier: GPL-2.0
// BPF_STATIC_KEY_UPDATE needs a map fd opened for writing, as
// BPF_MAP_UPDATE_ELEM does: a read-only fd of a key (BPF_MAP_GET_FD_BY_ID
// with BPF_F_RDONLY, or a pin opened with BPF_OBJ_GET and BPF_F_RDONLY)
// gets EPERM, alone, as the last of several fds (batch and per-site), and
// nothing changes: every program returns what it did, its xlated sites
// show the old state and its jited image is the same. A read-write and a
// write-only fd of the same key flip it.
//
// RUN: %qemu-run %s | FileCheck %s
#include "static_key_batch.h"
#include <sys/mount.h>
#include <sys/stat.h>

#define NPROG 3
static int keys[NPROG], progs[NPROG], state[NPROG];
static unsigned char jit[NPROG][BATCH_JIT_MAX];
static __u32 jit_len[NPROG];

static void snap(void)
{
	batch_snapshot(progs, NPROG, jit, jit_len);
}

/* the call fails with @want and changes nothing */
static void refused(const char *what, int err, int want)
{
	expect_err(what, err, want);
	failures += batch_unchanged(what, keys, progs, state, NPROG, jit, jit_len);
}

static int obj_get(const char *path, __u32 file_flags)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)path;
	attr.file_flags = file_flags;
	fd = sys_bpf(BPF_OBJ_GET, &attr);
	return fd < 0 ? -errno : fd;
}

static int obj_pin(int fd, const char *path)
{
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.pathname = (__u64)(unsigned long)path;
	attr.bpf_fd = fd;
	return sys_bpf(BPF_OBJ_PIN, &attr) ? -errno : 0;
}

int main(void)
{
	int ro, rw, wo, pinned_ro, i;

	require_static_keys_kernel();
	for (i = 0; i < NPROG; i++)
		batch_load(i, &keys[i], &progs[i]);

	ro = map_fd_reopen(keys[NPROG - 1], BPF_F_RDONLY);
	rw = map_fd_reopen(keys[NPROG - 1], 0);
	wo = map_fd_reopen(keys[NPROG - 1], BPF_F_WRONLY);
	if (mkdir("/bpffs", 0700) || mount("bpf", "/bpffs", "bpf", 0, NULL) ||
	    obj_pin(keys[NPROG - 1], "/bpffs/key")) {
		printf("FAIL: bpffs pin: %s\n", strerror(errno));
		return 1;
	}
	pinned_ro = obj_get("/bpffs/key", BPF_F_RDONLY);
	if (ro < 0 || rw < 0 || wo < 0 || pinned_ro < 0) {
		printf("FAIL: reopen: ro %s rw %s wo %s pinned ro %s\n", errname(ro), errname(rw),
		       errname(wo), errname(pinned_ro));
		return 1;
	}
	snap();

	// CHECK: read-only fd: EPERM
	refused("read-only fd", static_key_update(ro, 1), -EPERM);
	// CHECK-NEXT: read-only fd, map_fds: EPERM
	refused("read-only fd, map_fds", keys_update(&ro, 1, 1, 0), -EPERM);
	// CHECK-NEXT: pin opened read-only: EPERM
	refused("pin opened read-only", static_key_update(pinned_ro, 1), -EPERM);
	{
		int fds[NPROG] = { keys[0], keys[1], ro };

		// CHECK-NEXT: read-only fd last of three: EPERM
		refused("read-only fd last of three", keys_update(fds, NPROG, 1, 0), -EPERM);
		// CHECK-NEXT: read-only fd last of three, per site: EPERM
		refused("read-only fd last of three, per site",
			keys_update(fds, NPROG, 1, TEST_STATIC_KEY_UPDATE_PER_SITE), -EPERM);
	}
	{
		int fds[NPROG] = { keys[0], pinned_ro, keys[1] };

		// CHECK-NEXT: pin opened read-only among keys: EPERM
		refused("pin opened read-only among keys", keys_update(fds, NPROG, 1, 0), -EPERM);
	}

	// A writable fd of the same key flips it.
	// CHECK-NEXT: read-write fd from its id: OK
	expect_err("read-write fd from its id", static_key_update(rw, 1), 0);
	state[NPROG - 1] = 1;
	snap();
	// CHECK-NEXT: write-only fd from its id, with the others: OK
	{
		int fds[NPROG] = { keys[0], keys[1], wo };

		expect_err("write-only fd from its id, with the others",
			   keys_update(fds, NPROG, 0, 0), 0);
	}
	state[NPROG - 1] = 0;
	snap();
	failures += batch_unchanged("after the writable flips", keys, progs, state, NPROG, jit, jit_len);
	// CHECK-NEXT: read-only fd, key now off: EPERM
	refused("read-only fd, key now off", static_key_update(ro, 1), -EPERM);
	// CHECK: PASSED
	return finish();
}
