// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * References to static keys from code (abi.md 6.1): an ld_imm64 of a key's
 * map symbol, what clang emits for `&key`. Its one use is the map argument
 * (r1) of bpf_static_key_set() or bpf_static_key_set_sync(); a key used as a
 * map in any other way is refused, as before the kfuncs (abi.md section 4).
 *
 * The two look alike in an object (`r1 = key ll` before a kfunc call or a
 * map helper call), so the value is followed forward through the code: for
 * each instruction, which key each register may hold there (none, one key,
 * several). Moves copy it; jumps, both edges of conditional and static
 * branches, and BPF-to-BPF calls that pass it in r1-r5 carry it; calls
 * clobber r0-r5. Any other read of a register that may hold a key (an
 * argument of a helper or of another kfunc, the `on` argument, a store, a
 * memory access through it, arithmetic, a compare, the return value) is an
 * error naming the place. The stack is not followed: clang loads a constant
 * address again rather than spill it, so a spilled key is an error too.
 * Each instruction's state only grows, a few times at most, so the walk is
 * linear in the code it reaches from the key loads; other code is not read.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

#define REGS 11 /* r0-r10 */
#define ARGS_MASK 0x3e /* r1-r5 */
#define SEVERAL_KEYS UINT32_MAX /* held[]: 0 no key, k + 1 key k, or this */

static const char *const flip_kfuncs[] = { "bpf_static_key_set", "bpf_static_key_set_sync" };

/* The flow state of one code section, allocated when the walk first enters it. */
struct section_flow {
	uint32_t (*held)[REGS]; /* [instruction]: what each register may hold on entry */
	bool *queued; /* [instruction]: on the work list */
	bool *reported; /* [instruction]: its error was given */
};

struct work_item {
	uint32_t function;
	uint64_t insn;
};

struct flow {
	struct bk_object *obj;
	const struct btf_type *ksyms;
	struct section_flow *sections; /* [section_count] */
	struct work_item *work;
	size_t work_count, work_cap;
	int errors;
};

static uint32_t join(uint32_t a, uint32_t b)
{
	return a == b || !b ? a : !a ? b : SEVERAL_KEYS;
}

static struct section_flow *section_flow(struct flow *flow, size_t section)
{
	struct section_flow *sf = &flow->sections[section];
	size_t count = flow->obj->sections[section].shdr.sh_size / ELFOBJ_INSN_SIZE;

	if (!sf->held) {
		sf->held = bk_xcalloc(count + 1, sizeof(*sf->held));
		sf->queued = bk_xcalloc(count + 1, sizeof(bool));
		sf->reported = bk_xcalloc(count + 1, sizeof(bool));
	}
	return sf;
}

/* Joins `in` into the entry state of instruction insn of function f; queues it if that grew. */
static void flow_into(struct flow *flow, uint32_t f, int64_t insn, const uint32_t in[REGS],
		      bool force)
{
	const struct bk_function *fn = &flow->obj->functions[f];
	struct section_flow *sf;
	bool grew = force;

	/* leaving the function is the verifier's to refuse, not a use of a key */
	if (insn < (int64_t)fn->start || (uint64_t)insn >= fn->start + fn->count)
		return;
	sf = section_flow(flow, fn->section);
	for (int r = 0; r < REGS; r++) {
		uint32_t joined = join(sf->held[insn][r], in[r]);

		grew |= joined != sf->held[insn][r];
		sf->held[insn][r] = joined;
	}
	if (!grew || sf->queued[insn])
		return;
	flow->work = bk_xgrow(flow->work, flow->work_count, &flow->work_cap, sizeof(*flow->work));
	sf->queued[insn] = true;
	flow->work[flow->work_count++] = (struct work_item){ f, (uint64_t)insn };
}

/* Names the function of code at `insn` as a message does: a program, or a function and who calls it. */
static void describe_code(const struct bk_object *obj, ssize_t f, char *buf, size_t size)
{
	const char *program;
	size_t programs;

	if (f < 0) {
		snprintf(buf, size, "code outside any function");
		return;
	}
	if (obj->functions[f].is_program) {
		snprintf(buf, size, "program '%s'", obj->functions[f].name);
		return;
	}
	programs = bk_programs_reaching(obj, (size_t)f, &program);
	snprintf(buf, size, "function '%s' (%s%s%s%s)", obj->functions[f].name,
		 programs ? "called from program '" : "no program calls it",
		 programs ? program : "", programs ? "'" : "", programs > 1 ? " and others" : "");
}

