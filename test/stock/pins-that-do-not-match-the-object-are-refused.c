// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
// An opener checks the pins against the object before it trusts them, and
// each mismatch is an error naming the pin: maps/seen replaced by another
// map (a HASH, an ARRAY of another value size; one of other max_entries is
// taken, as bpfkeys_set_max_entries() may have sized it at load),
// meta recording fewer keys than the object has, and an object_size
// beyond what DIR/object holds (2^44 + 1, which once asked for a 16 TiB
// allocation). Each case pins the object afresh, changes one thing and
// opens the pins.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %bpf_cc %bpf_cflags -c %stock_inputs/flip_pair.c -o %t/pair.o
// RUN: %bpfld -o %t/linked.o %t/pair.o
// RUN: %stock_cc %s %stock_libs -o %t/test
// RUN: %run %t/test %t/linked.o 2>&1 | FileCheck %s
//
// CHECK: maps/seen a hash: error: /sys/fs/bpf/bpfkeys-mismatch-{{[0-9]+}}/maps/seen: not the object's map 'seen': type 1, key 4, value 8, max_entries 4 pinned; type 2, key 4, value 8, max_entries 4 in the object
// CHECK-NEXT: maps/seen a hash: refused (Invalid argument)
// CHECK-NEXT: maps/seen of 4-byte values: error: /sys/fs/bpf/bpfkeys-mismatch-{{[0-9]+}}/maps/seen: not the object's map 'seen': type 2, key 4, value 4, max_entries 4 pinned; type 2, key 4, value 8, max_entries 4 in the object
// CHECK-NEXT: maps/seen of 4-byte values: refused (Invalid argument)
// CHECK-NEXT: maps/seen of 8 entries: opened
// CHECK-NEXT: meta with one key fewer: error: /sys/fs/bpf/bpfkeys-mismatch-{{[0-9]+}}/meta: 1 key(s) recorded, the pinned object has 2
// CHECK-NEXT: meta with one key fewer: refused (Invalid argument)
// CHECK-NEXT: object_size 2^44 + 1: error: /sys/fs/bpf/bpfkeys-mismatch-{{[0-9]+}}/meta: object_size 17592186044417 does not fit /sys/fs/bpf/bpfkeys-mismatch-{{[0-9]+}}/object ({{[0-9]+}} chunks of 4096 bytes)
// CHECK-NEXT: object_size 2^44 + 1: refused (Invalid argument)
// CHECK-NEXT: unchanged pins: opened
#include "kill_check.h"

struct meta_header {
	char magic[16];
	uint64_t object_size;
	uint32_t key_count;
	uint32_t reserved;
	char object_name[64];
	uint8_t pad[256 - 96];
};

static const char *case_name;

/* the library's messages, each after the name of the case */
static int print_case(enum libbpfkeys_print_level level, const char *fmt, va_list ap, void *ctx)
{
	char line[1024];
	const char *error;

	(void)level;
	(void)ctx;
	vsnprintf(line, sizeof(line), fmt, ap);
	error = strstr(line, "error: ");
	if (error)
		printf("%s: %s", case_name, error);
	return 0;
}

static void pin_afresh(const char *object)
{
	struct bpfkeys_object *obj = stock_open(object, NULL);

	kill_remove_pins();
	if (bpfkeys_load(obj) || bpfkeys_pin(obj, kill_pin_dir))
		fail("load, pin: %s", bpfkeys_errmsg(obj));
	bpfkeys_close(obj);
}

static void replace_pin(const char *name, int fd)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", kill_pin_dir, name);
	if (fd < 0 || unlink(path) || bpf_obj_pin(fd, path))
		fail("replace %s: %s", path, strerror(errno));
	close(fd);
}

static void change_meta_header(uint32_t key_count, uint64_t object_size)
{
	int meta = pinned_fd(kill_pin_dir, "meta");
	struct meta_header header;

	if (bpf_map_lookup_elem(meta, &(uint32_t){ 0 }, &header))
		fail("meta: %s", strerror(errno));
	if (key_count)
		header.key_count = key_count;
	if (object_size)
		header.object_size = object_size;
	if (bpf_map_update_elem(meta, &(uint32_t){ 0 }, &header, BPF_ANY))
		fail("meta: %s", strerror(errno));
	close(meta);
}

static void open_case(const char *name)
{
	LIBBPFKEYS_OPTS(bpfkeys_open_opts, opts, .print = print_case);
	struct bpfkeys_object *obj;

	case_name = name;
	obj = bpfkeys_open_pinned(kill_pin_dir, &opts);
	printf("%s: %s", name, obj ? "opened\n" : "refused");
	if (!obj)
		printf(" (%s)\n", strerror(errno));
	bpfkeys_close(obj);
}

int main(int argc, char **argv)
{
	const char *object = argv[1];

	if (argc != 2)
		fail("usage: %s LINKED.o", argv[0]);
	kill_mount_bpffs();
	snprintf(kill_pin_dir, sizeof(kill_pin_dir), "/sys/fs/bpf/bpfkeys-mismatch-%d", getpid());
	atexit(kill_remove_pins);

	pin_afresh(object);
	replace_pin("maps/seen", bpf_map_create(BPF_MAP_TYPE_HASH, "seen", 4, 8, 4, NULL));
	open_case("maps/seen a hash");
	pin_afresh(object);
	replace_pin("maps/seen", bpf_map_create(BPF_MAP_TYPE_ARRAY, "seen", 4, 4, 4, NULL));
	open_case("maps/seen of 4-byte values");
	pin_afresh(object);
	replace_pin("maps/seen", bpf_map_create(BPF_MAP_TYPE_ARRAY, "seen", 4, 8, 8, NULL));
	open_case("maps/seen of 8 entries");

	/* meta's shape follows, so that only the recorded count is wrong */
	pin_afresh(object);
	{
		int old = pinned_fd(kill_pin_dir, "meta"),
		    meta = bpf_map_create(BPF_MAP_TYPE_ARRAY, "bpfkeys_meta", 4, 256, 2, NULL);
		unsigned char value[256];

		for (uint32_t slot = 0; slot < 2; slot++)
			if (bpf_map_lookup_elem(old, &slot, value) ||
			    bpf_map_update_elem(meta, &slot, value, BPF_ANY))
				fail("copy meta: %s", strerror(errno));
		close(old);
		replace_pin("meta", meta);
	}
	change_meta_header(1, 0);
	open_case("meta with one key fewer");
	pin_afresh(object);
	change_meta_header(0, (1ull << 44) + 1);
	open_case("object_size 2^44 + 1");
	pin_afresh(object);
	open_case("unchanged pins");
	return 0;
}
