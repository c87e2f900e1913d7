// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A minimal reader of Elf64 symbol tables with <elf.h>: the file is mapped
 * read-only, every offset and size is checked against its length, and a
 * function's address is turned into a file offset through the PT_LOAD
 * segment that holds it. (libelf would do the same in more lines of setup and
 * one more build dependency.)
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsym.h"
#include "util.h"

#define LB_NEAR_MAX	3

struct elf_file {
	const unsigned char *data;
	size_t size;
	const Elf64_Ehdr *eh;
};

/* Whether [off, off + n * size) lies inside the file. */
static bool in_file(const struct elf_file *f, uint64_t off, uint64_t n, uint64_t size)
{
	return off <= f->size && (!size || n <= (f->size - off) / size);
}

/* Keep the LB_NEAR_MAX closest names; ties keep the first seen. */
static void near_add(const char **best, int *dist, const char *cand, int d)
{
	int pos = 0;

	while (pos < LB_NEAR_MAX && best[pos] && dist[pos] <= d) {
		if (!strcmp(best[pos], cand))
			return;
		pos++;
	}
	if (pos == LB_NEAR_MAX)
		return;
	for (int k = LB_NEAR_MAX - 1; k > pos; k--) {
		best[k] = best[k - 1];
		dist[k] = dist[k - 1];
	}
	best[pos] = cand;
	dist[pos] = d;
}

/*
 * File offset of address @addr through the PT_LOAD segments (@code: the
 * executable ones only, for code); -ENOEXEC when in none.
 */
static int addr_to_offset(const struct elf_file *f, uint64_t addr, bool code, uint64_t *offset)
{
	const Elf64_Ehdr *eh = f->eh;
	const Elf64_Phdr *ph;

	if (eh->e_phentsize != sizeof(*ph) || !in_file(f, eh->e_phoff, eh->e_phnum, sizeof(*ph)))
		return -ENOEXEC;
	ph = (const Elf64_Phdr *)(f->data + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++) {
		if (ph[i].p_type != PT_LOAD || (code && !(ph[i].p_flags & PF_X)))
			continue;
		if (addr >= ph[i].p_vaddr && addr - ph[i].p_vaddr < ph[i].p_filesz) {
			*offset = addr - ph[i].p_vaddr + ph[i].p_offset;
			return 0;
		}
	}
	return -ENOEXEC;
}

/*
 * Look @name up in the symbol table of section @sh. Returns 0 with its
 * offset, -ENOENT (collecting near matches), or -ENOEXEC for a bad table.
 */
static int search_symtab(const struct elf_file *f, const Elf64_Shdr *shdrs, int idx,
			 const char *name, uint64_t *offset, const char **best, int *dist)
{
	const Elf64_Shdr *sh = &shdrs[idx], *strsh;
	int limit = (int)strlen(name) / 3 + 2;
	const Elf64_Sym *syms;
	const char *strtab;
	uint64_t n;

	if (sh->sh_entsize != sizeof(Elf64_Sym) || sh->sh_link >= f->eh->e_shnum ||
	    !in_file(f, sh->sh_offset, 1, sh->sh_size))
		return -ENOEXEC;
	strsh = &shdrs[sh->sh_link];
	if (!in_file(f, strsh->sh_offset, 1, strsh->sh_size) || !strsh->sh_size ||
	    f->data[strsh->sh_offset + strsh->sh_size - 1] != '\0')
		return -ENOEXEC;
	syms = (const Elf64_Sym *)(f->data + sh->sh_offset);
	strtab = (const char *)f->data + strsh->sh_offset;
	n = sh->sh_size / sizeof(Elf64_Sym);
	for (uint64_t i = 0; i < n; i++) {
		const char *sname;

		if (ELF64_ST_TYPE(syms[i].st_info) != STT_FUNC || syms[i].st_shndx == SHN_UNDEF ||
		    !syms[i].st_value || syms[i].st_name >= strsh->sh_size)
			continue;
		sname = strtab + syms[i].st_name;
		if (!strcmp(sname, name))
			return addr_to_offset(f, syms[i].st_value, true, offset);
		if (strstr(sname, name) || strstr(name, sname)) {
			near_add(best, dist, sname, 1);
		} else {
			int d = lb_edit_distance(name, sname);

			if (d <= limit)
				near_add(best, dist, sname, d);
		}
	}
	return -ENOENT;
}

