// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, prepared flips: program versions lowered and verified ahead of
 * a flip (bpfkeys_prepare(), or the prepare_flips open option), so that the
 * flip itself is only link and prog-array updates (flip.c).
 *
 * A prepared version of a program is valid for a flip to states T if it was
 * lowered for states that agree with T on every key the program reaches: its
 * code is then exactly T's (lowering rewrites the program's own sites only,
 * and every variant shares the loaded maps). So a flip of another key in
 * between invalidates exactly the versions of the programs that reach it,
 * with no bookkeeping: the check is made at each flip.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "internal.h"

const bool *lbk_program_keys(struct bpfkeys_object *obj)
{
	if (obj->program_keys)
		return obj->program_keys;
	obj->program_keys = calloc(obj->program_count * obj->bk.key_count + 1, sizeof(bool));
	if (!obj->program_keys)
		return NULL;
	for (size_t i = 0; i < obj->bk.instance_count; i++) {
		const struct bk_key_program *in = &obj->bk.instances[i];
		ssize_t p = lbk_program_index(obj, obj->bk.functions[in->program].name);

		if (p >= 0)
			obj->program_keys[(size_t)p * obj->bk.key_count + in->key] = true;
	}
	return obj->program_keys;
}

/* the number of keys program p reaches on which a and b differ (without
 * memory for the table, all keys: a version is then used only if equal) */
static size_t keys_apart(struct bpfkeys_object *obj, size_t program, const bool *a, const bool *b)
{
	const bool *reaches = lbk_program_keys(obj);
	size_t apart = 0;

	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (a[k] != b[k] && (!reaches || reaches[program * obj->bk.key_count + k]))
			apart++;
	return apart;
}

struct bpfkeys_prepared *lbk_prepared_find(struct bpfkeys_object *obj, size_t program,
					   const bool *on)
{
	for (struct bpfkeys_prepared *e = obj->prepared; e; e = e->next)
		if (e->program == program && !keys_apart(obj, program, e->on, on))
			return e;
	return NULL;
}

void lbk_prepared_take(struct bpfkeys_object *obj, struct bpfkeys_prepared *entry)
{
	struct bpfkeys_prepared **pos = &obj->prepared;

	while (*pos && *pos != entry)
		pos = &(*pos)->next;
	if (*pos)
		*pos = entry->next;
	free(entry->on);
	free(entry);
}

static void drop(struct bpfkeys_object *obj, struct bpfkeys_prepared *entry)
{
	struct bpfkeys_loaded *loaded = entry->loaded;

	lbk_prepared_take(obj, entry);
	lbk_loaded_put(loaded);
}

void lbk_prepared_keep(struct bpfkeys_object *obj, size_t program, const bool *on,
		       struct bpfkeys_loaded *loaded, bool automatic)
{
	struct bpfkeys_prepared *entry = calloc(1, sizeof(*entry));
	struct bpfkeys_prepared *same = lbk_prepared_find(obj, program, on);

	if (same) /* one version per program and states */
		drop(obj, same);
	if (entry)
		entry->on = malloc(obj->bk.key_count ? obj->bk.key_count : 1);
	if (!entry || !entry->on) {
		/* without memory a version is not kept: its flip loads as usual */
		free(entry);
		lbk_loaded_put(loaded);
		return;
	}
	memcpy(entry->on, on, obj->bk.key_count * sizeof(bool));
	entry->program = program;
	entry->loaded = loaded;
	entry->automatic = automatic;
	entry->next = obj->prepared;
	obj->prepared = entry;
}

/* Load one variant for the states on[] with the programs a flip to on[]
 * replaces and has no valid prepared version of. Returns the number of
 * programs such a flip replaces, or a negative errno (nothing kept). */
