// SPDX-License-Identifier: GPL-2.0
// The kernel keeps 15 bytes of a map's name, so the instances of
// foo_trace_tcp_v4 and of foo_trace_tcp_v6 are both named "foo_trace_tcp_v".
// `bpftool static-key set NAME` tells them apart by the BTF of the bound
// program's object, whose .maps section names its keys in full: setting one
// leaves the other as it is. A program whose BTF names two keys starting with
// the same 15 bytes, or that has no BTF, cannot tell: the name is refused as
// ambiguous, naming the map to set by id, and nothing changes. KEY=on|off is
// accepted as one argument, with a name or an id.
//
// RUN: %qemu-run %s | FileCheck %s
#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "bpftool_test.h"

/* return key ? 2 : 1 */
static const struct bpf_insn prog[] = {
	MOV64_IMM(BPF_REG_0, 1), GOTOL_OR_NOP(1), EXIT(), MOV64_IMM(BPF_REG_0, 2), EXIT(),
};

/*
 * A program named @name bound to @key, with BTF (fd in *@btf_fd) holding the
 * function @name and a .maps section with the variables @vars[0..@n), as a
 * compiled object's BTF has; @n < 0: no BTF at all. Dies on error.
 */
static int prog_with_btf(const char *name, int key, const char *const *vars, int n)
{
	struct bpf_func_info func_info = { .insn_off = 0 };
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .fd_array = &key, .fd_array_cnt = 1);
	struct btf *btf;
	int int_id, var_ids[4], i, fd;

	if (n < 0) {
		fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", prog, ARRAY_SIZE(prog),
				   &opts);
		goto out;
	}
	btf = btf__new_empty();
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	func_info.type_id =
		btf__add_func(btf, name, BTF_FUNC_STATIC, btf__add_func_proto(btf, int_id));
	/* the variables first: a datasec's entries follow it directly */
	for (i = 0; i < n; i++)
		var_ids[i] = btf__add_var(btf, vars[i], BTF_VAR_GLOBAL_ALLOCATED, int_id);
	btf__add_datasec(btf, ".maps", 4 * n);
	for (i = 0; i < n; i++)
		btf__add_datasec_var_info(btf, var_ids[i], 4 * i, 4);
	if (btf__load_into_kernel(btf)) {
		printf("FAIL: BTF load: %s\n", strerror(errno));
		exit(1);
	}
	opts.prog_btf_fd = btf__fd(btf);
	opts.func_info = &func_info;
	opts.func_info_cnt = 1;
	opts.func_info_rec_size = sizeof(func_info);
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, name, "GPL", prog, ARRAY_SIZE(prog), &opts);
	btf__free(btf);
out:
	if (fd < 0) {
		printf("FAIL: load %s: %s\n", name, strerror(errno));
		exit(1);
	}
	return fd;
}

static int key_named(const char *name)
{
	return named_static_key(name, BPF_F_STATIC_KEY, (__u32[]){ 1 }, 1);
}

