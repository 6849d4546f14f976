// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * bpfkeyctl-stock: bpfkeyctl's commands for stock kernels, through
 * libbpfkeys (flips by program replacement, docs/abi.md section 7). Takes
 * the raw linked object (bpfld output), not a resolved one, and pins in the
 * libbpfkeys layout (libbpfkeys/README.md), so another process flips.
 * Built by CMake against the system's libbpf (bpfkeyctl itself is built on
 * the patched libbpf for the patched kernel).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <getopt.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include <bpfkeys/libbpfkeys.h>
#include "bpfsk_version.h"
#include "elfobj.h" /* elfobj_option_error() */
#include "json_string.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: bpfkeyctl-stock load [--set KEY=on|off]... [--set-global NAME=VALUE]...\n"
		"                            [--max-entries MAP=N]... [--xdp PROG=IFNAME]...\n"
		"                            [--cgroup PROG=DIR]... [--netns PROG=NSFILE]... "
		"OBJ PINDIR\n"
		"       bpfkeyctl-stock set PINDIR KEY=on|off...\n"
		"       bpfkeyctl-stock list [--json] PINDIR\n"
		"       bpfkeyctl-stock --help | --version\n"
		"\n"
		"Static keys on a stock kernel (libbpfkeys): OBJ is the object linked by\n"
		"bpfld, or its bpfkeys resolve output. A flip loads, for every program that\n"
		"reaches the key, its version for the new state against the same maps and\n"
		"swaps its links atomically (BPF_LINK_UPDATE).\n"
		"\n"
		"  load   load OBJ with each key at its initial state (or --set), attach\n"
		"         the programs named by --xdp / --cgroup (a cgroup v2 directory) /\n"
		"         --netns (sk_lookup, flow dissector; NSFILE: /proc/PID/ns/net,\n"
		"         /run/netns/NAME), and every tracing program (tracepoint, raw_tp,\n"
		"         tp_btf, fentry/fexit, kprobe, lsm) where its section says (its\n"
		"         link cannot be updated: a flip attaches the new version, then\n"
		"         detaches the old one, and both run for a moment)\n"
		"         and pin everything in PINDIR (on bpffs): PINDIR/progs/PROG is\n"
		"         each program's current version. Before load, --set-global sets\n"
		"         a global variable (.rodata, .data, .bss): VALUE is a C integer\n"
		"         for one of 1, 2, 4 or 8 bytes, 0x and two hex digits per byte\n"
		"         for other sizes, or a string for a char array; --max-entries\n"
		"         sizes a map; every flip keeps both\n"
		"  set    set each KEY on or off, all in one flip (every program that\n"
		"         reaches one of them replaced once, all or nothing); says how\n"
		"         many programs were replaced\n"
		"  list   keys and their states, programs: ids and loaded sizes, links:\n"
		"         type and target; --json: one object per key (state, programs),\n"
		"         per link and per program\n"
		"\n"
		"Exit status: 0 on success, 1 on error, 2 on a usage error.\n");
}

/* bpfkeyctl runs these commands in-process (bpfkeyctl_stock_main) and names itself */
const char *bpfkeyctl_stock_name = "bpfkeyctl-stock";

static void print_error(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: error: ", bpfkeyctl_stock_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

__attribute__((format(printf, 1, 2))) static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_error(fmt, ap);
	va_end(ap);
	return 1;
}

/* A command-line error: exit status 2. */
__attribute__((format(printf, 1, 2))) static int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	print_error(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	return level == LIBBPF_DEBUG ? 0 : vfprintf(stderr, fmt, ap);
}

static int parse_state(const char *s, bool *on)
{
	if (!strcmp(s, "on") || !strcmp(s, "off")) {
		*on = !strcmp(s, "on");
		return 0;
	}
	return -1;
}

/* "PROG=VALUE": splits in place */
static char *split_assignment(char *arg)
{
	char *eq = strchr(arg, '=');

	if (!eq || eq == arg || !eq[1])
		return NULL;
	*eq = '\0';
	return eq + 1;
}

