/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The .bpfkeys section written by `bpfkeys resolve` (docs/abi.md section 5).
 * Self-contained so that a loader can include it. All fields little endian.
 *
 *   header | key table | instance table | site table | string table
 *   version 3: header | keys | instances | sites | references |
 *              reference instructions | strings
 *
 * Entry sizes are in the header: a reader uses them as strides and reads
 * only the fields it knows, so later versions may append fields.
 */
#ifndef BPFKEYS_FORMAT_H
#define BPFKEYS_FORMAT_H

#include <stdint.h>

#define BPFKEYS_SECTION ".bpfkeys"
#define BPFKEYS_MAGIC 0x53594b42u /* "BKYS" in file byte order */
/*
 * 2: instances are static keys of ABI 2 (BPF_MAP_TYPE_INSN_ARRAY with
 * BPF_F_STATIC_KEY), layout as 1. 1 was the old ABI (BPF_MAP_TYPE_INSN_SET):
 * readers refuse it. 3: version 2 plus the reference table (programs that
 * pass `&key` to the static key kfuncs); written only when there is a
 * reference, so that a version-2 reader refuses the object by its version
 * instead of meeting a relocation against a key it does not create.
 */
#define BPFKEYS_FORMAT_VERSION 2
#define BPFKEYS_FORMAT_VERSION_REFERENCES 3
#define BPFKEYS_FORMAT_VERSION_OLD_ABI 1
/* header_size of each version: version 3 appends the reference fields */
#define BPFKEYS_HEADER_SIZE_V2 48
#define BPFKEYS_HEADER_SIZE_V3 68

struct bpfkeys_header {
	uint32_t magic;
	uint16_t version;
	uint16_t header_size; /* BPFKEYS_HEADER_SIZE_V2 or _V3 */
	uint16_t key_size; /* sizeof(struct bpfkeys_key) = 16 */
	uint16_t instance_size; /* sizeof(struct bpfkeys_instance) = 24 */
	uint16_t site_size; /* sizeof(struct bpfkeys_site) = 20 */
	uint16_t reserved0;
	uint32_t key_count;
	uint32_t instance_count;
	uint32_t site_count;
	uint32_t key_offset; /* from the start of the section */
	uint32_t instance_offset;
	uint32_t site_offset;
	uint32_t string_offset;
	uint32_t string_size;
	/* version 3 only (a version-2 header ends above, at 48 bytes) */
	uint16_t reference_size; /* sizeof(struct bpfkeys_reference) = 20 */
	uint16_t reference_insn_size; /* sizeof(struct bpfkeys_reference_insn) = 16 */
	uint32_t reference_count;
	uint32_t reference_insn_count;
	uint32_t reference_offset;
	uint32_t reference_insn_offset;
};

/* key flags */
#define BPFKEYS_KEY_ON 1u /* initial state on (DEFINE_STATIC_KEY_TRUE, BPF_F_STATIC_KEY_ON) */
/* a program passes the key to a static key kfunc (version 3; never in an instance's flags) */
#define BPFKEYS_KEY_REFERRED 2u

struct bpfkeys_key {
	uint32_t name; /* string: the key's symbol in .maps (its template map) */
	uint32_t flags; /* BPFKEYS_KEY_* */
	uint32_t first_instance; /* its instances are [first_instance, +instance_count) */
	uint32_t instance_count; /* 0: unused key */
};

struct bpfkeys_instance {
	uint32_t key; /* index in the key table */
	uint32_t program; /* string: the program's function symbol */
	uint32_t program_section; /* string: the program's ELF section */
	uint32_t flags; /* BPFKEYS_KEY_ON of the key: the initial state */
	uint32_t first_site; /* its sites are [first_site, +site_count) */
	uint32_t site_count; /* = max_entries of the instance's map */
};

/* site flags */
#define BPFKEYS_SITE_JUMP_WHEN_OFF 1u /* nop_or_goto(l): polarity inverted (src_reg 3) */
#define BPFKEYS_SITE_WIDE 2u /* 32-bit form (gotol_or_nop / nop_or_gotol) */

/*
 * (section, function_start) identifies the function, as libbpf identifies
 * subprograms; the name is for people (static functions of linked objects
 * may share one).
 */
struct bpfkeys_site {
	uint32_t function; /* string: STT_FUNC symbol containing the branch */
	uint32_t section; /* string: that function's ELF section */
	uint32_t function_start; /* the function's first instruction, index in the section */
	uint32_t insn; /* instruction index within the function */
	uint32_t flags; /* BPFKEYS_SITE_* */
};

/*
 * Version 3: one entry per (key, program that refers to the key), sorted by
 * (key index, program name) like the instances. A reference is an ld_imm64
 * of the key's map symbol (`&key`, relocated R_BPF_64_64) in the program's
 * function or a function it reaches, whose value goes to the map argument of
 * bpf_static_key_set() or bpf_static_key_set_sync().
 */
struct bpfkeys_reference {
	uint32_t key; /* index in the key table */
	uint32_t program; /* string: the program's function symbol */
	uint32_t program_section; /* string: the program's ELF section */
	uint32_t first_insn; /* its ld_imm64s are [first_insn, +insn_count) */
	uint32_t insn_count;
};

/*
 * One ld_imm64 of a key, named as a site is: (section, function_start)
 * identifies the function, insn is the ld_imm64's first slot from the start
 * of the function (where libbpf's relocation of it points).
 */
struct bpfkeys_reference_insn {
	uint32_t function; /* string: STT_FUNC symbol containing the ld_imm64 */
	uint32_t section; /* string: that function's ELF section */
	uint32_t function_start; /* the function's first instruction, index in the section */
	uint32_t insn; /* instruction index within the function */
};

#endif /* BPFKEYS_FORMAT_H */
