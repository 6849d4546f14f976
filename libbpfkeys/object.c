// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, open and load: the raw object is read and analyzed once by
 * bpfkeys' core (the instances of `bpfkeys list`); each load, the initial one
 * and every flip's variant, lowers it in memory for a set of key states with
 * bk_lower() (the code of `bpfkeys lower`) and opens the bytes with libbpf.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

static int print_to_stderr(enum libbpfkeys_print_level level, const char *fmt, va_list ap,
			   void *ctx)
{
	(void)ctx;
	return level == LIBBPFKEYS_WARN ? vfprintf(stderr, fmt, ap) : 0;
}

static void vprint(const struct bpfkeys_object *obj, enum libbpfkeys_print_level level,
		   const char *fmt, va_list ap)
{
	if (obj->print)
		obj->print(level, fmt, ap, obj->print_ctx);
	else
		print_to_stderr(level, fmt, ap, NULL);
}

void lbk_print(const struct bpfkeys_object *obj, enum libbpfkeys_print_level level, const char *fmt,
	       ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint(obj, level, fmt, ap);
	va_end(ap);
}

int lbk_error(struct bpfkeys_object *obj, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(obj->errmsg, sizeof(obj->errmsg), fmt, ap);
	va_end(ap);
	lbk_print(obj, LIBBPFKEYS_WARN, "libbpfkeys: %s: error: %s\n", obj->path, obj->errmsg);
	err = err < 0 ? -err : err;
	errno = err;
	return -err;
}

void *lbk_calloc(struct bpfkeys_object *obj, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		lbk_error(obj, ENOMEM, "out of memory");
	return p;
}

char *lbk_strdup(struct bpfkeys_object *obj, const char *s)
{
	char *p = strdup(s);

	if (!p)
		lbk_error(obj, ENOMEM, "out of memory");
	return p;
}

/* elfobj's and the core's messages, "libbpfkeys: FILE: KIND: [section 'S': ]MSG" */
static void report_core_message(void *ctx, const char *file, const char *section, const char *kind,
				const char *fmt, va_list ap)
{
	const struct bpfkeys_object *obj = ctx;
	char msg[BPFKEYS_ERRMSG_SIZE];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	lbk_print(obj, LIBBPFKEYS_WARN, "libbpfkeys: %s%s%s: %s%s%s%s\n", file ? file : "",
		  file ? ": " : "", kind, section ? "section '" : "", section ? section : "",
		  section ? "': " : "", msg);
}

/* fn(obj, arg) with the core's allocations recorded in allocations (if not
 * NULL: bk_transient), which the caller ends */
static int core_call(struct bpfkeys_object *obj, int (*fn)(struct bpfkeys_object *obj, void *arg),
		     void *arg, struct bk_transient *allocations)
{
	const struct elfobj_reporter reporter = { report_core_message, obj };
	const struct elfobj_reporter *outer_reporter = elfobj_reporter;
	struct bk_transient *outer_transient = bk_transient;
	jmp_buf bail, *outer_bail = bk_bail_target;
	int err;

	elfobj_reporter = &reporter;
	if (allocations)
		bk_transient = allocations;
	switch (setjmp(bail)) {
	case 0:
		bk_bail_target = &bail;
		err = fn(obj, arg);
		break;
	case ENOMEM: /* the core's allocation failed, unsaid */
		err = lbk_error(obj, ENOMEM, "out of memory in bpfkeys' core");
		break;
	default: /* a table past 4 GiB, reported */
		err = -E2BIG;
		break;
	}
	bk_bail_target = outer_bail;
	elfobj_reporter = outer_reporter;
	bk_transient = outer_transient;
	return err;
}

int lbk_core(struct bpfkeys_object *obj, int (*fn)(struct bpfkeys_object *obj, void *arg),
	     void *arg)
{
	return core_call(obj, fn, arg, NULL);
}

int lbk_core_transient(struct bpfkeys_object *obj, int (*fn)(struct bpfkeys_object *obj, void *arg),
		       void *arg)
{
	struct bk_transient allocations = { NULL, 0, 0, 0, NULL };
	int err = core_call(obj, fn, arg, &allocations);

	/* out of memory: what the call had allocated is lost to it */
	bk_transient_end(&allocations, err == -ENOMEM);
	return err;
}