enum { OPT_SET = 256, OPT_XDP, OPT_CGROUP, OPT_NETNS, OPT_SET_GLOBAL, OPT_MAX_ENTRIES };

/* a C integer (strtoull's and strtoll's forms, base 0) that fits in size bytes, signed or not */
static bool parse_integer(const char *s, size_t size, unsigned char *out)
{
	unsigned long long max = size == 8 ? ~0ull : (1ull << (size * 8)) - 1;
	unsigned long long u;
	char *end;

	errno = 0;
	if (s[0] == '-') {
		long long v = strtoll(s, &end, 0);
		long long min = size == 8 ? (long long)(1ull << 63) : -(1ll << (size * 8 - 1));

		if (errno || *end || end == s || v < min)
			return false;
		u = (unsigned long long)v;
	} else {
		u = strtoull(s, &end, 0);
		if (errno || *end || end == s || s[0] == '+' || u > max)
			return false;
	}
	/* the variable's bytes in host order */
	switch (size) {
	case 1:
		*out = (unsigned char)u;
		break;
	case 2:
		memcpy(out, &(uint16_t){ (uint16_t)u }, 2);
		break;
	case 4:
		memcpy(out, &(uint32_t){ (uint32_t)u }, 4);
		break;
	default:
		memcpy(out, &(uint64_t){ u }, 8);
	}
	return true;
}

/* 0x and two hex digits per byte, exactly size bytes, in memory order */
static bool parse_hex_bytes(const char *s, size_t size, unsigned char *out)
{
	if (strncmp(s, "0x", 2) || strlen(s + 2) != 2 * size)
		return false;
	for (size_t i = 0; i < size; i++) {
		char byte[3] = { s[2 + 2 * i], s[3 + 2 * i], 0 };
		char *end;

		if (!isxdigit((unsigned char)byte[0]) || !isxdigit((unsigned char)byte[1]))
			return false;
		out[i] = (unsigned char)strtoul(byte, &end, 16);
	}
	return true;
}

/*
 * --set-global NAME=VALUE, the variable's size from the object's BTF: a C
 * integer for 1, 2, 4 or 8 bytes; else 0x and hex bytes of the exact size;
 * else (not starting with 0x) a string that fits with its NUL (char
 * arrays), zero-padded.
 */
static int set_global(struct bpfkeys_object *obj, const char *name, const char *value)
{
	size_t size;
	unsigned char *bytes;
	bool integer_size, parsed;
	int rc = 0;

	if (!bpfkeys_global(obj, name, &size))
		return 1; /* said by the library: no such variable */
	bytes = calloc(size ? size : 1, 1);
	if (!bytes)
		return fail("out of memory");
	integer_size = size == 1 || size == 2 || size == 4 || size == 8;
	parsed = integer_size ? parse_integer(value, size, bytes)
			      : parse_hex_bytes(value, size, bytes);
	/* 0x... is bytes or an integer, never a string */
	if (!parsed && strncmp(value, "0x", 2) && strlen(value) < size) {
		memset(bytes, 0, size); /* a string, zero-padded */
		memcpy(bytes, value, strlen(value));
		parsed = true;
	}
	if (!parsed)
		rc = usage_error(
			"--set-global %s=%s: '%s' has %zu bytes: expected %s, or a string of "
			"at most %zu characters",
			name, value, name, size,
			integer_size ? "a C integer that fits in them"
				     : "0x and two hex digits per byte",
			size ? size - 1 : 0);
	if (!rc && bpfkeys_set_global(obj, name, bytes, size))
		rc = 1;
	free(bytes);
	return rc;
}

/* --max-entries MAP=N: N a C integer from 1 to 2^32 - 1 */
static bool parse_max_entries(const char *s, __u32 *n)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s || !isdigit((unsigned char)s[0]) || !v || v > UINT32_MAX)
		return false;
	*n = (__u32)v;
	return true;
}

