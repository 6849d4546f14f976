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
#include <time.h>
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

int lbk_new_states(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings, size_t count,
		   bool *new_on)
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

int lbk_affected_programs(struct bpfkeys_object *obj, const bool *on, bool *affected)
{
	const bool *reaches = lbk_program_keys(obj);
	int count = 0;

	if (!reaches) /* without memory for the table: from the instances */
		for (size_t i = 0; i < obj->bk.instance_count; i++) {
			const struct bk_key_program *in = &obj->bk.instances[i];
			ssize_t p;

			if (on[in->key] == obj->on[in->key])
				continue;
			p = lbk_program_index(obj, obj->bk.functions[in->program].name);
			if (p >= 0 && lbk_program_loaded(obj, (size_t)p) && !affected[p]) {
				affected[p] = true;
				count++;
			}
		}
	for (size_t p = 0; reaches && p < obj->program_count; p++) {
		if (!lbk_program_loaded(obj, p))
			continue;
		for (size_t k = 0; k < obj->bk.key_count && !affected[p]; k++)
			if (on[k] != obj->on[k] && reaches[p * obj->bk.key_count + k]) {
				affected[p] = true;
				count++;
			}
	}
	return count;
}

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* The steps of a flip (internal.h, struct lbk_flip_step): attach the new
 * versions of overlap links, move the PROG_ARRAY entries, update the links. */
static ssize_t plan_steps(struct bpfkeys_object *obj, const int *old_fd, const int *new_fd,
			  struct lbk_flip_step **out)
{
	size_t n = 0, capacity = 0;
	struct lbk_flip_step *steps;
	struct bpfkeys_link *l;
	ssize_t entries;

	for (l = obj->links; l; l = l->next)
		capacity++;
	/* room for the links and for prog-array entries, counted by a first pass */
	entries = lbk_plan_prog_arrays(obj, old_fd, new_fd, NULL, 0);
	if (entries < 0)
		return entries;
	capacity += (size_t)entries;
	steps = lbk_calloc(obj, capacity, sizeof(*steps));
	if (!steps)
		return -ENOMEM;
	for (l = obj->links; l; l = l->next)
		if (l->kind == BPFKEYS_LINK_OVERLAP && new_fd[l->program] >= 0)
			steps[n++] = (struct lbk_flip_step){ .kind = LBK_STEP_ATTACH,
							     .program = l->program,
							     .link = l,
							     .old_fd = old_fd[l->program],
							     .new_fd = new_fd[l->program] };
	entries = lbk_plan_prog_arrays(obj, old_fd, new_fd, steps + n, capacity - n);
	if (entries < 0) {
		free(steps);
		return entries;
	}
	n += (size_t)entries;
	for (l = obj->links; l; l = l->next)
		if (l->kind != BPFKEYS_LINK_OVERLAP && new_fd[l->program] >= 0)
			steps[n++] = (struct lbk_flip_step){ .kind = LBK_STEP_LINK_UPDATE,
							     .program = l->program,
							     .link = l,
							     .old_fd = old_fd[l->program],
							     .new_fd = new_fd[l->program] };
	*out = steps;
	return (ssize_t)n;
}

/* one step; the error names the program and what failed */
static int do_step(struct bpfkeys_object *obj, struct lbk_flip_step *step,
		   struct bpfkeys_loaded *const *next, struct lbk_journal_args *journal)
{
	const char *name = obj->programs[step->program].name;

	switch (step->kind) {
	case LBK_STEP_ATTACH:
		step->attached = bpf_program__attach(
			bpf_object__find_program_by_name(next[step->program]->bpf, name));
		if (!step->attached)
			return lbk_error(obj, errno,
					 "program '%s': cannot attach its new version: %s; no "
					 "link was changed",
					 name, strerror(errno));
		/* pinned: the new attachment is pinned as it is made (journal.c) */
		if (journal && step->link->pin_path) {
			int err = lbk_journal_pin_new_link(obj, step->link,
							   bpf_link__fd(step->attached));

			if (err) {
				bpf_link__destroy(step->attached);
				step->attached = NULL;
				return err;
			}
		}
		return 0;
	case LBK_STEP_PROG_ARRAY: /* a prog array takes BPF_ANY only */
		if (bpf_map_update_elem(step->map_fd, &step->index, &step->new_fd, BPF_ANY))
			return lbk_error(obj, errno,
					 "program '%s': prog array fd %d [%u]: update failed: %s; "
					 "no link was changed",
					 name, step->map_fd, step->index, strerror(errno));
		return 0;
	case LBK_STEP_LINK_UPDATE: {
		/* fails rather than replace a program we did not put there */
		int err = lbk_link_replace(step->link, step->old_fd, step->new_fd);

		if (err && step->link->kind == BPFKEYS_LINK_TC)
			return lbk_error(obj, err,
					 "program '%s': tc filter on %s: replace failed: %s; no "
					 "link was changed",
					 name, bpfkeys_link_target(step->link), strerror(-err));
		if (err)
			return lbk_error(obj, err,
					 "program '%s': link fd %d (%s): BPF_LINK_UPDATE "
					 "failed: %s; no link was changed",
					 name, step->link->fd, kind_name(step->link->kind),
					 strerror(-err));
		return 0;
	}
	}
	return -EINVAL;
}