unsigned int libbpfkeys_major_version(void)
{
	return LIBBPFKEYS_MAJOR_VERSION;
}

unsigned int libbpfkeys_minor_version(void)
{
	return LIBBPFKEYS_MINOR_VERSION;
}

const char *libbpfkeys_version_string(void)
{
	return LIBBPFKEYS_VERSION_STRING;
}

const char *bpfkeys_errmsg(const struct bpfkeys_object *obj)
{
	return obj->errmsg;
}

const char *bpfkeys_verifier_log(const struct bpfkeys_object *obj)
{
	return obj->verifier_log;
}

ssize_t lbk_program_index(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->program_count; i++)
		if (strcmp(obj->programs[i].name, name) == 0)
			return (ssize_t)i;
	return -1;
}

static ssize_t static_key_index(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t k = bk_key_by_name(&obj->bk, name);

	return k >= 0 && obj->bk.keys[k].is_static_key ? k : -1;
}

/* "dir/prog.o" -> "prog", as libbpf names an object opened from a file */
static char *default_name(struct bpfkeys_object *obj)
{
	const char *base = strrchr(obj->path, '/');
	char *name = lbk_strdup(obj, base ? base + 1 : obj->path);
	char *dot = name ? strrchr(name, '.') : NULL;

	if (dot && dot != name)
		*dot = '\0';
	return name;
}

/* Options of a size the library knows the start of, the rest zero (libbpf's
 * rule): a field this library does not have cannot be set. */
static bool opts_valid(const void *opts, size_t known_size)
{
	size_t sz = opts ? *(const size_t *)opts : 0;

	if (!opts)
		return true;
	if (sz < sizeof(size_t))
		return false;
	for (size_t i = known_size; i < sz; i++)
		if (((const char *)opts)[i])
			return false;
	return true;
}

#define OPT LBK_OPT

struct bpfkeys_object *lbk_new_object(const char *path, const struct bpfkeys_open_opts *opts)
{
	struct bpfkeys_object *obj = calloc(1, sizeof(*obj));

	if (!obj) {
		errno = ENOMEM;
		return NULL;
	}
	obj->lock_fd = -1;
	obj->print = OPT(opts, print, NULL);
	obj->print_ctx = OPT(opts, print_ctx, NULL);
	obj->prepare_flips = OPT(opts, prepare_flips, false);
	obj->path = strdup(path);
	if (!obj->path) {
		free(obj);
		errno = ENOMEM;
		return NULL;
	}
	if (!opts_valid(opts, sizeof(*opts))) {
		/* said through the callback if the caller's struct has one */
		size_t sz = *(const size_t *)opts;

		if (sz < sizeof(size_t))
			lbk_error(obj, EINVAL, "struct bpfkeys_open_opts: sz %zu is too small", sz);
		else
			lbk_error(obj, EINVAL,
				  "struct bpfkeys_open_opts: sz %zu, with fields set past the %zu "
				  "bytes this library knows",
				  sz, sizeof(*opts));
		bpfkeys_close(obj);
		errno = EINVAL;
		return NULL;
	}
	return obj;
}

static int analyze(struct bpfkeys_object *obj, void *arg)
{
	(void)arg;
	/* resolved (.bpfkeys, no .static_keys): the same model, from its site table */
	if (obj->bk.instances_section && !obj->bk.static_keys_section
		    ? bk_analyze_resolved(&obj->bk)
		    : bk_analyze(&obj->bk))
		return obj->bk.out_of_memory ? -ENOMEM : -EINVAL;
	return 0;
}

static int refuse_references(struct bpfkeys_object *obj, void *arg)
{
	(void)arg;
	return bk_refuse_references_on_stock(&obj->bk) ? -EOPNOTSUPP : 0;
}

/*
 * The open's calls into the core (read, analysis) record their allocations
 * in `allocations`: on success they are the object's; on failure, what the
 * object holds is freed with the recording on (bk_free() forgets it), and the
 * rest, which a bail-out left unreachable, after it.
 */
static struct bpfkeys_object *open_common(struct bpfkeys_object *obj, int read_err,
					  const struct bpfkeys_open_opts *opts,
					  struct bk_transient *allocations)
{
	struct bk_transient *outer = bk_transient;

	const char *object_name = OPT(opts, object_name, NULL);
	int err;

