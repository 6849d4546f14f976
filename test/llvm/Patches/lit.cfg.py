# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# The LLVM tests of the patch series (llvm-bpf-target/patches), run from the
# patched source tree: scripts/build-llvm.sh installs its llvm/test with the
# tools it built them with, as <build>/llvm-test. The tests are upstream's
# layout (MC/BPF, CodeGen/BPF, CodeGen/BPF/BTF) and call the tools by their
# plain names (llvm-mc, llc, llvm-objdump): PATH has the patched tools first,
# then Debian's LLVM 22 (FileCheck, not).
import os
import platform
import sys

here = os.path.dirname(os.path.abspath(__file__))
repo = os.path.dirname(os.path.dirname(os.path.dirname(here)))
build = os.environ.get("BPFSK_BUILD", os.path.join(repo, "build"))
lit_config.load_config(config, os.path.join(repo, "test", "lit.cfg.py"))

config.name = "llvm-bpf-target-patches"
config.targets = frozenset(["BPF"])  # for upstream lit.local.cfg files
config.suffixes = [".s", ".ll"]
# atomic-oversize.ll is "XFAIL: *" upstream (a known crash); scripts/test.sh
# counts an expected failure as a skip, so it is not collected.
config.excludes = ["Inputs", "atomic-oversize.ll"]
tests = os.path.join(build, "llvm-test")
if not os.path.isdir(tests):
    lit_config.fatal("%s: no tests of the patched LLVM tree (run scripts/build-llvm.sh)" % tests)
# Upstream's BPF tests run too (they are in the same directories):
# print_btf.py needs %python, lit.local.cfg files config.root.targets.
# rodata_3.ll needs a little-endian host, which upstream's lit spells as the
# host triple's x86_64-linux feature.
config.substitutions.append(("%python", sys.executable))
if platform.machine() == "x86_64" and sys.platform.startswith("linux"):
    config.available_features.add("x86_64-linux")
config.test_source_root = tests
config.test_exec_root = os.path.join(build, "test", "llvm-patches")
