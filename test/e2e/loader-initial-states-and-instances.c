// SPDX-License-Identifier: GPL-2.0
// After load, each key instance is in its key's initial state (key_a FALSE:
// off, key_b TRUE: on): the loader creates one INSN_ARRAY map per (key,
// program) named after the key, with BPF_F_STATIC_KEY (| BPF_F_STATIC_KEY_ON)
// and one entry per site in that program (its own sites and those of the
// functions it calls), bound to the program; the template maps in .maps are
// not created. A state set before load is the state the program loads with.
// bpf_program__static_key_state() reads the kernel's word (the instance's
// map_extra): a flip that bypasses libbpf shows there too.
//
// RUN: rm -rf %t && mkdir -p %t/files
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_progs.c -o %t/progs.o
// RUN: %bpf_cc %bpf_cflags -c %S/Inputs/e2e_shared.c -o %t/shared.o
// RUN: %bpfld -o %t/linked.o %t/progs.o %t/shared.o
// RUN: %bpfkeys resolve %t/linked.o -o %t/files/e2e.o
// RUN: env BPFSK_QEMU_FILES=%t/files %qemu-run %s | FileCheck %s
#include "e2e_loader.h"

static void show_instance(struct bpf_program *prog, const char *key)
{
	struct bpf_map_info info;
	__u32 len = sizeof(info);
	int fd = bpf_program__static_key_fd(prog, key);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_map_get_info_by_fd(fd, &info, &len)) {
		printf("FAIL: %s/%s: no instance map (%s)\n", key, bpf_program__name(prog),
		       errname(fd < 0 ? fd : -errno));
		failures++;
		return;
	}
	printf("  %s/%s: name %s type %u max_entries %u map_extra %llu state %d\n", key,
	       bpf_program__name(prog), info.name, info.type, info.max_entries,
	       (unsigned long long)info.map_extra, bpf_program__static_key_state(prog, key));
}

static void show_prog_maps(struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(bpf_program__fd(prog), &info, &len)) {
		printf("FAIL: prog info: %s\n", strerror(errno));
		failures++;
		return;
	}
	printf("  %s: %u maps bound\n", bpf_program__name(prog), info.nr_map_ids);
}

/*
 * The template map is not created: the kernel has only the key's instances
 * (one per program, maps named after the key), and libbpf hands out no fd
 * for the template (bpf_map__fd() is -EOPNOTSUPP, with a warning).
 */
static void show_template(struct bpf_object *obj, const char *name, unsigned int instances)
{
	struct bpf_map *map = bpf_object__find_map_by_name(obj, name);
	unsigned int named = 0;
	__u32 id = 0;
	int fd;

	if (!map) {
		printf("FAIL: no template map %s\n", name);
		failures++;
		return;
	}
	while (bpf_map_get_next_id(id, &id) == 0) {
		struct bpf_map_info info;
		__u32 len = sizeof(info);
		int map_fd = bpf_map_get_fd_by_id(id);

		memset(&info, 0, sizeof(info));
		if (map_fd >= 0 && bpf_map_get_info_by_fd(map_fd, &info, &len) == 0 &&
		    strcmp(info.name, name) == 0)
			named++;
		if (map_fd >= 0)
			close(map_fd);
	}
	fd = bpf_map__fd(map);
	printf("  %s: %u BPF maps, bpf_map__fd %s\n", name, named, errname(fd < 0 ? fd : 0));
	if (named != instances) {
		printf("FAIL: template %s: %u maps named %s, expected %u instances\n", name, named,
		       name, instances);
		failures++;
	}
	if (fd != -EOPNOTSUPP) {
		printf("FAIL: template %s: bpf_map__fd = %d, expected -EOPNOTSUPP\n", name, fd);
		failures++;
	}
}

int main(void)
{
	struct bpf_object *obj = e2e_open("/files/e2e.o");
	struct bpf_program *one, *two;

	e2e_load(obj);
	one = e2e_prog(obj, "prog_one");
	two = e2e_prog(obj, "prog_two");

	// CHECK-LABEL: default initial states
	// CHECK-NEXT: prog_one = 2
	// CHECK-NEXT: prog_two = 32
	printf("default initial states\n");
	e2e_expect_run(one, 2);
	e2e_expect_run(two, 32);

	// CHECK-LABEL: instances
	// CHECK-NEXT: key_a/prog_one: name key_a type 34 max_entries 2 map_extra 1 state 0
	// CHECK-NEXT: key_a/prog_two: name key_a type 34 max_entries 2 map_extra 1 state 0
	// CHECK-NEXT: key_b/prog_one: name key_b type 34 max_entries 1 map_extra 3 state 1
	// CHECK-NEXT: key_b/prog_two: name key_b type 34 max_entries 1 map_extra 3 state 1
	// CHECK-NEXT: prog_one: 2 maps bound
	// CHECK-NEXT: prog_two: 2 maps bound
	printf("instances\n");
	show_instance(one, "key_a");
	show_instance(two, "key_a");
	show_instance(one, "key_b");
	show_instance(two, "key_b");
	show_prog_maps(one);
	show_prog_maps(two);

	// CHECK-LABEL: flipped behind libbpf's back
	// CHECK-NEXT: key_a/prog_one: name key_a type 34 max_entries 2 map_extra 3 state 1
	// CHECK-NEXT: key_a/prog_two: name key_a type 34 max_entries 2 map_extra 1 state 0
	// CHECK-NEXT: key_a/prog_one: name key_a type 34 max_entries 2 map_extra 1 state 0
	printf("flipped behind libbpf's back\n");
	e2e_ok("raw flip on", bpf_static_key_update(bpf_program__static_key_fd(one, "key_a"), true,
						    NULL));
	show_instance(one, "key_a");
	show_instance(two, "key_a");
	e2e_ok("raw flip off", bpf_static_key_update(bpf_program__static_key_fd(one, "key_a"),
						     false, NULL));
	show_instance(one, "key_a");

	// CHECK-LABEL: templates
	// CHECK-NEXT: libbpf: map 'key_a': static key: no map fd, {{.*}}bpf_object__set_static_key(obj, "key_a", on)
	// CHECK-NEXT: key_a: 2 BPF maps, bpf_map__fd EOPNOTSUPP
	// CHECK-NEXT: libbpf: map 'key_b': static key: no map fd,
	// CHECK-NEXT: key_b: 2 BPF maps, bpf_map__fd EOPNOTSUPP
	printf("templates\n");
	show_template(obj, "key_a", 2);
	show_template(obj, "key_b", 2);
	bpf_object__close(obj);

	// CHECK-LABEL: set before load: key_a on, key_b off in prog_two
	// CHECK-NEXT: prog_one = 7
	// CHECK-NEXT: prog_two = 24
	// CHECK-NEXT: key_a/prog_one: name key_a type 34 max_entries 2 map_extra 3 state 1
	// CHECK-NEXT: key_b/prog_two: name key_b type 34 max_entries 1 map_extra 1 state 0
	printf("set before load: key_a on, key_b off in prog_two\n");
	obj = e2e_open("/files/e2e.o");
	one = e2e_prog(obj, "prog_one");
	two = e2e_prog(obj, "prog_two");
	e2e_ok("set key_a", bpf_object__set_static_key(obj, "key_a", true));
	e2e_ok("set prog_two key_b", bpf_program__set_static_key(two, "key_b", false));
	e2e_load(obj);
	e2e_expect_run(one, 7);
	e2e_expect_run(two, 24);
	show_instance(one, "key_a");
	show_instance(two, "key_b");
	bpf_object__close(obj);

	// CHECK: PASSED
	return finish();
}