static bool has_link(const struct bpfkeys_object *obj, const char *program)
{
	for (struct bpfkeys_link *l = bpfkeys_link_next(obj, NULL); l;
	     l = bpfkeys_link_next(obj, l))
		if (!strcmp(bpfkeys_link_program(l), program))
			return true;
	return false;
}

/* the program types whose section names where they run (libbpf auto-attaches them) */
static bool attaches_by_section(enum bpf_prog_type type)
{
	switch (type) {
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_LSM:
		return true;
	default:
		return false;
	}
}

/*
 * Tracing programs (tracepoint, raw_tp, tp_btf, fentry/fexit, kprobe, LSM)
 * attached where their section says, through libbpf's auto-attach: loading
 * one is asking for it to run. Their links cannot be updated, so a flip
 * attaches the new version before it detaches the old one (both run for a
 * moment); the load says so. A section that names no target, or a target
 * the kernel does not have, is an error: never a program that runs
 * nowhere. Programs of other types run where --xdp/--cgroup/--netns put
 * them, or through their pin.
 */
static int attach_by_section(struct bpfkeys_object *obj)
{
	for (size_t p = 0; p < bpfkeys_program_count(obj); p++) {
		const char *name = bpfkeys_program_name(obj, p);
		struct bpf_program *prog = bpfkeys_program(obj, name);
		struct bpfkeys_link *link;

		if (!prog || has_link(obj, name) || !attaches_by_section(bpf_program__type(prog)))
			continue;
		link = bpfkeys_attach(obj, name, BPFKEYS_ATTACH_OVERLAP);
		if (!link) {
			if (errno == EOPNOTSUPP)
				return fail(
					"program '%s' (section %s): the section names no "
					"target to attach to (e.g. SEC(\"kprobe/FUNCTION\")), so "
					"the program would run nowhere",
					name, bpf_program__section_name(prog));
			return fail("program '%s' (section %s): cannot attach what the section "
				    "names: %s",
				    name, bpf_program__section_name(prog), strerror(errno));
		}
		printf("%s: attached by its section %s (%s link; a flip attaches the new "
		       "version before it detaches the old one: both run for a moment)\n",
		       name, bpf_program__section_name(prog), bpfkeys_link_type(link));
	}
	return 0;
}