/* A read of a register that may hold a key: reported once per instruction. */
static void misuse(struct flow *flow, uint32_t f, uint64_t insn, uint32_t held, const char *how)
{
	const struct bk_object *obj = flow->obj;
	const struct bk_function *fn = &obj->functions[f];
	struct section_flow *sf = &flow->sections[fn->section];
	char where[512];

	if (sf->reported[insn])
		return;
	sf->reported[insn] = true;
	flow->errors++;
	describe_code(obj, (ssize_t)f, where, sizeof(where));
	bk_error(obj,
		 "section '%s', offset 0x%llx: %s uses static key '%s'%s %s: a static key is "
		 "only the map argument of bpf_static_key_set() and bpf_static_key_set_sync() "
		 "(docs/abi.md 6.1)",
		 obj->sections[fn->section].name, (unsigned long long)insn * ELFOBJ_INSN_SIZE,
		 where, held == SEVERAL_KEYS ? "..." : obj->keys[held - 1].name,
		 held == SEVERAL_KEYS ? " (one of several)" : "", how);
}

/* The first register of `mask` that may hold a key, 0 if none. */
static uint32_t held_in(const uint32_t held[REGS], unsigned mask)
{
	for (int r = 0; r < REGS; r++)
		if (mask & (1u << r) && held[r])
			return held[r];
	return 0;
}

/* A misuse by the registers of `mask` if one may hold a key: the first such register is named. */
static void misuse_in(struct flow *flow, uint32_t f, uint64_t insn, const uint32_t held[REGS],
		      unsigned mask, const char *how)
{
	uint32_t key = held_in(held, mask);

	if (key)
		misuse(flow, f, insn, key, how);
}

static bool is_flip_kfunc(const char *name)
{
	for (size_t i = 0; i < sizeof(flip_kfuncs) / sizeof(flip_kfuncs[0]); i++)
		if (!strcmp(name, flip_kfuncs[i]))
			return true;
	return false;
}

/* The callee of a BPF-to-BPF call gets r1-r5 on entry of the instruction the call lands on. */
static void flow_into_callee(struct flow *flow, size_t section, int64_t target,
			     const uint32_t out[REGS])
{
	ssize_t callee = target >= 0 ? bk_function_at(flow->obj, section, (uint64_t)target) : -1;
	uint32_t entry[REGS] = { 0 };

	memcpy(&entry[1], &out[1], 5 * sizeof(entry[0]));
	if (callee >= 0)
		flow_into(flow, (uint32_t)callee, target, entry, false);
}

/*
 * A call: the static key kfuncs take the key in r1 (and must not get one in
 * r2, `on`); a BPF-to-BPF call carries r1-r5 into the callee; helpers and
 * other kfuncs take none. Every call clobbers r0-r5.
 */
static void flow_call(struct flow *flow, uint32_t f, uint64_t i, const struct bk_insn *insn,
		      uint32_t out[REGS])
{
	const struct bk_object *obj = flow->obj;
	size_t section = obj->functions[f].section;
	size_t nrel;
	const GElf_Rel *rel = bk_find_rel(&obj->sections[section], i * ELFOBJ_INSN_SIZE, &nrel);
	uint32_t args = held_in(out, ARGS_MASK);
	char how[256];

	if (bk_insn_src(insn) == BPF_PSEUDO_CALL && rel) {
		const GElf_Sym *sym = &obj->symbols[GELF_R_SYM(rel->r_info)];
		const char *name = obj->symbol_names[GELF_R_SYM(rel->r_info)];

		if (bk_is_kfunc(obj, flow->ksyms, sym, name)) {
			bool flips = is_flip_kfunc(name);
			uint32_t wrong = flips ? held_in(out, 1u << 2) : args;

			if (wrong) {
				snprintf(how, sizeof(how), "as %s of kfunc '%s'",
					 flips ? "the `on` argument" : "an argument", name);
				misuse(flow, f, i, wrong, how);
			}
		} else if (args && sym->st_shndx != SHN_UNDEF && sym->st_shndx < SHN_LORESERVE) {
			/* libbpf: callee = sym_off / 8 + imm + 1 */
			flow_into_callee(
				flow, sym->st_shndx,
				(int64_t)(sym->st_value / ELFOBJ_INSN_SIZE) + insn->imm + 1, out);
		}
	} else if (bk_insn_src(insn) == BPF_PSEUDO_CALL && args) {
		flow_into_callee(flow, section, (int64_t)i + insn->imm + 1, out);
	} else if (args) {
		snprintf(how, sizeof(how), "as an argument of %s %d",
			 bk_insn_src(insn) ? "kfunc" : "helper", insn->imm);
		misuse(flow, f, i, args, how);
	}
	for (int r = 0; r <= 5; r++)
		out[r] = 0;
}

