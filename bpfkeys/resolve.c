// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Resolve: the .static_keys branches elfobj checked -> sites (section,
 * function, instruction, key, polarity) -> key instances, one per (key, program)
 * that reaches a site of the key through the call graph (abi.md sections
 * 2 and 5). All errors of one kind are reported before failing, so a user
 * sees every bad site at once.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bpfkeys.h"

/*
 * The function holding a branch. Branches come sorted by (section,
 * instruction) and so do functions (which do not overlap): the previous
 * branch's function or the next one is the usual answer, before a search.
 */
static ssize_t branch_function(const struct bk_object *obj,
			       const struct elfobj_static_branch *branch, size_t *hint)
{
	ssize_t found;

	for (size_t f = *hint; f < obj->function_count && f <= *hint + 1; f++) {
		const struct bk_function *fn = &obj->functions[f];

		if (fn->section == branch->section && branch->insn >= fn->start &&
		    branch->insn - fn->start < fn->count) {
			*hint = f;
			return (ssize_t)f;
		}
	}
	found = bk_function_at(obj, branch->section, branch->insn);
	if (found >= 0)
		*hint = (size_t)found;
	return found;
}

/* One branch elfobj checked against its entry: its key and function here. */
static int read_site(struct bk_object *obj, const struct elfobj_static_branch *branch,
		     struct bk_site *site, size_t *function_hint)
{
	const char *kname = obj->symbol_names[branch->key_symbol];
	const struct bk_section *code = &obj->sections[branch->section];
	uint64_t base = (uint64_t)branch->entry * ELFOBJ_STATIC_KEY_ENTRY_SIZE;
	const struct bk_function *fn;
	struct bk_key *key;
	ssize_t k, f;

	k = bk_key_by_symbol(obj, branch->key_symbol);
	if (k < 0) {
		const GElf_Sym *sym = &obj->symbols[branch->key_symbol];

		bk_error(obj,
			 "section '%s': entry %zu (offset 0x%llx): key '%s' is not a map in .maps: "
			 "%s%s%s",
			 ELFOBJ_STATIC_KEYS_SECTION, (size_t)branch->entry,
			 (unsigned long long)base, kname,
			 sym->st_shndx == SHN_UNDEF
				 ? "it is undefined: link the object defining it first"
				 : "it is in section '",
			 sym->st_shndx == SHN_UNDEF ? "" : bk_section_name(obj, sym->st_shndx),
			 sym->st_shndx == SHN_UNDEF ? "" : "'");
		return -1;
	}
	key = &obj->keys[k];
	if (!key->is_static_key) {
		bk_error(
			obj,
			"section '%s': entry %zu (offset 0x%llx): key '%s' is not a static key "
			"(map type %llu, map_extra 0x%llx; expected type %d with BPF_F_STATIC_KEY)",
			ELFOBJ_STATIC_KEYS_SECTION, (size_t)branch->entry, (unsigned long long)base,
			kname, (unsigned long long)key->map_type,
			(unsigned long long)key->map_extra, BPF_MAP_TYPE_INSN_ARRAY);
		return -1;
	}
	f = branch_function(obj, branch, function_hint);
	if (f < 0) {
		bk_error(obj,
			 "section '%s': entry %zu (offset 0x%llx): key '%s': section '%s', offset "
			 "0x%llx: site is not inside a function",
			 ELFOBJ_STATIC_KEYS_SECTION, (size_t)branch->entry,
			 (unsigned long long)base, kname, code->name,
			 (unsigned long long)branch->insn * ELFOBJ_INSN_SIZE);
		return -1;
	}
	fn = &obj->functions[f];
	if (branch->target < fn->start || branch->target >= fn->start + fn->count) {
		bk_error(
			obj,
			"section '%s': entry %zu (offset 0x%llx): key '%s': function '%s' (section "
			"'%s', offset 0x%llx): jump target 0x%llx is outside the function",
			ELFOBJ_STATIC_KEYS_SECTION, (size_t)branch->entry, (unsigned long long)base,
			kname, fn->name, code->name,
			(unsigned long long)branch->insn * ELFOBJ_INSN_SIZE,
			(unsigned long long)branch->target * ELFOBJ_INSN_SIZE);
		return -1;
	}
	site->section = (uint32_t)branch->section;
	site->insn = branch->insn;
	site->target = branch->target;
	site->key = (uint32_t)k;
	site->function = (uint32_t)f;
	site->jump_when_off = branch->jump_when_off;
	site->wide = branch->wide;
	return 0;
}

