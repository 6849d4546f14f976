// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, attachments: the links a flip swaps. The object owns them (a
 * flip must find every attachment of a program it replaces), in attach order.
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "internal.h"

struct bpf_program *lbk_loaded_program(struct bpfkeys_object *obj, const char *name, ssize_t *index)
{
	*index = lbk_program_index(obj, name);
	if (*index < 0) {
		lbk_error(obj, ENOENT, "no program named '%s'", name);
		return NULL;
	}
	if (!obj->programs[*index].loaded) {
		if (obj->programs[*index].pinned_fd >= 0)
			lbk_error(obj, EOPNOTSUPP,
				  "program '%s' was opened from its pin: attach it in the process "
				  "that loads it (a pinned object flips the links it has)",
				  name);
		else
			lbk_error(obj, EINVAL, "program '%s' is not loaded", name);
		return NULL;
	}
	return bpf_object__find_program_by_name(obj->programs[*index].loaded->bpf, name);
}

/*
 * An XDP link whose last reference went (its pin directory removed) is
 * released by a kernel worker a little later: until then an attach to the
 * device gets EBUSY. Wait for it (1 s at most) instead of failing.
 */
static struct bpf_link *attach_xdp_waiting(struct bpf_program *prog, int ifindex)
{
	struct bpf_link *link = bpf_program__attach_xdp(prog, ifindex);

	for (int waited_ms = 0; !link && errno == EBUSY && waited_ms < 1000; waited_ms++) {
		usleep(1000);
		link = bpf_program__attach_xdp(prog, ifindex);
	}
	return link;
}

struct bpfkeys_link *lbk_add_link(struct bpfkeys_object *obj, size_t program,
				  enum bpfkeys_link_kind kind, struct bpf_link *bpf_link, int fd)
{
	struct bpfkeys_link *link = lbk_calloc(obj, 1, sizeof(*link)), **tail = &obj->links;

	if (!link)
		return NULL;
	link->obj = obj;
	link->kind = kind;
	link->program = program;
	link->bpf_link = bpf_link;
	link->fd = bpf_link ? bpf_link__fd(bpf_link) : fd;
	while (*tail)
		tail = &(*tail)->next;
	*tail = link;
	return link;
}

static int pin_link(struct bpfkeys_object *obj, void *link)
{
	return lbk_pin_link(obj, link);
}

struct bpfkeys_link *lbk_attached(struct bpfkeys_object *obj, ssize_t program,
				  enum bpfkeys_link_kind kind, struct bpf_link *bpf_link, int fd)
{
	struct bpfkeys_link *link = lbk_add_link(obj, (size_t)program, kind, bpf_link, fd);

	if (!link) {
		if (bpf_link)
			bpf_link__destroy(bpf_link);
		else if (fd >= 0)
			close(fd);
		errno = ENOMEM;
		return NULL;
	}
	if (obj->pin_dir && lbk_core(obj, pin_link, link)) {
		int err = errno;

		bpfkeys_link_destroy(link);
		errno = err;
		return NULL;
	}
	return link;
}

static struct bpfkeys_link *attach_with_libbpf(struct bpfkeys_object *obj, const char *program,
					       enum bpfkeys_link_kind kind, int target)
{
	ssize_t p;
	struct bpf_program *prog = lbk_loaded_program(obj, program, &p);
	struct bpf_link *link;

	if (!prog)
		return NULL;
	switch (kind) {
	case BPFKEYS_LINK_XDP:
		link = attach_xdp_waiting(prog, target);
		break;
	case BPFKEYS_LINK_CGROUP:
		link = bpf_program__attach_cgroup(prog, target);
		break;
	default:
		link = bpf_program__attach_netns(prog, target);
		break;
	}
	if (!link) {
		lbk_error(obj, errno, "program '%s': %s attach to %s %d: %s", program,
			  kind == BPFKEYS_LINK_XDP	? "XDP"
			  : kind == BPFKEYS_LINK_CGROUP ? "cgroup"
							: "netns",
			  kind == BPFKEYS_LINK_XDP	? "ifindex"
			  : kind == BPFKEYS_LINK_CGROUP ? "cgroup fd"
							: "netns fd",
			  target,
			  errno == EBUSY && kind == BPFKEYS_LINK_XDP
				  ? "Device or resource busy (another XDP program stayed attached "
				    "for 1 s)"
				  : strerror(errno));
		return NULL;
	}
	return lbk_attached(obj, p, kind, link, -1);
}

struct bpfkeys_link *bpfkeys_attach_xdp(struct bpfkeys_object *obj, const char *program,
					int ifindex)
{
	return attach_with_libbpf(obj, program, BPFKEYS_LINK_XDP, ifindex);
}

