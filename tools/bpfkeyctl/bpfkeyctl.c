// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfkeyctl: load an object resolved by `bpfkeys resolve`, pin its programs
 * and static key instances, run the programs and flip keys by name.
 *
 * Pinned layout (PINDIR on a BPF file system):
 *   PINDIR/progs/PROG        each loaded program
 *   PINDIR/keys/KEY/PROG     the instance of KEY bound to PROG (a
 *                            BPF_MAP_TYPE_INSN_ARRAY map with BPF_F_STATIC_KEY);
 *                            the kernel reports its current state in the
 *                            map_extra of its map info (BPF_F_STATIC_KEY_ON)
 *   PINDIR/state             ARRAY map: the state of each key (by its index in
 *                            the sorted key list) as last set by bpfkeyctl, for
 *                            the keys no program uses (no map to ask)
 *
 * Statically linked against the patched libbpf (scripts/build-kernel.sh),
 * so that it runs in the qemu initramfs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bpfsk_version.h"
#include "json_string.h"

#ifndef BPF_FS_MAGIC
#define BPF_FS_MAGIC 0xcafe4a11
#endif

static const char *prog_name = "bpfkeyctl";
static bool verbose;
/* load --log-level: verifier log level asked for every program */
static unsigned int load_log_level;
/* what libbpf said while loading: did the kernel give a verifier log, and
 * which program failed
 */
static bool saw_load_log;
static char failed_prog[128];

static void usage(FILE *f)
{
	fprintf(f, "Usage: bpfkeyctl load [--kernel patched|stock] [--set KEY=on|off]... "
		   "[--log-level N]\n"
		   "                      OBJ PINDIR\n"
		   "       bpfkeyctl run PINNED_PROG [--repeat N] [--size BYTES]\n"
		   "       bpfkeyctl set PINDIR KEY=on|off...\n"
		   "       bpfkeyctl list [--json] PINDIR\n"
		   "       bpfkeyctl jited PINNED_PROG\n"
		   "       bpfkeyctl --help | --version\n"
		   "\n"
		   "Loads objects post-processed by `bpfkeys resolve` and flips their static\n"
		   "keys (docs/abi.md): on the patched kernel with the series' libbpf (text\n"
		   "poke), on a stock kernel with libbpfkeys (program replacement; load also\n"
		   "takes bpfkeyctl-stock's --xdp, --cgroup and --netns there).\n"
		   "\n"
		   "  load   load OBJ (one instance per key and program that uses it), pin\n"
		   "         (--kernel: that kernel's path, not the probe's choice)\n"
		   "         programs at PINDIR/progs/PROG and key instances at\n"
		   "         PINDIR/keys/KEY/PROG; --set overrides a key's initial state\n"
		   "         (each KEY at most once);\n"
		   "         the verifier log of a program that fails to load is printed;\n"
		   "         --log-level N (1, 2, 4 = stats, or a sum) asks the verifier for\n"
		   "         the log of every program and prints it\n"
		   "  run    BPF_PROG_TEST_RUN a pinned program on a zeroed packet of --size\n"
		   "         bytes (default 64), --repeat times (default 1); prints retval\n"
		   "         and the kernel's mean duration per run\n"
		   "  set    set every instance of each KEY on or off, all or nothing, and\n"
		   "         say how: on the patched kernel one text-poke batch (two when\n"
		   "         some keys go on and others off); on stock-kernel pins\n"
		   "         (bpfkeyctl-stock load) program replacement, one flip\n"
		   "  list   programs, keys, their instances and states; --json: one\n"
		   "         object per program and per key (state, instances)\n"
		   "  jited  hex dump of a pinned program's JIT image\n"
		   "\n"
		   "  -v, --verbose   libbpf debug output\n"
		   "  -V, --version   show the version and exit\n");
}

static int fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

