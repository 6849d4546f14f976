// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * Test helper: opens a (linked) BPF object with the system libbpf, sets
 * global variables, loads it into the running kernel, then either runs its
 * XDP programs with BPF_PROG_TEST_RUN or attaches everything and triggers a
 * syscall, and prints the object's global variables. This is what the
 * kernel's prog_tests/linked_*.c do through skeletons, made generic.
 *
 *   bpf-test-runner OBJ [--set VAR=N|tid]... [--run-xdp] [--attach-trigger]
 *
 * Exit status: 0 on success, 1 when the object fails to open, load, run or
 * attach, 2 on a command-line error (checked before the object is opened).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

static int print_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

/* The internal map (.bss, .data, .rodata, ...) that backs DATASEC `sec_name`. */
static struct bpf_map *internal_map(struct bpf_object *obj, const char *sec_name)
{
	struct bpf_map *map;
	size_t len = strlen(sec_name);

	bpf_object__for_each_map(map, obj)
	{
		const char *name = bpf_map__name(map);
		size_t n = strlen(name);

		if (bpf_map__is_internal(map) && n >= len && strcmp(name + n - len, sec_name) == 0)
			return map;
	}
	return NULL;
}

typedef int (*var_fn)(struct bpf_object *obj, const char *sec, const char *name, void *addr,
		      unsigned size, void *ctx);

static int for_each_global(struct bpf_object *obj, bool loaded, var_fn fn, void *ctx)
{
	const struct btf *btf = bpf_object__btf(obj);
	unsigned id, n = btf ? btf__type_cnt(btf) : 0;

	for (id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const struct btf_var_secinfo *v;
		const char *sec;
		struct bpf_map *map;
		size_t map_size;
		char *data;
		int i, err = 0;

		if (!btf_is_datasec(t))
			continue;
		sec = btf__name_by_offset(btf, t->name_off);
		map = internal_map(obj, sec);
		if (!map || strcmp(sec, ".kconfig") == 0)
			continue;
		if (loaded) {
			/* after load, read what the kernel's map holds now */
			int zero = 0;

			map_size = bpf_map__value_size(map);
			data = calloc(1, map_size);
			if (!data ||
			    bpf_map__lookup_elem(map, &zero, sizeof(zero), data, map_size, 0)) {
				free(data);
				continue;
			}
		} else {
			data = (char *)bpf_map__initial_value(map, &map_size);
			if (!data)
				continue;
		}
		for (i = 0, v = btf_var_secinfos(t); i < btf_vlen(t); i++, v++) {
			const struct btf_type *vt = btf__type_by_id(btf, v->type);

			if (!btf_is_var(vt) || v->offset + v->size > map_size)
				continue;
			err = fn(obj, sec, btf__name_by_offset(btf, vt->name_off), data + v->offset,
				 v->size, ctx);
			if (err)
				break;
		}
		if (loaded)
			free(data);
		if (err)
			return err;
	}
	return 0;
}

struct assignment {
	const char *name;
	long long value;
	bool found;
};

static int set_var(struct bpf_object *obj, const char *sec, const char *name, void *addr,
		   unsigned size, void *ctx)
{
	struct assignment *a = ctx;

	(void)obj;
	(void)sec;
	if (strcmp(name, a->name) || size > 8)
		return 0;
	memcpy(addr, &a->value, size); /* little endian */
	a->found = true;
	return 0;
}

static int print_var(struct bpf_object *obj, const char *sec, const char *name, void *addr,
		     unsigned size, void *ctx)
{
	long long value = 0;

	(void)obj;
	(void)ctx;
	if (size != 1 && size != 2 && size != 4 && size != 8)
		return 0;
	memcpy(&value, addr, size);
	if (size < 8 && (value >> (size * 8 - 1)) & 1)
		value -= 1LL << (size * 8);
	printf("%s %s = %lld\n", sec, name, value);
	return 0;
}

#define USAGE "Usage: bpf-test-runner OBJ [--set VAR=N|tid]... [--run-xdp] [--attach-trigger]\n"