int main(void)
{
	int v4_key, v6_key, v9_key, nobtf_key, v4, v6, v9, nobtf;
	char id_on[32];

	require_static_keys_kernel();
	v4_key = key_named("foo_trace_tcp_v4");
	v6_key = key_named("foo_trace_tcp_v6");
	v4 = prog_with_btf("prog_v4", v4_key, (const char *[]){ "foo_trace_tcp_v4" }, 1);
	v6 = prog_with_btf("prog_v6", v6_key, (const char *[]){ "foo_trace_tcp_v6" }, 1);
	// CHECK: v4 key [[V4K:[0-9]+]] v6 key [[V6K:[0-9]+]]
	printf("v4 key %u v6 key %u\n", map_id_of(v4_key), map_id_of(v6_key));

	// CHECK: $ bpftool static-key set foo_trace_tcp_v4 on
	// CHECK-NEXT: {{^}}[[V4K]]: name foo_trace_tcp_v  on  sites 1  prog_id {{[0-9]+}}  prog_name prog_v4{{$}}
	// CHECK-NEXT: {{^}}foo_trace_tcp_v4: on (text poke, 1 site(s) in 1 program(s), one batch){{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "set", "foo_trace_tcp_v4", "on");
	// CHECK-NEXT: v4 2 v6 1
	printf("v4 %u v6 %u\n", prog_run(v4), prog_run(v6));

	// CHECK: $ bpftool static-key set foo_trace_tcp_v6=on
	// CHECK-NEXT: {{^}}[[V6K]]: name foo_trace_tcp_v  on  sites 1  prog_id {{[0-9]+}}  prog_name prog_v6{{$}}
	// CHECK-NEXT: {{^}}foo_trace_tcp_v6: on (text poke, 1 site(s) in 1 program(s), one batch){{$}}
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 0
	bpftool_ok("static-key", "set", "foo_trace_tcp_v6=on");
	// CHECK-NEXT: v4 2 v6 2
	printf("v4 %u v6 %u\n", prog_run(v4), prog_run(v6));

	// CHECK: $ bpftool static-key set id [[V4K]]=off
	// CHECK-NEXT: {{^}}[[V4K]]: name foo_trace_tcp_v  off  sites 1  prog_id {{[0-9]+}}  prog_name prog_v4{{$}}
	// CHECK: exit 0
	snprintf(id_on, sizeof(id_on), "%u=off", map_id_of(v4_key));
	bpftool_ok("static-key", "set", "id", id_on);
	// CHECK-NEXT: v4 1 v6 2
	printf("v4 %u v6 %u\n", prog_run(v4), prog_run(v6));

	/* one object with two keys that start with the same 15 bytes */
	v9_key = key_named("foo_trace_tcp_v9");
	v9 = prog_with_btf("prog_v9", v9_key,
			   (const char *[]){ "foo_trace_tcp_v4", "foo_trace_tcp_v9" }, 2);
	// CHECK: v9 key [[V9K:[0-9]+]]
	printf("v9 key %u\n", map_id_of(v9_key));
	// CHECK: $ bpftool static-key set foo_trace_tcp_v4=on
	// CHECK-NEXT: Error: static key name 'foo_trace_tcp_v4' is ambiguous: map [[V9K]] 'foo_trace_tcp_v' is one of 2 keys starting with these 15 bytes in the BTF of its object; set it by id (static-key set id [[V9K]] ...)
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	bpftool("static-key", "set", "foo_trace_tcp_v4=on", NULL);
	// CHECK-NEXT: v4 1 v6 2 v9 1
	printf("v4 %u v6 %u v9 %u\n", prog_run(v4), prog_run(v6), prog_run(v9));
	/* a name the object's BTF rules out is no ambiguity */
	// CHECK: $ bpftool static-key set foo_trace_tcp_v6 off
	// CHECK-NEXT: {{^}}[[V6K]]: name foo_trace_tcp_v  off
	// CHECK: exit 0
	bpftool_ok("static-key", "set", "foo_trace_tcp_v6", "off");
	close(v9);
	close(v9_key);

	/* a program without BTF (or the v9 key, whose program is gone, if it is not freed yet) */
	nobtf_key = key_named("foo_trace_tcp_v4");
	nobtf = prog_with_btf("prog_nobtf", nobtf_key, NULL, -1);
	// CHECK: no-BTF key [[NK:[0-9]+]]
	printf("no-BTF key %u\n", map_id_of(nobtf_key));
	// CHECK: $ bpftool static-key set foo_trace_tcp_v4 on
	// CHECK-NEXT: Error: static key name 'foo_trace_tcp_v4' is ambiguous: map [[M:[0-9]+]] is named 'foo_trace_tcp_v' (the kernel keeps 15 bytes of a name) and no BTF names it in full; set it by id (static-key set id [[M]] ...)
	// CHECK-EMPTY:
	// CHECK-NEXT: exit 255
	bpftool("static-key", "set", "foo_trace_tcp_v4", "on", NULL);
	// CHECK-NEXT: v4 1 v6 1 no-BTF 1
	printf("v4 %u v6 %u no-BTF %u\n", prog_run(v4), prog_run(v6), prog_run(nobtf));

	// CHECK: PASSED
	return finish();
}
