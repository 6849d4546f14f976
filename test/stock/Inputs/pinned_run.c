// SPDX-License-Identifier: GPL-2.0
/* Runs pinned programs once each with BPF_PROG_TEST_RUN on a zeroed 64-byte
 * packet and prints "<pin> = <retval>" (the file name of the pin). */
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		unsigned char packet[64] = {0};
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet, .data_size_in = sizeof(packet),
			    .repeat = 1);
		const char *name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 : argv[i];
		int fd = bpf_obj_get(argv[i]);

		if (fd < 0 || bpf_prog_test_run_opts(fd, &opts)) {
			printf("pinned_run: %s: cannot run\n", argv[i]);
			rc = 1;
			continue;
		}
		printf("%s = %u\n", name, opts.retval);
	}
	return rc;
}
