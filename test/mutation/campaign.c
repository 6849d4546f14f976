// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Mutation campaign for bpfld and bpfkeys: structured mutations of
 * real objects (truncations and field changes in the ELF header, section
 * headers, symbols, relocations, .BTF, .BTF.ext, .static_keys, .bpfkeys), each
 * run in-process through the same code paths as the tools' main(), built with
 * ASan/UBSan so any memory error or UB aborts the campaign. For every input a
 * tool accepts, its output is read again by both tools:
 *   bpfld output    -> bpfld links it again; the shared reader (elfobj, both
 *                      tools' first phase) reads it; bpfkeys analyzes it when
 *                      it analyzed the inputs (an object calling a function
 *                      defined elsewhere is one bpfkeys asks to link first);
 *   bpfkeys resolve -> bpfkeys reads it and parses .bpfkeys; bpfld refuses it
 *                      (a resolved object is not linkable, by design);
 *   bpfkeys lower   -> (of a raw or a resolved input) bpfkeys reads and
 *                      analyzes it; the shared reader reads
 *                      it; bpfld links it when it linked the input.
 * An output either tool rejects is a "bad output": its input is saved.
 *
 *   campaign TOOL SEED COUNT OUT_DIR SEED_OBJECT...   (TOOL: bpfld or bpfkeys)
 *
 * Deterministic: the same arguments give the same inputs and results.
 * Built and run by test/mutation/run.sh.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpfkeys.h"
#include "bpfld.h"
#include "format.h"

static uint64_t rng_state;

static uint64_t next_random(void)
{
	/* xorshift64*: small, fast, reproducible */
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545F4914F6CDD1DULL;
}

static uint64_t below(uint64_t n)
{
	return n ? next_random() % n : 0;
}

struct seed {
	const char *path;
	uint8_t *bytes;
	size_t size;
};

static int read_whole(const char *path, uint8_t **bytes, size_t *size)
{
	struct stat st;
	int fd = open(path, O_RDONLY);
	ssize_t n;

	if (fd < 0 || fstat(fd, &st))
		return -1;
	*size = (size_t)st.st_size;
	*bytes = malloc(*size ? *size : 1);
	n = read(fd, *bytes, *size);
	close(fd);
	return n == (ssize_t)*size ? 0 : -1;
}

static int write_whole(const char *path, const uint8_t *bytes, size_t size)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, bytes, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -1;
}

/* ---- where the structures are (from the unmutated seed) ---- */

struct region {
	uint64_t offset, size, entry; /* entry: record size to aim field changes at */
};

enum {
	R_EHDR,
	R_SHDRS,
	R_SYMTAB,
	R_REL,
	R_BTF,
	R_BTF_EXT,
	R_STATIC_KEYS,
	R_BPFKEYS,
	R_CODE,
	R_ANY,
	R_KINDS
};
static const char *const region_names[R_KINDS] = {
	"ehdr",	   "shdr",	  "symbol",  "relocation", "btf",
	"btf_ext", "static_keys", "bpfkeys", "code",	   "byte",
};

struct layout {
	struct region regions[R_KINDS][16];
	size_t count[R_KINDS];
};

static void add_region(struct layout *l, int kind, uint64_t offset, uint64_t size, uint64_t entry)
{
	if (l->count[kind] < 16 && size)
		l->regions[kind][l->count[kind]++] = (struct region){ offset, size, entry };
}