_Static_assert(sizeof(struct bk_site) == sizeof(struct elfobj_static_branch),
	       "bk_read_sites() turns each branch into a site in place");

int bk_read_sites(struct bk_object *obj)
{
	struct elfobj_static_branch *branches;
	size_t count, function_hint = 0;
	int errors = 0;

	int err = elfobj_read_static_keys(&obj->file, &branches, &count);

	if (err) {
		obj->out_of_memory = err == -ENOMEM;
		return -1;
	}
	if (count >= UINT32_MAX || obj->function_count >= UINT32_MAX ||
	    obj->section_count >= UINT32_MAX) {
		bk_error(obj, "too many functions, sections or static-key sites (4G)");
		free(branches);
		return -1;
	}
	/*
	 * Each site is written over its branch (or an earlier one, after an
	 * error), once the branch is read: a site array apart was a million new
	 * pages' worth of page faults at a million sites. memcpy() in and out,
	 * so that the two types never alias.
	 */
	obj->sites = (struct bk_site *)branches;
	for (size_t i = 0; i < count; i++) {
		struct elfobj_static_branch branch;
		struct bk_site site;

		memcpy(&branch, &branches[i], sizeof(branch));
		if (read_site(obj, &branch, &site, &function_hint)) {
			errors++;
			continue;
		}
		memcpy(&obj->sites[obj->site_count++], &site, sizeof(site));
	}
	if (errors)
		return -1;
	/*
	 * The sites are in (function, instruction) order already, no sort needed:
	 * elfobj gives the branches by (section, instruction), one per
	 * instruction, and the functions, sorted by (section, start), do not
	 * overlap, so each site's function is at or after the previous site's.
	 */
	for (size_t i = 0; i < obj->site_count; i++) {
		struct bk_function *fn = &obj->functions[obj->sites[i].function];

		if (!fn->site_count)
			fn->first_site = i;
		fn->site_count++;
		obj->keys[obj->sites[i].key].site_count++;
	}
	return 0;
}

/*
 * The call-graph walk from one program: every function it reaches (the
 * program first), each once, depth first. The functions a program loads are
 * these; bk_build_instances() walks every program so, and an error message
 * of bk_check_key_references() (key_refs.c) asks the same of the programs that reach one
 * function. seen[] marks a function with the walk's stamp, so that one array
 * serves a walk per program without being cleared between them.
 */
struct reach_walk {
	uint32_t *stack; /* [function_count] */
	uint32_t *seen; /* [function_count]: stamp of the last walk that reached it */
	size_t depth;
	uint32_t stamp;
};

static void reach_init(struct reach_walk *walk, const struct bk_object *obj)
{
	walk->stack = bk_xmalloc(obj->function_count + 1, sizeof(*walk->stack));
	walk->seen = bk_populated(bk_xcalloc(obj->function_count + 1, sizeof(*walk->seen)),
				  obj->function_count, sizeof(*walk->seen));
	walk->depth = 0;
	walk->stamp = 0;
}

static void reach_free(struct reach_walk *walk)
{
	free(walk->stack);
	free(walk->seen);
}

/* A new walk from `program`; stamp: nonzero, different from every earlier walk's. */
static void reach_start(struct reach_walk *walk, uint32_t program, uint32_t stamp)
{
	walk->stamp = stamp;
	walk->depth = 0;
	walk->stack[walk->depth++] = program;
	walk->seen[program] = stamp;
}

/* The next function the walk reaches, -1 when it has reached them all. */
static int64_t reach_next(const struct bk_object *obj, struct reach_walk *walk)
{
	const struct bk_function *fn;
	uint32_t f;

	if (!walk->depth)
		return -1;
	f = walk->stack[--walk->depth];
	fn = &obj->functions[f];
	for (size_t c = fn->first_callee; c < fn->first_callee + fn->callee_count; c++)
		if (walk->seen[obj->callees[c]] != walk->stamp) {
			walk->seen[obj->callees[c]] = walk->stamp;
			walk->stack[walk->depth++] = obj->callees[c];
		}
	return f;
}

/*
 * The programs that reach function f (f itself if it is one): the first in
 * object order, and how many. Only for an error message: a walk per program.
 */
