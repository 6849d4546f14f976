// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target: one input object through every phase that does not
 * touch the file system (read + validate, sections, symbols, relocations,
 * BTF and .BTF.ext merging). Anything but a clean error return or success
 * is a bug.
 *
 * The final btf__dedup() is libbpf's code and runs only with FUZZ_DEDUP=1:
 * Debian's libbpf 1.1.2 has a use-after-free in dedup that fuzzing finds
 * within a minute (reproducer: libbpf-1.1.2-dedup-use-after-free.btf, a
 * valid raw BTF; `valgrind` on btf__dedup() of it shows the bad read).
 *
 *   clang-22 -g -O1 -fsanitize=fuzzer,address,undefined -Ilinker \
 *     linker/fuzz/fuzz_input_reader.c linker/{linker,diag,strings,read,resolve,merge,btf,write}.c \
 *     -lbpf -lelf -o fuzz_input_reader
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static bool dedup;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	dedup = getenv("FUZZ_DEDUP") != NULL;
	(void)argc;
	(void)argv;
	elf_version(EV_CURRENT);
	libbpf_set_print(quiet_libbpf);
	/* errors are expected by the thousand: keep them off the terminal */
	elfobj_quiet = !getenv("FUZZ_VERBOSE");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input_object obj;
	struct linker linker;
	char *image = malloc(size ? size : 1);
	struct final_btf btf = { 0 };
	int err;

	if (!image)
		return 0;
	memcpy(image, data, size);
	memset(&obj, 0, sizeof(obj));
	if (linker_init(&linker) == 0) {
		err = input_object_parse(&obj, "fuzz.o", image, size);
		err = err ? err : merge_section_data(&linker, &obj);
		err = err ? err : resolve_symbols(&linker, &obj);
		err = err ? err : merge_relocations(&linker, &obj);
		err = err ? err : merge_btf(&linker, &obj);
		err = err ? err : merge_btf_ext(&linker, &obj);
		if (!err && dedup && check_link_complete(&linker) == 0 &&
		    finalize_btf(&linker, "fuzz-out.o", &btf) == 0)
			final_btf_free(&btf);
	} else {
		free(image);
	}
	input_object_close(&obj); /* frees image */
	linker_free(&linker);
	return 0;
}
