// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* The linker state and the per-object pipeline: read, merge sections,
 * resolve symbols, merge relocations, merge BTF and .BTF.ext. */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

int linker_init(struct linker *linker)
{
	size_t null_symbol;

	memset(linker, 0, sizeof(*linker));
	linker->sections = calloc(1, sizeof(*linker->sections));
	if (!linker->sections)
		return elfobj_error(NULL, NULL, "out of memory");
	linker->section_count = linker->section_capacity = 1;
	if (elfobj_strtab_init(&linker->strtab) ||
	    name_map_init(&linker->global_names, &linker->strtab) ||
	    output_symbol_add(linker, &null_symbol))
		return -1;
	linker->btf = btf__new_empty();
	if (libbpf_get_error(linker->btf)) {
		linker->btf = NULL;
		return elfobj_error(NULL, NULL, "cannot create BTF");
	}
	return 0;
}

void linker_free(struct linker *linker)
{
	size_t i;
	int b;

	for (i = 1; i < linker->section_count; i++) {
		struct output_section *sec = &linker->sections[i];

		free(sec->name);
		free(sec->data);
		free(sec->relocations);
		free(sec->vars);
		for (b = 0; b < BTF_EXT_BLOCK_COUNT; b++)
			free(sec->btf_ext[b].records);
	}
	free(linker->sections);
	name_index_free(&linker->section_names);
	free(linker->symbols);
	free(linker->globals);
	free(linker->pending_types);
	name_map_free(&linker->global_names);
	elfobj_strtab_free(&linker->strtab);
	btf__free(linker->btf);
}

int link_input_object(struct linker *linker, const char *path)
{
	struct input_object obj;
	int err;

	err = input_object_open(&obj, path);
	err = err ? err : merge_section_data(linker, &obj);
	err = err ? err : resolve_symbols(linker, &obj);
	err = err ? err : merge_relocations(linker, &obj);
	err = err ? err : merge_btf(linker, &obj);
	err = err ? err : merge_btf_ext(linker, &obj);
	input_object_close(&obj);
	return err;
}