/* A command-line error: as fail(), with exit status 2. */
__attribute__((format(printf, 1, 2))) static int usage_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: error: ", prog_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* remembers the name in "prog 'NAME': BPF program load failed: ..." */
static void note_failed_prog(const char *fmt, va_list ap)
{
	char msg[512];
	const char *p, *q;
	va_list aq;

	va_copy(aq, ap);
	vsnprintf(msg, sizeof(msg), fmt, aq);
	va_end(aq);
	p = strstr(msg, "prog '");
	if (!p)
		return;
	p += 6;
	q = strchr(p, '\'');
	if (q && (size_t)(q - p) < sizeof(failed_prog))
		snprintf(failed_prog, sizeof(failed_prog), "%.*s", (int)(q - p), p);
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	/*
	 * libbpf prints the verifier log of a failed load at LIBBPF_WARN (it
	 * asks for one when the first attempt fails), and that of a successful
	 * load at LIBBPF_DEBUG when a log level was asked for.
	 */
	if (strstr(fmt, "-- BEGIN PROG LOAD LOG --")) {
		saw_load_log = true;
		if (load_log_level)
			level = LIBBPF_INFO;
	}
	if (strstr(fmt, "BPF program load failed"))
		note_failed_prog(fmt, ap);
	if (level == LIBBPF_DEBUG && !verbose)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

static const char *errstr(int err)
{
	static char buf[128];

	libbpf_strerror(err < 0 ? err : -err, buf, sizeof(buf));
	return buf;
}

static int parse_state(const char *s, bool *on)
{
	if (!strcmp(s, "on") || !strcmp(s, "1") || !strcmp(s, "true"))
		*on = true;
	else if (!strcmp(s, "off") || !strcmp(s, "0") || !strcmp(s, "false"))
		*on = false;
	else
		return -1;
	return 0;
}

static int check_bpffs(const char *path)
{
	struct statfs st;

	if (statfs(path, &st))
		return fail("%s: %s", path, strerror(errno));
	if ((unsigned long)st.f_type != BPF_FS_MAGIC)
		return fail("%s: not on a BPF file system (mount -t bpf bpf /sys/fs/bpf)", path);
	return 0;
}

static int mkdir_p(const char *path)
{
	if (mkdir(path, 0700) && errno != EEXIST)
		return fail("mkdir %s: %s", path, strerror(errno));
	return 0;
}

/*
 * "on"/"off" for key number idx: the kernel's word, the map_extra of the
 * key's instances in directory @dir (all set together, so they agree; "mixed"
 * if they do not), or, for a key without instances, PINDIR/state; "?" if
 * neither can be read.
 */
static const char *key_state(const char *dir, int state_fd, int idx)
{
	int n, i, on = 0, off = 0;
	struct dirent **inst;
	__u32 k = idx, v;

	n = scandir(dir, &inst, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (inst[i]->d_name[0] != '.') {
			struct bpf_map_info info = {};
			__u32 len = sizeof(info);
			char path[3 * PATH_MAX + 256];
			int fd;

			snprintf(path, sizeof(path), "%s/%s", dir, inst[i]->d_name);
			fd = bpf_obj_get(path);
			if (fd >= 0 && !bpf_map_get_info_by_fd(fd, &info, &len)) {
				if (info.map_extra & BPF_F_STATIC_KEY_ON)
					on++;
				else
					off++;
			}
			if (fd >= 0)
				close(fd);
		}
		free(inst[i]);
	}
	if (n >= 0)
		free(inst);
	if (on || off)
		return on && off ? "mixed" : on ? "on" : "off";
	if (state_fd < 0 || bpf_map_lookup_elem(state_fd, &k, &v))
		return "?";
	return v ? "on" : "off";
}

/*
 * After a failed load: libbpf has printed the verifier log if the kernel
 * wrote one. When it wrote none, the program was refused before the
 * verifier ran: say so, and what to look at.
 */
static void explain_load_failure(struct bpf_object *obj, const char *obj_path, int err)
{
	struct bpf_program *prog;
	const char *sec = NULL;

	if (saw_load_log) {
		fprintf(stderr, "%s: %s: prog '%s' rejected by the verifier (log above)\n",
			prog_name, obj_path, failed_prog[0] ? failed_prog : "?");
		return;
	}
	if (!failed_prog[0])
		return; /* failed before any program load: libbpf said why */
	bpf_object__for_each_program(prog, obj) if (!strcmp(bpf_program__name(prog), failed_prog))
		sec = bpf_program__section_name(prog);
	fprintf(stderr,
		"%s: %s: prog '%s' (SEC(\"%s\")): the kernel gave no verifier log: it refused "
		"the program before verification (%s)%s\n",
		prog_name, obj_path, failed_prog, sec ? sec : "?", errstr(err),
		err == -EINVAL ? "; is the program type or attach target supported by this kernel? "
				 "(kprobe, tracepoint and tracing programs need CONFIG_BPF_EVENTS; "
				 "fentry/fexit also CONFIG_DYNAMIC_FTRACE_WITH_DIRECT_CALLS)"
			       : "");
}

static int cmd_load(int argc, char **argv)
{
	LIBBPF_OPTS(bpf_object_open_opts, open_opts);
	char path[PATH_MAX], *sets[64];
	int nsets = 0, i, k, err, state_fd;
	struct bpf_program *prog;
	struct bpf_object *obj;
	const char *obj_path, *pindir;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--set") && i + 1 < argc && nsets < 64) {
			sets[nsets++] = argv[++i];
		} else if (!strncmp(argv[i], "--set=", 6) && nsets < 64) {
			sets[nsets++] = argv[i] + 6;
		} else if (!strcmp(argv[i], "--log-level") && i + 1 < argc) {
			char *end;
			unsigned long l = strtoul(argv[++i], &end, 0);

			if (*end || !l || l > 7)
				return usage_fail("--log-level %s: expected 1 to 7", argv[i]);
			load_log_level = l;
		} else {
			break;
		}
	}
	if (argc - i != 2) {
		usage(stderr);
		return 2;
	}
	/* as bpfkeys lower: a key set twice is a mistake, not "the last one wins" */
	for (k = 0; k < nsets; k++) {
		size_t len = strcspn(sets[k], "=");

		for (int j = 0; j < k; j++)
			if (strcspn(sets[j], "=") == len && !strncmp(sets[j], sets[k], len)) {
				fail("--set: key '%.*s' set twice (%s, then %s)", (int)len, sets[k],
				     sets[j] + len + (sets[j][len] == '='),
				     sets[k] + len + (sets[k][len] == '='));
				return 2;
			}
	}
	for (k = 0; k < nsets; k++) { /* a malformed --set is a usage error, before any open */
		const char *eq = strchr(sets[k], '=');
		bool on;

		if (!eq || eq == sets[k] || parse_state(eq + 1, &on))
			return usage_fail("--set %s: expected KEY=on|off", sets[k]);
	}
	obj_path = argv[i];
	pindir = argv[i + 1];

	open_opts.kernel_log_level = load_log_level;
	obj = bpf_object__open_file(obj_path, &open_opts);
	if (!obj)
		return fail("%s: cannot open: %s", obj_path, errstr(errno));
	for (i = 0; i < nsets; i++) {
		char *eq = strchr(sets[i], '=');
		bool on;

		if (!eq || parse_state(eq + 1, &on)) {
			bpf_object__close(obj);
			return fail("--set %s: expected KEY=on|off", sets[i]);
		}
		*eq = '\0';
		err = bpf_object__set_static_key(obj, sets[i], on);
		if (err) {
			bpf_object__close(obj);
			return fail("%s: --set %s: %s", obj_path, sets[i],
				    err == -ENOENT ? "no such static key" : strerror(-err));
		}
	}
	saw_load_log = false;
	failed_prog[0] = '\0';
	err = bpf_object__load(obj);
	if (err) {
		fail("%s: cannot load: %s", obj_path, errstr(err));
		explain_load_failure(obj, obj_path, err);
		bpf_object__close(obj);
		return 1;
	}

	if (mkdir_p(pindir) || check_bpffs(pindir))
		goto err_out;
	snprintf(path, sizeof(path), "%s/progs", pindir);
	if (mkdir_p(path))
		goto err_out;
	bpf_object__for_each_program(prog, obj)
	{
		if (bpf_program__fd(prog) < 0)
			continue;
		snprintf(path, sizeof(path), "%s/progs/%s", pindir, bpf_program__name(prog));
		err = bpf_program__pin(prog, path);
		if (err) {
			fail("pin %s: %s", path, strerror(-err));
			goto err_out;
		}
		printf("program %s: %s\n", bpf_program__name(prog), path);
	}

	/* the state map: one u32 per key, in the object's (sorted) key order */
	{
		LIBBPF_OPTS(bpf_map_create_opts, opts);
		int nkeys = bpf_object__static_key_cnt(obj);

		state_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfkeyctl_state", 4, 4,
					  nkeys ? nkeys : 1, &opts);
		if (state_fd < 0) {
			fail("cannot create the state map: %s", strerror(errno));
			goto err_out;
		}
		snprintf(path, sizeof(path), "%s/state", pindir);
		unlink(path);
		if (bpf_obj_pin(state_fd, path)) {
			fail("pin %s: %s", path, strerror(errno));
			goto err_out;
		}
	}
	snprintf(path, sizeof(path), "%s/keys", pindir);
	if (mkdir_p(path))
		goto err_out;
	for (k = 0; k < bpf_object__static_key_cnt(obj); k++) {
		const char *key = bpf_object__static_key_name(obj, k);
		__u32 idx = k, st = 0;
		int n = 0;

		snprintf(path, sizeof(path), "%s/keys/%s", pindir, key);
		if (mkdir_p(path))
			goto err_out;
		bpf_object__for_each_program(prog, obj)
		{
			int fd = bpf_program__static_key_fd(prog, key);

			if (fd < 0)
				continue;
			st = bpf_program__static_key_state(prog, key) == 1;
			snprintf(path, sizeof(path), "%s/keys/%s/%s", pindir, key,
				 bpf_program__name(prog));
			if (bpf_obj_pin(fd, path)) {
				fail("pin %s: %s", path, strerror(errno));
				goto err_out;
			}
			n++;
		}
		if (bpf_map_update_elem(state_fd, &idx, &st, BPF_ANY)) {
			fail("state map: %s", strerror(errno));
			goto err_out;
		}
		printf("key %s: %s, %d instance(s)\n", key, n ? (st ? "on" : "off") : "unused", n);
	}
	bpf_object__close(obj);
	return 0;