size_t bk_programs_reaching(const struct bk_object *obj, size_t f, const char **first)
{
	struct reach_walk walk;
	size_t count = 0;

	*first = NULL;
	reach_init(&walk, obj);
	for (size_t p = 0; p < obj->function_count; p++) {
		int64_t g;

		if (!obj->functions[p].is_program)
			continue;
		reach_start(&walk, (uint32_t)p, (uint32_t)p + 1);
		while ((g = reach_next(obj, &walk)) >= 0 && (size_t)g != f)
			;
		if (g >= 0 && !count++)
			*first = obj->functions[p].name;
	}
	reach_free(&walk);
	return count;
}

/* Indices fit 32 bits: bk_build_instances() refuses more functions or sites. */
struct triple {
	uint32_t key, program_rank, site;
};

static int cmp_triple(const void *a, const void *b)
{
	const struct triple *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->program_rank != y->program_rank)
		return x->program_rank < y->program_rank ? -1 : 1;
	return x->site < y->site ? -1 : x->site > y->site;
}

/*
 * cmp_triple's order in linear time for the usual case: triples come in
 * program rank order, so a stable counting sort by key gives (key, rank) runs;
 * a run's sites are in call-graph walk order, sorted (if need be) on their own.
 */
static struct triple *sort_triples(struct triple *triples, size_t count, size_t key_count)
{
	size_t *next = bk_xcalloc(key_count + 1, sizeof(size_t));
	struct triple *sorted =
		bk_populated(bk_xmalloc(count, sizeof(*sorted)), count, sizeof(*sorted));

	for (size_t t = 0; t < count; t++)
		next[triples[t].key + 1]++;
	for (size_t k = 1; k <= key_count; k++)
		next[k] += next[k - 1];
	for (size_t t = 0; t < count; t++)
		sorted[next[triples[t].key]++] = triples[t];
	for (size_t start = 0, end; start < count; start = end) {
		for (end = start + 1; end < count && sorted[end].key == sorted[start].key &&
				      sorted[end].program_rank == sorted[start].program_rank;
		     end++)
			;
		if (end - start > 1)
			elfobj_sort(&sorted[start], end - start, sizeof(*sorted), cmp_triple);
	}
	free(next);
	free(triples);
	return sorted;
}

/*
 * A function to sort by name: the name's first 16 bytes as two big-endian
 * numbers (NUL-padded), so that most comparisons of a million names are two
 * integer compares in one array instead of a strcmp on names spread over
 * the string table. The order is strcmp's: bytes compare as unsigned char,
 * and a name that ends within 16 bytes is padded with NULs, which sort first.
 * Two names whose prefixes agree are equal if the last byte is a NUL (both
 * ended), else strcmp decides on the rest.
 */
struct name_key {
	uint64_t prefix[2];
};

static uint64_t load_be64(const unsigned char *b)
{
	return (uint64_t)b[0] << 56 | (uint64_t)b[1] << 48 | (uint64_t)b[2] << 40 |
	       (uint64_t)b[3] << 32 | (uint64_t)b[4] << 24 | (uint64_t)b[5] << 16 |
	       (uint64_t)b[6] << 8 | (uint64_t)b[7];
}

static void name_key_init(struct name_key *key, const char *name)
{
	unsigned char bytes[16] = { 0 };

	memcpy(bytes, name, strnlen(name, sizeof(bytes)));
	key->prefix[0] = load_be64(bytes);
	key->prefix[1] = load_be64(bytes + 8);
}

/* By the prefixes; 0 if they agree (then the names are equal if both_ended()). */
static int cmp_prefixes(const struct name_key *x, const struct name_key *y)
{
	if (x->prefix[0] != y->prefix[0])
		return x->prefix[0] < y->prefix[0] ? -1 : 1;
	if (x->prefix[1] != y->prefix[1])
		return x->prefix[1] < y->prefix[1] ? -1 : 1;
	return 0;
}

static bool both_ended(const struct name_key *agreeing)
{
	return !(agreeing->prefix[1] & 0xff); /* the 16th byte is a NUL in both */
}

/* Functions a and b by name (strcmp's order); the names are read only past 16 bytes. */
static int cmp_function_names(const struct bk_object *obj, const struct name_key *keys, uint32_t a,
			      uint32_t b)
{
	int c = cmp_prefixes(&keys[a], &keys[b]);

	if (c || both_ended(&keys[a]))
		return c;
	return strcmp(obj->functions[a].name + 16, obj->functions[b].name + 16);
}

/*
 * Whether function a sorts before function b: by name, then index, a strict
 * order, so the result is the one order whatever the sort.
 */
static bool rank_before(const struct bk_object *obj, const struct name_key *keys, uint32_t a,
			uint32_t b)
{
	int c = cmp_function_names(obj, keys, a, b);

	return c ? c < 0 : a < b;
}

