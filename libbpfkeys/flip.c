// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, flips: the new states, the programs they affect (every program
 * with an instance of a changed key: `bpfkeys list`), one variant object with
 * only those programs, loaded against the maps already there, then the links
 * swapped. Nothing the caller can see changes until every variant program has
 * loaded and every link has moved; a failure in between is undone.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

static const char *kind_name(enum bpfkeys_link_kind kind)
{
	switch (kind) {
	case BPFKEYS_LINK_XDP:
		return "xdp";
	case BPFKEYS_LINK_CGROUP:
		return "cgroup";
	case BPFKEYS_LINK_TCX:
		return "tcx";
	case BPFKEYS_LINK_NETNS:
		return "netns";
	case BPFKEYS_LINK_OVERLAP:
		return "attach-then-detach";
	case BPFKEYS_LINK_TC:
		return "tc";
	}
	return "?";
}

/* new_on[]: the current states with the settings applied; errors name the key */
static int new_states(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings,
		      size_t count, bool *new_on)
{
	bool *seen = lbk_calloc(obj, obj->bk.key_count, sizeof(bool));
	int err = 0;

	if (!seen)
		return -ENOMEM;
	memcpy(new_on, obj->on, obj->bk.key_count * sizeof(bool));
	for (size_t s = 0; s < count && !err; s++) {
		ssize_t k = settings[s].key ? bk_key_by_name(&obj->bk, settings[s].key) : -1;

		if (k < 0 || !obj->bk.keys[k].is_static_key)
			err = lbk_error(obj, ENOENT, "no static key named '%s'",
					settings[s].key ? settings[s].key : "(null)");
		else if (seen[k])
			err = lbk_error(obj, EINVAL, "key '%s' set twice in one flip",
					settings[s].key);
		else {
			seen[k] = true;
			new_on[k] = settings[s].on;
		}
	}
	free(seen);
	return err;
}

/* Undo the swaps done so far: atomic links back to their old program, new
 * overlap links detached. Returns the number of links left unrestored. */
static int undo(struct bpfkeys_object *obj, struct bpfkeys_link **swapped, int *old_fd, int *new_fd,
		size_t swapped_count, struct bpf_link **attached, size_t link_count)
{
	int lost = 0;

	for (size_t i = swapped_count; i-- > 0;) {
		if (lbk_link_replace(swapped[i], new_fd[i], old_fd[i])) {
			lost++;
			/* errmsg keeps the first error; this one is only printed */
			lbk_print(obj, LIBBPFKEYS_WARN,
				  "libbpfkeys: %s: error: program '%s': link fd %d (%s) could not "
				  "be restored to the old program: %s\n",
				  obj->path, obj->programs[swapped[i]->program].name,
				  swapped[i]->fd, kind_name(swapped[i]->kind), strerror(errno));
		}
	}
	for (size_t i = 0; i < link_count; i++)
		bpf_link__destroy(attached[i]);
	return lost;
}

