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
