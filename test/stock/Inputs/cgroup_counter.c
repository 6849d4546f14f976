// SPDX-License-Identifier: GPL-2.0
/* A cgroup/sock_create program that counts the UDP/IPv4 sockets created in
 * its cgroup by the state of sock_key it saw: seen[0] off, seen[1] on. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

/* <sys/socket.h> is libc's, not for --target=bpf */
#define AF_INET 2
#define SOCK_DGRAM 2

DEFINE_STATIC_KEY_FALSE(sock_key);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u64);
} seen SEC(".maps");

SEC("cgroup/sock_create")
int count_sockets(struct bpf_sock *sk)
{
	__u32 slot = 0;
	__u64 *n;

	if (sk->family != AF_INET || sk->type != SOCK_DGRAM)
		return 1;
	if (bpf_static_branch_unlikely(&sock_key))
		slot = 1;
	n = bpf_map_lookup_elem(&seen, &slot);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 1;
}

char LICENSE[] SEC("license") = "GPL";