/* Undo one done step. Returns 0, or -1 if it stays done (said). */
static int undo_step(struct bpfkeys_object *obj, struct lbk_flip_step *step)
{
	const char *name = obj->programs[step->program].name;

	switch (step->kind) {
	case LBK_STEP_ATTACH:
		bpf_link__destroy(step->attached);
		step->attached = NULL;
		return 0;
	case LBK_STEP_PROG_ARRAY:
		if (!bpf_map_update_elem(step->map_fd, &step->index, &step->old_fd, BPF_ANY))
			return 0;
		/* errmsg keeps the first error; this one is only printed */
		lbk_print(obj, LIBBPFKEYS_WARN,
			  "libbpfkeys: %s: error: program '%s': prog array fd %d [%u] could not be "
			  "restored to the old program: %s\n",
			  obj->path, name, step->map_fd, step->index, strerror(errno));
		return -1;
	case LBK_STEP_LINK_UPDATE:
		if (!lbk_link_replace(step->link, step->new_fd, step->old_fd))
			return 0;
		lbk_print(obj, LIBBPFKEYS_WARN,
			  "libbpfkeys: %s: error: program '%s': link fd %d (%s) could not "
			  "be restored to the old program: %s\n",
			  obj->path, name, step->link->fd, kind_name(step->link->kind),
			  strerror(errno));
		return -1;
	}
	return -1;
}

static int write_states(struct bpfkeys_object *obj, void *new_on)
{
	return lbk_pin_write_states(obj, new_on);
}

/* Walk the steps; on a failure undo what was done, in reverse (-EIO if some
 * step could not be undone). *window_us: first to last update. journal: a
 * pinned object's flip (journal.c): the new states go to meta after the last
 * step, before the flip is done, so that a failure there is undone like a
 * link's. */
static int run_steps(struct bpfkeys_object *obj, struct lbk_flip_step *steps, size_t count,
		     struct bpfkeys_loaded *const *next, struct lbk_journal_args *journal,
		     double *window_us)
{
	double first = 0, last = 0;
	size_t done;
	int err = 0, lost = 0;

	for (done = 0; done < count && !err; done++) {
		if (steps[done].kind != LBK_STEP_ATTACH && !first)
			first = now_us();
		err = do_step(obj, &steps[done], next, journal);
		if (steps[done].kind != LBK_STEP_ATTACH)
			last = now_us();
	}
	*window_us = last - first;
	if (err)
		done--; /* the failed step undid itself */
	if (!err && journal) {
		journal->states_written = true;
		err = lbk_core(obj, write_states, (void *)journal->new_on);
	}
	if (!err)
		return 0;
	while (done-- > 0)
		lost -= undo_step(obj, &steps[done]);
	return lost ? -EIO : err;
}

/* after the steps: the old attachments of overlap links go */
static void commit_attachments(struct lbk_flip_step *steps, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		struct bpfkeys_link *l = steps[i].link;

		if (steps[i].kind != LBK_STEP_ATTACH)
			continue;
		/* a pinned one stays attached until its pin moves (lbk_journal_commit) */
		if (l->bpf_link)
			bpf_link__destroy(l->bpf_link);
		else
			close(l->fd);
		l->bpf_link = steps[i].attached;
		l->fd = bpf_link__fd(steps[i].attached);
	}
}

/* a flip that replaces no program: only meta changes */
static int record_states(struct bpfkeys_object *obj, void *new_on)
{
	int err = lbk_pin_dir_check(obj);

	if (!err)
		err = lbk_pin_write_states(obj, new_on);
	if (err)
		lbk_pin_write_states(obj, obj->on); /* the old states back */
	return err;
}

/* The next version of every affected program: a prepared one (prepare.c)
 * where there is one for the new states, else from one variant loaded now for
 * the others. */
static int next_versions(struct bpfkeys_object *obj, const bool *new_on, const bool *affected,
			 struct bpfkeys_prepared **prepared, struct bpfkeys_loaded **next,
			 struct bpfkeys_loaded **fresh)
{
	bool *missing = lbk_calloc(obj, obj->program_count, sizeof(bool));
	bool any = false;
	int err = 0;

	if (!missing)
		return -ENOMEM;
	for (size_t p = 0; p < obj->program_count; p++) {
		if (!affected[p])
			continue;
		prepared[p] = lbk_prepared_find(obj, p, new_on);
		if (prepared[p])
			next[p] = prepared[p]->loaded;
		else
			missing[p] = any = true;
	}
	if (any) {
		err = lbk_open_variant(obj, new_on, fresh);
		if (!err)
			err = lbk_load_variant(obj, *fresh, missing);
		for (size_t p = 0; p < obj->program_count && !err; p++)
			if (missing[p])
				next[p] = *fresh;
	}
	free(missing);
	return err;
}

