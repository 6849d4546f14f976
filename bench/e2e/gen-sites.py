# SPDX-License-Identifier: GPL-2.0
# gen-sites.py SITES PROGRAMS: BPF C with PROGRAMS XDP programs, each with
# SITES static branches on one key, flip_key (bench/e2e/run.sh, flip cost).
# Each slow path only touches a global, so the verifier prunes at every join
# and the load stays linear in SITES.
import sys

sites, progs = int(sys.argv[1]), int(sys.argv[2])
print('#include <linux/bpf.h>\n#include <bpf/bpf_helpers.h>\n#include "bpf_static_keys.h"\n')
print("DEFINE_STATIC_KEY_FALSE(flip_key);\n__u64 hits;\n")
for p in range(progs):
    print('SEC("xdp")\nint flip_prog_%d(struct xdp_md *ctx)\n{' % p)
    for s in range(sites):
        print("\tif (bpf_static_branch_unlikely(&flip_key)) hits = %d;" % (s + 1))
    print("\treturn XDP_PASS;\n}\n")
print('char LICENSE[] SEC("license") = "GPL";')
