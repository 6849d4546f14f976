#!/usr/bin/env python3
# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
"""Per-test results of upstream's BPF suites, baseline vs patched kernel.

    upstream-suites-report.py [--arch ARCH] RESULTS_DIR

reads the guest console logs scripts/upstream-suites.sh left in RESULTS_DIR
(<variant>-<suite>-h<harden>.log, with <variant>.excluded-h<harden> listing
the cases left out of a run), prints one table per suite (pass / fail / skip
/ excluded / not run per kernel and bpf_jit_harden level) and every test
whose result differs between the baseline and the patched kernel, with the
patched kernel's output for it. Each run also has two checks of its own:
"(run completed)" (the guest reached the end: no crash, no timeout) and
"(kernel log clean)" (no WARN, BUG, oops or panic in the guest's kernel log).

test_verifier's tests are its "#N/u" and "#N/p" lines. test_maps prints a
line only for its map_tests/ ("<test>:PASS", "<test> SKIP (...)"), stops at
the first failure ("<function>(<line>):FAIL:<tag> ..."), and prints
"test_maps: OK, N SKIPPED" after the last test: that line is its test
"(test_maps: OK)", which stands for the tests of test_maps.c, which print
nothing when they pass.

Exits 1 when a test (or check) passes on the baseline and does not pass on
the patched kernel, 2 on missing or unreadable logs, else 0.
"""
import collections
import os
import re
import sys

VARIANTS = ("baseline", "patched")
LOG_NAME = re.compile(r"^(baseline|patched)-(\w+)-h(\d+)\.log$")
CASE = re.compile(r"^#(\d+)/([up]) (.*)$")
PASS = re.compile(r"^(.*?) (?:\d+ cases )?OK(?: \(NOTE: .*\))?$")
SKIP = re.compile(r"^(.*?) SKIP(?: \(.*\))?$")
FAIL = re.compile(r"^(.*?) FAIL\b")
# the same, for a verdict a kernel message was printed right after (the
# console is shared): "... OKclocksource: ..."
PASS_GARBLED = re.compile(r"^(.*?) (?:\d+ cases )?OK")
SKIP_GARBLED = re.compile(r"^(.*?) SKIP")
BUDGET = re.compile(r"^=== BUDGET (\d+) s exceeded after #(-?\d+)/([-up]): killed, resuming at #(\d+)")
MAPS_PASS = re.compile(r"^(\w+):PASS(.*)$")
MAPS_SKIP = re.compile(r"^(\w+) SKIP\b")
MAPS_FAIL = re.compile(r"^(\w+)\(\d+\):FAIL:")
MAPS_OK = re.compile(r"^test_maps: OK, (\d+) SKIPPED$")
KERNEL_TROUBLE = re.compile(
    r"WARNING: |BUG: |BUG at |Oops|general protection fault|Kernel panic|"
    r"UBSAN: |KASAN: |Call Trace:|watchdog: |rcu: INFO|hung_task|"
    r"stack-protector|double fault|unable to handle")

# one test's result: status and the console lines that belong to it
Result = collections.namedtuple("Result", "status index lines")


def maps_result(line):
    """(key, status) of a test_maps line that gives a test's result, else None."""
    m = MAPS_PASS.match(line)
    if m:
        return (m.group(1) + m.group(2)).rstrip(), "pass"
    m = MAPS_SKIP.match(line)
    if m:
        return m.group(1), "skip"
    m = MAPS_FAIL.match(line)
    if m:
        return m.group(1), "fail"
    if MAPS_OK.match(line):
        return "(test_maps: OK)", "pass"
    return None