/* The runs from[run[0], run[1]), [run[1], run[2]), ... merged pairwise into to[]. */
static size_t merge_runs(const struct bk_object *obj, const struct name_key *keys,
			 const uint32_t *from, uint32_t *to, size_t *run, size_t runs)
{
	size_t merged = 0;

	for (size_t r = 0; r < runs; r += 2) {
		/* run[runs] is n: a last run without a pair is copied */
		size_t i = run[r], mid = run[r + 1], end = r + 1 < runs ? run[r + 2] : mid;
		size_t j = mid, out = i;

		while (i < mid && j < end)
			to[out++] =
				rank_before(obj, keys, from[j], from[i]) ? from[j++] : from[i++];
		while (i < mid)
			to[out++] = from[i++];
		while (j < end)
			to[out++] = from[j++];
		run[merged++] = run[r];
	}
	run[merged] = run[runs];
	return merged;
}

/*
 * rank[0, n) in rank_before()'s order: a merge sort of the runs already in
 * order (symbol tables list functions in runs: a source file's, a generator's
 * numbered names), so it costs n log(runs), not n log(n), and the
 * comparisons, inlined, read the keys of each run in order.
 */
static void sort_ranks(const struct bk_object *obj, const struct name_key *keys, uint32_t *rank,
		       size_t n)
{
	size_t *run = bk_xmalloc(n + 2, sizeof(*run)), runs = 0;
	uint32_t *from = rank, *to;

	for (size_t i = 0; i < n; i++)
		if (!i || rank_before(obj, keys, rank[i], rank[i - 1]))
			run[runs++] = i;
	run[runs] = n;
	if (runs <= 1) {
		free(run);
		return;
	}
	to = bk_populated(bk_xmalloc(n, sizeof(*to)), n, sizeof(*to));
	while (runs > 1) {
		uint32_t *swap = from;

		runs = merge_runs(obj, keys, from, to, run, runs);
		from = to;
		to = swap;
	}
	if (from != rank)
		memcpy(rank, from, n * sizeof(*rank));
	free(from == rank ? to : from);
	free(run);
}

/* Whether `name` is a function's: a binary search of the functions by name. */
static bool is_function_name(const struct bk_object *obj, const struct name_key *keys,
			     const uint32_t *rank, size_t n, const char *name)
{
	struct name_key key;
	size_t lo = 0, hi = n;

	name_key_init(&key, name);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_prefixes(&keys[rank[mid]], &key);

		if (!c && !both_ended(&key))
			c = strcmp(obj->functions[rank[mid]].name + 16, name + 16);

		if (c == 0)
			return true;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return false;
}

/*
 * The programs (indices into obj->functions) sorted by name, or NULL if two
 * share one. All functions are sorted, the programs taken in that order (the
 * sort is stable, so two programs of one name are compared as when only
 * programs were sorted), and that tells, for the price of a binary search per
 * key and section, whether every function name is unique in .bpfkeys' strings.
 */
static uint32_t *programs_by_name(struct bk_object *obj, size_t *count)
{
	/* keys[] is indexed by function; rank[] sorts them */
	size_t n = obj->function_count, program_count = 0;
	struct name_key *keys = bk_populated(bk_xmalloc(n + 1, sizeof(*keys)), n, sizeof(*keys));
	uint32_t *rank = bk_populated(bk_xmalloc(n + 1, sizeof(*rank)), n, sizeof(*rank));
	uint32_t *programs = bk_xmalloc(n + 1, sizeof(*programs));
	bool unique = true;

	for (size_t i = 0; i < n; i++) {
		name_key_init(&keys[i], obj->functions[i].name);
		rank[i] = (uint32_t)i;
	}
	sort_ranks(obj, keys, rank, n);
	for (size_t r = 0; r < n; r++) {
		if (r > 0 && cmp_function_names(obj, keys, rank[r - 1], rank[r]) == 0)
			unique = false;
		if (obj->functions[rank[r]].is_program)
			programs[program_count++] = rank[r];
	}
	for (size_t r = 1; r < program_count; r++)
		if (cmp_function_names(obj, keys, programs[r - 1], programs[r]) == 0) {
			const struct bk_function *x = &obj->functions[programs[r - 1]];
			const struct bk_function *y = &obj->functions[programs[r]];

			bk_error(obj, "two programs named '%s' (sections '%s' and '%s')", x->name,
				 obj->sections[x->section].name, obj->sections[y->section].name);
			free(programs);
			programs = NULL;
			break;
		}
	for (size_t i = 0; unique && i < obj->key_count; i++)
		unique = !is_function_name(obj, keys, rank, n, obj->keys[i].name);
	for (size_t i = 1; unique && i < obj->section_count; i++)
		unique = !is_function_name(obj, keys, rank, n, obj->sections[i].name);
	obj->function_names_unique = unique;
	free(keys);
	free(rank);
	*count = program_count;
	return programs;
}