static void find_layout(const uint8_t *bytes, size_t size, struct layout *l)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)bytes;
	const Elf64_Shdr *sh, *names;

	memset(l, 0, sizeof(*l));
	add_region(l, R_ANY, 0, size, 1);
	if (size < sizeof(*eh))
		return;
	add_region(l, R_EHDR, 0, sizeof(*eh), 1);
	if (eh->e_shoff > size || eh->e_shnum > (size - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum)
		return;
	sh = (const Elf64_Shdr *)(bytes + eh->e_shoff);
	add_region(l, R_SHDRS, eh->e_shoff, eh->e_shnum * sizeof(*sh), sizeof(*sh));
	names = &sh[eh->e_shstrndx];
	for (size_t i = 1; i < eh->e_shnum; i++) {
		const char *name = "";

		if (sh[i].sh_offset > size || sh[i].sh_size > size - sh[i].sh_offset)
			continue;
		if (names->sh_offset + sh[i].sh_name < size)
			name = (const char *)bytes + names->sh_offset + sh[i].sh_name;
		if (sh[i].sh_type == SHT_SYMTAB)
			add_region(l, R_SYMTAB, sh[i].sh_offset, sh[i].sh_size, sizeof(Elf64_Sym));
		else if (sh[i].sh_type == SHT_REL)
			add_region(l, R_REL, sh[i].sh_offset, sh[i].sh_size, sizeof(Elf64_Rel));
		else if (!strcmp(name, ".BTF"))
			add_region(l, R_BTF, sh[i].sh_offset, sh[i].sh_size, 4);
		else if (!strcmp(name, ".BTF.ext"))
			add_region(l, R_BTF_EXT, sh[i].sh_offset, sh[i].sh_size, 4);
		else if (!strcmp(name, ".static_keys"))
			add_region(l, R_STATIC_KEYS, sh[i].sh_offset, sh[i].sh_size, 16);
		else if (!strcmp(name, ".bpfkeys"))
			add_region(l, R_BPFKEYS, sh[i].sh_offset, sh[i].sh_size, 4);
		else if (sh[i].sh_flags & SHF_EXECINSTR)
			add_region(l, R_CODE, sh[i].sh_offset, sh[i].sh_size, 8);
	}
}

/* A value worth trying in a field: edges, small numbers, sizes of nearby things. */
static uint64_t interesting(uint64_t old, size_t file_size)
{
	switch (below(10)) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return ~0ULL;
	case 3:
		return old + 1;
	case 4:
		return old - 1;
	case 5:
		return file_size;
	case 6:
		return old ^ (1ULL << below(64));
	case 7:
		return 0xfff0 + below(16); /* reserved section indices */
	case 8:
		return below(64);
	default:
		return next_random();
	}
}

/* Changes one field (1, 2, 4 or 8 bytes, aligned inside a record) of a region. */
static void mutate_field(uint8_t *bytes, size_t size, const struct region *r)
{
	static const unsigned widths[] = { 1, 2, 4, 8 };
	unsigned width = widths[below(4)];
	uint64_t record = r->entry > 1 ? below(r->size / r->entry + 1) * r->entry : 0;
	uint64_t offset = r->offset + record + (r->entry > 1 ? below(r->entry) : below(r->size));
	uint64_t old = 0, value;

	offset -= offset % width;
	if (offset + width > size)
		return;
	memcpy(&old, bytes + offset, width);
	value = interesting(old, size);
	memcpy(bytes + offset, &value, width);
}

static size_t mutate(uint8_t *bytes, size_t size, const struct layout *l, char *what,
		     size_t what_size)
{
	unsigned rounds = 1 + (unsigned)below(3);
	size_t used = 0;

	what[0] = '\0';
	for (unsigned i = 0; i < rounds; i++) {
		int kind;

		if (below(12) == 0) { /* truncation */
			size = below(size + 1);
			used += snprintf(what + used, what_size - used, "truncate@%zu ", size);
			continue;
		}
		do
			kind = (int)below(R_KINDS);
		while (!l->count[kind]);
		mutate_field(bytes, size, &l->regions[kind][below(l->count[kind])]);
		used += snprintf(what + used, what_size - used, "%s ", region_names[kind]);
		if (used >= what_size)
			used = what_size - 1;
	}
	return size;
}

/* ---- running the tools as their main() does ---- */

static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int bpfld_link(const char *const *inputs, size_t count, const char *output)
{
	struct final_btf btf = { 0 };
	struct linker linker;
	int err = linker_init(&linker);

	elfobj_progname = "bpfld";

	for (size_t i = 0; i < count && !err; i++)
		err = link_input_object(&linker, inputs[i]);
	err = err ? err : check_link_complete(&linker);
	err = err ? err : finalize_btf(&linker, output, &btf);
	err = err ? err : write_output(&linker, output, &btf);
	final_btf_free(&btf);
	linker_free(&linker);
	return err;
}

/* bpfkeys reads and analyzes; for a resolved object it parses .bpfkeys (list). */
static int bpfkeys_read(const char *path, bool *resolved)
{
	struct bk_object obj;
	struct bk_format_view view;
	int err;

	elfobj_progname = "bpfkeys";
	if (bk_object_read(&obj, path))
		return -1;
	*resolved = obj.instances_section && !obj.static_keys_section;
	if (*resolved) {
		const struct bk_section *sec = &obj.sections[obj.instances_section];

		err = !sec->data || bk_format_parse(&obj, sec->data, sec->shdr.sh_size, &view);
		if (!err)
			bk_format_view_free(&view);
	} else {
		err = bk_analyze(&obj);
	}
	bk_object_free(&obj);
	return err ? -1 : 0;
}

