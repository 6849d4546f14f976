// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, the journal of a pinned flip: a flip of a pinned object is a
 * transaction, so that a flipper killed at any point leaves a directory
 * that the next opener brings to one consistent state (docs/abi.md,
 * section 7.1):
 *
 *   1. the variant is loaded (nothing pinned yet: a kill frees it);
 *   2. each new program is pinned at progs/NAME:new;
 *   3. DIR/journal is pinned: per program its old and new id, per key its
 *      old and new state, a direction (forward);
 *   4. new attach-then-detach links are attached and pinned at
 *      links/PROG:N:new, the PROG_ARRAY entries that hold an old program
 *      are moved to its new one, then every updatable link is updated;
 *   5. the new states are written to meta;
 *   6. progs/NAME:new and links/...:new are renamed over the old pins (the
 *      old programs and old non-updatable links go with their last pin);
 *   7. DIR/journal is removed.
 *
 * A failure at 4 or 5 undoes the links in the process, records the direction
 * back in the journal, writes the old states back if 5 began, removes the
 * :new pins and the journal. Every opener (bpfkeys_open_pinned) runs
 * lbk_journal_recover() under the directory's lock before it reads anything:
 * with no journal, :new pins are leftovers of a flip killed before step 3
 * and are removed; with one, the flip is completed (forward: every link still
 * on the old program is updated, meta written, the :new pins renamed) or,
 * if the journal says back, a new non-updatable link never got its pin or
 * meta cannot be written, rolled back; entries of the pinned PROG_ARRAYs
 * move with the links. Each step checks before it acts, so a recovery killed in turn
 * is recovered by the next opener.
 *
 * Allocations are bk_x*(): every entry runs under lbk_core().
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"
#include "pin_layout.h"

/* lbk_pin_path(), or its :new pin: where a flip pins what it makes */
static char *pin_path(const char *dir, const char *sub, const char *name, bool new_pin)
{
	char *path = lbk_pin_path(dir, sub, name);
	size_t n = strlen(path);

	if (!new_pin)
		return path;
	path = bk_xrealloc(path, n + sizeof(":new"), 1);
	memcpy(path + n, ":new", sizeof(":new"));
	return path;
}

static bool link_is_atomic(uint32_t type)
{
	return type == BPF_LINK_TYPE_XDP || type == BPF_LINK_TYPE_CGROUP ||
	       type == BPFKEYS_LINK_TYPE_TCX || type == BPF_LINK_TYPE_NETNS;
}

static bool ends_with_new(const char *name)
{
	size_t n = strlen(name);

	return n > 4 && strcmp(name + n - 4, ":new") == 0;
}

int lbk_pin_dir_check(struct bpfkeys_object *obj)
{
	struct stat now, locked;

	if (stat(obj->pin_dir, &now) || fstat(obj->lock_fd, &locked) ||
	    now.st_dev != locked.st_dev || now.st_ino != locked.st_ino)
		return lbk_error(obj, ESTALE,
				 "%s: removed (and maybe pinned again) since it was opened: the "
				 "lock is on the old directory; open it again",
				 obj->pin_dir);
	return 0;
}

static int unlink_new_pin(struct bpfkeys_object *obj, const char *base)
{
	size_t n = strlen(base) + 5;
	char *path = bk_xcalloc(n, 1);
	int err = 0;

	snprintf(path, n, "%s:new", base);
	if (unlink(path) && errno != ENOENT)
		err = lbk_error(obj, errno, "unlink %s: %s", path, strerror(errno));
	free(path);
	return err;
}

static int rename_new_pin(struct bpfkeys_object *obj, const char *base)
{
	size_t n = strlen(base) + 5;
	char *path = bk_xcalloc(n, 1);
	int err = 0;

	snprintf(path, n, "%s:new", base);
	if (rename(path, base) && errno != ENOENT)
		err = lbk_error(obj, errno, "rename %s to %s: %s", path, base, strerror(errno));
	free(path);
	return err;
}

