#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Per-test results of upstream's test_progs, baseline vs patched kernel.

    upstream-suites-progs-report.py RESULTS_DIR

reads the guest console logs scripts/upstream-suites-progs.sh left in
RESULTS_DIR (baseline-test_progs.log, patched-test_progs.log), prints the
counts per kernel (tests and subtests: pass / fail / skip) and every test or
subtest whose result differs between the two kernels. Each run also has two
checks of its own: "(run completed)" (test_progs printed its summary and the
guest reached the end: no crash, no timeout) and "(kernel log clean)" (no
WARN, BUG, oops or panic in the guest's kernel log).

Exits 1 when a test, subtest or check passes on the baseline and does not
pass on the patched kernel, 2 on missing logs, else 0.
"""
import os
import re
import sys

VARIANTS = ("baseline", "patched")
# "#12      tailcalls:OK", "#91/1    verifier_x/name: with spaces:FAIL" (test
# and subtest lines; without -v test_progs prints only some subtests, its
# Summary line counts them all); a kernel message may follow the verdict on
# the same line (shared console)
RESULT = re.compile(r"^#(\d+)(?:/(\d+))?\s+(.+?):(OK|SKIP|FAIL)")
SUMMARY = re.compile(r"^Summary: (\d+)/(\d+) PASSED, (\d+) SKIPPED, (\d+) FAILED")
KERNEL_TROUBLE = re.compile(
    r"WARNING: |BUG: |BUG at |Oops|general protection fault|Kernel panic|"
    r"UBSAN: |KASAN: |Call Trace:|watchdog: |rcu: INFO|hung_task|"
    r"stack-protector|double fault|unable to handle")
STATUS = {"OK": "pass", "FAIL": "fail", "SKIP": "skip"}


def parse(path):
    results = {}
    summary = None
    done = False
    dmesg = []
    in_dmesg = False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if line == "=== DMESG BEGIN":
                in_dmesg = True
                continue
            if line == "=== DMESG END":
                in_dmesg = False
                continue
            if in_dmesg:
                dmesg.append(line)
                continue
            if line.startswith("=== SUITE-DONE"):
                done = True
            m = RESULT.match(line)
            if m:
                results[m.group(3)] = STATUS[m.group(4)]
                continue
            m = SUMMARY.match(line)
            if m:
                summary = line
    trouble = [l for l in dmesg if KERNEL_TROUBLE.search(l)]
    results["(run completed)"] = "pass" if done and summary else "fail"
    results["(kernel log clean)"] = "pass" if done and not trouble else "fail"
    return results, summary, trouble


def test_times(path):
    """{test: seconds} from "<epoch> <line>" stamps of the top-level result lines."""
    times = {}
    last = None
    try:
        with open(path, errors="replace") as f:
            for line in f:
                stamp, _, text = line.rstrip("\n").partition(" ")
                if text == "=== SUITE test_progs":
                    last = int(stamp)
                    continue
                m = RESULT.match(text)
                if m and m.group(2) is None and last is not None:
                    times[m.group(3)] = int(stamp) - last
                    last = int(stamp)
    except OSError:
        pass
    return times


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    runs = {}
    for v in VARIANTS:
        path = os.path.join(sys.argv[1], f"{v}-test_progs.log")
        if not os.path.exists(path):
            print(f"upstream-suites-progs-report: error: {path} missing", file=sys.stderr)
            return 2
        runs[v] = parse(path)

    print("test_progs     tests (pass / fail / skip)   subtests (pass / fail / skip)")
    for v in VARIANTS:
        res = runs[v][0]
        counts = {}
        for kind in ("test", "subtest"):
            names = [n for n in res if not n.startswith("(") and ("/" in n) == (kind == "subtest")]
            counts[kind] = "%d / %d / %d" % tuple(
                sum(1 for n in names if res[n] == s) for s in ("pass", "fail", "skip"))
        print(f"{v:<14} {counts['test']:<28} {counts['subtest']}")
        print(f"{'':<14} {runs[v][1] or 'no summary'}")
        for t in runs[v][2][:5]:
            print(f"{'':<14} kernel log: {t}")

    # seconds per top-level test, from the host's time stamps of the lines
    times = {v: test_times(os.path.join(sys.argv[1], f"{v}-test_progs.log.times"))
             for v in VARIANTS}
    tests = [n for n in runs["patched"][0] if "/" not in n and not n.startswith("(")]
    if any(times.values()):
        print("seconds per test (baseline / patched):")
        for n in tests:
            print(f"  {n}: {times['baseline'].get(n, '-')} / {times['patched'].get(n, '-')}")

    base, patched = runs["baseline"][0], runs["patched"][0]
    names = sorted(set(base) | set(patched))
    diffs = [(n, base.get(n, "not run"), patched.get(n, "not run"))
             for n in names if base.get(n, "not run") != patched.get(n, "not run")]
    regressions = [d for d in diffs if d[1] == "pass"]
    print(f"differences: {len(diffs)} (baseline -> patched)")
    for n, b, p in diffs:
        mark = "  REGRESSION" if b == "pass" else ""
        print(f"  {n}: {b} -> {p}{mark}")
    print(f"regressions (pass on the baseline, not on the series): {len(regressions)}")
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
