// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/*
 * libbpfkeys, tail calls: PROG_ARRAY entries follow the programs a flip
 * replaces. A variant is loaded against the maps already there, and libbpf
 * would write the variant's programs into an initialised prog array
 * (`.values = { &target }`) as it loads them: before the flip is decided,
 * and with no fd at all for a program the variant does not load (EBADF, and
 * every flip fails). So a variant's image has its .maps relocations dropped,
 * and the flip moves the entries that hold a replaced program as steps of its
 * own (flip.c), undone with the rest.
 */
#include <errno.h>
#include <stddef.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "internal.h"

int lbk_drop_map_initialisers(struct bpfkeys_object *obj, void *image, size_t size)
{
	const unsigned int host_data = (union {
					       uint16_t u;
					       uint8_t b[2];
				       }){ .u = 1 }
						       .b[0]
					       ? ELFDATA2LSB
					       : ELFDATA2MSB;
	size_t shstrndx, maps = 0, rel_maps = 0;
	Elf_Scn *scn = NULL;
	GElf_Ehdr ehdr;
	GElf_Shdr shdr;
	Elf *elf;

	elf_version(EV_CURRENT);
	elf = elf_memory(image, size);
	if (!elf || !gelf_getehdr(elf, &ehdr) || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		return lbk_error(obj, EINVAL, "the lowered object: %s", elf_errmsg(-1));
	}
	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr)) {
			const char *name = elf_strptr(elf, shstrndx, shdr.sh_name);

			if (name && !strcmp(name, ".maps"))
				maps = elf_ndxscn(scn);
		}
	while (maps && (scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_REL && shdr.sh_info == maps)
			rel_maps = elf_ndxscn(scn);
	elf_end(elf);
	if (!rel_maps)
		return 0;
	if (ehdr.e_ident[EI_DATA] != host_data || ehdr.e_ident[EI_CLASS] != ELFCLASS64)
		return lbk_error(obj, EINVAL,
				 "the lowered object is not a 64-bit object of this host's byte "
				 "order: its .maps relocations cannot be dropped");
	/* an empty relocation section: libbpf collects no relocation from it */
	memset((char *)image + ehdr.e_shoff + rel_maps * ehdr.e_shentsize +
		       offsetof(Elf64_Shdr, sh_size),
	       0, sizeof(((Elf64_Shdr *)0)->sh_size));
	return 0;
}

/* max_entries of each map that is a PROG_ARRAY (0 for the others), asked once */
static int prog_array_entries(struct bpfkeys_object *obj)
{
	if (obj->prog_array_entries || !obj->map_count)
		return 0;
	obj->prog_array_entries = lbk_calloc(obj, obj->map_count, sizeof(uint32_t));
	if (!obj->prog_array_entries)
		return -ENOMEM;
	for (size_t m = 0; m < obj->map_count; m++) {
		struct bpf_map_info info;
		uint32_t len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (bpf_obj_get_info_by_fd(obj->maps[m].fd, &info, &len)) {
			int err = lbk_error(obj, errno, "map '%s': %s", obj->maps[m].name,
					    strerror(errno));

			free(obj->prog_array_entries);
			obj->prog_array_entries = NULL;
			return err;
		}
		if (info.type == BPF_MAP_TYPE_PROG_ARRAY)
			obj->prog_array_entries[m] = info.max_entries;
	}
	return 0;
}

ssize_t lbk_plan_prog_arrays(struct bpfkeys_object *obj, const int *old_fd, const int *new_fd,
			     struct lbk_flip_step *steps, size_t capacity)
{
	uint32_t *old_id = NULL;
	size_t n = 0;
	int err = prog_array_entries(obj);

	if (err)
		return err;
	for (size_t m = 0; m < obj->map_count; m++) {
		if (!obj->prog_array_entries[m])
			continue;
		if (!old_id) { /* the ids of the replaced programs' current versions */
			old_id = lbk_calloc(obj, obj->program_count, sizeof(*old_id));
			if (!old_id)
				return -ENOMEM;
			for (size_t p = 0; p < obj->program_count; p++) {
				struct bpf_prog_info prog;
				uint32_t plen = sizeof(prog);

				memset(&prog, 0, sizeof(prog));
				if (old_fd[p] >= 0 &&
				    !bpf_obj_get_info_by_fd(old_fd[p], &prog, &plen))
					old_id[p] = prog.id;
			}
		}
		for (uint32_t i = 0; i < obj->prog_array_entries[m]; i++) {
			uint32_t id;

			/* from user space an entry reads as the id of its program */
			if (bpf_map_lookup_elem(obj->maps[m].fd, &i, &id)) {
				if (errno == ENOENT)
					continue;
				free(old_id);
				return lbk_error(obj, errno, "prog array '%s' [%u]: %s",
						 obj->maps[m].name, i, strerror(errno));
			}
			for (size_t p = 0; p < obj->program_count; p++) {
				if (!old_id[p] || old_id[p] != id)
					continue;
				if (steps && n < capacity)
					steps[n] = (struct lbk_flip_step){
						.kind = LBK_STEP_PROG_ARRAY,
						.program = p,
						.map_fd = obj->maps[m].fd,
						.index = i,
						.old_fd = old_fd[p],
						.new_fd = new_fd[p],
					};
				n++;
			}
		}
	}
	free(old_id);
	return (ssize_t)n;
}