static int fill_error(struct bpfkeys_object *obj)
{
	return lbk_error(obj, errno, "cannot fill the flip journal: %s", strerror(errno));
}

/* steps 2 and 3 */
static int begin(struct bpfkeys_object *obj, struct lbk_journal_args *args)
{
	uint32_t programs = 0, keys = 0, slot = 1;
	struct journal_header header = { 0 };
	char *path;
	int journal = -1, err = lbk_pin_dir_check(obj);

	for (size_t p = 0; p < obj->program_count; p++)
		programs += args->affected[p];
	for (size_t k = 0; k < obj->bk.key_count; k++)
		keys += obj->bk.keys[k].is_static_key;
	for (size_t p = 0; p < obj->program_count && !err; p++) {
		const char *name = obj->programs[p].name;
		int fd;

		if (!args->affected[p])
			continue;
		fd = args->new_fd[p];
		path = pin_path(obj->pin_dir, "progs", name, true);
		unlink(path);
		if (bpf_obj_pin(fd, path))
			err = lbk_error(obj, errno, "pin %s: %s", path, strerror(errno));
		free(path);
	}
	if (!err) {
		journal = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfkeys_journal", 4, META_VALUE_SIZE,
					 1 + programs + keys, NULL);
		if (journal < 0)
			err = lbk_error(obj, errno, "cannot create the flip journal: %s",
					strerror(errno));
	}
	memcpy(header.magic, JOURNAL_MAGIC, sizeof(JOURNAL_MAGIC));
	header.direction = JOURNAL_FORWARD;
	header.program_count = programs;
	header.key_count = keys;
	if (!err && bpf_map_update_elem(journal, &(uint32_t){ 0 }, &header, BPF_ANY))
		err = fill_error(obj);
	for (size_t p = 0; p < obj->program_count && !err; p++) {
		const char *name = obj->programs[p].name;
		struct journal_program record = { 0 };

		if (!args->affected[p])
			continue;
		snprintf(record.name, sizeof(record.name), "%s", name);
		record.old_id = lbk_prog_id(bpfkeys_program_fd(obj, name));
		record.new_id = lbk_prog_id(args->new_fd[p]);
		if (bpf_map_update_elem(journal, &slot, &record, BPF_ANY))
			err = fill_error(obj);
		slot++;
	}
	for (size_t k = 0; k < obj->bk.key_count && !err; k++) {
		struct meta_key key = { 0 };

		if (!obj->bk.keys[k].is_static_key)
			continue;
		snprintf(key.name, sizeof(key.name), "%s", obj->bk.keys[k].name);
		key.on = args->new_on[k];
		key.reserved = obj->on[k];
		if (bpf_map_update_elem(journal, &slot, &key, BPF_ANY))
			err = fill_error(obj);
		slot++;
	}
	path = pin_path(obj->pin_dir, "journal", NULL, false);
	if (!err && bpf_obj_pin(journal, path))
		err = lbk_error(obj, errno, "pin %s: %s", path, strerror(errno));
	free(path);
	if (err && journal >= 0)
		close(journal);
	if (!err)
		args->journal_fd = journal; /* an undo marks it back without allocating */
	if (err)
		for (size_t p = 0; p < obj->program_count; p++)
			if (args->affected[p]) {
				path = pin_path(obj->pin_dir, "progs", obj->programs[p].name, true);
				unlink(path);
				free(path);
			}
	return err;
}

static int begin_core(struct bpfkeys_object *obj, void *arg)
{
	return begin(obj, arg);
}

int lbk_journal_begin(struct bpfkeys_object *obj, struct lbk_journal_args *args)
{
	args->journal_fd = -1;
	return lbk_core(obj, begin_core, args);
}