int bpfkeys_flip(struct bpfkeys_object *obj, const struct bpfkeys_setting *settings, size_t count)
{
	bool *new_on = lbk_calloc(obj, obj->bk.key_count, sizeof(bool));
	bool *affected = lbk_calloc(obj, obj->program_count, sizeof(bool));
	struct bpfkeys_prepared **prepared = lbk_calloc(obj, obj->program_count, sizeof(*prepared));
	struct bpfkeys_loaded **next = lbk_calloc(obj, obj->program_count, sizeof(*next));
	int *old_fd = lbk_calloc(obj, obj->program_count, sizeof(int));
	int *new_fd = lbk_calloc(obj, obj->program_count, sizeof(int));
	struct bpfkeys_loaded *variant = NULL;
	struct lbk_flip_step *steps = NULL;
	struct lbk_journal_args journal = { 0 };
	bool journaled = false;
	ssize_t step_count = 0;
	size_t ready = 0;
	double window_us = 0;
	int err, replaced = 0;

	if (!new_on || !affected || !prepared || !next || !old_fd || !new_fd) {
		err = -ENOMEM;
		goto out;
	}
	err = lbk_new_states(obj, settings, count, new_on);
	if (err || !obj->loaded)
		goto commit_states;
	replaced = lbk_affected_programs(obj, new_on, affected);
	if (!replaced)
		goto commit_states;
	for (size_t p = 0; p < obj->program_count && !err; p++)
		if (affected[p])
			err = lbk_flip_refusal(obj, p); /* struct_ops */
	if (err)
		goto out;
	err = next_versions(obj, new_on, affected, prepared, next, &variant);
	for (size_t p = 0; p < obj->program_count && !err; p++) {
		const char *name = obj->programs[p].name;

		old_fd[p] = new_fd[p] = -1;
		if (!affected[p])
			continue;
		ready += prepared[p] != NULL;
		old_fd[p] = bpfkeys_program_fd(obj, name);
		new_fd[p] = bpf_program__fd(bpf_object__find_program_by_name(next[p]->bpf, name));
	}
	if (!err) {
		step_count = plan_steps(obj, old_fd, new_fd, &steps);
		err = step_count < 0 ? (int)step_count : 0;
	}
	journal = (struct lbk_journal_args){ new_fd, affected, new_on, false, -1 };
	if (!err && obj->pin_dir) {
		err = lbk_journal_begin(obj, &journal);
		journaled = !err;
	}
	if (!err)
		err = run_steps(obj, steps, (size_t)step_count, next, journaled ? &journal : NULL,
				&window_us);
	if (err) {
		if (journaled)
			lbk_journal_abort(obj, &journal);
		if (variant) {
			variant->refs = 1;
			lbk_loaded_put(variant);
		}
		goto out;
	}
	commit_attachments(steps, (size_t)step_count);
	if (ready < (size_t)replaced)
		lbk_put_retired(obj); /* this flip loaded: it is not the fast one */
	for (size_t p = 0; p < obj->program_count; p++) {
		struct bpfkeys_loaded *old;

		if (!affected[p])
			continue;
		if (prepared[p])
			lbk_prepared_take(obj, prepared[p]); /* its reference moves here */
		else
			variant->refs++;
		old = obj->programs[p].loaded;
		obj->programs[p].loaded = next[p];
		/* prepare_flips: the old version is the prepared flip back */
		if (obj->prepare_flips && old)
			lbk_prepared_keep(obj, p, obj->on, old, true);
		else if (ready == (size_t)replaced)
			lbk_retire(obj, old); /* a prepared flip: closed later */
		else
			lbk_loaded_put(old);
		if (obj->programs[p].pinned_fd >= 0) {
			close(obj->programs[p].pinned_fd);
			obj->programs[p].pinned_fd = -1;
		}
	}
	if (journaled)
		lbk_journal_commit(obj, &journal);
commit_states:
	if (!err && !journaled && obj->loaded && obj->pin_dir)
		err = lbk_core(obj, record_states, new_on);
	if (!err)
		memcpy(obj->on, new_on, obj->bk.key_count * sizeof(bool));
	if (!err && obj->loaded)
		lbk_print(obj, LIBBPFKEYS_DEBUG,
			  "libbpfkeys: %s: flip: %d program(s) replaced (%zu prepared), %zd "
			  "update(s) in %.1f us\n",
			  obj->path, replaced, ready, step_count, window_us);
	if (!err && obj->loaded && replaced)
		lbk_prepared_after_flip(obj);
out:
	free(steps);
	free(new_on);
	free(affected);
	free(prepared);
	free(next);
	free(old_fd);
	free(new_fd);
	return err ? err : replaced;
}

int bpfkeys_set(struct bpfkeys_object *obj, const char *key, bool on)
{
	struct bpfkeys_setting setting = { .key = key, .on = on };

	return bpfkeys_flip(obj, &setting, 1);
}
