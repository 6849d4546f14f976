// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libFuzzer target for the reader: any bytes go through the ELF/BTF reader,
 * the analysis (callgraph, sites, validation, key references, instances), the .bpfkeys
 * builder and parser. Errors are fine; crashes, leaks and UB are not.
 * Built by test/bpfkeys/fuzz-smoke.sh with clang-22 -fsanitize=fuzzer,address,undefined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bpfkeys.h"
#include "format.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static size_t read_back(int fd, uint8_t **out)
{
	off_t size = lseek(fd, 0, SEEK_END);
	size_t done = 0;

	*out = malloc(size > 0 ? (size_t)size : 1);
	if (!*out || size <= 0 || lseek(fd, 0, SEEK_SET) < 0)
		abort();
	while (done < (size_t)size) {
		ssize_t n = read(fd, *out + done, (size_t)size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	return done;
}

/* An object bpfkeys wrote and cannot read back: say why (the reader's own message) before crashing. */
static void unreadable_output(const char *what, const uint8_t *bytes, size_t size, bool analyze)
{
	struct bk_object again;

	elfobj_quiet = false;
	if (bk_object_read_memory(&again, what, bytes, size) == 0) {
		if (analyze)
			bk_analyze(&again);
		bk_object_free(&again);
	}
	fprintf(stderr, "fuzz: %s: what bpfkeys wrote does not read back as expected\n", what);
	abort();
}

/* What resolve writes must read back as a resolved object with the same tables. */
static void roundtrip_resolved(struct bk_object *obj)
{
	struct bk_object again;
	struct bk_format_view view;
	uint8_t *bytes;
	size_t size;
	int fd = memfd_create("resolved", 0);

	if (fd < 0)
		abort();
	if (bk_write_resolved(obj, NULL, fd) == 0) {
		size = read_back(fd, &bytes);
		if (bk_object_read_memory(&again, "resolved.o", bytes, size) != 0 ||
		    !again.instances_section ||
		    bk_format_parse(&again, again.sections[again.instances_section].data,
				    again.sections[again.instances_section].shdr.sh_size,
				    &view) != 0)
			unreadable_output("resolved.o", bytes, size, false);
		if (view.instance_count != obj->instance_count ||
		    view.site_count != obj->instance_site_count ||
		    view.reference_count != obj->reference_count ||
		    view.reference_insn_count != obj->reference_load_count)
			unreadable_output("resolved.o", bytes, size, false);
		bk_format_view_free(&view);
		bk_object_free(&again);
		free(bytes);
	}
	close(fd);
}

/* What lower writes must read back as an object without static keys. */
static void lower_to_memory(struct bk_object *obj)
{
	struct bk_object again;
	uint8_t *bytes;
	size_t size;
	int fd = memfd_create("lowered", 0);

	if (fd < 0)
		abort();
	if (bk_lower(obj, NULL, 0, NULL, fd) == 0) {
		size = read_back(fd, &bytes);
		if (bk_object_read_memory(&again, "lowered.o", bytes, size) != 0 ||
		    again.static_keys_section || bk_analyze(&again) != 0 || again.site_count != 0)
			unreadable_output("lowered.o", bytes, size, true);
		for (size_t k = 0; k < again.key_count; k++)
			if (again.keys[k].is_static_key)
				unreadable_output("lowered.o", bytes, size, true);
		bk_object_free(&again);
		free(bytes);
	}
	close(fd);
}

static int silent_libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bk_object obj;
	struct bk_format_view view;
	uint8_t *built = NULL;
	size_t built_size;
	jmp_buf bail;

	elfobj_quiet = true;
	libbpf_set_print(silent_libbpf_print);
	/* out of memory: the input is done (what it allocated is lost, as at exit) */
	if (setjmp(bail)) {
		bk_bail_target = NULL;
		return 0;
	}
	bk_bail_target = &bail;

	if (bk_object_read_memory(&obj, "fuzz.o", data, size) == 0) {
		if (obj.instances_section && obj.sections[obj.instances_section].data &&
		    bk_format_parse(&obj, obj.sections[obj.instances_section].data,
				    obj.sections[obj.instances_section].shdr.sh_size, &view) == 0)
			bk_format_view_free(&view);
		if (bk_analyze(&obj) == 0 && bk_format_build(&obj, &built, &built_size) == 0) {
			if (bk_format_parse(&obj, built, built_size, &view) != 0)
				abort(); /* what we build we must be able to read */
			bk_format_view_free(&view);
			free(built);
			if (!obj.instances_section) {
				roundtrip_resolved(&obj);
				lower_to_memory(&obj);
			}
		}
	}
	bk_object_free(&obj);
	bk_bail_target = NULL;
	return 0;
}