static int pin_new_link(struct bpfkeys_object *obj, void *arg)
{
	struct bpfkeys_link *link = arg;
	size_t n = strlen(link->pin_path) + 5;
	char *path = bk_xcalloc(n, 1);
	int err = 0;

	snprintf(path, n, "%s:new", link->pin_path);
	unlink(path);
	if (bpf_obj_pin(link->fd, path))
		err = lbk_error(obj, errno, "pin %s: %s", path, strerror(errno));
	free(path);
	return err;
}

int lbk_journal_pin_new_link(struct bpfkeys_object *obj, struct bpfkeys_link *link, int new_fd)
{
	int old_fd = link->fd, err;

	link->fd = new_fd;
	err = lbk_core(obj, pin_new_link, link);
	link->fd = old_fd;
	return err;
}

static int remove_journal(struct bpfkeys_object *obj, const char *dir)
{
	char *path = pin_path(dir, "journal", NULL, false);
	int err = 0;

	if (unlink(path) && errno != ENOENT)
		err = lbk_error(obj, errno, "unlink %s: %s", path, strerror(errno));
	free(path);
	return err;
}

/* step 6 and 7: failures are warnings, the flip has happened (its states are
 * in meta) and the next opener finishes the pins */
static int commit(struct bpfkeys_object *obj, void *arg)
{
	const bool *affected = arg;
	int err = 0;

	for (size_t p = 0; p < obj->program_count && !err; p++)
		if (affected[p]) {
			char *path = pin_path(obj->pin_dir, "progs", obj->programs[p].name, false);

			err = rename_new_pin(obj, path);
			free(path);
		}
	for (struct bpfkeys_link *l = obj->links; l && !err; l = l->next)
		if (l->kind == BPFKEYS_LINK_OVERLAP && affected[l->program] && l->pin_path)
			err = rename_new_pin(obj, l->pin_path);
	if (!err)
		err = remove_journal(obj, obj->pin_dir);
	if (err)
		lbk_print(obj, LIBBPFKEYS_WARN,
			  "libbpfkeys: %s: warning: the flip is done and recorded, but its "
			  "journal stays: the next opener completes the pins\n",
			  obj->pin_dir);
	return 0;
}

int lbk_journal_commit(struct bpfkeys_object *obj, const struct lbk_journal_args *args)
{
	close(args->journal_fd);
	return lbk_core(obj, commit, (void *)args->affected);
}

/* after the links were undone: what steps 2-5 left goes */
static int abort_flip(struct bpfkeys_object *obj, void *arg)
{
	const struct lbk_journal_args *args = arg;
	int err = 0;

	if (args->states_written)
		err = lbk_pin_write_states(obj, obj->on);
	for (size_t p = 0; p < obj->program_count && !err; p++)
		if (args->affected[p]) {
			char *path = pin_path(obj->pin_dir, "progs", obj->programs[p].name, false);

			err = unlink_new_pin(obj, path);
			free(path);
		}
	for (struct bpfkeys_link *l = obj->links; l && !err; l = l->next)
		if (l->kind == BPFKEYS_LINK_OVERLAP && args->affected[l->program] && l->pin_path)
			err = unlink_new_pin(obj, l->pin_path);
	if (!err)
		err = remove_journal(obj, obj->pin_dir);
	if (err)
		lbk_print(obj, LIBBPFKEYS_WARN,
			  "libbpfkeys: %s: warning: the failed flip's journal stays: the next "
			  "opener rolls it back\n",
			  obj->pin_dir);
	return 0;
}

void lbk_journal_abort(struct bpfkeys_object *obj, const struct lbk_journal_args *args)
{
	char saved[BPFKEYS_ERRMSG_SIZE];
	struct journal_header header;

	/* first, and with no allocation that could fail: the direction back, so
	 * that whatever happens next, the next opener does not complete the flip */
	if (bpf_map_lookup_elem(args->journal_fd, &(uint32_t){ 0 }, &header) == 0) {
		header.direction = JOURNAL_BACK;
		bpf_map_update_elem(args->journal_fd, &(uint32_t){ 0 }, &header, BPF_ANY);
	}
	close(args->journal_fd);

	/* the flip's error stays the object's error */
	memcpy(saved, obj->errmsg, sizeof(saved));
	lbk_core(obj, abort_flip, (void *)args);
	memcpy(obj->errmsg, saved, sizeof(saved));
}