struct bpfkeys_link *bpfkeys_attach_cgroup(struct bpfkeys_object *obj, const char *program,
					   int cgroup_fd)
{
	return attach_with_libbpf(obj, program, BPFKEYS_LINK_CGROUP, cgroup_fd);
}

struct bpfkeys_link *bpfkeys_attach_netns(struct bpfkeys_object *obj, const char *program,
					  int netns_fd)
{
	return attach_with_libbpf(obj, program, BPFKEYS_LINK_NETNS, netns_fd);
}

struct bpfkeys_link *bpfkeys_attach_tcx(struct bpfkeys_object *obj, const char *program,
					int ifindex, bool egress)
{
	ssize_t p;
	struct bpf_program *prog = lbk_loaded_program(obj, program, &p);
	int fd;

	if (!prog)
		return NULL;
	fd = bpf_link_create(
		bpf_program__fd(prog), ifindex,
		(enum bpf_attach_type)(egress ? BPFKEYS_TCX_EGRESS : BPFKEYS_TCX_INGRESS), NULL);
	if (fd < 0) {
		lbk_error(obj, fd, "program '%s': tcx %s attach to ifindex %d: %s", program,
			  egress ? "egress" : "ingress", ifindex, strerror(-fd));
		return NULL;
	}
	return lbk_attached(obj, p, BPFKEYS_LINK_TCX, NULL, fd);
}

struct bpfkeys_link *bpfkeys_attach(struct bpfkeys_object *obj, const char *program,
				    unsigned int flags)
{
	ssize_t p;
	struct bpf_program *prog;
	struct bpf_link *link;

	if (flags & ~BPFKEYS_ATTACH_OVERLAP) {
		lbk_error(obj, EINVAL, "program '%s': unknown attach flags 0x%x", program, flags);
		return NULL;
	}
	prog = lbk_loaded_program(obj, program, &p);
	if (!prog)
		return NULL;
	if (!(flags & BPFKEYS_ATTACH_OVERLAP)) {
		lbk_error(
			obj, EOPNOTSUPP,
			"program '%s' (section %s): its link cannot be updated by BPF_LINK_UPDATE, "
			"so a flip would attach the new version before detaching the old one (both "
			"run in between); pass BPFKEYS_ATTACH_OVERLAP to accept that, or use "
			"bpfkeys_attach_xdp/cgroup/tcx",
			program, bpf_program__section_name(prog));
		return NULL;
	}
	link = bpf_program__attach(prog);
	if (!link) {
		lbk_error(obj, errno, "program '%s' (section %s): attach: %s", program,
			  bpf_program__section_name(prog), strerror(errno));
		return NULL;
	}
	return lbk_attached(obj, p, BPFKEYS_LINK_OVERLAP, link, -1);
}

int bpfkeys_link_fd(const struct bpfkeys_link *link)
{
	return link->fd;
}

bool bpfkeys_link_is_atomic(const struct bpfkeys_link *link)
{
	return link->kind != BPFKEYS_LINK_OVERLAP;
}

int lbk_link_replace(struct bpfkeys_link *link, int from, int to)
{
	LIBBPF_OPTS(bpf_link_update_opts, opts, .flags = BPF_F_REPLACE, .old_prog_fd = from);

	if (link->kind == BPFKEYS_LINK_TC)
		return lbk_tc_replace(link, from, to);
	return bpf_link_update(link->fd, to, &opts) ? -errno : 0;
}

static unsigned long pin_number(const struct bpfkeys_link *link)
{
	const char *colon = link->pin_path ? strrchr(link->pin_path, ':') : NULL;

	return colon ? strtoul(colon + 1, NULL, 10) : 0;
}

uint32_t lbk_prog_id(int fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_obj_get_info_by_fd(fd, &info, &len) ? 0 : info.id;
}

void lbk_links_in_pin_order(struct bpfkeys_object *obj)
{
	struct bpfkeys_link *sorted = NULL, *l, *next, **pos;

	/* insertion sort: an object has a few links */
	for (l = obj->links; l; l = next) {
		next = l->next;
		for (pos = &sorted; *pos && pin_number(*pos) <= pin_number(l); pos = &(*pos)->next)
			;
		l->next = *pos;
		*pos = l;
	}
	obj->links = sorted;
}

int lbk_flip_refusal(struct bpfkeys_object *obj, size_t program)
{
	const char *name = obj->programs[program].name;
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	int fd = bpfkeys_program_fd(obj, name);

	memset(&info, 0, sizeof(info));
	if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) ||
	    info.type != BPF_PROG_TYPE_STRUCT_OPS)
		return 0;
	/* a new version would sit in a new struct_ops map that nothing registers */
	return lbk_error(obj, EOPNOTSUPP,
			 "program '%s' (section %s) is a struct_ops program: a flip would need "
			 "its struct_ops map registered again with the new version (a struct_ops "
			 "link updated with BPF_LINK_UPDATE), which libbpfkeys does not do; set "
			 "its keys before bpfkeys_load",
			 name, bpfkeys_program_section(obj, name));
}