static int swap_links(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
		      const bool *affected)
{
	size_t n = 0, swapped_count = 0;
	struct bpfkeys_link *l;
	struct bpfkeys_link **swapped;
	struct bpf_link **attached;
	int *old_fd, *new_fd, err = 0;

	for (l = obj->links; l; l = l->next)
		n++;
	swapped = lbk_calloc(obj, n, sizeof(*swapped));
	attached = lbk_calloc(obj, n, sizeof(*attached));
	old_fd = lbk_calloc(obj, n, sizeof(int));
	new_fd = lbk_calloc(obj, n, sizeof(int));
	if (!swapped || !attached || !old_fd || !new_fd) {
		err = -ENOMEM; /* nothing changed yet */
		goto out;
	}

	/* attach-then-detach links first: undoing them is only a detach */
	n = 0;
	for (l = obj->links; l; l = l->next, n++) {
		const char *name = obj->programs[l->program].name;

		if (l->kind != BPFKEYS_LINK_OVERLAP || !affected[l->program])
			continue;
		attached[n] =
			bpf_program__attach(bpf_object__find_program_by_name(variant->bpf, name));
		if (!attached[n]) {
			err = lbk_error(obj, errno,
					"program '%s': cannot attach its new version: %s; no "
					"link was changed",
					name, strerror(errno));
			goto fail;
		}
	}
	for (l = obj->links; l; l = l->next) {
		const char *name = obj->programs[l->program].name;
		int from, to;

		if (l->kind == BPFKEYS_LINK_OVERLAP || !affected[l->program])
			continue;
		from = bpfkeys_program_fd(obj, name);
		to = bpf_program__fd(bpf_object__find_program_by_name(variant->bpf, name));
		/* BPF_F_REPLACE: fails rather than replace a program we did not put there */
		err = lbk_link_replace(l, from, to);
		if (err && l->kind == BPFKEYS_LINK_TC)
			err = lbk_error(obj, err,
					"program '%s': tc filter on %s: replace failed: %s; no "
					"link was changed",
					name, bpfkeys_link_target(l), strerror(-err));
		else if (err)
			err = lbk_error(obj, err,
					"program '%s': link fd %d (%s): BPF_LINK_UPDATE "
					"failed: %s; no link was changed",
					name, l->fd, kind_name(l->kind), strerror(-err));
		if (err)
			goto fail;
		swapped[swapped_count] = l;
		old_fd[swapped_count] = from;
		new_fd[swapped_count++] = to;
	}
	n = 0;
	for (l = obj->links; l; l = l->next, n++) {
		if (!attached[n])
			continue;
		/* a pinned one stays attached until its pin moves (lbk_pin_update) */
		if (l->bpf_link)
			bpf_link__destroy(l->bpf_link);
		else
			close(l->fd);
		l->bpf_link = attached[n];
		l->fd = bpf_link__fd(attached[n]);
	}
	goto out;
fail:
	if (undo(obj, swapped, old_fd, new_fd, swapped_count, attached, n))
		err = -EIO;
out:
	free(swapped);
	free(attached);
	free(old_fd);
	free(new_fd);
	return err;
}

static int pin_update(struct bpfkeys_object *obj, void *affected)
{
	return lbk_pin_update(obj, affected);
}

int bpfkeys_flip(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings, size_t count)
{
	bool *new_on = lbk_calloc(obj, obj->bk.key_count, sizeof(bool));
	bool *affected = lbk_calloc(obj, obj->program_count, sizeof(bool));
	struct bpfkeys_loaded *variant = NULL;
	int err, replaced = 0;

	if (!new_on || !affected) {
		err = -ENOMEM;
		goto out;
	}
	err = new_states(obj, settings, count, new_on);
	if (err || !obj->loaded)
		goto commit_states;
	for (size_t i = 0; i < obj->bk.instance_count; i++) {
		const struct bk_key_program *in = &obj->bk.instances[i];
		ssize_t p;

		if (new_on[in->key] == obj->on[in->key])
			continue;
		p = lbk_program_index(obj, obj->bk.functions[in->program].name);
		if (p >= 0 && lbk_program_loaded(obj, (size_t)p) && !affected[p]) {
			err = lbk_flip_refusal(obj, (size_t)p);
			if (err)
				goto out;
			affected[p] = true;
			replaced++;
		}
	}
	if (!replaced)
		goto commit_states;
	err = lbk_open_variant(obj, new_on, &variant);
	if (!err)
		err = lbk_load_variant(obj, variant, affected);
	if (!err)
		err = swap_links(obj, variant, affected);
	if (err) {
		if (variant) {
			variant->refs = 1;
			lbk_loaded_put(variant);
		}
		goto out;
	}
	for (size_t p = 0; p < obj->program_count; p++)
		if (affected[p]) {
			variant->refs++;
			lbk_loaded_put(obj->programs[p].loaded);
			obj->programs[p].loaded = variant;
			if (obj->programs[p].pinned_fd >= 0) {
				close(obj->programs[p].pinned_fd);
				obj->programs[p].pinned_fd = -1;
			}
		}
commit_states:
	if (!err) {
		memcpy(obj->on, new_on, obj->bk.key_count * sizeof(bool));
		if (obj->loaded && obj->pin_dir)
			err = lbk_core(obj, pin_update, affected);
	}
	if (!err && obj->loaded)
		lbk_print(obj, LIBBPFKEYS_DEBUG, "libbpfkeys: %s: flip: %d program(s) replaced\n",
			  obj->path, replaced);
out:
	free(new_on);
	free(affected);
	return err ? err : replaced;
}

int bpfkeys_set(struct bpfkeys_object *obj, const char *key, bool on)
{
	struct bpfkeys_setting setting = { .key = key, .on = on };

	return bpfkeys_flip(obj, &setting, 1);
}