/* Recovery, by an opener that holds the directory's lock. */

struct journal {
	struct journal_header header;
	struct journal_program *programs;
	struct meta_key *keys;
};

static int read_journal(struct bpfkeys_object *holder, int fd, const char *path, struct journal *j)
{
	struct bpf_map_info info;
	uint32_t len = sizeof(info), slot = 1;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    bpf_map_lookup_elem(fd, &(uint32_t){ 0 }, &j->header))
		return lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	if (info.type != BPF_MAP_TYPE_ARRAY || info.value_size != META_VALUE_SIZE ||
	    memcmp(j->header.magic, JOURNAL_MAGIC, sizeof(JOURNAL_MAGIC)) ||
	    (uint64_t)j->header.program_count + j->header.key_count + 1 != info.max_entries)
		return lbk_error(holder, EINVAL, "%s: not a libbpfkeys flip journal (%s expected)",
				 path, JOURNAL_MAGIC);
	j->programs = bk_xcalloc(j->header.program_count + 1, sizeof(*j->programs));
	j->keys = bk_xcalloc(j->header.key_count + 1, sizeof(*j->keys));
	for (uint32_t i = 0; i < j->header.program_count; i++, slot++)
		if (bpf_map_lookup_elem(fd, &slot, &j->programs[i]))
			return lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	for (uint32_t i = 0; i < j->header.key_count; i++, slot++)
		if (bpf_map_lookup_elem(fd, &slot, &j->keys[i]))
			return lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	for (uint32_t i = 0; i < j->header.program_count; i++)
		j->programs[i].name[PIN_NAME_MAX] = '\0';
	return 0;
}

static const struct journal_program *journal_program(const struct journal *j, const char *link)
{
	const char *colon = strrchr(link, ':');
	size_t n = colon ? (size_t)(colon - link) : strlen(link);

	for (uint32_t i = 0; i < j->header.program_count; i++)
		if (strlen(j->programs[i].name) == n && !strncmp(j->programs[i].name, link, n))
			return &j->programs[i];
	return NULL;
}

/* the links of the journal's programs: each moved forward (or back), or,
 * with check_only, whether forward is possible */
static int walk_links(struct bpfkeys_object *holder, const char *dir, const struct journal *j,
		      bool forward, bool check_only, bool *can_forward)
{
	char *links = pin_path(dir, "links", NULL, false);
	DIR *d = opendir(links);
	struct dirent *e;
	int err = 0;

	if (!d)
		err = lbk_error(holder, errno, "%s: %s", links, strerror(errno));
	while (!err && (e = readdir(d))) {
		const struct journal_program *p = journal_program(j, e->d_name);
		struct bpf_link_info info;
		uint32_t len = sizeof(info);
		char *pin, *new_pin;
		int fd, from = -1, to = -1;
		bool has_new;

		if (e->d_name[0] == '.' || ends_with_new(e->d_name) || !p)
			continue;
		pin = pin_path(links, e->d_name, NULL, false);
		new_pin = pin_path(links, e->d_name, NULL, true);
		has_new = access(new_pin, F_OK) == 0;
		fd = bpf_obj_get(pin);
		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len)) {
			err = lbk_error(holder, errno, "%s: %s", pin, strerror(errno));
		} else if (info.prog_id != p->old_id && info.prog_id != p->new_id) {
			err = lbk_error(holder, EINVAL,
					"%s: runs program id %u, neither the old (%u) nor the new "
					"(%u) version of '%s' the journal names",
					pin, info.prog_id, p->old_id, p->new_id, p->name);
		} else if (check_only) {
			if (!link_is_atomic(info.type) && !has_new && info.prog_id != p->new_id)
				*can_forward = false;
		} else if (!link_is_atomic(info.type)) {
			err = forward ? rename_new_pin(holder, pin) : unlink_new_pin(holder, pin);
		} else if (info.prog_id == (forward ? p->old_id : p->new_id)) {
			LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE);

			from = bpf_prog_get_fd_by_id(forward ? p->old_id : p->new_id);
			to = bpf_prog_get_fd_by_id(forward ? p->new_id : p->old_id);
			opts.old_prog_fd = from;
			if (from < 0 || to < 0 || bpf_link_update(fd, to, &opts))
				err = lbk_error(holder, errno,
						"%s: BPF_LINK_UPDATE to program id %u: %s", pin,
						forward ? p->new_id : p->old_id, strerror(errno));
		}
		if (from >= 0)
			close(from);
		if (to >= 0)
			close(to);
		if (fd >= 0)
			close(fd);
		free(pin);
		free(new_pin);
	}
	if (d)
		closedir(d);
	free(links);
	return err;
}

