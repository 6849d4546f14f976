// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * What the host kernel made of each program of an object (loaded with the
 * system's libbpf, as bpf_run does): after loading, for every program (or the
 * named ones) it prints
 *   <program>: xlated <N> insns, <L> line_info
 * from bpf_prog_info (xlated_prog_len / 8 counts what the verifier kept,
 * after its own rewrites), then with --lines the source text of each
 * line_info record the kernel kept ("<program>: line <text>"), looked up in
 * the program's BTF as loaded in the kernel; with --jited DIR it writes the
 * JIT-ed image of each program to DIR/<program>.bin (for a disassembler).
 * Any failure exits non-zero.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static int print_lines(const char *name, int fd, const struct bpf_prog_info *first)
{
	struct bpf_prog_info info = {0};
	__u32 len = sizeof(info), n = first->nr_line_info, size = first->line_info_rec_size;
	unsigned char *records = calloc(n ? n : 1, size ? size : 1);
	struct btf *btf = NULL;
	int rc = 1;

	if (!records)
		return 1;
	info.nr_line_info = n;
	info.line_info_rec_size = size;
	info.line_info = (unsigned long)records;
	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "bpf_prog_info: %s: cannot read line info\n", name);
		goto out;
	}
	btf = btf__load_from_kernel_by_id(first->btf_id);
	if (!btf) {
		fprintf(stderr, "bpf_prog_info: %s: cannot load BTF %u\n", name, first->btf_id);
		goto out;
	}
	for (__u32 i = 0; i < n; i++) {
		const struct bpf_line_info *li = (const void *)(records + (size_t)i * size);
		const char *text = btf__str_by_offset(btf, li->line_off);

		printf("%s: line %s\n", name, text ? text : "<bad offset>");
	}
	rc = 0;
out:
	btf__free(btf);
	free(records);
	return rc;
}

static int write_jited(const char *name, int fd, const struct bpf_prog_info *first, const char *dir)
{
	struct bpf_prog_info info = {0};
	__u32 len = sizeof(info);
	unsigned char *image = calloc(first->jited_prog_len ? first->jited_prog_len : 1, 1);
	char path[4096];
	FILE *f;
	int rc = 1;

	if (!image)
		return 1;
	info.jited_prog_len = first->jited_prog_len;
	info.jited_prog_insns = (unsigned long)image;
	snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
	if (bpf_obj_get_info_by_fd(fd, &info, &len) || !(f = fopen(path, "wb"))) {
		fprintf(stderr, "bpf_prog_info: %s: cannot read the JIT-ed image or write %s\n", name, path);
	} else {
		rc = fwrite(image, 1, first->jited_prog_len, f) != first->jited_prog_len;
		rc |= fclose(f) != 0;
	}
	free(image);
	return rc;
}

static int show(struct bpf_program *prog, bool lines, const char *jited_dir)
{
	struct bpf_prog_info info = {0};
	__u32 len = sizeof(info);
	const char *name = bpf_program__name(prog);
	int fd = bpf_program__fd(prog);

	if (bpf_obj_get_info_by_fd(fd, &info, &len)) {
		fprintf(stderr, "bpf_prog_info: %s: bpf_obj_get_info_by_fd failed\n", name);
		return 1;
	}
	printf("%s: xlated %u insns, %u line_info\n", name, info.xlated_prog_len / 8, info.nr_line_info);
	if (lines && print_lines(name, fd, &info))
		return 1;
	if (jited_dir && write_jited(name, fd, &info, jited_dir))
		return 1;
	return 0;
}

int main(int argc, char **argv)
{
	const char *jited_dir = NULL;
	bool lines = false;
	struct bpf_object *obj;
	struct bpf_program *prog;
	int i = 1, rc = 0;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--lines") == 0)
			lines = true;
		else if (strcmp(argv[i], "--jited") == 0 && i + 1 < argc)
			jited_dir = argv[++i];
		else
			break;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: bpf_prog_info [--lines] [--jited DIR] OBJ [PROGRAM...]\n");
		return 2;
	}
	libbpf_set_print(print_libbpf);
	obj = bpf_object__open_file(argv[i], NULL);
	if (!obj) {
		fprintf(stderr, "bpf_prog_info: %s: open failed\n", argv[i]);
		return 1;
	}
	if (bpf_object__load(obj)) {
		fprintf(stderr, "bpf_prog_info: %s: load failed\n", argv[i]);
		bpf_object__close(obj);
		return 1;
	}
	if (i + 1 == argc) {
		bpf_object__for_each_program(prog, obj)
			rc |= show(prog, lines, jited_dir);
	}
	for (int p = i + 1; p < argc; p++) {
		prog = bpf_object__find_program_by_name(obj, argv[p]);
		if (!prog) {
			fprintf(stderr, "bpf_prog_info: %s: no program '%s'\n", argv[i], argv[p]);
			rc = 1;
			continue;
		}
		rc |= show(prog, lines, jited_dir);
	}
	bpf_object__close(obj);
	return rc;
}