static int cmd_load(int argc, char **argv)
{
	static const struct option options[] = {
		{ "set", required_argument, NULL, OPT_SET },
		{ "xdp", required_argument, NULL, OPT_XDP },
		{ "cgroup", required_argument, NULL, OPT_CGROUP },
		{ "netns", required_argument, NULL, OPT_NETNS },
		{ "set-global", required_argument, NULL, OPT_SET_GLOBAL },
		{ "max-entries", required_argument, NULL, OPT_MAX_ENTRIES },
		{ 0 },
	};
	struct bpfkeys_setting *settings = calloc((size_t)argc + 1, sizeof(*settings));
	char **xdp = calloc((size_t)argc + 1, sizeof(char *)),
	     **cgroup = calloc((size_t)argc + 1, sizeof(char *));
	char **netns = calloc((size_t)argc + 1, sizeof(char *));
	char **globals = calloc((size_t)argc + 1, sizeof(char *));
	char **sized = calloc((size_t)argc + 1, sizeof(char *));
	__u32 *max_entries = calloc((size_t)argc + 1, sizeof(__u32));
	size_t nset = 0, nxdp = 0, ncgroup = 0, nnetns = 0, nglobals = 0, nsized = 0;
	struct bpfkeys_object *obj = NULL;
	int opt, rc = 1;

	if (!settings || !xdp || !cgroup || !netns || !globals || !sized || !max_entries) {
		rc = fail("out of memory");
		goto out;
	}
	optind = 1;
	opterr = 0; /* its errors are reported in the tools' form */
	while ((opt = getopt_long(argc, argv, "+:", options, NULL)) != -1) {
		char *value = opt == '?' || opt == ':' ? NULL : split_assignment(optarg);
		bool on;

		if (opt == '?' || opt == ':') {
			const char *reporter = elfobj_progname; /* the library's, after */

			elfobj_progname = bpfkeyctl_stock_name;
			elfobj_option_error(opt, argv, optind, optopt, options);
			elfobj_progname = reporter;
			rc = EXIT_USAGE;
			goto out;
		}
		if (!value) {
			rc = usage_error("'%s': expected NAME=VALUE", optarg);
			goto out;
		}
		if (opt == OPT_SET) {
			if (parse_state(value, &on)) {
				rc = usage_error("--set %s=%s: expected KEY=on|off", optarg, value);
				goto out;
			}
			settings[nset].key = optarg;
			settings[nset++].on = on;
		} else if (opt == OPT_XDP) {
			xdp[nxdp++] = optarg;
		} else if (opt == OPT_NETNS) {
			netns[nnetns++] = optarg;
		} else if (opt == OPT_SET_GLOBAL) {
			globals[nglobals++] = optarg;
		} else if (opt == OPT_MAX_ENTRIES) {
			if (!parse_max_entries(value, &max_entries[nsized])) {
				rc = usage_error("--max-entries %s=%s: expected MAP=N, N from 1 to "
						 "4294967295",
						 optarg, value);
				goto out;
			}
			sized[nsized++] = optarg;
		} else {
			cgroup[ncgroup++] = optarg;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		rc = EXIT_USAGE;
		goto out;
	}
	obj = bpfkeys_open_file(argv[optind], NULL);
	if (!obj || bpfkeys_flip(obj, settings, nset) < 0)
		goto out;
	for (size_t i = 0; i < nglobals; i++) {
		rc = set_global(obj, globals[i], globals[i] + strlen(globals[i]) + 1);
		if (rc)
			goto out;
	}
	rc = 1;
	for (size_t i = 0; i < nsized; i++)
		if (bpfkeys_set_max_entries(obj, sized[i], max_entries[i]))
			goto out;
	if (bpfkeys_load(obj))
		goto out;
	for (size_t i = 0; i < nglobals; i++)
		printf("global %s: set\n", globals[i]);
	for (size_t i = 0; i < nsized; i++)
		printf("map %s: max_entries %u\n", sized[i], bpfkeys_max_entries(obj, sized[i]));
	for (size_t i = 0; i < nxdp; i++) {
		const char *ifname = xdp[i] + strlen(xdp[i]) + 1;
		int ifindex = (int)if_nametoindex(ifname);

		if (!ifindex) {
			fail("--xdp %s=%s: no such device", xdp[i], ifname);
			goto out;
		}
		if (!bpfkeys_attach_xdp(obj, xdp[i], ifindex))
			goto out;
		printf("%s: attached to %s (XDP link)\n", xdp[i], ifname);
	}
	for (size_t i = 0; i < ncgroup; i++) {
		const char *dir = cgroup[i] + strlen(cgroup[i]) + 1;
		int fd = open(dir, O_RDONLY | O_DIRECTORY);

		if (fd < 0) {
			fail("--cgroup %s=%s: %s", cgroup[i], dir, strerror(errno));
			goto out;
		}
		if (!bpfkeys_attach_cgroup(obj, cgroup[i], fd)) {
			close(fd);
			goto out;
		}
		close(fd);
		printf("%s: attached to %s (cgroup link)\n", cgroup[i], dir);
	}
	for (size_t i = 0; i < nnetns; i++) {
		const char *file = netns[i] + strlen(netns[i]) + 1;
		int fd = open(file, O_RDONLY);

		if (fd < 0) {
			fail("--netns %s=%s: %s", netns[i], file, strerror(errno));
			goto out;
		}
		if (!bpfkeys_attach_netns(obj, netns[i], fd)) {
			close(fd);
			goto out;
		}
		close(fd);
		printf("%s: attached to %s (netns link)\n", netns[i], file);
	}
	if (attach_by_section(obj))
		goto out;
	if (bpfkeys_pin(obj, argv[optind + 1]))
		goto out;
	for (size_t k = 0; k < bpfkeys_key_count(obj); k++)
		printf("key %s: %s\n", bpfkeys_key_name(obj, k),
		       bpfkeys_key_state(obj, bpfkeys_key_name(obj, k)) ? "on" : "off");
	printf("pinned in %s (stock kernel: flips by program replacement)\n", argv[optind + 1]);
	rc = 0;
out:
	bpfkeys_close(obj);
	free(settings);
	free(xdp);
	free(cgroup);
	free(netns);
	free(globals);
	free(sized);
	free(max_entries);
	return rc;
}

/*
 * set's KEY=on|off words, as --set's: each key at most once. The old
 * two-word form (KEY on) is refused with the new spelling: one syntax for
 * key states in every tool, and a script written for it fails loudly
 * instead of flipping a key named "on".
 */
static int parse_settings(int argc, char **argv, struct bpfkeys_setting *settings)
{
	for (int i = 0; i < argc; i++) {
		char *value = strchr(argv[i], '=');
		bool on;

		if (!value && i + 1 < argc && !parse_state(argv[i + 1], &on))
			return usage_error("set %s %s: write %s=%s (KEY=on|off)", argv[i],
					   argv[i + 1], argv[i], argv[i + 1]);
		if (!value || value == argv[i] || parse_state(value + 1, &on))
			return usage_error("set %s: expected KEY=on|off", argv[i]);
		settings[i].key = argv[i];
		settings[i].on = on;
		for (int j = 0; j < i; j++)
			if (strlen(settings[j].key) == (size_t)(value - argv[i]) &&
			    !strncmp(settings[j].key, argv[i], (size_t)(value - argv[i])))
				return usage_error("set: key '%s' set twice (%s, then %s)",
						   settings[j].key, settings[j].on ? "on" : "off",
						   value + 1);
		*value = '\0';
	}
	return 0;
}

static int cmd_set(int argc, char **argv)
{
	struct bpfkeys_setting *settings;
	struct bpfkeys_object *obj;
	int n, rc;

	if (argc < 3) {
		usage(stderr);
		return EXIT_USAGE;
	}
	settings = calloc((size_t)argc, sizeof(*settings));
	if (!settings)
		return fail("out of memory");
	rc = parse_settings(argc - 2, argv + 2, settings);
	if (rc) {
		free(settings);
		return rc;
	}
	obj = bpfkeys_open_pinned(argv[1], NULL);
	if (!obj) {
		free(settings);
		return 1;
	}
	/* all keys in one flip: every program replaced once, all or nothing */
	n = bpfkeys_flip(obj, settings, (size_t)argc - 2);
	if (n >= 0) {
		for (int i = 0; i < argc - 2; i++)
			printf("%s%s: %s", i ? ", " : "", settings[i].key,
			       settings[i].on ? "on" : "off");
		printf(" (stock kernel: program replacement, %d program(s) replaced)\n", n);
	}
	bpfkeys_close(obj);
	free(settings);
	return n < 0;
}

/* list --json: one object per key (state, the programs a flip of it
 * replaces), one per program (its current version) */
static void list_json(const struct bpfkeys_object *obj)
{
	printf("{\"kernel\":\"stock\",\"keys\":[");
	for (size_t k = 0; k < bpfkeys_key_count(obj); k++) {
		const char *key = bpfkeys_key_name(obj, k);
		bool first = true;

		printf("%s{\"name\":", k ? "," : "");
		json_string(key);
		printf(",\"state\":\"%s\",\"programs\":[",
		       bpfkeys_key_state(obj, key) ? "on" : "off");
		for (size_t p = 0; p < bpfkeys_program_count(obj); p++) {
			const char *name = bpfkeys_program_name(obj, p);

			if (bpfkeys_program_uses_key(obj, name, key) != 1)
				continue;
			printf("%s", first ? "" : ",");
			json_string(name);
			first = false;
		}
		printf("]}");
	}
	printf("],\"links\":[");
	for (struct bpfkeys_link *l = bpfkeys_link_next(obj, NULL); l;
	     l = bpfkeys_link_next(obj, l)) {
		printf("%s{\"program\":", l == bpfkeys_link_next(obj, NULL) ? "" : ",");
		json_string(bpfkeys_link_program(l));
		printf(",\"type\":");
		json_string(bpfkeys_link_type(l));
		printf(",\"target\":");
		json_string(bpfkeys_link_target(l));
		printf(",\"flip\":\"%s\"}", bpfkeys_link_is_atomic(l) ? "atomic" : "overlap");
	}
	printf("],\"programs\":[");
	for (size_t p = 0; p < bpfkeys_program_count(obj); p++) {
		const char *name = bpfkeys_program_name(obj, p);
		int fd = bpfkeys_program_fd(obj, name);
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		printf("%s{\"name\":", p ? "," : "");
		json_string(name);
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			printf(",\"loaded\":false}");
		else
			printf(",\"loaded\":true,\"id\":%u,\"xlated_insns\":%u,\"jited_bytes\":%u}",
			       info.id, info.xlated_prog_len / 8, info.jited_prog_len);
	}
	printf("]}\n");
}

static int cmd_list(int argc, char **argv)
{
	struct bpfkeys_object *obj;
	const char *dir = NULL;
	bool json = false;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			json = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			return usage_error("list: unknown option '%s'", argv[i]);
		} else if (dir) {
			usage(stderr);
			return EXIT_USAGE;
		} else {
			dir = argv[i];
		}
	}
	if (!dir) {
		usage(stderr);
		return EXIT_USAGE;
	}
	obj = bpfkeys_open_pinned(dir, NULL);
	if (!obj)
		return 1;
	if (json) {
		list_json(obj);
		bpfkeys_close(obj);
		return 0;
	}
	printf("stock kernel pins (libbpfkeys): %zu key(s), %zu program(s)\n",
	       bpfkeys_key_count(obj), bpfkeys_program_count(obj));
	for (size_t k = 0; k < bpfkeys_key_count(obj); k++)
		printf("key %s: %s\n", bpfkeys_key_name(obj, k),
		       bpfkeys_key_state(obj, bpfkeys_key_name(obj, k)) ? "on" : "off");
	for (size_t p = 0; p < bpfkeys_program_count(obj); p++) {
		const char *name = bpfkeys_program_name(obj, p);
		int fd = bpfkeys_program_fd(obj, name);
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			printf("program %s: not loaded\n", name);
		else
			/* the size shows what a flip changed: dead code is not loaded */
			printf("program %s: id %u, %u insns xlated, %u bytes jited\n", name,
			       info.id, info.xlated_prog_len / 8, info.jited_prog_len);
	}
	for (struct bpfkeys_link *l = bpfkeys_link_next(obj, NULL); l;
	     l = bpfkeys_link_next(obj, l))
		printf("link of %s: %s, %s (%s)\n", bpfkeys_link_program(l), bpfkeys_link_type(l),
		       bpfkeys_link_target(l),
		       bpfkeys_link_is_atomic(l) ? "a flip updates it atomically"
						 : "a flip attaches the new version, then detaches "
						   "the old: both run for a moment");
	bpfkeys_close(obj);
	return 0;
}

/* bpfkeyctl links this file with -DBPFKEYCTL_STOCK_MAIN=bpfkeyctl_stock_main */
#ifndef BPFKEYCTL_STOCK_MAIN
#define BPFKEYCTL_STOCK_MAIN main
#endif
int BPFKEYCTL_STOCK_MAIN(int argc, char **argv);

int BPFKEYCTL_STOCK_MAIN(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("bpfkeyctl-stock %s (libbpf %s)\n", BPFSK_VERSION, libbpf_version_string());
		return 0;
	}
	libbpf_set_print(libbpf_print);
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!strcmp(argv[1], "load"))
		return cmd_load(argc - 1, argv + 1);
	if (!strcmp(argv[1], "set"))
		return cmd_set(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	usage_error("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