/* the entries of the pinned PROG_ARRAYs that hold a journal program's old
 * version moved to its new one (forward), or back: the flip moves them as
 * steps before its link updates, so a kill may leave some moved */
static int walk_prog_arrays(struct bpfkeys_object *holder, const char *dir, const struct journal *j,
			    bool forward)
{
	char *maps = pin_path(dir, "maps", NULL, false);
	DIR *d = opendir(maps);
	struct dirent *e;
	int err = 0;

	if (!d)
		err = lbk_error(holder, errno, "%s: %s", maps, strerror(errno));
	while (!err && (e = readdir(d))) {
		struct bpf_map_info info;
		uint32_t len = sizeof(info);
		char *pin;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		pin = pin_path(maps, e->d_name, NULL, false);
		fd = bpf_obj_get(pin);
		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			err = lbk_error(holder, errno, "%s: %s", pin, strerror(errno));
		for (uint32_t index = 0;
		     !err && info.type == BPF_MAP_TYPE_PROG_ARRAY && index < info.max_entries;
		     index++) {
			uint32_t id; /* a prog array reads back as program ids */

			if (bpf_map_lookup_elem(fd, &index, &id))
				continue; /* an empty entry */
			for (uint32_t i = 0; i < j->header.program_count && !err; i++) {
				uint32_t from =
					forward ? j->programs[i].old_id : j->programs[i].new_id;
				uint32_t to =
					forward ? j->programs[i].new_id : j->programs[i].old_id;
				int to_fd;

				if (id != from)
					continue;
				to_fd = bpf_prog_get_fd_by_id(to);
				if (to_fd < 0 || bpf_map_update_elem(fd, &index, &to_fd, BPF_ANY))
					err = lbk_error(holder, errno,
							"%s [%u]: cannot move the entry to program "
							"id %u: %s",
							pin, index, to, strerror(errno));
				if (to_fd >= 0)
					close(to_fd);
				break;
			}
		}
		if (fd >= 0)
			close(fd);
		free(pin);
	}
	if (d)
		closedir(d);
	free(maps);
	return err;
}

/* meta's key slots to the journal's new (forward) or old states, each
 * written only if it differs */
static int recover_states(struct bpfkeys_object *holder, const char *dir, const struct journal *j,
			  bool forward)
{
	char *path = pin_path(dir, "meta", NULL, false);
	int fd = bpf_obj_get(path), err = 0;

	if (fd < 0)
		err = lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	for (uint32_t i = 0; i < j->header.key_count && !err; i++) {
		struct meta_key want = j->keys[i], have;
		uint32_t slot = i + 1;

		want.on = forward ? j->keys[i].on : j->keys[i].reserved;
		want.reserved = 0;
		if (bpf_map_lookup_elem(fd, &slot, &have))
			err = lbk_error(holder, errno, "%s: %s", path, strerror(errno));
		else if (memcmp(&have, &want, sizeof(want)) &&
			 bpf_map_update_elem(fd, &slot, &want, BPF_ANY))
			err = lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	}
	if (fd >= 0)
		close(fd);
	free(path);
	return err;
}