err_out:
	bpf_object__close(obj);
	return 1;
}

/*
 * BPF_OBJ_GET_INFO_BY_FD answers for maps and links too, so the fd's type
 * comes from its fdinfo: only programs have a prog_type line.
 */
static bool fd_is_prog(int fd)
{
	char path[64], line[256];
	bool is_prog = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "prog_type:", 10))
			is_prog = true;
	fclose(f);
	return is_prog;
}

static int open_pinned_prog(const char *path)
{
	int fd;

	fd = bpf_obj_get(path);
	if (fd < 0) {
		fail("%s: %s", path, errno == ENOENT ? "no such pinned program" : strerror(errno));
		return -1;
	}
	if (!fd_is_prog(fd)) {
		fail("%s: not a BPF program", path);
		close(fd);
		return -1;
	}
	return fd;
}

static int cmd_run(int argc, char **argv)
{
	unsigned long repeat = 1, size = 64;
	unsigned char *pkt;
	const char *path = NULL;
	int i, fd, err;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
			repeat = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--size") && i + 1 < argc)
			size = strtoul(argv[++i], NULL, 0);
		else if (!path && argv[i][0] != '-')
			path = argv[i];
		else {
			usage(stderr);
			return 2;
		}
	}
	if (!path || !repeat || repeat > UINT32_MAX || size < 14 || size > 65536) {
		usage(stderr);
		return 2;
	}
	fd = open_pinned_prog(path);
	if (fd < 0)
		return 1;
	pkt = calloc(1, size);
	if (!pkt)
		return fail("out of memory");
	{
		LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = size,
			    .repeat = repeat);

		err = bpf_prog_test_run_opts(fd, &opts);
		if (err) {
			free(pkt);
			close(fd);
			return fail("%s: BPF_PROG_TEST_RUN: %s", path, strerror(errno));
		}
		printf("retval %u", opts.retval);
		if (repeat > 1)
			printf(" (%lu runs, %u ns/run)", repeat, opts.duration);
		printf("\n");
	}
	free(pkt);
	close(fd);
	return 0;
}