/* The key an ld_imm64 loads: 1 + index in obj->keys, 0 if it is not a static key's. */
static uint32_t loaded_key(const struct bk_object *obj, const struct bk_section *sec, uint64_t i)
{
	size_t nrel;
	const GElf_Rel *rel = bk_find_rel(sec, i * ELFOBJ_INSN_SIZE, &nrel);
	ssize_t k = rel ? bk_key_by_symbol(obj, GELF_R_SYM(rel->r_info)) : -1;

	return k >= 0 && obj->keys[k].is_static_key ? (uint32_t)k + 1 : 0;
}

/* Instruction i of function f, with the state on its entry: its uses, and the states it passes on. */
static void flow_step(struct flow *flow, uint32_t f, uint64_t i)
{
	const struct bk_object *obj = flow->obj;
	const struct bk_section *sec = &obj->sections[obj->functions[f].section];
	struct section_flow *sf = &flow->sections[obj->functions[f].section];
	uint32_t out[REGS];
	struct bk_insn insn;
	unsigned cls, op, dst, src;
	int64_t next = (int64_t)i + 1, jump = -1;

	memcpy(out, sf->held[i], sizeof(out));
	memcpy(&insn, sec->data + i * ELFOBJ_INSN_SIZE, sizeof(insn));
	cls = BPF_CLASS(insn.code);
	op = BPF_OP(insn.code);
	dst = bk_insn_dst(&insn) % REGS;
	src = bk_insn_src(&insn) % REGS;
	switch (cls) {
	case BPF_LD:
		if (insn.code == ELFOBJ_LD_IMM64_CODE) {
			out[dst] = loaded_key(obj, sec, i);
			next = (int64_t)i + 2;
			break;
		}
		/* legacy packet loads read the context in r6 and clobber r0-r5 */
		misuse_in(flow, f, i, out,
			  1u << 6 | (BPF_MODE(insn.code) == BPF_IND ? 1u << src : 0),
			  "in a packet load");
		memset(out, 0, 6 * sizeof(out[0]));
		break;
	case BPF_LDX:
		misuse_in(flow, f, i, out, 1u << src, "as a pointer to read memory");
		out[dst] = 0;
		break;
	case BPF_ST:
	case BPF_STX:
		if (cls == BPF_STX)
			misuse_in(flow, f, i, out, 1u << src,
				  "by storing it to memory (bpfkeys does not follow a key through "
				  "memory)");
		misuse_in(flow, f, i, out, 1u << dst, "as a pointer to write memory");
		if (BPF_MODE(insn.code) == BPF_ATOMIC)
			out[src] = out[0] = 0; /* fetch and cmpxchg write them */
		break;
	case BPF_ALU:
	case BPF_ALU64:
		if (cls == BPF_ALU64 && op == BPF_MOV && BPF_SRC(insn.code) == BPF_X && !insn.off) {
			out[dst] = out[src]; /* a copy: the one thing done with a key on the way */
			break;
		}
		misuse_in(flow, f, i, out,
			  (op != BPF_MOV ? 1u << dst : 0) |
				  (BPF_SRC(insn.code) == BPF_X ? 1u << src : 0),
			  "in arithmetic");
		out[dst] = 0;
		break;
	default: /* BPF_JMP, BPF_JMP32 */
		if (op == BPF_JA &&
		    BPF_SRC(insn.code) == BPF_X) { /* gotox: targets in .jumptables */
			misuse_in(flow, f, i, out, 0x3ff,
				  "at an indirect jump (gotox), which bpfkeys does not follow");
			return;
		}
		if (op == BPF_JA) {
			jump = (int64_t)i + 1 + (cls == BPF_JMP32 ? insn.imm : insn.off);
			if (!bk_insn_src(&insn)) /* a plain jump; a static branch has both edges */
				next = -1;
		} else if (cls == BPF_JMP && op == BPF_CALL) {
			flow_call(flow, f, i, &insn, out);
		} else if (cls == BPF_JMP && op == BPF_EXIT) {
			misuse_in(flow, f, i, out, 1u << 0, "as a return value");
			return;
		} else {
			misuse_in(flow, f, i, out,
				  1u << dst | (BPF_SRC(insn.code) == BPF_X ? 1u << src : 0),
				  "in a comparison");
			jump = (int64_t)i + 1 + insn.off;
		}
		break;
	}
	if (next >= 0)
		flow_into(flow, f, next, out, false);
	if (jump >= 0)
		flow_into(flow, f, jump, out, false);
}

