// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end object 2 of 2: a non-inlined function with a site on key_a
 * (defined in e2e_progs.c), called from both programs, so each program's
 * instance of key_a covers its own copy of this site.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_static_keys.h"

DECLARE_STATIC_KEY_FALSE(key_a);

__noinline int shared_fn(int len)
{
	if (bpf_static_branch_unlikely(&key_a))
		return len > 0;
	return 0;
}