static int key_index(const char *pindir, const char *key)
{
	char path[PATH_MAX];
	struct dirent **names;
	int n, i, idx = -1, found = -1;

	snprintf(path, sizeof(path), "%s/keys", pindir);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			idx++;
			if (!strcmp(names[i]->d_name, key))
				found = idx;
		}
		free(names[i]);
	}
	free(names);
	return found;
}

static int check_pindir(const char *pindir)
{
	char path[PATH_MAX];
	struct stat st;

	if (stat(pindir, &st))
		return fail("%s: %s", pindir, strerror(errno));
	snprintf(path, sizeof(path), "%s/keys", pindir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode))
		return fail("%s: no object loaded here (bpfkeyctl load OBJ %s)", pindir, pindir);
	return 0;
}

/* One KEY=on|off word of set, split in place; the instances of the key. */
struct key_setting {
	const char *key;
	bool on;
	int idx; /* in the sorted key list: PINDIR/state */
	int first_fd, fd_count; /* its instances in the fds of cmd_set */
};

/*
 * set's KEY=on|off words, as load --set's: each key at most once. The old
 * two-word form (KEY on) is refused with the new spelling: one syntax for
 * key states in every tool, and a script written for it fails loudly
 * instead of flipping a key named "on".
 */
static int parse_settings(int argc, char **argv, struct key_setting *settings)
{
	for (int i = 0; i < argc; i++) {
		char *value = strchr(argv[i], '=');
		bool on;

		if (!value && i + 1 < argc && !parse_state(argv[i + 1], &on))
			return usage_fail("set %s %s: write %s=%s (KEY=on|off)", argv[i],
					  argv[i + 1], argv[i], argv[i + 1]);
		if (!value || value == argv[i] || parse_state(value + 1, &on))
			return usage_fail("set %s: expected KEY=on|off", argv[i]);
		for (int j = 0; j < i; j++)
			if (strlen(settings[j].key) == (size_t)(value - argv[i]) &&
			    !strncmp(settings[j].key, argv[i], (size_t)(value - argv[i])))
				return usage_fail("set: key '%s' set twice (%s, then %s)",
						  settings[j].key, settings[j].on ? "on" : "off",
						  value + 1);
		*value = '\0';
		settings[i].key = argv[i];
		settings[i].on = on;
	}
	return 0;
}