def parse_log(path, suite):
    """Returns (results by test key, facts about the run)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().splitlines()
    results = {}
    seen = collections.Counter()
    facts = {"completed": False, "dmesg": None, "trouble": [], "budget": [],
             "sysctl": [], "guest_error": []}
    current = None
    in_dmesg = False
    dmesg = []
    for line in lines:
        if line == "=== DMESG BEGIN":
            in_dmesg = True
            continue
        if line == "=== DMESG END":
            in_dmesg = False
            facts["dmesg"] = dmesg
            continue
        if in_dmesg:
            dmesg.append(line)
            continue
        if line.startswith("=== SUITE-DONE"):
            facts["completed"] = True
        elif line.startswith("=== SYSCTL "):
            facts["sysctl"].append(line[len("=== SYSCTL "):])
        elif line.startswith("=== GUEST ERROR") or line.endswith("s exceeded: killed"):
            facts["guest_error"].append(line)
        m = BUDGET.match(line)
        if m:
            after = int(m.group(2))
            facts["budget"].append((after, int(m.group(4))))
        if suite == "test_maps":
            r = maps_result(line)
            if r:
                key, status = r
                seen[key] += 1
                if seen[key] > 1:
                    key = "%s (%d)" % (key, seen[key])
                current = key
                results[key] = Result(status, len(results), [line])
                continue
        m = CASE.match(line) if suite == "test_verifier" else None
        if m:
            index, half, rest = int(m.group(1)), m.group(2), m.group(3)
            for status, pattern in (("pass", PASS), ("skip", SKIP), ("fail", FAIL),
                                    ("pass", PASS_GARBLED), ("skip", SKIP_GARBLED)):
                v = pattern.match(rest)
                if v:
                    descr = v.group(1)
                    break
            else:
                status, descr = "fail", rest  # no verdict on its line
            key = "%s %s" % (half, descr)
            seen[key] += 1
            if seen[key] > 1:
                key = "%s (%d)" % (key, seen[key])  # same name twice
            current = key
            results[key] = Result(status, index, [line])
            continue
        if current and not line.startswith("==="):
            results[current].lines.append(line)
        if KERNEL_TROUBLE.search(line):
            facts["trouble"].append((current, line))
    # without the guest's copy of the kernel log (crash), the console has it
    source = facts["dmesg"] if facts["dmesg"] is not None else lines
    facts["dmesg_trouble"] = [l for l in source if KERNEL_TROUBLE.search(l)]
    return results, facts


def read_excluded(path):
    """Indices left out of a run, one "index<TAB>name" a line."""
    if not os.path.exists(path):
        return set()
    with open(path) as f:
        return {int(l.split("\t", 1)[0]) for l in f if l.strip()}


def main():
    args = sys.argv[1:]
    arch = "x86_64"  # the arch the logs are from, for the tables' titles
    if len(args) == 3 and args[0] == "--arch":
        arch, args = args[1], args[2:]
    if len(args) != 1:
        print("usage: upstream-suites-report.py [--arch ARCH] RESULTS_DIR", file=sys.stderr)
        return 2
    top = args[0]
    runs = {}  # (suite, harden) -> variant -> (results, facts, excluded)
    for name in sorted(os.listdir(top)):
        m = LOG_NAME.match(name)
        if not m:
            continue
        variant, suite, harden = m.group(1), m.group(2), int(m.group(3))
        excluded = read_excluded(os.path.join(top, "%s.excluded-h%d" % (variant, harden)))
        results, facts = parse_log(os.path.join(top, name), suite)
        runs.setdefault((suite, harden), {})[variant] = (results, facts, excluded)
    if not runs:
        print("upstream-suites-report: %s: error: no <variant>-<suite>-h<N>.log files" % top,
              file=sys.stderr)
        return 2

    regressions = 0
    for (suite, harden), by_variant in sorted(runs.items()):
        missing = [v for v in VARIANTS if v not in by_variant]
        if missing:
            print("upstream-suites-report: %s harden=%d: error: no %s log" %
                  (suite, harden, " or ".join(missing)), file=sys.stderr)
            return 2
        # every test any run of the suite printed (at any harden level); a
        # test a run did not print was excluded from it, skipped over after
        # a case ran out of budget, or lost in a crash
        index_of = {}
        for (other_suite, _), others in runs.items():
            if other_suite != suite:
                continue
            for results, _, _ in others.values():
                for key, r in results.items():
                    index_of[key] = r.index
        status = {}
        for variant, (results, facts, excluded) in by_variant.items():
            budget_gaps = [(after + 1, resume - 1) for after, resume in facts["budget"]]
            st = {}
            for key, index in index_of.items():
                if key in results:
                    st[key] = results[key].status
                elif index in excluded:
                    st[key] = "excluded"
                elif any(lo <= index <= hi for lo, hi in budget_gaps):
                    st[key] = "timeout"
                else:
                    st[key] = "not run"
            st["(run completed)"] = "pass" if facts["completed"] else "fail"
            st["(kernel log clean)"] = "fail" if facts["dmesg_trouble"] else "pass"
            status[variant] = st

        print("\n%s, %s, bpf_jit_harden=%d" % (suite, arch, harden))
        cols = ("pass", "fail", "skip", "excluded", "timeout", "not run")
        print("  %-9s %s  %s" % ("kernel", "".join("%9s" % c for c in cols),
                                  "  run completed / kernel log"))
        for variant in VARIANTS:
            counts = collections.Counter(v for k, v in status[variant].items()
                                         if not k.startswith("("))
            facts = by_variant[variant][1]
            print("  %-9s %s  %s / %s" % (
                variant, "".join("%9d" % counts[c] for c in cols),
                "yes" if facts["completed"] else "NO",
                "clean" if not facts["dmesg_trouble"] else
                "%d WARN/BUG/oops lines" % len(facts["dmesg_trouble"])))
            for e in facts["guest_error"]:
                print("    %s: %s" % (variant, e))
            for after, resume in facts["budget"]:
                print("    %s: case budget exceeded after #%d, resumed at #%d" %
                      (variant, after, resume))
            for s in facts["sysctl"]:
                print("    %s: %s" % (variant, s))

        keys = sorted(set(status["baseline"]) | set(status["patched"]),
                      key=lambda k: (index_of.get(k, -1), k))
        diffs = [k for k in keys if status["baseline"].get(k) != status["patched"].get(k)]
        print("  differences (baseline -> patched): %d" % len(diffs))
        for key in diffs:
            before, after = status["baseline"].get(key), status["patched"].get(key)
            regression = before == "pass" and after != "pass"
            regressions += regression
            name = ("#%d/%s" % (index_of[key], key)
                    if key in index_of and suite == "test_verifier" else key)
            print("  %s%s: %s -> %s" % ("REGRESSION " if regression else "",
                                        name, before, after))
            results = by_variant["patched"][0]
            if key in results:
                for line in results[key].lines[:40]:
                    print("      | " + line)
            elif key == "(kernel log clean)":
                for line in by_variant["patched"][1]["dmesg_trouble"][:40]:
                    print("      | " + line)
        for variant in VARIANTS:
            for test, line in by_variant[variant][1]["trouble"][:20]:
                print("  %s kernel log during %s: %s" % (variant, test or "start-up", line))

    print("\nupstream-suites: %d test(s) pass on the baseline and fail on the series" % regressions)
    return 1 if regressions else 0


if __name__ == "__main__":
    sys.exit(main())