/* :new pins with no journal: a flip killed before it pinned its journal */
static int remove_leftovers(struct bpfkeys_object *holder, const char *dir)
{
	int err = 0;

	for (const char *sub = "progs"; sub && !err; sub = strcmp(sub, "progs") ? NULL : "links") {
		char *path = pin_path(dir, sub, NULL, false);
		DIR *d = opendir(path);
		struct dirent *e;

		while (d && !err && (e = readdir(d)))
			if (ends_with_new(e->d_name)) {
				char *pin = pin_path(path, e->d_name, NULL, false);

				if (unlink(pin) && errno != ENOENT)
					err = lbk_error(holder, errno, "unlink %s: %s", pin,
							strerror(errno));
				free(pin);
			}
		if (d)
			closedir(d);
		free(path);
	}
	return err;
}

static int recover(struct bpfkeys_object *holder, const char *dir)
{
	char *path = pin_path(dir, "journal", NULL, false);
	struct journal j = { 0 };
	bool forward = true;
	int fd = bpf_obj_get(path), err = 0;

	if (fd < 0 && errno == ENOENT) {
		free(path);
		return remove_leftovers(holder, dir);
	}
	if (fd < 0)
		err = lbk_error(holder, errno, "%s: %s", path, strerror(errno));
	else
		err = read_journal(holder, fd, path, &j);
	if (fd >= 0)
		close(fd);
	if (!err) {
		forward = j.header.direction == JOURNAL_FORWARD;
		/* forward needs every new program: pinned at :new, or already renamed */
		for (uint32_t i = 0; i < j.header.program_count && forward; i++) {
			int prog = bpf_prog_get_fd_by_id(j.programs[i].new_id);

			forward = prog >= 0;
			if (prog >= 0)
				close(prog);
		}
		if (forward)
			err = walk_links(holder, dir, &j, true, true, &forward);
	}
	/* links, then meta, then the renames (the flip's order): until the
	 * renames, the old programs are still pinned, so a forward that cannot
	 * write meta can still go back */
	if (!err && forward) {
		err = walk_prog_arrays(holder, dir, &j, true);
		if (!err)
			err = walk_links(holder, dir, &j, true, false, NULL);
		if (!err)
			err = recover_states(holder, dir, &j, true);
		if (err) {
			lbk_print(holder, LIBBPFKEYS_WARN,
				  "libbpfkeys: %s: warning: cannot complete the interrupted flip "
				  "(%s): rolling it back\n",
				  dir, holder->errmsg);
			forward = false;
			err = 0;
		}
	}
	if (!err && !forward) {
		err = walk_prog_arrays(holder, dir, &j, false);
		if (!err)
			err = walk_links(holder, dir, &j, false, false, NULL);
		if (!err)
			err = recover_states(holder, dir, &j, false);
	}
	for (uint32_t i = 0; i < j.header.program_count && !err; i++) {
		char *prog = pin_path(dir, "progs", j.programs[i].name, false);

		err = forward ? rename_new_pin(holder, prog) : unlink_new_pin(holder, prog);
		free(prog);
	}
	if (!err)
		err = remove_journal(holder, dir);
	if (!err)
		err = remove_leftovers(holder, dir);
	if (!err)
		lbk_print(holder, LIBBPFKEYS_INFO,
			  "libbpfkeys: %s: an interrupted flip was %s (%s)\n", dir,
			  forward ? "completed" : "rolled back", path);
	else
		lbk_error(holder, err,
			  "%s: cannot recover the interrupted flip its journal records", dir);
	free(j.programs);
	free(j.keys);
	free(path);
	return err;
}

int lbk_journal_recover(struct bpfkeys_object *holder, const char *dir)
{
	return recover(holder, dir);
}
