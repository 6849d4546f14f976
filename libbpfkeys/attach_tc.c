// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, legacy tc: a cls_bpf filter on the clsact qdisc (libbpf's
 * bpf_tc_*), for kernels without tcx (before Linux 6.6). A filter is no
 * link: no fd holds it, so nothing can be pinned, and the object detaches
 * it when it closes. A flip replaces the filter in place (BPF_TC_F_REPLACE,
 * the same handle and priority): the kernel swaps the program under RCU, so
 * every packet runs the old or the new version, never both nor neither.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

static void tc_hook(const struct bpfkeys_tc_filter *filter, struct bpf_tc_hook *hook)
{
	memset(hook, 0, sizeof(*hook));
	hook->sz = sizeof(*hook);
	hook->ifindex = filter->ifindex;
	hook->attach_point = filter->egress ? BPF_TC_EGRESS : BPF_TC_INGRESS;
}

struct bpfkeys_link *bpfkeys_attach_tc(struct bpfkeys_object *obj, const char *program, int ifindex,
				       bool egress)
{
	struct bpfkeys_tc_filter filter = { .ifindex = ifindex, .egress = egress };
	struct bpf_tc_hook hook;
	LIBBPF_OPTS(bpf_tc_opts, opts);
	struct bpfkeys_link *link;
	struct bpf_program *prog;
	ssize_t p;
	int err;

	prog = lbk_loaded_program(obj, program, &p);
	if (!prog)
		return NULL;
	if (obj->pin_dir) {
		lbk_error(obj, EOPNOTSUPP,
			  "program '%s': a legacy tc filter is no BPF object and cannot be pinned "
			  "in %s (another process could not flip it); use bpfkeys_attach_tcx "
			  "(Linux 6.6+)",
			  program, obj->pin_dir);
		return NULL;
	}
	tc_hook(&filter, &hook);
	/* the clsact qdisc: there already (another filter's) or made here; it stays */
	err = bpf_tc_hook_create(&hook);
	if (err && err != -EEXIST) {
		lbk_error(obj, err, "program '%s': clsact qdisc on ifindex %d: %s", program,
			  ifindex, strerror(-err));
		return NULL;
	}
	opts.prog_fd = bpf_program__fd(prog);
	err = bpf_tc_attach(&hook, &opts);
	if (err) {
		lbk_error(obj, err, "program '%s': tc %s filter on ifindex %d: %s", program,
			  egress ? "egress" : "ingress", ifindex, strerror(-err));
		return NULL;
	}
	filter.handle = opts.handle;
	filter.priority = opts.priority;
	link = lbk_add_link(obj, (size_t)p, BPFKEYS_LINK_TC, NULL, -1);
	if (!link) {
		LIBBPF_OPTS(bpf_tc_opts, detach, .handle = filter.handle,
			    .priority = filter.priority);

		bpf_tc_detach(&hook, &detach);
		errno = ENOMEM;
		return NULL;
	}
	link->tc = filter;
	return link;
}

int lbk_tc_replace(struct bpfkeys_link *link, int from, int to)
{
	struct bpf_tc_hook hook;
	LIBBPF_OPTS(bpf_tc_opts, query, .handle = link->tc.handle, .priority = link->tc.priority);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = link->tc.handle, .priority = link->tc.priority,
		    .prog_fd = to, .flags = BPF_TC_F_REPLACE);
	int err;

	tc_hook(&link->tc, &hook);
	/* BPF_F_REPLACE's promise for a filter: it must still run from */
	err = bpf_tc_query(&hook, &query);
	if (!err && query.prog_id != lbk_prog_id(from))
		err = -EBUSY;
	if (!err)
		err = bpf_tc_attach(&hook, &opts);
	errno = -err;
	return err;
}

void lbk_tc_detach(struct bpfkeys_link *link)
{
	struct bpf_tc_hook hook;
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = link->tc.handle, .priority = link->tc.priority);

	tc_hook(&link->tc, &hook);
	bpf_tc_detach(&hook, &opts);
}
