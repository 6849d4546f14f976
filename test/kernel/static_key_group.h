/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the key group tests (kernel-patches/pending/, docs/abi.md
 * section 6.1): static keys created in a new group (BPF_F_STATIC_KEY_GROUP)
 * or joining the group of another key (BPF_F_STATIC_KEY_JOIN, that key's
 * fd in inner_map_fd), the programs of static_key_batch.h bound to them
 * (four sites each: 16 * id + 5 while the key is off, 16 * id + 10 while
 * it is on), and what a member reports (map_extra, fdinfo).
 *
 * Built like the tests in test/kernel (scripts/qemu-run.sh puts test/kernel
 * on the include path), against the uapi headers of a kernel built with the
 * pending patches: the flags come from its <linux/bpf.h>.
 */
#ifndef STATIC_KEY_GROUP_H
#define STATIC_KEY_GROUP_H

#include "static_key_batch.h"
#include "static_key_kfunc.h"

/*
 * BPF_MAP_CREATE of a static key with @map_extra and @inner_map_fd, @n
 * entries; the fd (entries not written, not frozen) or -errno.
 */
static inline int group_key_create_raw(__u64 map_extra, __u32 inner_map_fd, __u32 n)
{
	union bpf_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.map_type = BPF_MAP_TYPE_INSN_ARRAY;
	attr.key_size = 4;
	attr.value_size = sizeof(struct bpf_insn_array_value);
	attr.max_entries = n;
	attr.map_extra = map_extra;
	attr.inner_map_fd = inner_map_fd;
	fd = sys_bpf(BPF_MAP_CREATE, &attr);
	return fd < 0 ? -errno : fd;
}

/* Write @offs[0..@n) to the key @fd and freeze it; dies on error. */
static inline void group_key_fill(int fd, const __u32 *offs, __u32 n)
{
	struct bpf_insn_array_value v;
	int err;
	__u32 i;

	for (i = 0; i < n; i++) {
		memset(&v, 0, sizeof(v));
		v.orig_off = offs[i];
		err = insn_array_update(fd, i, &v, BPF_ANY);
		if (err) {
			printf("FAIL: key update %u: %s\n", i, errname(err));
			exit(1);
		}
	}
	err = map_freeze(fd);
	if (err) {
		printf("FAIL: key freeze: %s\n", errname(err));
		exit(1);
	}
}

/*
 * The first member of a new group, no program bound to it (an "anchor":
 * what programs refer to, to flip the group): one entry, off or @on.
 */
static inline int group_anchor_create(bool on)
{
	int fd = group_key_create_raw(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_GROUP |
				      (on ? BPF_F_STATIC_KEY_ON : 0), 0, 1);

	if (fd < 0) {
		printf("FAIL: anchor create: %s\n", errname(fd));
		exit(1);
	}
	return fd;
}

/* A key with the batch sites that joins the group of @member; dies on error. */
static inline int group_member_create(int member)
{
	int fd = group_key_create_raw(BPF_F_STATIC_KEY | BPF_F_STATIC_KEY_JOIN, member,
				      ARRAY_SIZE(batch_sites));

	if (fd < 0) {
		printf("FAIL: member create: %s\n", errname(fd));
		exit(1);
	}
	group_key_fill(fd, batch_sites, ARRAY_SIZE(batch_sites));
	return fd;
}

/* batch_prog(@id) bound to the key @key; dies if the load fails. */
static inline int group_prog_load(int id, int key)
{
	struct bpf_insn p[BATCH_INSNS];
	int fd;

	batch_prog(p, id);
	fd = prog_load(p, BATCH_INSNS, &key, 1);
	if (fd < 0) {
		printf("FAIL: load program %d: %s\n%s\n", id, errname(fd), verifier_log);
		exit(1);
	}
	return fd;
}

/* What batch_prog(@id) returns: "on", "off", or the number for a mix. */
static inline const char *group_prog_state(int prog, int id)
{
	static char buf[16];
	__u32 r = prog_run(prog);

	if (r == 16u * id + BATCH_ON)
		return "on";
	if (r == 16u * id + BATCH_OFF)
		return "off";
	snprintf(buf, sizeof(buf), "%u", r);
	return buf;
}

/*
 * Prints "<what>: keys S S ..., programs S S ...": the state each key
 * reports (map_extra) and how each program ran (progs[i] is batch_prog(i);
 * -1: no program).
 */
static inline void group_show(const char *what, const int *keys, int nkeys, const int *progs,
			      int nprogs)
{
	int i;

	printf("%s: keys", what);
	for (i = 0; i < nkeys; i++)
		printf(" %s", static_key_state(keys[i]) ? "on" : "off");
	printf(", programs");
	for (i = 0; i < nprogs; i++)
		printf(" %s", progs[i] < 0 ? "-" : group_prog_state(progs[i], i));
	printf("\n");
}

/* BPF_PROG_TEST_RUN of the syscall program @prog with ctx { @on, 0 }: its r0 */
static inline int group_flip_run(int prog, __u32 on)
{
	__u32 ctx[2] = { on, 0 };

	return syscall_prog_run(prog, ctx);
}

#endif /* STATIC_KEY_GROUP_H */
