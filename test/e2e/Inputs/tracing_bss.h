/* SPDX-License-Identifier: GPL-2.0 */
/* The one global of tracing_progs.c, alone in its .bss (as skel->bss->res). */
#ifndef TRACING_BSS_H
#define TRACING_BSS_H

struct tracing_bss {
	__u32 target_tgid;
	int kp_ret, kpm_ret, tp_ret;
	int kp_runs, kpm_runs, tp_runs;
};

#endif