	if (read_err == -ENOMEM) { /* said by lbk_core */
		err = -ENOMEM;
		goto fail;
	}
	if (read_err) {
		err = lbk_error(obj, EINVAL, "cannot read the object (see above)");
		goto fail;
	}
	err = core_call(obj, analyze, NULL, allocations);
	if (err) {
		if (err != -ENOMEM)
			err = lbk_error(obj, err, "static keys do not resolve (see above)");
		goto fail;
	}
	err = core_call(obj, refuse_references, NULL, allocations);
	if (err) {
		if (err != -ENOMEM)
			err = lbk_error(
				obj, err,
				"programs flip static keys from BPF (see above): that needs "
				"the patched kernel");
		goto fail;
	}
	err = -ENOMEM;
	obj->keep_verifier_log = OPT(opts, keep_verifier_log, false);
	obj->name = object_name ? lbk_strdup(obj, object_name) : default_name(obj);
	obj->on = lbk_calloc(obj, obj->bk.key_count, sizeof(bool));
	if (!obj->name || !obj->on)
		goto fail;
	for (size_t k = 0; k < obj->bk.key_count; k++)
		obj->on[k] = obj->bk.keys[k].map_extra & BPF_F_STATIC_KEY_ON;
	for (size_t f = 0; f < obj->bk.function_count; f++)
		if (obj->bk.functions[f].is_program)
			obj->program_count++;
	obj->programs = lbk_calloc(obj, obj->program_count, sizeof(*obj->programs));
	if (!obj->programs) {
		obj->program_count = 0;
		goto fail;
	}
	for (size_t f = 0, p = 0; f < obj->bk.function_count; f++)
		if (obj->bk.functions[f].is_program) {
			obj->programs[p].pinned_fd = -1;
			obj->programs[p].autoload = true;
			obj->programs[p].name = lbk_strdup(obj, obj->bk.functions[f].name);
			if (!obj->programs[p++].name)
				goto fail;
		}
	bk_transient_end(allocations, false);
	return obj;
fail:
	bk_transient = allocations;
	bpfkeys_close(obj);
	bk_transient = outer;
	bk_transient_end(allocations, true);
	errno = -err;
	return NULL;
}

struct read_args {
	const void *buf; /* NULL: read obj->path */
	size_t size;
};

/* The core's reader. libbpf's print function is the caller's and stays so:
 * what libbpf says of the BTF it parses goes where the caller has it go. */
static int read_object(struct bpfkeys_object *obj, void *arg)
{
	const struct read_args *in = arg;

	return in->buf ? bk_object_read_memory(&obj->bk, obj->path, in->buf, in->size)
		       : bk_object_read(&obj->bk, obj->path);
}

struct bpfkeys_object *bpfkeys_open_file(const char *path, const struct bpfkeys_open_opts *opts)
{
	struct read_args in = { NULL, 0 };
	struct bk_transient allocations = { NULL, 0, 0, 0, NULL };
	struct bpfkeys_object *obj = lbk_new_object(path, opts);

	if (!obj)
		return NULL;
	if (access(path, R_OK)) { /* say ENOENT or EACCES, not only "cannot read" */
		int err = lbk_error(obj, errno, "cannot open: %s", strerror(errno));

		bpfkeys_close(obj);
		errno = -err;
		return NULL;
	}
	return open_common(obj, core_call(obj, read_object, &in, &allocations), opts, &allocations);
}

struct bpfkeys_object *bpfkeys_open_mem(const void *buf, size_t size, const char *name,
					const struct bpfkeys_open_opts *opts)
{
	struct read_args in = { buf, size };
	struct bk_transient allocations = { NULL, 0, 0, 0, NULL };
	struct bpfkeys_object *obj = lbk_new_object(name ? name : "<memory>", opts);

	if (!obj)
		return NULL;
	return open_common(obj, core_call(obj, read_object, &in, &allocations), opts, &allocations);
}

int bpfkeys_set_autoload(struct bpfkeys_object *obj, const char *program, bool autoload)
{
	ssize_t p = lbk_program_index(obj, program);

	if (p < 0)
		return lbk_error(obj, ENOENT, "no program named '%s'", program);
	if (obj->loaded)
		return lbk_error(obj, EBUSY, "program '%s': autoload is set before load", program);
	obj->programs[p].autoload = autoload;
	return 0;
}