/* BPF_STATIC_KEY_UPDATE of the instances fds[i] with want[i] == on, if any */
static int update_group(const int *fds, const bool *want, int nfds, bool on, int *group)
{
	int n = 0;

	for (int i = 0; i < nfds; i++)
		if (want[i] == on)
			group[n++] = fds[i];
	if (!n)
		return 0;
	return bpf_static_keys_update(group, n, on, NULL) ? -errno : 1;
}

/*
 * The kernel sets several keys in one call when they go to the same state:
 * keys set on and keys set off are two calls (two batches). If the second
 * fails, the instances the first changed go back, so that a set is all or
 * nothing either way.
 */
static int flip_instances(const int *fds, const bool *want, const bool *was, int nfds, int *batches)
{
	int *group = calloc(nfds ?: 1, sizeof(*group)), err, first, n = 0;
	bool *undo = NULL;

	if (!group)
		return -ENOMEM;
	*batches = 0;
	first = update_group(fds, want, nfds, true, group);
	if (first < 0) {
		free(group);
		return first;
	}
	*batches += first;
	err = update_group(fds, want, nfds, false, group);
	if (err >= 0) {
		*batches += err;
		free(group);
		return 0;
	}
	if (first) {
		undo = calloc(nfds, sizeof(*undo));
		for (int i = 0; undo && i < nfds; i++) {
			/* false: turned on by the first call, back off now */
			undo[i] = !(want[i] && !was[i]);
			n += !undo[i];
		}
		if (!undo || (n && update_group(fds, undo, nfds, false, group) < 0))
			fprintf(stderr, "%s: error: could not undo the keys set on: %s\n",
				prog_name, undo ? strerror(errno) : "out of memory");
	}
	free(undo);
	free(group);
	return err;
}

/* room for n instances in cmd_set's arrays; on failure they stay as they were */
static int grow_instances(int n, int **fds, bool **want, bool **was,
			  char (**instance)[NAME_MAX + 1])
{
	void *p;

	p = realloc(*fds, n * sizeof(**fds));
	if (!p)
		return -1;
	*fds = p;
	p = realloc(*want, n * sizeof(**want));
	if (!p)
		return -1;
	*want = p;
	p = realloc(*was, n * sizeof(**was));
	if (!p)
		return -1;
	*was = p;
	p = realloc(*instance, n * sizeof(**instance));
	if (!p)
		return -1;
	*instance = p;
	return 0;
}

