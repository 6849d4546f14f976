/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* What bootstrap.bpf.c sends to user space through the ring buffer. */
#ifndef BOOTSTRAP_H
#define BOOTSTRAP_H

struct event {
	unsigned int tid;
	unsigned int pad;
	unsigned long long syscall; /* the syscall number */
};

#endif