size_t bpfkeys_key_count(const struct bpfkeys_object *obj)
{
	size_t n = 0;

	for (size_t k = 0; k < obj->bk.key_count; k++)
		n += obj->bk.keys[k].is_static_key;
	return n;
}

const char *bpfkeys_key_name(const struct bpfkeys_object *obj, size_t index)
{
	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (obj->bk.keys[k].is_static_key && index-- == 0)
			return obj->bk.keys[k].name;
	errno = ENOENT;
	return NULL;
}

int bpfkeys_key_state(const struct bpfkeys_object *obj, const char *key)
{
	ssize_t k = static_key_index(obj, key);

	return k < 0 ? -ENOENT : obj->on[k];
}

int bpfkeys_program_uses_key(const struct bpfkeys_object *obj, const char *program, const char *key)
{
	ssize_t k = static_key_index(obj, key);

	if (k < 0 || lbk_program_index(obj, program) < 0)
		return -ENOENT;
	/* an instance of the key in the program: what a flip replaces (flip.c) */
	for (size_t i = 0; i < obj->bk.instance_count; i++)
		if (obj->bk.instances[i].key == (uint32_t)k &&
		    !strcmp(obj->bk.functions[obj->bk.instances[i].program].name, program))
			return 1;
	return 0;
}

/* Lower for on[] into a memfd (bk_lower writes through an fd) and read it back. */
struct lower_args {
	struct bk_setting *settings;
	size_t count;
	int fd;
};

static int lower(struct bpfkeys_object *obj, void *arg)
{
	struct lower_args *in = arg;

	return bk_lower(&obj->bk, in->settings, in->count, NULL, in->fd) ? -EINVAL : 0;
}

static int lower_image(struct bpfkeys_object *obj, const bool *on, int fd)
{
	struct lower_args in = { lbk_calloc(obj, obj->bk.key_count, sizeof(*in.settings)), 0, fd };
	int err;

	if (!in.settings)
		return -ENOMEM;
	for (size_t k = 0; k < obj->bk.key_count; k++)
		if (obj->bk.keys[k].is_static_key) {
			in.settings[in.count].key = obj->bk.keys[k].name;
			in.settings[in.count++].on = on[k];
		}
	err = lbk_core_transient(obj, lower, &in);
	free(in.settings);
	if (err && err != -ENOMEM)
		err = lbk_error(obj, err, "cannot lower the object (see above)");
	return err;
}

int bpfkeys_write_lowered(struct bpfkeys_object *obj, int fd)
{
	return lower_image(obj, obj->on, fd);
}

int lbk_open_variant(struct bpfkeys_object *obj, const bool *on, struct bpfkeys_loaded **out)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts, .object_name = obj->name);
	struct bpfkeys_loaded *variant;
	int fd = memfd_create("bpfkeys-lowered", MFD_CLOEXEC);
	off_t size;
	int err;

	*out = NULL;
	if (fd < 0)
		return lbk_error(obj, errno, "memfd_create: %s", strerror(errno));
	err = lower_image(obj, on, fd);
	if (err) {
		close(fd);
		return err;
	}
	variant = lbk_calloc(obj, 1, sizeof(*variant));
	if (!variant) {
		close(fd);
		return -ENOMEM;
	}
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0) {
		err = lbk_error(obj, EIO, "the lowered object is empty");
		goto fail;
	}
	variant->image = lbk_calloc(obj, (size_t)size, 1);
	if (!variant->image) {
		err = -ENOMEM;
		goto fail;
	}
	if (pread(fd, variant->image, (size_t)size, 0) != size) {
		err = lbk_error(obj, EIO, "cannot read the lowered object back: %s",
				strerror(errno));
		goto fail;
	}
	/* a variant for a flip: libbpf must not write into the live maps */
	if (obj->loaded) {
		err = lbk_drop_map_initialisers(obj, variant->image, (size_t)size);
		if (err)
			goto fail;
	}
	variant->bpf = bpf_object__open_mem(variant->image, (size_t)size, &open_opts);
	if (!variant->bpf) {
		err = lbk_error(obj, errno, "libbpf cannot open the lowered object: %s",
				strerror(errno));
		goto fail;
	}
	close(fd);
	*out = variant;
	return 0;
fail:
	close(fd);
	free(variant->image);
	free(variant);
	return err;
}

