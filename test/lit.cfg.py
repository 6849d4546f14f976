# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Top-level lit configuration: every suite under test/ runs with the tools
# built into build/bin (patched clang, bpfld, bpfkeys) and Debian's LLVM 22
# tools for inspection (FileCheck, llvm-readelf, not, split-file).
import os
import lit.formats

config.name = "bpf-static-keys"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".s", ".ll", ".c", ".test"]
# mutation/ and fuzz-corpus/ are run by scripts/test.sh, not lit
config.excludes = ["Inputs", "lit.cfg.py", "lit.local.cfg", "mutation", "fuzz-corpus"]

repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = os.environ.get("BPFSK_BUILD", os.path.join(repo, "build"))
bindir = os.path.join(build, "bin")
llvm22 = "/usr/lib/llvm-22/bin"

config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(build, "test")

config.environment["PATH"] = os.pathsep.join(
    [bindir, llvm22, config.environment.get("PATH", os.environ.get("PATH", ""))])
for var in ("HOME", "TMPDIR", "CI"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

config.substitutions.append(("%repo", repo))
config.substitutions.append(("%build", build))
config.substitutions.append(("%runtime_headers", os.path.join(repo, "runtime-headers")))
# Patched tools. Always the full path, so a test never picks a stock one by accident.
for tool in ("clang", "llc", "llvm-mc", "llvm-objdump", "bpfld", "bpfkeys"):
    config.substitutions.append(("%" + tool + "\\b", os.path.join(bindir, tool)))
# Debian's stock LLVM 22, the peer the patched tools are compared against.
config.substitutions.append(("%stock-clang", os.path.join(llvm22, "clang")))
config.substitutions.append(("%stock-llc", os.path.join(llvm22, "llc")))
config.substitutions.append(("%stock-llvm-mc", os.path.join(llvm22, "llvm-mc")))
# Debian's stock compilers that bpf_static_keys.h is tested with
# (test/compilers). Inserted first: "%clang\b" would match "%clang-14".
for version in ("14", "16", "19", "22"):
    config.substitutions.insert(0, ("%clang-" + version,
        "/usr/lib/llvm-%s/bin/clang" % version))
# %bpf_cc: the compiler of the BPF sources in test/stock and test/e2e (and
# wherever a test compiles with it): the patched clang unless
# `lit --param bpf_cc=clang-22` (or clang-19) picks a stock one, to run the
# host-kernel and guest tests on its objects.
# clang-14 and 16 have no -mcpu=v4, which %bpf_cflags asks for.
bpf_cc = lit_config.params.get("bpf_cc", os.environ.get("BPFSK_BPF_CC", "patched"))
bpf_cc_paths = {"patched": os.path.join(bindir, "clang"),
                "clang-19": "/usr/lib/llvm-19/bin/clang",
                "clang-22": "/usr/lib/llvm-22/bin/clang"}
if bpf_cc not in bpf_cc_paths:
    lit_config.fatal("bpf_cc=%s: one of %s" % (bpf_cc, ", ".join(sorted(bpf_cc_paths))))
config.substitutions.insert(0, ("%bpf_cc", bpf_cc_paths[bpf_cc]))
if bpf_cc != "patched":
    config.name += " [bpf_cc=%s]" % bpf_cc
# Common compile line for BPF sources with static keys.
# Debian keeps asm/types.h under the multiarch directory, which --target=bpf
# does not search.
import subprocess
try:
    multiarch = subprocess.check_output(["gcc", "-print-multiarch"], text=True).strip()
except (OSError, subprocess.CalledProcessError):
    multiarch = "x86_64-linux-gnu"
config.substitutions.append(("%bpf_cflags",
    "--target=bpf -O2 -g -mcpu=v4 -I/usr/include/" + multiarch +
    " -I" + os.path.join(repo, "runtime-headers")))

# Added for test/llvm: stock objdump (PATH has build/bin first), the
# multiarch include directory that <asm/types.h> lives in (the patched clang
# adds it through its bpf.cfg; stock clang needs it on the command line), and
# the corpus comparison helper.
import platform
config.substitutions.append(("%stock-llvm-objdump", os.path.join(llvm22, "llvm-objdump")))
config.substitutions.append(("%bpf_multiarch_include",
    "-idirafter /usr/include/" + platform.machine() + "-linux-gnu"))
config.substitutions.append(("%compare_corpus",
    "bash " + os.path.join(repo, "test", "llvm", "Inputs", "compare-corpus.sh")))

# %limit_memory CMD: runs CMD where an allocation of more than 64 MiB fails
# (returns NULL), for the out-of-memory tests. A sanitized build (as
# scripts/test.sh builds) gets ASan's allocator limit: ASan maps terabytes of
# shadow memory at start, so an address-space limit would stop it before
# main(). Without ASan, RLIMIT_AS does the same (128 MiB: the tools' own
# mappings fit, a 256 MiB allocation does not).
sanitized = False
try:
    with open(os.path.join(build, "CMakeCache.txt")) as cache:
        sanitized = any(line.strip() == "BPFSK_SANITIZE:BOOL=ON" for line in cache)
except OSError:
    pass
if sanitized:
    config.substitutions.append(("%limit_memory",
        "env ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=64"))
else:
    config.substitutions.append(("%limit_memory", "prlimit --as=134217728"))

# %version: the project's version (project() in CMakeLists.txt), as CMake
# generated it into the build's bpfsk_version.h; every tool's --version must
# print it. An unconfigured build gives a value no tool prints, so the
# version tests fail rather than pass on a guess.
version = "(no bpfsk_version.h in %s)" % build
try:
    with open(os.path.join(build, "generated", "bpfsk_version.h")) as header:
        for line in header:
            if line.startswith("#define BPFSK_VERSION \""):
                version = line.split('"')[1]
except OSError:
    pass
config.substitutions.append(("%version", version))
