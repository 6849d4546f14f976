// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// Types and macros from clang's builtin headers (<stddef.h>, <stdint.h>,
// <stdbool.h>, found in the resource directory): with -g, the debug info
// records where those headers are, so this source checks that the patched
// clang uses the same resource directory as Debian's clang-22.
// Freestanding: hosted, clang's <stdint.h> includes glibc's, which has no
// BPF variant (it asks for gnu/stubs-32.h).
// corpus-cflags: -ffreestanding
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct flow_record {
	uint32_t saddr;
	uint32_t daddr;
	uint16_t sport;
	uint16_t dport;
	bool seen_syn;
	size_t bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 16);
	__type(key, uint32_t);
	__type(value, struct flow_record);
} records SEC(".maps");

static bool port_is_privileged(uint16_t port)
{
	return port < 1024;
}

SEC("socket")
int count_bytes(struct __sk_buff *skb)
{
	uint32_t key = skb->hash % 16;
	struct flow_record *rec = bpf_map_lookup_elem(&records, &key);
	ptrdiff_t delta;

	if (!rec)
		return 0;
	delta = (ptrdiff_t)offsetof(struct flow_record, bytes);
	rec->bytes += skb->len + (size_t)delta;
	rec->seen_syn = port_is_privileged((uint16_t)skb->local_port);
	return (int)(rec->bytes & INT32_MAX);
}

char _license[] SEC("license") = "GPL";
