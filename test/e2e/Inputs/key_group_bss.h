/* SPDX-License-Identifier: GPL-2.0 */
/* The one global of key_group_progs.c, alone in its .bss (as skel->bss->res). */
#ifndef KEY_GROUP_BSS_H
#define KEY_GROUP_BSS_H

struct key_group_bss {
	__u32 target_tgid;
	int set_ret, set_sync_ret;	/* the kfuncs' last return values */
	int anomalies, quiets;		/* runs of the two flipping programs */
};

#endif
