#!/usr/bin/env bash
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Benchmark (not a test): bpfld vs libbpf's linker (`bpftool gen object`,
# Debian's bpftool with libbpf 1.1 and, newer, the 6.12 tree's with libbpf
# 1.5, built into the cache by linker/scripts/build-bpftool-6.12.sh) on
# generated sets of 100, 1,000 and 10,000 small BPF objects, each with one
# map, one global variable, one static and one weak function and one program.
# Both linkers run in the same invocation, interleaved; prints the median
# times, the ratio, and how each grows from one count to the next (10x =
# linear).
#
#   bench/linker/run.sh [COUNTS...]    (default: 100 1000 10000)
# Environment: RUNS (repetitions per measurement, default 11),
#   BENCH_SMOKE=1 (test/bench: 10 and 20 objects, one run each),
#   BPFLD (the bpfld to time; default: an optimised build made here),
#   BPFSK_CACHE (generated objects are cached there, default /var/cache/bpfsk;
#   10,000 objects take about ten minutes to generate the first time).
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
build=${BPFSK_BUILD:-$repo/build}
counts=("$@")
if [ "${BENCH_SMOKE:-0}" = 1 ]; then
	[ ${#counts[@]} -gt 0 ] || counts=(10 20)
	runs=${RUNS:-1}
else
	[ ${#counts[@]} -gt 0 ] || counts=(100 1000 10000)
	runs=${RUNS:-11}
fi

# An optimised bpfld without sanitizers (the tree's build may use ASan). The
# top-level project: bpfld needs elfobj/, which linker/ alone does not build.
if [ -n "${BPFLD:-}" ]; then
	bpfld=$BPFLD
else
	release=$build/bench-release
	cmake -S "$repo" -B "$release" -DCMAKE_BUILD_TYPE=Release -DBPFSK_SANITIZE=OFF >/dev/null
	cmake --build "$release" --target bpfld -j 2 >/dev/null
	bpfld=$release/bin/bpfld
fi
command -v bpftool >/dev/null || { echo "bench/linker: error: bpftool missing (apt-get install bpftool)" >&2; exit 1; }

clang=/usr/lib/llvm-22/bin/clang
gen_object() {
	local i=$1 dir=$2
	"$clang" --target=bpf -O2 -g -I/usr/include/x86_64-linux-gnu -c -x c - -o "$dir/obj$i.o" <<-EOF
	#include <linux/types.h>
	#include <linux/bpf.h>
	#include <bpf/bpf_helpers.h>
	struct {
		__uint(type, BPF_MAP_TYPE_ARRAY);
		__type(key, __u32);
		__type(value, __u64);
		__uint(max_entries, 1);
	} map_$i SEC(".maps");
	int global_$i = $i;
	static __attribute__((noinline)) int helper(int x) { return x + global_$i; }
	__attribute__((weak, noinline)) int weak_fn(int x) { return x * $i; }
	SEC("xdp") int prog_$i(void *ctx)
	{
		__u32 k = 0;
		__u64 *v = bpf_map_lookup_elem(&map_$i, &k);
		return helper(weak_fn(v ? *v : 0));
	}
	char LICENSE[] SEC("license") = "GPL";
	EOF
}
export -f gen_object
# cache key: the generator and the compiler, not the rest of this script
key=$( (declare -f gen_object; "$clang" --version) | sha256sum | cut -c1-16)
cache=${BPFSK_CACHE:-/var/cache/bpfsk}/bench-linker-$key
export clang
for n in "${counts[@]}"; do
	dir=$cache/n$n
	if [ ! -f "$dir/.done" ]; then
		# generated aside and renamed into place: a concurrent run never
		# sees a half-written set, nor removes one another run is reading
		echo "generating $n objects in $dir ..." >&2
		tmp=$dir.tmp.$$
		rm -rf "$tmp" && mkdir -p "$tmp"
		seq 1 "$n" | xargs -P "$(nproc)" -I{} bash -c 'gen_object {} '"$tmp"
		touch "$tmp/.done"
		if ! mv -T "$tmp" "$dir" 2>/dev/null; then
			# another run finished first, or a stale incomplete set is in the way
			if [ -f "$dir/.done" ]; then rm -rf "$tmp"; else rm -rf "$dir" && mv -T "$tmp" "$dir"; fi
		fi
	fi
done

# the peers: Debian's bpftool (libbpf 1.1) and the 6.12 tree's (libbpf 1.5)
bpftool_612=$("$repo/linker/scripts/build-bpftool-6.12.sh")
python3 - "$bpfld" "$runs" "$cache" "$(command -v bpftool)" "$bpftool_612" "${counts[@]}" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile, time
bpfld, runs, cache = sys.argv[1], int(sys.argv[2]), sys.argv[3]
peers = [('bpftool', sys.argv[4]), ('bpftool-6.12', sys.argv[5])]
counts = [int(c) for c in sys.argv[6:]]
out = tempfile.mkdtemp()

def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime

def timed(cmd):
    """(wall seconds, CPU seconds) of one run; CPU time is what the machine's
    other load (parallel builds) disturbs least."""
    t, c = time.perf_counter(), cpu()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, cpu() - c

print('peers: ' + '; '.join('%s = %s (%s)' % (name, path, ', '.join(
    subprocess.run([path, 'version'], check=True, stdout=subprocess.PIPE, text=True)
    .stdout.splitlines()[:2])) for name, path in peers))
# results[n][k]: medians (bpfld, peer...) of wall (k = 0) and CPU (k = 1) time
results = {}
for n in counts:
    objs = [os.path.join(cache, 'n%d' % n, 'obj%d.o' % i) for i in range(1, n + 1)]
    cmds = [[bpfld, '-o', os.path.join(out, 'bpfld.o')] + objs]
    cmds += [[path, 'gen', 'object', os.path.join(out, name + '.o')] + objs for name, path in peers]
    for cmd in cmds:
        timed(cmd)  # warm the page cache
    times = [[] for _ in cmds]
    for _ in range(runs):
        for cmd, t in zip(cmds, times):
            t.append(timed(cmd))
    results[n] = [[statistics.median(x[k] for x in t) for t in times] for k in (0, 1)]
    for k, what in ((0, 'wall'), (1, 'cpu ')):
        m = results[n][k]
        print('%5d objects, %s: bpfld %8.2f ms' % (n, what, m[0] * 1e3) + ''.join(
            '   %s gen object %8.2f ms   bpfld/%s = %.2f' % (name, m[i + 1] * 1e3, name, m[0] / m[i + 1])
            for i, (name, _) in enumerate(peers)))
steps = list(zip(counts, counts[1:]))
if len(counts) > 2:
    steps.append((counts[0], counts[-1]))
for a, b in steps:
    for k, what in ((0, 'wall'), (1, 'cpu ')):
        g = [results[b][k][i] / results[a][k][i] for i in range(len(peers) + 1)]
        print('growth %d -> %d objects (x%.0f), %s: bpfld x%.1f' % (a, b, b / a, what, g[0]) + ''.join(
            ', %s gen object x%.1f' % (name, g[i + 1]) for i, (name, _) in enumerate(peers)))
print('(median of %d runs each, same invocation, %s)' % (runs, os.uname().release))
PY
