// SPDX-License-Identifier: GPL-2.0
// The bpfkeyctl CLI in the patched kernel: load a resolved object and pin it,
// list programs and key instances (also as JSON), run programs, flip keys by
// name with KEY=on|off (set says the mechanism: one text-poke batch, two when
// one key goes on and another off, and how many sites), load with initial
// states set on the command line, and clear errors for an unknown key (a set
// with one changes none of its keys), a directory where nothing is loaded, a
// bad state, set's old two-word form, a missing program and a path that is
// not a program. Inputs/cli-session.sh is the
// session; this program mounts bpffs and runs it with busybox.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/e2e.o
// RUN: %build-bpfkeyctl && cp %guest-bpfkeyctl %guest-busybox %S/Inputs/cli-session.sh %t/files/
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s > %t/out
// RUN: FileCheck %s < %t/out
// RUN: grep '^{"kernel"' %t/out | python3 -m json.tool > /dev/null
#include "e2e_loader.h"

int main(void)
{
	int status;

	mkdir("/files/not_bpffs", 0755);
	status = e2e_shell_session("/files/cli-session.sh");
	// CHECK-LABEL: $ ./bpfkeyctl load e2e.o /sys/fs/bpf/e2e
	// CHECK-NEXT: program prog_one: /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: program prog_two: /sys/fs/bpf/e2e/progs/prog_two
	// CHECK-NEXT: key key_a: off, 2 instance(s)
	// CHECK-NEXT: key key_b: on, 2 instance(s)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl list /sys/fs/bpf/e2e
	// CHECK-NEXT: program prog_one: id {{[0-9]+}}, {{[0-9]+}} bytes jited, 2 maps
	// CHECK-NEXT: program prog_two: id {{[0-9]+}}, {{[0-9]+}} bytes jited, 2 maps
	// CHECK-NEXT: key key_a: off
	// CHECK-NEXT:   instance key_a/prog_one: map id {{[0-9]+}}, 2 site(s)
	// CHECK-NEXT:   instance key_a/prog_two: map id {{[0-9]+}}, 2 site(s)
	// CHECK-NEXT: key key_b: on
	// CHECK-NEXT:   instance key_b/prog_one: map id {{[0-9]+}}, 1 site(s)
	// CHECK-NEXT:   instance key_b/prog_two: map id {{[0-9]+}}, 1 site(s)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 2
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_two --repeat 1000
	// CHECK-NEXT: retval 32 (1000 runs, {{[0-9]+}} ns/run)
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a=on
	// CHECK-NEXT: key_a/prog_one: on
	// CHECK-NEXT: key_a/prog_two: on
	// CHECK-NEXT: key_a: on (patched kernel: text poke, 4 site(s) in 2 program(s), one batch)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 7
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_two
	// CHECK-NEXT: retval 56
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_b=off
	// CHECK-NEXT: key_b/prog_one: off
	// CHECK-NEXT: key_b/prog_two: off
	// CHECK-NEXT: key_b: off (patched kernel: text poke, 2 site(s) in 2 program(s), one batch)
	// CHECK-LABEL: $ ./bpfkeyctl list /sys/fs/bpf/e2e
	// CHECK: key key_a: on
	// CHECK: key key_b: off
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 5
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_two
	// CHECK-NEXT: retval 24
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a=off key_b=on
	// CHECK-NEXT: key_a/prog_one: off
	// CHECK-NEXT: key_a/prog_two: off
	// CHECK-NEXT: key_b/prog_one: on
	// CHECK-NEXT: key_b/prog_two: on
	// CHECK-NEXT: key_a: off, key_b: on (patched kernel: text poke, 6 site(s) in 2 program(s), two batches)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 2
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_two
	// CHECK-NEXT: retval 32
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a=on key_b=on
	// CHECK: key_a: on, key_b: on (patched kernel: text poke, 6 site(s) in 2 program(s), one batch)
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 7
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_two
	// CHECK-NEXT: retval 56
	// CHECK-LABEL: $ ./bpfkeyctl list --json /sys/fs/bpf/e2e
	// CHECK-NEXT: {"kernel":"patched","programs":[{"name":"prog_one","id":{{[0-9]+}},"jited_bytes":{{[0-9]+}},"maps":2},{"name":"prog_two",{{.*}}}],
	// CHECK-SAME: "keys":[{"name":"key_a","state":"on","instances":[{"program":"prog_one","map_id":{{[0-9]+}},"sites":2},{"program":"prog_two","map_id":{{[0-9]+}},"sites":2}]},
	// CHECK-SAME: {"name":"key_b","state":"on","instances":[{"program":"prog_one","map_id":{{[0-9]+}},"sites":1},{"program":"prog_two","map_id":{{[0-9]+}},"sites":1}]}]}
	// CHECK-NEXT: [exit 0]
	// CHECK-LABEL: $ ./bpfkeyctl load --set key_a=on --set key_b=off e2e.o /sys/fs/bpf/second
	// CHECK: key key_a: on, 2 instance(s)
	// CHECK-NEXT: key key_b: off, 2 instance(s)
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/second/progs/prog_two
	// CHECK-NEXT: retval 24
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e no_such_key=on
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf/e2e: unknown key 'no_such_key' (bpfkeyctl list /sys/fs/bpf/e2e)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a=off no_such_key=on
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf/e2e: unknown key 'no_such_key' (bpfkeyctl list /sys/fs/bpf/e2e)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/prog_one
	// CHECK-NEXT: retval 7
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/not_loaded key_a=on
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf/not_loaded: No such file or directory
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf key_a=on
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf: no object loaded here (bpfkeyctl load OBJ /sys/fs/bpf)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a=maybe
	// CHECK-NEXT: bpfkeyctl: error: set key_a=maybe: expected KEY=on|off
	// CHECK-NEXT: [exit 2]
	// CHECK-LABEL: $ ./bpfkeyctl set /sys/fs/bpf/e2e key_a on
	// CHECK-NEXT: bpfkeyctl: error: set key_a on: write key_a=on (KEY=on|off)
	// CHECK-NEXT: [exit 2]
	// CHECK-LABEL: $ ./bpfkeyctl list --yaml /sys/fs/bpf/e2e
	// CHECK-NEXT: bpfkeyctl: error: list: unknown option '--yaml'
	// CHECK-NEXT: [exit 2]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/progs/no_such_prog
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf/e2e/progs/no_such_prog: no such pinned program
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl run /sys/fs/bpf/e2e/keys/key_a/prog_one
	// CHECK-NEXT: bpfkeyctl: error: /sys/fs/bpf/e2e/keys/key_a/prog_one: not a BPF program
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl load --set no_such_key=on e2e.o /sys/fs/bpf/third
	// CHECK: bpfkeyctl: error: e2e.o: --set no_such_key: no such static key
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl load e2e.o /files/not_bpffs
	// CHECK: bpfkeyctl: error: /files/not_bpffs: not on a BPF file system (mount -t bpf bpf /sys/fs/bpf)
	// CHECK-NEXT: [exit 1]
	// CHECK-LABEL: $ ./bpfkeyctl frobnicate
	// CHECK-NEXT: bpfkeyctl: error: unknown command 'frobnicate'
	// CHECK: [exit 2]
	return status;
}
