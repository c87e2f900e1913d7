/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Function symbols and USDT markers of an ELF executable, for uprobes:
 * uprobe_events takes "PATH:0xOFFSET", the function's offset in the file,
 * not its address, and for a marker with a semaphore "(0xOFFSET)" of that.
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

/* One place of a USDT marker in the file (a marker used twice has two). */
struct lb_usdt_site {
	uint64_t offset;	/* of its nop, in the file */
	uint64_t sem_offset;	/* of its semaphore in the file; 0 = it has none */
};

/*
 * lb_elf_usdt - the sites of USDT marker @provider:@name in the 64-bit ELF
 * file @path, from its .note.stapsdt notes (SystemTap's sys/sdt.h), into
 * @sites (at most @max). Returns how many there are (which may be more than
 * @max); -ENOENT when there is none, with up to three markers of the file
 * ", "-joined as PROVIDER:NAME in @near (empty when it has none); -ENOEXEC
 * when @path is not a 64-bit ELF file or a note is damaged; or another
 * -errno.
 */
int lb_elf_usdt(const char *path, const char *provider, const char *name,
		struct lb_usdt_site *sites, int max, char *near, size_t nearlen);

#endif
