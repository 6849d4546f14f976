// SPDX-License-Identifier: GPL-2.0
// The same user code on the patched kernel: examples/bootstrap (its
// Makefile, the skeleton of the resolved object, the program on libbpfkeys),
// built static for the guest, runs there as on the host's stock kernel: the
// skeleton's probe finds the series' static keys, and the key flipped while
// a thread makes syscalls gives no events off, events on, none again off
// (libbpfkeys' program replacement, which runs on this kernel too: the
// skeleton does not yet flip by BPF_STATIC_KEY_UPDATE).
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: make --no-print-directory -C %repo/examples/bootstrap OUTPUT=%t/build BUILD=%build %guest-libbpfkeys-make > %t/make.log
// RUN: cp %t/build/bootstrap %t/files/
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s > %t/out
// RUN: FileCheck %s < %t/out
// CHECK: loaded on a patched kernel; trace_events off
// CHECK: no epoll in this kernel: events counted by the program
// CHECK-NEXT: key off: syscalls counted: yes, events: 0
// CHECK-NEXT: key on: events: yes
// CHECK-NEXT: key off again: new events: 0, syscalls still counted: yes
// CHECK-NEXT: {{[1-9][0-9]*}} events in all
// CHECK: bootstrap: exit 0
// CHECK: PASSED
#include "e2e_loader.h"

int main(void)
{
	int status;
	pid_t pid;

	require_static_keys_kernel();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execl("/files/bootstrap", "bootstrap", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, &status, 0);
	printf("bootstrap: exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		failures++;
	return finish();
}