static void usage(FILE *f)
{
	fputs(USAGE, f);
	if (f == stderr) {
		fputs("Try 'bpf-test-runner --help' for more information.\n", f);
		return;
	}
	fputs("\n"
	      "Opens OBJ with the system libbpf, sets global variables, loads it, and\n"
	      "prints its global variables as the kernel holds them afterwards.\n"
	      "\n"
	      "  --set VAR=N|tid    before load, set global VAR to N (strtoll, base 0)\n"
	      "                     or to the caller's thread id\n"
	      "  --run-xdp          run each XDP program once on a 64-byte zero packet\n"
	      "                     (BPF_PROG_TEST_RUN) and print \"run PROG = RETVAL\"\n"
	      "  --attach-trigger   attach every program, then call getpgid()\n"
	      "  -h, --help         this help\n"
	      "\n"
	      "Exit status: 0 on success, 1 when OBJ fails to open, load, run or\n"
	      "attach, 2 on a command-line error.\n",
	      f);
}

/* A command-line error: the message and the short usage on stderr; exit status 2. */
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("bpf-test-runner: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	usage(stderr);
	return 2;
}

/* main's work; sets has room for argc assignments */
static int run(int argc, char **argv, struct assignment *sets)
{
	bool run_xdp = false, attach_trigger = false;
	const char *path = NULL;
	struct bpf_program *prog;
	struct bpf_object *obj;
	int i, err, set_count = 0;

	/* The whole command line first: a usage error opens no file. */
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return 0;
		} else if (strcmp(argv[i], "--run-xdp") == 0) {
			run_xdp = true;
		} else if (strcmp(argv[i], "--attach-trigger") == 0) {
			attach_trigger = true;
		} else if (strcmp(argv[i], "--set") == 0) {
			char *eq;

			if (i + 1 == argc)
				return usage_error("--set needs VAR=N or VAR=tid");
			eq = strchr(argv[++i], '=');
			if (!eq || eq == argv[i])
				return usage_error("--set '%s': expected VAR=N or VAR=tid",
						   argv[i]);
			*eq = 0;
			sets[set_count].name = argv[i];
			sets[set_count++].value = strcmp(eq + 1, "tid") == 0
							  ? syscall(SYS_gettid)
							  : strtoll(eq + 1, NULL, 0);
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("unknown option '%s'", argv[i]);
		} else if (path) {
			return usage_error("unexpected argument '%s' (one object only)", argv[i]);
		} else {
			path = argv[i];
		}
	}
	if (!path)
		return usage_error("no object file");
	libbpf_set_print(print_libbpf);
	obj = bpf_object__open_file(path, NULL);
	if (!obj) {
		fprintf(stderr, "open %s: %s\n", path, strerror(errno));
		return 1;
	}
	bpf_object__for_each_program(prog, obj) bpf_program__set_autoload(prog, true);
	for (i = 0; i < set_count; i++) {
		for_each_global(obj, false, set_var, &sets[i]);
		if (!sets[i].found) {
			fprintf(stderr, "no global variable '%s'\n", sets[i].name);
			return 1;
		}
	}
	err = bpf_object__load(obj);
	if (err) {
		fprintf(stderr, "load %s: %s\n", path, strerror(-err));
		return 1;
	}
	printf("loaded\n");
	if (run_xdp) {
		bpf_object__for_each_program(prog, obj)
		{
			char packet[64] = { 0 };
			LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = packet,
				    .data_size_in = sizeof(packet), .repeat = 1);

			if (bpf_program__type(prog) != BPF_PROG_TYPE_XDP)
				continue;
			err = bpf_prog_test_run_opts(bpf_program__fd(prog), &opts);
			if (err) {
				fprintf(stderr, "test run %s: %s\n", bpf_program__name(prog),
					strerror(errno));
				return 1;
			}
			printf("run %s = %u\n", bpf_program__name(prog), opts.retval);
		}
	}
	if (attach_trigger) {
		struct bpf_link *links[64];
		int link_count = 0;

		bpf_object__for_each_program(prog, obj)
		{
			if (link_count == 64)
				break;
			links[link_count] = bpf_program__attach(prog);
			if (!links[link_count]) {
				fprintf(stderr, "attach %s: %s\n", bpf_program__name(prog),
					strerror(errno));
				return 1;
			}
			link_count++;
		}
		syscall(SYS_getpgid);
		usleep(1);
		while (link_count)
			bpf_link__destroy(links[--link_count]);
	}
	for_each_global(obj, true, print_var, NULL);
	bpf_object__close(obj);
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	struct assignment *sets = calloc((size_t)argc, sizeof(*sets));
	int rc;

	if (!sets) {
		perror("bpf-test-runner");
		return 1;
	}
	rc = run(argc, argv, sets);
	free(sets);
	return rc;
}