struct bpfkeys_link *bpfkeys_link_next(const struct bpfkeys_object *obj,
				       const struct bpfkeys_link *prev)
{
	return prev ? prev->next : obj->links;
}

const char *bpfkeys_link_program(const struct bpfkeys_link *link)
{
	return link->obj->programs[link->program].name;
}

const char *bpfkeys_program_section(const struct bpfkeys_object *obj, const char *program)
{
	for (size_t f = 0; f < obj->bk.function_count; f++)
		if (obj->bk.functions[f].is_program && !strcmp(obj->bk.functions[f].name, program))
			return obj->bk.sections[obj->bk.functions[f].section].name;
	errno = ENOENT;
	return NULL;
}

/* the kernel's view of a link: type and what it is attached to */
static int link_info(const struct bpfkeys_link *link, struct bpf_link_info *info)
{
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(link->fd, info, &len) ? -errno : 0;
}

const char *bpfkeys_link_type(const struct bpfkeys_link *link)
{
	struct bpf_link_info info;
	const char *name;

	switch (link->kind) {
	case BPFKEYS_LINK_XDP:
		return "xdp";
	case BPFKEYS_LINK_CGROUP:
		return "cgroup";
	case BPFKEYS_LINK_TCX:
		return "tcx";
	case BPFKEYS_LINK_NETNS:
		return "netns";
	case BPFKEYS_LINK_TC:
		return "tc";
	case BPFKEYS_LINK_OVERLAP:
		break;
	}
	/* libbpf's name of the kernel's link type: raw_tracepoint, tracing, perf_event, ... */
	if (link_info(link, &info))
		return "unknown";
	name = libbpf_bpf_link_type_str((enum bpf_link_type)info.type);
	return name ? name : "unknown";
}

const char *bpfkeys_link_target(struct bpfkeys_link *link)
{
	struct bpf_link_info info;
	char ifname[IF_NAMESIZE] = "";
	const char *section;

	switch (link->kind) {
	case BPFKEYS_LINK_TC:
		snprintf(link->target, sizeof(link->target),
			 "ifindex %d (%s) %s, handle %u, priority %u", link->tc.ifindex,
			 if_indextoname((unsigned int)link->tc.ifindex, ifname) ? ifname : "gone",
			 link->tc.egress ? "egress" : "ingress", link->tc.handle,
			 link->tc.priority);
		return link->target;
	case BPFKEYS_LINK_OVERLAP:
		/* attached by the section name: libbpf's auto-attach read it */
		section = bpfkeys_program_section(link->obj, bpfkeys_link_program(link));
		snprintf(link->target, sizeof(link->target), "section %s", section ? section : "?");
		return link->target;
	default:
		break;
	}
	if (link_info(link, &info)) {
		snprintf(link->target, sizeof(link->target), "link fd %d: %s", link->fd,
			 strerror(errno));
		return link->target;
	}
	if (link->kind == BPFKEYS_LINK_CGROUP)
		snprintf(link->target, sizeof(link->target), "cgroup id %llu",
			 (unsigned long long)info.cgroup.cgroup_id);
	else if (link->kind == BPFKEYS_LINK_NETNS)
		snprintf(link->target, sizeof(link->target), "netns inode %u",
			 info.netns.netns_ino);
	else /* xdp and tcx: the ifindex comes first in both */
		snprintf(link->target, sizeof(link->target), "ifindex %u (%s)", info.xdp.ifindex,
			 if_indextoname(info.xdp.ifindex, ifname) ? ifname : "gone");
	return link->target;
}

void lbk_link_release(struct bpfkeys_link *link)
{
	struct bpfkeys_link **pos;

	for (pos = &link->obj->links; *pos && *pos != link; pos = &(*pos)->next)
		;
	if (*pos)
		*pos = link->next;
	if (link->kind == BPFKEYS_LINK_TC)
		lbk_tc_detach(link);
	else if (link->bpf_link)
		bpf_link__destroy(link->bpf_link);
	else
		close(link->fd);
	free(link->pin_path);
	free(link);
}

int bpfkeys_link_destroy(struct bpfkeys_link *link)
{
	int err = 0;

	if (!link)
		return 0;
	/* the pin holds the link too: without it the link goes with our fd */
	if (link->pin_path && unlink(link->pin_path) && errno != ENOENT)
		err = -errno;
	lbk_link_release(link);
	return err;
}
