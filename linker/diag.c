// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* Growable arrays; diagnostics are elfobj's (elfobj_error, elfobj/diag.c). */
#include <stdlib.h>
#include <string.h>
#include "bpfld.h"

bool bpfld_verbose;

int grow_array(void **array, size_t *capacity, size_t needed, size_t element_size)
{
	size_t new_capacity;
	void *grown;

	if (needed <= *capacity)
		return 0;
	new_capacity = *capacity ? *capacity : 16;
	while (new_capacity < needed)
		new_capacity *= 2;
	grown = realloc(*array, new_capacity * element_size);
	if (!grown)
		return elfobj_error(NULL, NULL, "out of memory");
	memset((char *)grown + *capacity * element_size, 0,
	       (new_capacity - *capacity) * element_size);
	*array = grown;
	*capacity = new_capacity;
	return 0;
}