#define WALK_AHEAD 16

/*
 * Sorted (key, program rank, member) triples -> one (key, program) pair per
 * run, with its members in order: instances and their sites, references and
 * their key loads. Counted first, then filled.
 */
static void group_triples(const struct triple *triples, size_t count, const uint32_t *programs,
			  struct bk_key_program **pairs, size_t *pair_count, uint32_t **members)
{
	size_t n = 0;

	*members = bk_populated(bk_xmalloc(count, sizeof(**members)), count, sizeof(**members));
	for (size_t t = 0; t < count; t++)
		n += !t || triples[t].key != triples[t - 1].key ||
		     triples[t].program_rank != triples[t - 1].program_rank;
	*pairs = bk_populated(bk_xcalloc(n + 1, sizeof(**pairs)), n, sizeof(**pairs));
	*pair_count = 0;
	for (size_t t = 0; t < count; t++) {
		struct bk_key_program *pair = *pair_count ? &(*pairs)[*pair_count - 1] : NULL;

		if (!pair || pair->key != triples[t].key ||
		    pair->program != programs[triples[t].program_rank]) {
			pair = &(*pairs)[(*pair_count)++];
			pair->key = triples[t].key;
			pair->program = programs[triples[t].program_rank];
			pair->first = (uint32_t)t;
		}
		pair->count++;
		(*members)[t] = triples[t].site;
	}
}

/*
 * Where each function's key loads start: the loads of f are
 * [start[f], start[f + 1]) of obj->key_loads (sorted by function). NULL when
 * there are none: most objects pay nothing.
 */
static uint32_t *key_load_starts(const struct bk_object *obj)
{
	uint32_t *start;

	if (!obj->key_load_count)
		return NULL;
	start = bk_xcalloc(obj->function_count + 1, sizeof(*start));
	for (size_t l = 0; l < obj->key_load_count; l++)
		start[obj->key_loads[l].function + 1]++;
	for (size_t f = 0; f < obj->function_count; f++)
		start[f + 1] += start[f];
	return start;
}

/* The key loads of function f, reached by the program of rank r: (key, r, load) triples. */
static void add_load_triples(const struct bk_object *obj, const uint32_t *load_start, size_t f,
			     uint32_t r, struct triple **triples, size_t *count, size_t *cap)
{
	for (size_t l = load_start[f]; l < load_start[f + 1]; l++) {
		*triples = bk_xgrow(*triples, *count, cap, sizeof(**triples));
		(*triples)[(*count)++] = (struct triple){ obj->key_loads[l].key, r, (uint32_t)l };
	}
}

