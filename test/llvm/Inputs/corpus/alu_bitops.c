// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// 32-bit ALU, byte swaps, signed division and sign-extending loads (cpu v4).
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

struct sample {
	__s8 delta8;
	__s16 delta16;
	__s32 delta32;
	__u32 word;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct sample);
} samples SEC(".maps");

static __always_inline __u32 rotl32(__u32 x, int r)
{
	return (x << r) | (x >> (32 - r));
}

SEC("xdp")
int alu(struct xdp_md *ctx)
{
	__u32 zero = 0;
	struct sample *s = bpf_map_lookup_elem(&samples, &zero);
	__s64 acc;
	__u32 h;

	if (!s)
		return XDP_PASS;
	acc = (__s64)s->delta8 + s->delta16 + s->delta32;
#if __BPF_CPU_VERSION__ >= 4
	acc /= (__s64)(s->delta16 | 1);	/* sdiv/smod: cpu v4 */
	acc %= 1000;
#else
	acc = (__u64)acc / 3;
#endif
	h = rotl32(s->word, 13) ^ bpf_htonl(s->word);
	h = (h * 0x01000193u) ^ (__u32)acc;
	s->word = bpf_ntohs((__u16)h) | (h & 0xffff0000u);
	return (h & 1) ? XDP_PASS : XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
