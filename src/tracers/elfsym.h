/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Function symbols of an ELF executable, for uprobes: uprobe_events takes
 * "PATH:0xOFFSET", the function's offset in the file, not its address.
 */
#ifndef LB_ELFSYM_H
#define LB_ELFSYM_H

#include <stddef.h>
#include <stdint.h>

/*
 * lb_elf_func_offset - the file offset of function @name in the 64-bit ELF
 * file @path, from its symbol table (.symtab, else .dynsym). Returns 0 and
 * sets *@offset; -ENOENT when there is no such function, with up to three
 * functions of similar names ", "-joined in @near (empty when none);
 * -ENOEXEC when @path is not a 64-bit ELF file or has no symbols (stripped);
 * or another -errno.
 */
int lb_elf_func_offset(const char *path, const char *name, uint64_t *offset, char *near,
		       size_t nearlen);

#endif