int bk_build_instances(struct bk_object *obj)
{
	uint32_t *programs;
	struct reach_walk walk;
	size_t program_count = 0;
	bool *reached;
	struct triple *triples = NULL, *load_triples = NULL;
	uint32_t *load_start;
	size_t triple_count = 0, triple_cap = 0, load_triple_count = 0, load_triple_cap = 0;
	int err = -1;

	if (obj->function_count >= UINT32_MAX || obj->site_count >= UINT32_MAX ||
	    obj->key_count >= UINT32_MAX || obj->key_load_count >= UINT32_MAX) {
		bk_error(obj, "too many functions, sites, keys or key loads (4G)");
		return -1;
	}
	programs = programs_by_name(obj, &program_count);
	if (!programs)
		return -1;
	load_start = key_load_starts(obj);
	reach_init(&walk, obj);
	reached = bk_populated(bk_xcalloc(obj->function_count + 1, sizeof(bool)),
			       obj->function_count, sizeof(bool));

	for (size_t r = 0; r < program_count; r++) {
		int64_t f;

		/* Programs come in name order, their data in object order: ask for a
		 * program's record, and then its first site, a few programs ahead. */
		if (r + WALK_AHEAD < program_count)
			__builtin_prefetch(&obj->functions[programs[r + WALK_AHEAD]]);
		if (r + WALK_AHEAD / 2 < program_count) {
			const struct bk_function *next =
				&obj->functions[programs[r + WALK_AHEAD / 2]];

			if (next->site_count)
				__builtin_prefetch(&obj->sites[next->first_site]);
			__builtin_prefetch(&walk.seen[programs[r + WALK_AHEAD / 2]]);
			__builtin_prefetch(&reached[programs[r + WALK_AHEAD / 2]]);
		}
		reach_start(&walk, programs[r], (uint32_t)r + 1);
		while ((f = reach_next(obj, &walk)) >= 0) {
			const struct bk_function *fn = &obj->functions[f];

			reached[f] = true;
			if (load_start) {
				if (load_triple_count + obj->key_load_count > UINT32_MAX) {
					bk_error(obj, "too many key references (4G)");
					goto out;
				}
				add_load_triples(obj, load_start, (size_t)f, (uint32_t)r,
						 &load_triples, &load_triple_count,
						 &load_triple_cap);
			}
			for (size_t s = fn->first_site; s < fn->first_site + fn->site_count; s++) {
				if (triple_count == triple_cap) {
					if (triple_count == UINT32_MAX) {
						bk_error(obj, "too many instance sites (4G)");
						goto out;
					}
					/*
					 * Every site once, the usual count, and an eighth
					 * more for code that several programs call, before
					 * doubling: the pages of the part left unused are
					 * never touched, and a growth copies every triple.
					 */
					triple_cap = triple_cap ? 2 * triple_cap
								: obj->site_count +
									  obj->site_count / 8 + 64;
					if (triple_cap > UINT32_MAX)
						triple_cap = UINT32_MAX;
					triples =
						bk_xrealloc(triples, triple_cap, sizeof(*triples));
					if (!triple_count) /* the part every site fills */
						bk_populated(triples, obj->site_count,
							     sizeof(*triples));
				}
				triples[triple_count++] =
					(struct triple){ (uint32_t)obj->sites[s].key, (uint32_t)r,
							 (uint32_t)s };
			}
		}
	}
	if (triple_count)
		triples = sort_triples(triples, triple_count, obj->key_count);
	group_triples(triples, triple_count, programs, &obj->instances, &obj->instance_count,
		      &obj->instance_sites);
	obj->instance_site_count = triple_count;
	for (size_t i = 0; i < obj->instance_count; i++)
		obj->keys[obj->instances[i].key].instance_count++;
	if (load_triple_count)
		load_triples = sort_triples(load_triples, load_triple_count, obj->key_count);
	group_triples(load_triples, load_triple_count, programs, &obj->references,
		      &obj->reference_count, &obj->reference_loads);
	obj->reference_load_count = load_triple_count;
	for (size_t i = 0; i < obj->reference_count; i++)
		obj->keys[obj->references[i].key].reference_count++;

	for (size_t i = 0; i < obj->key_count; i++) {
		const struct bk_key *key = &obj->keys[i];

		if (!key->is_static_key)
			continue;
		if (!key->site_count)
			bk_warn(obj, "key '%s' is %sunused: no .static_keys entry names it",
				key->name, key->reference_count ? "flipped from BPF but " : "");
		else if (!key->instance_count)
			bk_warn(obj, "key '%s' is unused: no program reaches its %zu site(s)",
				key->name, key->site_count);
	}
	for (size_t i = 0; i < obj->function_count; i++) /* reached[] first: it is smaller */
		if (!reached[i] && obj->functions[i].site_count)
			bk_warn(obj,
				"function '%s' (section '%s') has %u static-key site(s) but no "
				"program calls it",
				obj->functions[i].name,
				obj->sections[obj->functions[i].section].name,
				obj->functions[i].site_count);
	for (size_t l = 0; l < obj->key_load_count; l++)
		if (!reached[obj->key_loads[l].function])
			bk_warn(obj,
				"function '%s' (section '%s') refers to static key '%s' but no "
				"program calls it",
				obj->functions[obj->key_loads[l].function].name,
				obj->sections[obj->key_loads[l].section].name,
				obj->keys[obj->key_loads[l].key].name);
	err = 0;
out:
	free(triples);
	free(load_triples);
	free(load_start);
	free(programs);
	reach_free(&walk);
	free(reached);
	return err;
}

int bk_analyze(struct bk_object *obj)
{
	if (bk_read_keys(obj) || bk_build_functions(obj) || bk_build_callgraph(obj) ||
	    bk_read_sites(obj) || bk_check_key_references(obj) || bk_build_instances(obj))
		return -1;
	return 0;
}
