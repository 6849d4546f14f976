// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Writes a BPF object with N static-key sites directly with libelf (and the
 * .maps BTF with libbpf's btf__add_*), shaped like clang's output: programs
 * in section "xdp" with SITES_PER_FUNCTION sites each (default 1000), 16
 * shared static functions in .text with 8 sites each, key maps in .maps,
 * .static_keys entries with the relocations of abi.md section 2. Program 0
 * calls every shared function; of the others, one in 1000 / SITES_PER_FUNCTION
 * calls two, so that the sites the shared functions add to the programs'
 * instances stay about 1.6% of the sites whatever the function size. Used by
 * the benchmark (1k..1M sites) and for fuzz seeds.
 *
 *   bpfkeys-gen SITES OUT.o [KEYS [SITES_PER_FUNCTION]]
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <gelf.h>
#include <linux/bpf.h>

#define DEFAULT_SITES_PER_PROGRAM 1000
#define SHARED_FUNCTIONS 16
#define SITES_PER_SHARED 8

struct buf {
	unsigned char *data;
	size_t size, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->size + n > b->cap) {
		b->cap = (b->size + n) * 2 + 64;
		b->data = realloc(b->data, b->cap);
		if (!b->data) {
			perror("realloc");
			exit(1);
		}
	}
	memcpy(b->data + b->size, p, n);
	b->size += n;
}

static uint32_t put_str(struct buf *b, const char *s)
{
	uint32_t off = (uint32_t)b->size;

	put(b, s, strlen(s) + 1);
	return off;
}

static void insn(struct buf *b, uint8_t code, uint8_t regs, int16_t off, int32_t imm)
{
	struct bpf_insn i;

	memset(&i, 0, sizeof(i));
	memcpy(&i, &code, 1);
	memcpy((uint8_t *)&i + 1, &regs, 1);
	i.off = off;
	i.imm = imm;
	put(b, &i, sizeof(i));
}

static void rel(struct buf *b, uint64_t off, uint32_t sym, uint32_t type)
{
	Elf64_Rel r = { off, ELF64_R_INFO(sym, type) };

	put(b, &r, sizeof(r));
}

/* One site: gotol_or_nop +1 over "r0 += 1"; entry and its 3 relocations. */
static void site(struct buf *code, uint32_t code_secsym, uint32_t key_sym, struct buf *sk,
		 struct buf *skrel)
{
	uint32_t at = (uint32_t)code->size, target = at + 16;
	uint64_t flags = 0;
	uint64_t base = sk->size;

	insn(code, 0x06, 0x10, 0, 1); /* gotol_or_nop +1 */
	insn(code, 0x07, 0x00, 0, 1); /* r0 += 1 */
	put(sk, &at, 4);
	put(sk, &target, 4);
	put(sk, &flags, 8);
	rel(skrel, base, code_secsym, 4); /* R_BPF_64_NODYLD32 */
	rel(skrel, base + 4, code_secsym, 3); /* R_BPF_64_ABS32 */
	rel(skrel, base + 8, key_sym, 2); /* R_BPF_64_ABS64 */
}

static void add_section(Elf *elf, uint32_t name, uint32_t type, uint64_t flags, uint32_t link,
			uint32_t info, uint64_t align, uint64_t entsize, void *data, size_t size)
{
	Elf_Scn *scn = elf_newscn(elf);
	Elf_Data *d = elf_newdata(scn);
	GElf_Shdr sh;

	gelf_getshdr(scn, &sh);
	sh.sh_name = name;
	sh.sh_type = type;
	sh.sh_flags = flags;
	sh.sh_link = link;
	sh.sh_info = info;
	sh.sh_addralign = align;
	sh.sh_entsize = entsize;
	gelf_update_shdr(scn, &sh);
	d->d_buf = data;
	d->d_size = size;
	d->d_type = ELF_T_BYTE;
	d->d_align = align;
	d->d_version = EV_CURRENT;
}