static int cmd_set(int argc, char **argv)
{
	char path[PATH_MAX], ipath[PATH_MAX + 256];
	struct key_setting *settings = NULL;
	char (*instance)[NAME_MAX + 1] = NULL; /* [fd]: its program */
	const char *pindir;
	int i, s, nsettings, nfds = 0, maxfds = 0, *fds = NULL, state_fd, err = 0, batches = 0;
	unsigned long sites = 0;
	bool *want = NULL, *was = NULL;

	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	pindir = argv[0];
	nsettings = argc - 1;
	settings = calloc(nsettings, sizeof(*settings));
	if (!settings)
		return fail("out of memory");
	err = parse_settings(nsettings, argv + 1, settings);
	if (err)
		goto out;
	if (check_pindir(pindir)) {
		err = 1;
		goto out;
	}
	for (s = 0; s < nsettings; s++) { /* every key known before anything changes */
		settings[s].idx = key_index(pindir, settings[s].key);
		if (settings[s].idx < 0 || strchr(settings[s].key, '/')) {
			err = fail("%s: unknown key '%s' (bpfkeyctl list %s)", pindir,
				   settings[s].key, pindir);
			goto out;
		}
	}

	/* every instance of every key: all set together, or none */
	for (s = 0; s < nsettings && !err; s++) {
		struct dirent **names;
		int n;

		snprintf(path, sizeof(path), "%s/keys/%s", pindir, settings[s].key);
		n = scandir(path, &names, NULL, alphasort);
		if (n < 0) {
			err = fail("%s: %s", path, strerror(errno));
			break;
		}
		settings[s].first_fd = nfds;
		if (nfds + n > maxfds && grow_instances(nfds + n, &fds, &want, &was, &instance)) {
			err = fail("out of memory");
			for (i = 0; i < n; i++)
				free(names[i]);
			free(names);
			break;
		}
		maxfds = nfds + n > maxfds ? nfds + n : maxfds;
		for (i = 0; i < n; i++) {
			if (!err && names[i]->d_name[0] != '.') {
				snprintf(ipath, sizeof(ipath), "%s/%s", path, names[i]->d_name);
				fds[nfds] = bpf_obj_get(ipath);
				if (fds[nfds] < 0) {
					err = fail("%s: %s", ipath, strerror(errno));
				} else {
					/* an instance's entries are its sites: the jumps poked */
					struct bpf_map_info info = {};
					__u32 len = sizeof(info);

					if (!bpf_map_get_info_by_fd(fds[nfds], &info, &len))
						sites += info.max_entries;
					was[nfds] = info.map_extra & BPF_F_STATIC_KEY_ON;
					want[nfds] = settings[s].on;
					snprintf(instance[nfds], sizeof(instance[nfds]), "%s",
						 names[i]->d_name);
					nfds++;
				}
			}
			free(names[i]);
		}
		free(names);
		settings[s].fd_count = nfds - settings[s].first_fd;
	}
	if (!err && nfds) {
		int e = flip_instances(fds, want, was, nfds, &batches);

		if (e < 0)
			err = fail("%s: cannot set the keys: %s%s", pindir, strerror(-e),
				   e == -EINVAL ? " (not all of them static keys bound to loaded "
						  "programs)"
						: "");
	}
	if (err)
		goto out;
	for (s = 0; s < nsettings; s++) {
		for (i = settings[s].first_fd; i < settings[s].first_fd + settings[s].fd_count; i++)
			printf("%s/%s: %s\n", settings[s].key, instance[i],
			       settings[s].on ? "on" : "off");
		if (!settings[s].fd_count)
			printf("%s: unused key, no instance\n", settings[s].key);
	}
	if (nfds) {
		int programs = 0;

		for (i = 0; i < nfds; i++) { /* programs: distinct instance names */
			int j = 0;

			while (j < i && strcmp(instance[j], instance[i]))
				j++;
			programs += j == i;
		}
		/* as bpfkeyctl-stock's "(stock kernel: program replacement, ...)" */
		for (s = 0; s < nsettings; s++)
			printf("%s%s: %s", s ? ", " : "", settings[s].key,
			       settings[s].on ? "on" : "off");
		printf(" (patched kernel: text poke, %lu site(s) in %d program(s), %s)\n", sites,
		       programs, batches > 1 ? "two batches" : "one batch");
	}

	snprintf(path, sizeof(path), "%s/state", pindir);
	state_fd = bpf_obj_get(path);
	if (state_fd >= 0) {
		for (s = 0; s < nsettings; s++) {
			__u32 k = settings[s].idx, v = settings[s].on;

			bpf_map_update_elem(state_fd, &k, &v, BPF_ANY);
		}
		close(state_fd);
	}
out:
	for (i = 0; i < nfds; i++)
		close(fds[i]);
	free(fds);
	free(want);
	free(was);
	free(instance);
	free(settings);
	return err;
}

/*
 * list --json: what list prints, as one object: "programs" (name, id,
 * jited_bytes, maps) and "keys", one object per key with its state and its
 * instances (program, map_id, sites).
 */
static void list_json(const char *pindir)
{
	char path[PATH_MAX], ipath[2 * PATH_MAX], mpath[3 * PATH_MAX];
	struct dirent **names, **inst;
	int n, m, i, j, idx = 0, state_fd;
	bool first = true;

	printf("{\"kernel\":\"patched\",\"programs\":[");
	snprintf(path, sizeof(path), "%s/progs", pindir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			struct bpf_prog_info info = {};
			__u32 len = sizeof(info);
			int fd;

			snprintf(ipath, sizeof(ipath), "%s/%s", path, names[i]->d_name);
			fd = bpf_obj_get(ipath);
			printf("%s{\"name\":", first ? "" : ",");
			json_string(names[i]->d_name);
			if (fd >= 0 && !bpf_prog_get_info_by_fd(fd, &info, &len))
				printf(",\"id\":%u,\"jited_bytes\":%u,\"maps\":%u}", info.id,
				       info.jited_prog_len, info.nr_map_ids);
			else
				printf(",\"id\":null}");
			if (fd >= 0)
				close(fd);
			first = false;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);

	printf("],\"keys\":[");
	first = true;
	snprintf(path, sizeof(path), "%s/state", pindir);
	state_fd = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/keys", pindir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		bool first_instance = true;

		if (names[i]->d_name[0] == '.') {
			free(names[i]);
			continue;
		}
		snprintf(ipath, sizeof(ipath), "%s/%s", path, names[i]->d_name);
		printf("%s{\"name\":", first ? "" : ",");
		json_string(names[i]->d_name);
		printf(",\"state\":\"%s\",\"instances\":[", key_state(ipath, state_fd, idx++));
		first = false;
		m = scandir(ipath, &inst, NULL, alphasort);
		for (j = 0; j < m; j++) {
			if (inst[j]->d_name[0] != '.') {
				struct bpf_map_info info = {};
				__u32 len = sizeof(info);
				int fd;

				snprintf(mpath, sizeof(mpath), "%s/%s", ipath, inst[j]->d_name);
				fd = bpf_obj_get(mpath);
				printf("%s{\"program\":", first_instance ? "" : ",");
				json_string(inst[j]->d_name);
				if (fd >= 0 && !bpf_map_get_info_by_fd(fd, &info, &len))
					printf(",\"map_id\":%u,\"sites\":%u}", info.id,
					       info.max_entries);
				else
					printf(",\"map_id\":null}");
				if (fd >= 0)
					close(fd);
				first_instance = false;
			}
			free(inst[j]);
		}
		if (m >= 0)
			free(inst);
		printf("]}");
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (state_fd >= 0)
		close(state_fd);
	printf("]}\n");
}