/* The shared reader alone: what both tools require of any object. */
static int elfobj_reads(const char *path)
{
	struct elfobj obj;
	struct elfobj_static_branch *branches;
	size_t count;
	int err;

	err = elfobj_open(&obj, path) || elfobj_read_static_keys(&obj, &branches, &count);
	if (!err)
		free(branches);
	elfobj_close(&obj);
	return err ? -1 : 0;
}

struct counts {
	unsigned long inputs, accepted, outputs, rereads, bad_outputs;
};

static char out_dir[4096];

static void bad_output(struct counts *c, const char *why, unsigned long n, const uint8_t *bytes,
		       size_t size, const char *what)
{
	char path[4200];

	c->bad_outputs++;
	snprintf(path, sizeof(path), "%s/bad-%06lu.o", out_dir, n);
	write_whole(path, bytes, size);
	fprintf(stderr, "campaign: input %lu (%s): %s; input saved as %s\n", n, what, why, path);
}

/* Runs a failed re-read again with the tools' messages on, to show why. */
#define SAY_WHY(call)                 \
	do {                          \
		elfobj_quiet = false; \
		(void)(call);         \
		elfobj_quiet = true;  \
	} while (0)

/* bpfld: link the input (every 4th time after a clean seed), read the output again. */
static void run_bpfld(struct counts *c, unsigned long n, const char *in, const char *clean,
		      const uint8_t *bytes, size_t size, const char *what)
{
	char out[4200], again[4200];
	const char *inputs[2] = { clean, in };
	bool two = n % 4 == 3, resolved, analyzed;
	const char *one[1] = { out };

	snprintf(out, sizeof(out), "%s/out.o", out_dir);
	snprintf(again, sizeof(again), "%s/again.o", out_dir);
	unlink(out);
	if (bpfld_link(two ? inputs : inputs + 1, two ? 2 : 1, out))
		return;
	c->accepted++;
	c->outputs++;
	c->rereads += 3;
	analyzed =
		bpfkeys_read(in, &resolved) == 0 && (!two || bpfkeys_read(clean, &resolved) == 0);
	if (bpfld_link(one, 1, again)) {
		SAY_WHY(bpfld_link(one, 1, again));
		bad_output(c, "bpfld rejects what it wrote", n, bytes, size, what);
	} else if (elfobj_reads(out)) {
		SAY_WHY(elfobj_reads(out));
		bad_output(c, "the shared reader rejects what bpfld wrote", n, bytes, size, what);
	} else if (analyzed && bpfkeys_read(out, &resolved)) {
		SAY_WHY(bpfkeys_read(out, &resolved));
		bad_output(c, "bpfkeys analyzed the input but rejects what bpfld wrote", n, bytes,
			   size, what);
	}
}