/* Map @path read-only into @f; 0, -ENOEXEC (not a 64-bit ELF file) or -errno. */
static int elf_open(const char *path, struct elf_file *f)
{
	const Elf64_Ehdr *eh;
	struct stat st;
	void *map;
	int fd, ret = -ENOEXEC;

	memset(f, 0, sizeof(*f));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode) || (size_t)st.st_size < sizeof(Elf64_Ehdr))
		goto out;
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	f->data = map;
	f->size = (size_t)st.st_size;
	f->eh = eh = map;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !in_file(f, eh->e_shoff, eh->e_shnum, sizeof(Elf64_Shdr))) {
		munmap(map, f->size);
		f->data = NULL;
		goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

static void elf_close(struct elf_file *f)
{
	if (f->data)
		munmap((void *)f->data, f->size);
	f->data = NULL;
}

int lb_elf_func_offset(const char *path, const char *name, uint64_t *offset, char *near,
		       size_t nearlen)
{
	struct elf_file f;
	const char *best[LB_NEAR_MAX] = { NULL };
	int dist[LB_NEAR_MAX] = { 0 };
	const Elf64_Shdr *shdrs;
	bool have_symtab = false;
	size_t off = 0;
	int ret;

	if (nearlen)
		near[0] = '\0';
	ret = elf_open(path, &f);
	if (ret)
		return ret;
	shdrs = (const Elf64_Shdr *)(f.data + f.eh->e_shoff);
	/* .symtab has every function; .dynsym (all a stripped binary keeps) only exported ones. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < f.eh->e_shnum; i++) {
			if (shdrs[i].sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			have_symtab = true;
			ret = search_symtab(&f, shdrs, i, name, offset, best, dist);
			if (ret != -ENOENT)
				goto out;
		}
	}
	ret = have_symtab ? -ENOENT : -ENOEXEC;
	for (int k = 0; k < LB_NEAR_MAX && best[k] && off < nearlen; k++)
		off += (size_t)snprintf(near + off, nearlen - off, "%s%s", k ? ", " : "", best[k]);
out:
	elf_close(&f);
	return ret;
}

/* The section named @want, or NULL. */
static const Elf64_Shdr *section(const struct elf_file *f, const char *want)
{
	const Elf64_Shdr *shdrs = (const Elf64_Shdr *)(f->data + f->eh->e_shoff), *strsh;

	if (f->eh->e_shstrndx >= f->eh->e_shnum)
		return NULL;
	strsh = &shdrs[f->eh->e_shstrndx];
	if (!in_file(f, strsh->sh_offset, 1, strsh->sh_size))
		return NULL;
	for (int i = 0; i < f->eh->e_shnum; i++) {
		uint64_t n = shdrs[i].sh_name;

		if (n < strsh->sh_size && strsh->sh_size - n > strlen(want) &&
		    !memcmp(f->data + strsh->sh_offset + n, want, strlen(want) + 1))
			return &shdrs[i];
	}
	return NULL;
}

#define LB_NT_STAPSDT 3		/* sys/sdt.h's note type, owner "stapsdt" */

int lb_elf_usdt(const char *path, const char *provider, const char *name,
		struct lb_usdt_site *sites, int max, char *near, size_t nearlen)
{
	const Elf64_Shdr *notes, *base_sh;
	struct elf_file f;
	uint64_t pos, end;
	size_t off = 0;
	int n = 0, nnear = 0, ret;

	if (nearlen)
		near[0] = '\0';
	ret = elf_open(path, &f);
	if (ret)
		return ret;
	notes = section(&f, ".note.stapsdt");
	base_sh = section(&f, ".stapsdt.base");
	if (!notes || !in_file(&f, notes->sh_offset, 1, notes->sh_size)) {
		ret = notes ? -ENOEXEC : -ENOENT;
		goto out;
	}
	pos = notes->sh_offset;
	end = notes->sh_offset + notes->sh_size;
	while (end - pos >= sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *nh = (const void *)(f.data + pos);
		uint64_t namesz = (nh->n_namesz + 3) & ~3ULL, descsz = (nh->n_descsz + 3) & ~3ULL;
		const char *desc = (const char *)f.data + pos + sizeof(*nh) + namesz;
		const char *prov, *mark, *dend;
		uint64_t pc, base, sem;

		if (namesz > end - pos - sizeof(*nh) || descsz > end - pos - sizeof(*nh) - namesz) {
			ret = -ENOEXEC;
			goto out;
		}
		pos += sizeof(*nh) + namesz + descsz;
		if (nh->n_type != LB_NT_STAPSDT || nh->n_namesz != sizeof("stapsdt") ||
		    memcmp(f.data + (pos - descsz - namesz), "stapsdt", sizeof("stapsdt")) ||
		    nh->n_descsz < 3 * sizeof(uint64_t) + 3)
			continue;
		dend = desc + nh->n_descsz;
		memcpy(&pc, desc, sizeof(pc));
		memcpy(&base, desc + 8, sizeof(base));
		memcpy(&sem, desc + 16, sizeof(sem));
		prov = desc + 24;
		mark = memchr(prov, '\0', (size_t)(dend - prov));
		if (!mark++ || !memchr(mark, '\0', (size_t)(dend - mark)))
			continue;	/* not NUL-terminated: not a marker */
		if (strcmp(prov, provider) || strcmp(mark, name)) {
			if (nnear < LB_NEAR_MAX && off < nearlen && !strstr(near, mark)) {
				off += (size_t)snprintf(near + off, nearlen - off, "%s%s:%s",
							nnear ? ", " : "", prov, mark);
				nnear++;
			}
			continue;
		}
		/* Prelinked or not: the note's addresses move with .stapsdt.base. */
		if (base_sh && base) {
			pc += base_sh->sh_addr - base;
			if (sem)
				sem += base_sh->sh_addr - base;
		}
		if (n < max) {
			ret = addr_to_offset(&f, pc, true, &sites[n].offset);
			if (!ret)
				ret = sem ? addr_to_offset(&f, sem, false, &sites[n].sem_offset) : 0;
			if (!sem)
				sites[n].sem_offset = 0;
			if (ret)
				goto out;
		}
		n++;
	}
	ret = n ? n : -ENOENT;
out:
	elf_close(&f);
	return ret;
}