static int cmd_list(int argc, char **argv)
{
	char path[PATH_MAX], ipath[2 * PATH_MAX];
	struct dirent **names, **inst;
	const char *pindir = NULL;
	int n, m, i, j, idx = 0, state_fd;
	bool json = false;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_fail("list: unknown option '%s'", argv[i]);
		} else if (pindir) {
			usage(stderr);
			return 2;
		} else {
			pindir = argv[i];
		}
	}
	if (!pindir) {
		usage(stderr);
		return 2;
	}
	if (check_pindir(pindir))
		return 1;
	if (json) {
		list_json(pindir);
		return 0;
	}

	snprintf(path, sizeof(path), "%s/progs", pindir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			struct bpf_prog_info info = {};
			__u32 len = sizeof(info);
			int fd;

			snprintf(ipath, sizeof(ipath), "%s/%s", path, names[i]->d_name);
			fd = bpf_obj_get(ipath);
			if (fd >= 0 && !bpf_prog_get_info_by_fd(fd, &info, &len))
				printf("program %s: id %u, %u bytes jited, %u maps\n",
				       names[i]->d_name, info.id, info.jited_prog_len,
				       info.nr_map_ids);
			else
				printf("program %s: ?\n", names[i]->d_name);
			if (fd >= 0)
				close(fd);
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);

	snprintf(path, sizeof(path), "%s/state", pindir);
	state_fd = bpf_obj_get(path);
	snprintf(path, sizeof(path), "%s/keys", pindir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] == '.')
			goto next_key;
		snprintf(ipath, sizeof(ipath), "%s/%s", path, names[i]->d_name);
		m = scandir(ipath, &inst, NULL, alphasort);
		printf("key %s: %s\n", names[i]->d_name, key_state(ipath, state_fd, idx++));
		for (j = 0; j < m; j++) {
			if (inst[j]->d_name[0] != '.') {
				struct bpf_map_info info = {};
				__u32 len = sizeof(info);
				char mpath[3 * PATH_MAX];
				int fd;

				snprintf(mpath, sizeof(mpath), "%s/%s", ipath, inst[j]->d_name);
				fd = bpf_obj_get(mpath);
				if (fd >= 0 && !bpf_map_get_info_by_fd(fd, &info, &len))
					printf("  instance %s/%s: map id %u, %u site(s)\n",
					       names[i]->d_name, inst[j]->d_name, info.id,
					       info.max_entries);
				if (fd >= 0)
					close(fd);
			}
			free(inst[j]);
		}
		if (m >= 0)
			free(inst);
next_key:
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (state_fd >= 0)
		close(state_fd);
	return 0;
}

static int cmd_jited(int argc, char **argv)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info), i;
	unsigned char *buf;
	int fd;

	if (argc != 1) {
		usage(stderr);
		return 2;
	}
	fd = open_pinned_prog(argv[0]);
	if (fd < 0)
		return 1;
	if (bpf_prog_get_info_by_fd(fd, &info, &len))
		return fail("%s: %s", argv[0], strerror(errno));
	buf = calloc(1, info.jited_prog_len + 1);
	if (!buf)
		return fail("out of memory");
	{
		__u32 jlen = info.jited_prog_len;

		memset(&info, 0, sizeof(info));
		info.jited_prog_len = jlen;
		info.jited_prog_insns = (__u64)(unsigned long)buf;
		len = sizeof(info);
		if (bpf_prog_get_info_by_fd(fd, &info, &len))
			return fail("%s: %s", argv[0], strerror(errno));
		for (i = 0; i < jlen; i++)
			printf("%s%02x%s", i % 16 ? "" : "  ", buf[i],
			       i % 16 == 15 || i + 1 == jlen ? "\n" : " ");
		if (!jlen)
			printf("  (no JIT image: kernel.kptr_restrict or bpf_jit_harden?)\n");
	}
	free(buf);
	close(fd);
	return 0;
}