/* bpfkeys: as main() does for resolve and lower; list for a resolved input. */
static void run_bpfkeys(struct counts *c, unsigned long n, const char *in, const uint8_t *bytes,
			size_t size, const char *what)
{
	char out[4200], linked[4200];
	struct bk_object obj;
	bool resolved;
	const char *one[1] = { out };

	snprintf(out, sizeof(out), "%s/out.o", out_dir);
	snprintf(linked, sizeof(linked), "%s/linked.o", out_dir);
	if (bk_object_read(&obj, in))
		return;
	if (obj.instances_section && !obj.static_keys_section) {
		/* lower takes a resolved object too (its sites from .bpfkeys) */
		if (bk_analyze_resolved(&obj) == 0) {
			unlink(out);
			if (bk_lower(&obj, NULL, 0, out, -1) == 0) {
				c->outputs++;
				c->rereads += 2;
				if (bpfkeys_read(out, &resolved) || resolved) {
					SAY_WHY(bpfkeys_read(out, &resolved));
					bad_output(c,
						   "bpfkeys rejects what lower wrote of a resolved "
						   "object",
						   n, bytes, size, what);
				} else if (elfobj_reads(out)) {
					SAY_WHY(elfobj_reads(out));
					bad_output(
						c,
						"the shared reader rejects what lower wrote of a "
						"resolved object",
						n, bytes, size, what);
				}
			}
		}
		bk_object_free(&obj);
		if (bpfkeys_read(in, &resolved) == 0)
			c->accepted++;
		return;
	}
	if (bk_analyze(&obj)) {
		bk_object_free(&obj);
		return;
	}
	c->accepted++;
	unlink(out);
	if (bk_write_resolved(&obj, out, -1) == 0) {
		c->outputs++;
		c->rereads += 2;
		if (bpfkeys_read(out, &resolved) || !resolved) {
			SAY_WHY(bpfkeys_read(out, &resolved));
			bad_output(c, "bpfkeys rejects what resolve wrote", n, bytes, size, what);
		} else if (bpfld_link(one, 1, linked) == 0) {
			bad_output(c, "bpfld links a resolved object", n, bytes, size, what);
		}
	}
	unlink(out);
	if (bk_lower(&obj, NULL, 0, out, -1) == 0) {
		const char *input[1] = { in };
		bool linkable = bpfld_link(input, 1, linked) == 0;

		c->outputs++;
		c->rereads += 3;
		if (bpfkeys_read(out, &resolved) || resolved) {
			SAY_WHY(bpfkeys_read(out, &resolved));
			bad_output(c, "bpfkeys rejects what lower wrote", n, bytes, size, what);
		} else if (elfobj_reads(out)) {
			SAY_WHY(elfobj_reads(out));
			bad_output(c, "the shared reader rejects what lower wrote", n, bytes, size,
				   what);
		} else if (linkable && bpfld_link(one, 1, linked)) {
			SAY_WHY(bpfld_link(one, 1, linked));
			bad_output(c, "bpfld links the input but rejects what lower wrote", n,
				   bytes, size, what);
		}
	}
	bk_object_free(&obj);
}

int main(int argc, char **argv)
{
	struct seed *seeds;
	struct layout *layouts;
	struct counts counts = { 0 };
	unsigned long count;
	size_t seed_count;
	char in[4200];
	bool bpfld;

	if (argc < 6 || (strcmp(argv[1], "bpfld") && strcmp(argv[1], "bpfkeys"))) {
		fprintf(stderr,
			"usage: campaign bpfld|bpfkeys SEED COUNT OUT_DIR SEED_OBJECT...\n");
		return 2;
	}
	bpfld = !strcmp(argv[1], "bpfld");
	rng_state = strtoull(argv[2], NULL, 0) * 2654435761ULL + 1;
	count = strtoul(argv[3], NULL, 0);
	snprintf(out_dir, sizeof(out_dir), "%s", argv[4]);
	seed_count = (size_t)argc - 5;
	seeds = calloc(seed_count, sizeof(*seeds));
	layouts = calloc(seed_count, sizeof(*layouts));
	for (size_t i = 0; i < seed_count; i++) {
		seeds[i].path = argv[5 + i];
		if (read_whole(seeds[i].path, &seeds[i].bytes, &seeds[i].size)) {
			fprintf(stderr, "campaign: %s: %s\n", seeds[i].path, strerror(errno));
			return 2;
		}
		find_layout(seeds[i].bytes, seeds[i].size, &layouts[i]);
	}
	elf_version(EV_CURRENT);
	libbpf_set_print(quiet_libbpf);
	elfobj_progname = bpfld ? "bpfld" : "bpfkeys";
	elfobj_quiet = true;
	snprintf(in, sizeof(in), "%s/in.o", out_dir);

	for (unsigned long n = 0; n < count; n++) {
		size_t pick = below(seed_count), size = seeds[pick].size;
		uint8_t *bytes = malloc(size ? size : 1);
		char what[256];

		memcpy(bytes, seeds[pick].bytes, size);
		size = mutate(bytes, size, &layouts[pick], what, sizeof(what));
		write_whole(in, bytes, size);
		counts.inputs++;
		if (bpfld)
			run_bpfld(&counts, n, in, seeds[below(seed_count)].path, bytes, size, what);
		else
			run_bpfkeys(&counts, n, in, bytes, size, what);
		free(bytes);
	}
	/* reaching this line means no input crashed (ASan/UBSan abort the run) */
	printf("campaign %s seed %s: %lu inputs, %lu accepted, %lu outputs, %lu re-reads, %lu bad "
	       "outputs, no crash\n",
	       argv[1], argv[2], counts.inputs, counts.accepted, counts.outputs, counts.rereads,
	       counts.bad_outputs);
	for (size_t i = 0; i < seed_count; i++)
		free(seeds[i].bytes);
	free(seeds);
	free(layouts);
	return counts.bad_outputs ? 1 : 0;
}