void lbk_loaded_put(struct bpfkeys_loaded *loaded)
{
	if (!loaded || --loaded->refs)
		return;
	bpf_object__close(loaded->bpf);
	free(loaded->image);
	free(loaded);
}

static const struct bpfkeys_map *find_map(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_count; i++)
		if (strcmp(obj->maps[i].name, name) == 0)
			return &obj->maps[i];
	return NULL;
}

int lbk_load_variant(struct bpfkeys_object *obj, struct bpfkeys_loaded *variant,
		     const bool *load_program)
{
	struct bpf_program *prog;
	struct bpf_map *map;
	char **logs = lbk_calloc(obj, obj->program_count, sizeof(char *));
	const char *failed = NULL;
	int err = -ENOMEM;

	if (!logs)
		return -ENOMEM;
	/* every map of a variant is the one already loaded: counters survive */
	bpf_object__for_each_map(map, variant->bpf)
	{
		const struct bpfkeys_map *m;

		if (!obj->loaded)
			break;
		m = find_map(obj, bpf_map__name(map));
		if (!m) {
			err = lbk_error(obj, EINVAL,
					"map '%s' of the variant is not in the loaded object",
					bpf_map__name(map));
			goto out;
		}
		err = bpf_map__reuse_fd(map, m->fd);
		if (err) {
			err = lbk_error(obj, err, "map '%s': cannot reuse its fd: %s", m->name,
					strerror(-err));
			goto out;
		}
	}
	/* one log buffer per program: libbpf fills the failing one's only */
	bpf_object__for_each_program(prog, variant->bpf)
	{
		ssize_t p = lbk_program_index(obj, bpf_program__name(prog));
		bool load = p >= 0 && load_program[p];

		bpf_program__set_autoload(prog, load);
		if (!load)
			continue;
		logs[p] = malloc(BPFKEYS_LOG_SIZE);
		if (!logs[p]) {
			err = lbk_error(obj, ENOMEM, "out of memory");
			goto out;
		}
		logs[p][0] = '\0';
		bpf_program__set_log_buf(prog, logs[p], BPFKEYS_LOG_SIZE);
	}
	/* last before the load: a kernel attach target holds libbpf's vmlinux
	 * BTF, which only bpf_object__load() frees */
	err = lbk_settings_apply(obj, variant);
	if (err)
		goto out;
	err = bpf_object__load(variant->bpf);
	if (!err)
		goto out;
	for (size_t p = 0; p < obj->program_count && !failed; p++)
		if (logs[p] && logs[p][0]) {
			failed = obj->programs[p].name;
			free(obj->verifier_log);
			/* without memory for it, the log is lost but the error is said */
			obj->verifier_log = obj->keep_verifier_log ? strdup(logs[p]) : NULL;
		}
	if (failed)
		err = lbk_error(obj, err, "program '%s' does not load: %s (%s)", failed,
				strerror(-err),
				obj->keep_verifier_log
					? "verifier log: bpfkeys_verifier_log()"
					: "open with keep_verifier_log for the verifier's log");
	else
		err = lbk_error(obj, err, "cannot load the object: %s", strerror(-err));
out:
	for (size_t p = 0; p < obj->program_count; p++)
		free(logs[p]);
	free(logs);
	return err;
}