/*
 * PINDIR holds libbpfkeys pins (a stock kernel: `bpfkeyctl-stock load`):
 * `set` and `list` are then bpfkeyctl-stock's, installed next to this
 * binary (build/bin), which flips by program replacement and says so.
 */
static bool stock_pins(const char *pindir)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/meta", pindir);
	return access(path, F_OK) == 0;
}

/* set PINDIR ..., list [--json] PINDIR: the first word not an option */
static const char *first_operand(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		if (argv[i][0] != '-')
			return argv[i];
	return NULL;
}

/*
 * The stock kernel's path, linked in (stock.c on libbpfkeys): bpfkeyctl-stock's
 * commands run in this process, so one bpfkeyctl serves both kernels.
 */
int bpfkeyctl_stock_main(int argc, char **argv);
extern const char *bpfkeyctl_stock_name;

static int run_stock(const char *cmd, int argc, char **argv)
{
	char **args = calloc(argc + 3, sizeof(char *));
	int rc;

	if (!args)
		return fail("out of memory");
	args[0] = (char *)prog_name;
	args[1] = (char *)cmd;
	memcpy(args + 2, argv, argc * sizeof(char *));
	bpfkeyctl_stock_name = prog_name;
	rc = bpfkeyctl_stock_main(argc + 2, args);
	free(args);
	return rc;
}

/*
 * Whether the running kernel has the series' static keys: it creates a key
 * (an INSN_ARRAY map with BPF_F_STATIC_KEY in map_extra), which a stock
 * kernel refuses (no map type 34 before 6.19, map_extra must be 0 after).
 */
static bool kernel_has_static_keys(void)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_extra = BPF_F_STATIC_KEY);
	int fd = bpf_map_create(BPF_MAP_TYPE_INSN_ARRAY, "bpfkeyctl_probe", sizeof(__u32),
				sizeof(struct bpf_insn_array_value), 1, &opts);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/*
 * load: the patched kernel's path (the series' libbpf, key instances) if the
 * kernel has static keys, else the stock kernel's (libbpfkeys lowers the same
 * object in memory). --kernel patched|stock, first, chooses instead of the
 * probe (to see what the series' libbpf says of an object on any kernel).
 */
static int load_for_kernel(int argc, char **argv)
{
	bool patched;

	if (argc >= 2 && !strcmp(argv[0], "--kernel")) {
		if (strcmp(argv[1], "patched") && strcmp(argv[1], "stock"))
			return usage_fail("--kernel %s: expected patched or stock", argv[1]);
		patched = !strcmp(argv[1], "patched");
		argc -= 2;
		argv += 2;
	} else {
		patched = kernel_has_static_keys();
	}
	return patched ? cmd_load(argc, argv) : run_stock("load", argc, argv);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	const char *cmd;
	int c;

	opterr = 0; /* its errors are reported in the tools' form */
	while ((c = getopt_long(argc, argv, "+hvV", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			usage(stdout);
			return 0;
		case 'v':
			verbose = true;
			break;
		case 'V':
			/* libbpf_version_string() is the patched libbpf linked in */
			printf("bpfkeyctl %s (libbpf %s)\n", BPFSK_VERSION,
			       libbpf_version_string());
			return 0;
		default: /* '?': no option here takes an argument */
			if (optopt && strncmp(argv[optind - 1], "--", 2) != 0)
				usage_fail("unknown option '-%c'", optopt);
			else if (optopt)
				usage_fail("option '%.*s' takes no argument",
					   (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
			else
				usage_fail("unknown or ambiguous option '%.*s'",
					   (int)strcspn(argv[optind - 1], "="), argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return 2;
	}
	libbpf_set_print(libbpf_print);
	setvbuf(stdout, NULL, _IOLBF, 0);
	cmd = argv[optind++];
	argc -= optind;
	argv += optind;
	if (!strcmp(cmd, "load"))
		return load_for_kernel(argc, argv);
	if (!strcmp(cmd, "run"))
		return cmd_run(argc, argv);
	if ((!strcmp(cmd, "set") || !strcmp(cmd, "list")) && first_operand(argc, argv) &&
	    stock_pins(first_operand(argc, argv)))
		return run_stock(cmd, argc, argv);
	if (!strcmp(cmd, "set"))
		return cmd_set(argc, argv);
	if (!strcmp(cmd, "list"))
		return cmd_list(argc, argv);
	if (!strcmp(cmd, "jited"))
		return cmd_jited(argc, argv);
	fail("unknown command '%s'", cmd);
	usage(stderr);
	return 2;
}
