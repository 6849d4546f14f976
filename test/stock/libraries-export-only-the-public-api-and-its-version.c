// SPDX-License-Identifier: LGPL-2.1 OR BSD-2-Clause
// libbpfkeys.so has the SONAME libbpfkeys.so.<major> and exports exactly the
// calls that <bpfkeys/libbpfkeys.h> declares, in LIBBPFKEYS_0.* version nodes: none of
// bpfkeys' core (bk_*), elfobj (elfobj_*) or the library's internal lbk_*.
// libbpfkeys.a (the core and elfobj prelinked inside) has exactly the same
// global symbols.
// A program linked against the shared library alone opens an object, and
// sees the version of the top-level CMake project() in the header's macros
// and in libbpfkeys_version_string().
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: readelf -d %build/libbpfkeys/libbpfkeys.so | FileCheck --check-prefix=SONAME %s
// SONAME: (SONAME) Library soname: [libbpfkeys.so.0]
//
// Every defined dynamic symbol is a public call (T) of a version node LIBBPFKEYS_0.*
// (0.2.0, and 0.3.0 for the settings before load, prepared flips, the kernel probe,
// legacy tc and the link getters):
// RUN: nm -D --defined-only %build/libbpfkeys/libbpfkeys.so | FileCheck --check-prefix=KINDS %s
// KINDS-NOT: {{ [^TA] }}
// KINDS-NOT: @@LIBBPFKEYS_{{[^0]}}
//
// and the names are exactly the header's declarations (comments left out by cpp):
// RUN: nm -D --defined-only %build/libbpfkeys/libbpfkeys.so | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort > %t/exported
// RUN: cc -E -P -I%repo/libbpfkeys/include -I%build/libbpfkeys/include %repo/libbpfkeys/include/bpfkeys/libbpfkeys.h | grep -oE '\b(lib)?bpfkeys_[a-z_]+\(' | tr -d '(' | sort -u > %t/declared
// RUN: diff %t/declared %t/exported
// RUN: nm --defined-only -g %build/libbpfkeys/libbpfkeys.a | awk 'NF == 3 { print $3 }' | sort > %t/static-globals
// RUN: diff %t/declared %t/static-globals
// RUN: wc -l < %t/exported | FileCheck --check-prefix=COUNT %s
// COUNT: 49
//
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_progs.c -o %t/progs.o
// RUN: %clang %bpf_cflags -c %e2e_inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %stock_cc %s %build/libbpfkeys/libbpfkeys.so -Wl,-rpath,%build/libbpfkeys -lbpf -o %t/test
// RUN: readelf -d %t/test | FileCheck --check-prefix=NEEDED %s
// NEEDED: (NEEDED) Shared library: [libbpfkeys.so.0]
// RUN: grep -oE '^project\(bpf_static_keys VERSION [0-9.]+' %repo/CMakeLists.txt > %t/out
// RUN: %run %t/test %t/linked.o >> %t/out
// RUN: FileCheck %s < %t/out
// CHECK: project(bpf_static_keys VERSION [[MAJOR:[0-9]+]].[[MINOR:[0-9]+]].[[PATCH:[0-9]+]]
// CHECK-NEXT: built against [[MAJOR]].[[MINOR]].[[PATCH]] ([[MAJOR]] [[MINOR]] [[PATCH]])
// CHECK-NEXT: runs [[MAJOR]].[[MINOR]].[[PATCH]] ([[MAJOR]] [[MINOR]])
// CHECK-NEXT: opened through the shared library: 2 keys
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpfkeys/libbpfkeys.h>

int main(int argc, char **argv)
{
	struct bpfkeys_object *obj;

	if (argc != 2)
		return 2;
	printf("built against %s (%d %d %d)\n", LIBBPFKEYS_VERSION_STRING, LIBBPFKEYS_MAJOR_VERSION,
	       LIBBPFKEYS_MINOR_VERSION, LIBBPFKEYS_PATCH_VERSION);
	printf("runs %s (%u %u)\n", libbpfkeys_version_string(), libbpfkeys_major_version(),
	       libbpfkeys_minor_version());
	obj = bpfkeys_open_file(argv[1], NULL);
	if (!obj) {
		printf("open: %s\n", strerror(errno));
		return 1;
	}
	printf("opened through the shared library: %zu keys\n", bpfkeys_key_count(obj));
	bpfkeys_close(obj);
	return 0;
}