int bpfkeys_load(struct bpfkeys_object *obj)
{
	struct bpfkeys_loaded *loaded;
	bool *load = lbk_calloc(obj, obj->program_count, sizeof(bool));
	struct bpf_map *map;
	int err;

	if (!load)
		return -ENOMEM;
	if (obj->loaded) {
		free(load);
		return lbk_error(obj, EBUSY, "already loaded");
	}
	for (size_t p = 0; p < obj->program_count; p++)
		load[p] = obj->programs[p].autoload;
	err = lbk_open_variant(obj, obj->on, &loaded);
	if (err)
		goto out;
	err = lbk_load_variant(obj, loaded, load);
	if (err) {
		loaded->refs = 1;
		lbk_loaded_put(loaded);
		goto out;
	}
	bpf_object__for_each_map(map, loaded->bpf) obj->map_count++;
	obj->maps = lbk_calloc(obj, obj->map_count, sizeof(*obj->maps));
	obj->map_count = 0;
	if (!obj->maps) {
		loaded->refs = 1;
		lbk_loaded_put(loaded);
		err = -ENOMEM;
		goto out;
	}
	bpf_object__for_each_map(map, loaded->bpf)
	{
		struct bpfkeys_map *m = &obj->maps[obj->map_count];

		m->fd = fcntl(bpf_map__fd(map), F_DUPFD_CLOEXEC, 3);
		if (m->fd < 0) {
			err = lbk_error(obj, errno, "map '%s': dup: %s", bpf_map__name(map),
					strerror(errno));
			break;
		}
		m->name = lbk_strdup(obj, bpf_map__name(map));
		if (!m->name) {
			close(m->fd);
			err = -ENOMEM;
			break;
		}
		obj->map_count++;
	}
	for (size_t p = 0; p < obj->program_count; p++)
		if (load[p]) {
			obj->programs[p].loaded = loaded;
			loaded->refs++;
		}
	if (!loaded->refs) { /* no program at all: keep the maps only */
		loaded->refs = 1;
		lbk_loaded_put(loaded);
	}
	obj->loaded = !err;
	if (obj->loaded) {
		size_t programs = 0;

		for (size_t p = 0; p < obj->program_count; p++)
			programs += load[p];
		lbk_print(obj, LIBBPFKEYS_INFO,
			  "libbpfkeys: %s: loaded %zu program(s), %zu map(s)\n", obj->path,
			  programs, obj->map_count);
		lbk_prepared_after_load(obj);
	}
out:
	free(load);
	return err;
}

struct bpf_program *bpfkeys_program(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t p = lbk_program_index(obj, name);

	if (p < 0 || !obj->programs[p].loaded) {
		/* opened from a pin: there is an fd (bpfkeys_program_fd), no libbpf program */
		errno = p < 0 ? ENOENT : obj->programs[p].pinned_fd >= 0 ? EOPNOTSUPP : EINVAL;
		return NULL;
	}
	return bpf_object__find_program_by_name(obj->programs[p].loaded->bpf, name);
}

size_t bpfkeys_program_count(const struct bpfkeys_object *obj)
{
	return obj->program_count;
}

const char *bpfkeys_program_name(const struct bpfkeys_object *obj, size_t index)
{
	if (index >= obj->program_count) {
		errno = ENOENT;
		return NULL;
	}
	return obj->programs[index].name;
}

bool lbk_program_loaded(const struct bpfkeys_object *obj, size_t program)
{
	return obj->programs[program].loaded || obj->programs[program].pinned_fd >= 0;
}

int bpfkeys_program_fd(const struct bpfkeys_object *obj, const char *name)
{
	ssize_t p = lbk_program_index(obj, name);
	struct bpf_program *prog;

	if (p >= 0 && !obj->programs[p].loaded && obj->programs[p].pinned_fd >= 0)
		return obj->programs[p].pinned_fd;
	prog = bpfkeys_program(obj, name);
	return prog ? bpf_program__fd(prog) : -errno;
}

int bpfkeys_map_fd(const struct bpfkeys_object *obj, const char *name)
{
	for (size_t i = 0; i < obj->map_count; i++) {
		const char *n = obj->maps[i].name;
		size_t nl = strlen(n), l = strlen(name);

		/* ".bss" names the global-data map "<object>.bss" */
		if (strcmp(n, name) == 0 ||
		    (name[0] == '.' && nl > l && strcmp(n + nl - l, name) == 0))
			return obj->maps[i].fd;
	}
	return -ENOENT;
}

void bpfkeys_close(struct bpfkeys_object *obj)
{
	if (!obj)
		return;
	/* our references only: what is pinned stays */
	while (obj->links)
		lbk_link_release(obj->links);
	lbk_prepared_free_all(obj);
	for (size_t p = 0; p < obj->program_count; p++) {
		lbk_loaded_put(obj->programs[p].loaded);
		if (obj->programs[p].pinned_fd >= 0)
			close(obj->programs[p].pinned_fd);
		free(obj->programs[p].name);
	}
	for (size_t i = 0; i < obj->map_count; i++) {
		close(obj->maps[i].fd);
		free(obj->maps[i].name);
	}
	lbk_settings_free(obj);
	free(obj->programs);
	free(obj->maps);
	free(obj->on);
	free(obj->verifier_log);
	free(obj->name);
	free(obj->path);
	free(obj->pin_dir);
	if (obj->lock_fd >= 0)
		close(obj->lock_fd);
	bk_object_free(&obj->bk);
	free(obj);
}