int main(int argc, char **argv)
{
	enum { S_STRTAB = 1, S_TEXT, S_XDP, S_RELXDP, S_MAPS, S_SK, S_RELSK, S_BTF, S_SYMTAB };
	struct buf strtab = { 0 }, text = { 0 }, xdp = { 0 }, relxdp = { 0 }, sk = { 0 },
		   skrel = { 0 }, syms = { 0 };
	long sites, keys = 64, programs, shared_sites, per_program = DEFAULT_SITES_PER_PROGRAM;
	long calling_every;
	uint32_t n_text, n_xdp, n_relxdp, n_maps, n_sk, n_relsk, n_btf, n_symtab, n_strtab;
	uint32_t first_key_sym, first_global;
	unsigned char *maps;
	struct btf *btf;
	Elf64_Sym sym;
	Elf *elf;
	int fd;

	if (argc < 3 || (sites = atol(argv[1])) < 1 || (argc > 3 && atol(argv[3]) < 1) ||
	    (argc > 4 && atol(argv[4]) < 1)) {
		fprintf(stderr, "usage: %s SITES OUT.o [KEYS [SITES_PER_FUNCTION]]\n", argv[0]);
		return 2;
	}
	if (argc > 3)
		keys = atol(argv[3]);
	if (argc > 4)
		per_program = atol(argv[4]);
	calling_every = (DEFAULT_SITES_PER_PROGRAM + per_program - 1) / per_program;
	shared_sites = SHARED_FUNCTIONS * SITES_PER_SHARED;
	if (sites <= shared_sites)
		shared_sites = 0;
	programs = (sites - shared_sites + per_program - 1) / per_program;

	put(&strtab, "", 1);
	n_text = put_str(&strtab, ".text");
	n_xdp = put_str(&strtab, "xdp");
	n_relxdp = put_str(&strtab, ".relxdp");
	n_maps = put_str(&strtab, ".maps");
	n_sk = put_str(&strtab, ".static_keys");
	n_relsk = put_str(&strtab, ".rel.static_keys");
	n_btf = put_str(&strtab, ".BTF");
	n_symtab = put_str(&strtab, ".symtab");
	n_strtab = put_str(&strtab, ".strtab");

	/* symbols: null, .text, xdp, shared_i (local), then globals: keys, programs */
	memset(&sym, 0, sizeof(sym));
	put(&syms, &sym, sizeof(sym));
	sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_SECTION);
	sym.st_shndx = S_TEXT;
	put(&syms, &sym, sizeof(sym));
	sym.st_shndx = S_XDP;
	put(&syms, &sym, sizeof(sym));
	uint32_t shared_start[SHARED_FUNCTIONS];
	long key_rr = 0;
	first_key_sym = 3 + (shared_sites ? SHARED_FUNCTIONS : 0);
	for (int f = 0; shared_sites && f < SHARED_FUNCTIONS; f++) {
		char name[32];

		shared_start[f] = (uint32_t)(text.size / 8);
		insn(&text, 0xb7, 0x00, 0, 0); /* r0 = 0 */
		for (int s = 0; s < SITES_PER_SHARED; s++)
			site(&text, 1, first_key_sym + (uint32_t)(key_rr++ % keys), &sk, &skrel);
		insn(&text, 0x95, 0, 0, 0);
		snprintf(name, sizeof(name), "shared_%d", f);
		sym.st_name = put_str(&strtab, name);
		sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
		sym.st_shndx = S_TEXT;
		sym.st_value = shared_start[f] * 8ULL;
		sym.st_size = text.size - sym.st_value;
		put(&syms, &sym, sizeof(sym));
	}
	first_global = (uint32_t)(syms.size / sizeof(sym));
	for (long k = 0; k < keys; k++) {
		char name[32];

		snprintf(name, sizeof(name), "key_%ld", k);
		sym.st_name = put_str(&strtab, name);
		sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT);
		sym.st_shndx = S_MAPS;
		sym.st_value = (uint64_t)k * 32;
		sym.st_size = 32;
		put(&syms, &sym, sizeof(sym));
	}
	long left = sites - shared_sites;
	/* the sites in shared functions were written first, in .text: keep entry order by section */
	struct buf sk_xdp = { 0 }, skrel_xdp = { 0 };
	for (long p = 0; p < programs; p++) {
		char name[32];
		uint64_t start = xdp.size;
		long n = left < per_program ? left : per_program;

		insn(&xdp, 0xb7, 0x00, 0, 0);
		if (shared_sites && p % calling_every == 0) {
			/* program 0 calls every shared function, the others two each */
			for (int c = 0; c < (p ? 2 : SHARED_FUNCTIONS); c++) {
				int f = (int)((p / calling_every * 2 + c) % SHARED_FUNCTIONS);

				rel(&relxdp, xdp.size, 1, 10); /* R_BPF_64_32 against .text */
				insn(&xdp, 0x85, 0x10, 0, (int32_t)shared_start[f] - 1);
			}
		}
		for (long s = 0; s < n; s++)
			site(&xdp, 2, first_key_sym + (uint32_t)(key_rr++ % keys), &sk_xdp,
			     &skrel_xdp);
		insn(&xdp, 0x95, 0, 0, 0);
		left -= n;
		snprintf(name, sizeof(name), "prog_%ld", p);
		sym.st_name = put_str(&strtab, name);
		sym.st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC);
		sym.st_shndx = S_XDP;
		sym.st_value = start;
		sym.st_size = xdp.size - start;
		put(&syms, &sym, sizeof(sym));
	}
	/* append the xdp entries after the .text ones, rebasing relocation offsets */
	size_t sk_base = sk.size;
	put(&sk, sk_xdp.data, sk_xdp.size);
	for (size_t r = 0; r < skrel_xdp.size / sizeof(Elf64_Rel); r++) {
		Elf64_Rel *x = (Elf64_Rel *)skrel_xdp.data + r;

		rel(&skrel, x->r_offset + sk_base, ELF64_R_SYM(x->r_info), ELF64_R_TYPE(x->r_info));
	}

	/*
	 * BTF: struct { int (*type)[34]; int *key; int (*value_size)[16];
	 * int (*map_extra)[1]; } key_i SEC(".maps"), as DEFINE_STATIC_KEY_FALSE
	 */
	btf = btf__new_empty();
	int t_int = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	int t_u32 = btf__add_int(btf, "unsigned int", 4, 0);
	int t_arr34 = btf__add_array(btf, t_int, t_int, 34);
	int t_ptr34 = btf__add_ptr(btf, t_arr34);
	int t_arr16 = btf__add_array(btf, t_int, t_int, 16);
	int t_ptr16 = btf__add_ptr(btf, t_arr16);
	int t_arr1 = btf__add_array(btf, t_int, t_int, 1);
	int t_ptr1 = btf__add_ptr(btf, t_arr1);
	int t_pu32 = btf__add_ptr(btf, t_u32);
	int t_def = btf__add_struct(btf, NULL, 32);
	btf__add_field(btf, "type", t_ptr34, 0, 0);
	btf__add_field(btf, "key", t_pu32, 64, 0);
	btf__add_field(btf, "value_size", t_ptr16, 128, 0);
	btf__add_field(btf, "map_extra", t_ptr1, 192, 0);
	int *vars = calloc((size_t)keys, sizeof(int));
	for (long k = 0; k < keys; k++) {
		char name[32];

		snprintf(name, sizeof(name), "key_%ld", k);
		vars[k] = btf__add_var(btf, name, BTF_VAR_GLOBAL_ALLOCATED, t_def);
	}
	btf__add_datasec(btf, ".maps", (uint32_t)(keys * 32));
	for (long k = 0; k < keys; k++)
		btf__add_datasec_var_info(btf, vars[k], (uint32_t)(k * 32), 32);
	uint32_t btf_size;
	const void *btf_data = btf__raw_data(btf, &btf_size);
	maps = calloc((size_t)keys, 32);

	elf_version(EV_CURRENT);
	fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	GElf_Ehdr eh;
	gelf_newehdr(elf, ELFCLASS64);
	gelf_getehdr(elf, &eh);
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_type = ET_REL;
	eh.e_machine = 247; /* EM_BPF */
	eh.e_version = EV_CURRENT;
	eh.e_shstrndx = S_STRTAB;
	gelf_update_ehdr(elf, &eh);
	add_section(elf, n_strtab, SHT_STRTAB, 0, 0, 0, 1, 0, NULL, 0); /* filled below */
	add_section(elf, n_text, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 8, 0, text.data,
		    text.size);
	add_section(elf, n_xdp, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0, 0, 8, 0, xdp.data,
		    xdp.size);
	add_section(elf, n_relxdp, SHT_REL, SHF_INFO_LINK, S_SYMTAB, S_XDP, 8, 16, relxdp.data,
		    relxdp.size);
	add_section(elf, n_maps, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 8, 0, maps,
		    (size_t)keys * 32);
	add_section(elf, n_sk, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, 0, 0, 8, 0, sk.data, sk.size);
	add_section(elf, n_relsk, SHT_REL, SHF_INFO_LINK, S_SYMTAB, S_SK, 8, 16, skrel.data,
		    skrel.size);
	add_section(elf, n_btf, SHT_PROGBITS, 0, 0, 0, 4, 0, (void *)btf_data, btf_size);
	add_section(elf, n_symtab, SHT_SYMTAB, 0, S_STRTAB, first_global, 8, sizeof(Elf64_Sym),
		    syms.data, syms.size);
	/* the string table last: symbol names were added while building */
	Elf_Data *d = elf_getdata(elf_getscn(elf, S_STRTAB), NULL);
	d->d_buf = strtab.data;
	d->d_size = strtab.size;
	if (elf_update(elf, ELF_C_WRITE) < 0) {
		fprintf(stderr, "elf_update: %s\n", elf_errmsg(-1));
		return 1;
	}
	elf_end(elf);
	close(fd);
	printf("%s: %ld sites (%ld in .text), %ld programs of up to %ld sites, %ld keys\n", argv[2],
	       sites, shared_sites, programs, per_program, keys);
	return 0;
}