/* Records a key load; errors for an ld_imm64 that is not a plain `&key`. */
static int add_key_load(struct bk_object *obj, size_t section, const GElf_Rel *rel, size_t key,
			size_t *cap)
{
	const struct bk_section *sec = &obj->sections[section];
	uint64_t offset = rel->r_offset, insn = offset / ELFOBJ_INSN_SIZE;
	ssize_t f = bk_function_at(obj, section, insn);
	struct bk_insn first, second;
	const char *why = NULL;
	char where[512];

	memcpy(&first, sec->data + offset, sizeof(first));
	memcpy(&second, sec->data + offset + ELFOBJ_INSN_SIZE, sizeof(second));
	if (f < 0)
		why = ""; /* describe_code() says where */
	else if (GELF_R_TYPE(rel->r_info) != ELFOBJ_R_BPF_64_64)
		why = " with a relocation type other than R_BPF_64_64";
	else if (bk_insn_src(&first))
		why = " with a nonzero src_reg";
	else if (first.imm || second.imm)
		why = " with an offset";
	if (why) {
		describe_code(obj, f, where, sizeof(where));
		bk_error(
			obj,
			"section '%s', offset 0x%llx: %s loads static key '%s'%s: only `&key` in a "
			"function, passed to bpf_static_key_set() or bpf_static_key_set_sync(), "
			"refers to a static key (docs/abi.md 6.1)",
			sec->name, (unsigned long long)offset, where, obj->keys[key].name, why);
		return -1;
	}
	obj->key_loads =
		bk_xgrow(obj->key_loads, obj->key_load_count, cap, sizeof(*obj->key_loads));
	obj->key_loads[obj->key_load_count++] = (struct bk_key_load){ .insn = insn,
								      .section = (uint32_t)section,
								      .key = (uint32_t)key,
								      .function = (uint32_t)f };
	return 0;
}

/*
 * Every relocation against a static key, from code or .maps: the ld_imm64s
 * of `&key` become obj->key_loads, in (section, instruction) order, and
 * their values are followed; anything else is an error.
 */
int bk_check_key_references(struct bk_object *obj)
{
	struct flow flow = { .obj = obj };
	size_t cap = 0;
	int errors = 0;

	for (size_t s = 1; s < obj->section_count; s++) {
		const struct bk_section *sec = &obj->sections[s];

		if (!sec->exec && s != obj->maps_section)
			continue;
		for (size_t r = 0; r < sec->rel_count; r++) {
			ssize_t k = bk_key_by_symbol(obj, GELF_R_SYM(sec->rels[r].r_info));
			uint64_t offset = sec->rels[r].r_offset;
			ssize_t f;

			if (k < 0 || !obj->keys[k].is_static_key)
				continue;
			if (sec->exec && offset % ELFOBJ_INSN_SIZE == 0 &&
			    offset + 2 * ELFOBJ_INSN_SIZE <= sec->shdr.sh_size &&
			    sec->data[offset] == ELFOBJ_LD_IMM64_CODE) {
				errors += add_key_load(obj, s, &sec->rels[r], (size_t)k, &cap) != 0;
				continue;
			}
			errors++;
			f = sec->exec ? bk_function_at(obj, s, offset / ELFOBJ_INSN_SIZE) : -1;
			bk_error(obj,
				 "key '%s' is referenced from section '%s', offset 0x%llx%s%s%s: a "
				 "static key is not a map BPF code can use",
				 obj->keys[k].name, sec->name, (unsigned long long)offset,
				 f >= 0 ? " (function '" : "", f >= 0 ? obj->functions[f].name : "",
				 f >= 0 ? "')" : "");
		}
	}
	if (errors || !obj->key_load_count)
		return errors ? -1 : 0;

	flow.ksyms = bk_find_ksyms(obj);
	flow.sections = bk_xcalloc(obj->section_count, sizeof(*flow.sections));
	for (size_t l = 0; l < obj->key_load_count; l++) {
		const struct bk_key_load *load = &obj->key_loads[l];
		uint32_t none[REGS] = { 0 };

		flow_into(&flow, load->function, (int64_t)load->insn, none, true);
	}
	while (flow.work_count) {
		struct work_item item = flow.work[--flow.work_count];

		flow.sections[obj->functions[item.function].section].queued[item.insn] = false;
		flow_step(&flow, item.function, item.insn);
	}
	for (size_t s = 0; s < obj->section_count; s++) {
		free(flow.sections[s].held);
		free(flow.sections[s].queued);
		free(flow.sections[s].reported);
	}
	free(flow.sections);
	free(flow.work);
	return flow.errors ? -1 : 0;
}

int bk_refuse_references_on_stock(const struct bk_object *obj)
{
	for (size_t r = 0; r < obj->reference_count; r++)
		bk_error(obj,
			 "program '%s' flips static key '%s' from BPF: stock kernels have no "
			 "static key kfuncs",
			 obj->functions[obj->references[r].program].name,
			 obj->keys[obj->references[r].key].name);
	return obj->reference_count ? -1 : 0;
}
