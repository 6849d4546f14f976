/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * Building blocks for hand-made .static_keys entries in the validation
 * tests: ENTRY(SITE, TARGET, FLAGS) is the header's entry with each part
 * spelled out, so a test can get exactly one part wrong. Operand 0 is the key.
 */
#define ENTRY(SITE, TARGET, FLAGS)			\
	".pushsection .static_keys, \"aw\"\n\t"		\
	".balign 8\n\t"					\
	".long " SITE " - .\n\t"			\
	".long " TARGET " - .\n\t"			\
	".quad %c0 - . + " #FLAGS "\n\t"		\
	".popsection\n\t"