static int prepare_states(struct bpfkeys_object *obj, const bool *on, bool automatic)
{
	bool *affected = lbk_calloc(obj, obj->program_count, sizeof(bool));
	struct bpfkeys_loaded *variant = NULL;
	size_t missing = 0;
	int replaced, err;

	if (!affected)
		return -ENOMEM;
	replaced = lbk_affected_programs(obj, on, affected);
	for (size_t p = 0; p < obj->program_count; p++) {
		if (affected[p] && lbk_prepared_find(obj, p, on))
			affected[p] = false; /* ready already */
		missing += affected[p];
	}
	err = missing ? lbk_open_variant(obj, on, &variant) : 0;
	if (!err && missing)
		err = lbk_load_variant(obj, variant, affected);
	if (err) {
		if (variant) {
			variant->refs = 1;
			lbk_loaded_put(variant);
		}
		free(affected);
		return err;
	}
	if (variant)
		variant->refs = missing; /* one per entry, each passed to the pool */
	for (size_t p = 0; p < obj->program_count; p++)
		if (affected[p])
			lbk_prepared_keep(obj, p, on, variant, automatic);
	free(affected);
	return replaced;
}

/* prepare_flips: the flip of each key on its own, from the current states */
static void prepare_each_key(struct bpfkeys_object *obj)
{
	bool *on = malloc(obj->bk.key_count ? obj->bk.key_count : 1);

	if (!on)
		return; /* not prepared: the flips load as usual */
	for (size_t k = 0; k < obj->bk.key_count; k++) {
		if (!obj->bk.keys[k].is_static_key)
			continue;
		memcpy(on, obj->on, obj->bk.key_count * sizeof(bool));
		on[k] = !on[k];
		if (prepare_states(obj, on, true) < 0)
			lbk_print(obj, LIBBPFKEYS_WARN,
				  "libbpfkeys: %s: warning: the flip of key '%s' is not prepared "
				  "(see above): it loads its programs when it happens\n",
				  obj->path, obj->bk.keys[k].name);
	}
	free(on);
}

void lbk_prepared_after_load(struct bpfkeys_object *obj)
{
	if (obj->prepare_flips)
		prepare_each_key(obj);
}

void lbk_prepared_after_flip(struct bpfkeys_object *obj)
{
	struct bpfkeys_prepared *e = obj->prepared, *next;

	for (; e; e = next) {
		size_t apart = keys_apart(obj, e->program, e->on, obj->on);

		next = e->next;
		/* the same as what runs now, or (prepare_flips) no single key's flip */
		if (!apart || (e->automatic && apart > 1))
			drop(obj, e);
	}
	if (obj->prepare_flips)
		prepare_each_key(obj);
}

void lbk_retire(struct bpfkeys_object *obj, struct bpfkeys_loaded *loaded)
{
	struct bpfkeys_loaded **more;

	if (!loaded)
		return;
	more = realloc(obj->retired, (obj->retired_count + 1) * sizeof(*more));
	if (!more) {
		lbk_loaded_put(loaded);
		return;
	}
	obj->retired = more;
	obj->retired[obj->retired_count++] = loaded;
}

void lbk_put_retired(struct bpfkeys_object *obj)
{
	for (size_t i = 0; i < obj->retired_count; i++)
		lbk_loaded_put(obj->retired[i]);
	free(obj->retired);
	obj->retired = NULL;
	obj->retired_count = 0;
}

void lbk_prepared_free_all(struct bpfkeys_object *obj)
{
	lbk_put_retired(obj);
	while (obj->prepared)
		drop(obj, obj->prepared);
	free(obj->program_keys);
	obj->program_keys = NULL;
	free(obj->prog_array_entries);
	obj->prog_array_entries = NULL;
}

int bpfkeys_prepare(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings,
		    size_t count)
{
	bool *on;
	int err;

	if (!obj->loaded)
		return lbk_error(obj, EINVAL, "a flip is prepared after load");
	lbk_put_retired(obj);
	/* what an earlier call prepared goes (prepare_flips' versions stay) */
	for (struct bpfkeys_prepared *e = obj->prepared, *next; e; e = next) {
		next = e->next;
		if (!e->automatic)
			drop(obj, e);
	}
	if (!count)
		return 0;
	on = lbk_calloc(obj, obj->bk.key_count, sizeof(bool));
	if (!on)
		return -ENOMEM;
	err = lbk_new_states(obj, settings, count, on);
	if (!err)
		err = prepare_states(obj, on, false);
	free(on);
	return err;
}
