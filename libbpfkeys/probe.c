// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Which kernel the process runs on, for a loader that takes one artifact to
 * both: the series' kernel creates a static key (an INSN_ARRAY map with
 * BPF_F_STATIC_KEY in map_extra); a stock one refuses it (no map type 34
 * before Linux 6.19, map_extra must be 0 for it since).
 */
#include <unistd.h>

#include <bpf/bpf.h>
#include "uapi/linux/bpf_static_keys.h"

#include "internal.h"

bool bpfkeys_kernel_has_static_keys(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_extra = BPF_F_STATIC_KEY);
	int fd = bpf_map_create((enum bpf_map_type)BPF_MAP_TYPE_INSN_ARRAY, "bpfkeys_probe",
				sizeof(__u32), sizeof(struct bpf_insn_array_value), 1, &opts);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}
