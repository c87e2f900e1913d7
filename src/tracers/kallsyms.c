// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/kallsyms: "ffffffff81000000 T _stext", a module's symbols followed by
 * "\t[module]". Only function symbols (types t, T, w, W) are kept: kprobes
 * go on code. Without root the addresses read as zeros; the names are still
 * there, which is all the name checks need (a function's size needs them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms.h"
#include "util.h"

#define LB_KALLSYMS_MAX		(256u << 20)	/* a distribution kernel's is ~10 MiB */
#define LB_KALLSYMS_NEAR_MAX	4

struct lb_ksym {
	char *name;		/* into text */
	unsigned long addr;	/* 0 when hidden (not root, kptr_restrict) */
};

struct lb_kallsyms {
	char *text;		/* the file, names NUL-terminated in place */
	struct lb_ksym *sym;	/* sorted by name */
	size_t n;
	unsigned long *addrs;	/* every function's address, ascending: where the next one starts */
};

static int cmp_names(const void *a, const void *b)
{
	return strcmp(((const struct lb_ksym *)a)->name, ((const struct lb_ksym *)b)->name);
}

static int cmp_addrs(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* The first name >= @key. */
static size_t lower_bound(const struct lb_kallsyms *ks, const char *key)
{
	size_t lo = 0, hi = ks->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(ks->sym[mid].name, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int lb_kallsyms_load(const char *path, struct lb_kallsyms **out)
{
	struct lb_kallsyms *ks;
	size_t cap = 0, len;
	char *line, *next;
	int ret;

	*out = NULL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ret = lb_read_file(path ? path : LB_KALLSYMS_PATH, LB_KALLSYMS_MAX, &ks->text, &len);
	if (ret)
		goto err;
	for (line = ks->text; line && *line; line = next) {
		char *type, *name, *end;
		unsigned long addr = strtoul(line, NULL, 16);

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		type = strchr(line, ' ');
		if (!type || !type[1] || type[2] != ' ')
			continue;
		type++;
		if (!strchr("tTwW", *type))
			continue;
		name = type + 2;
		end = name + strcspn(name, " \t");
		*end = '\0';
		if (!*name)
			continue;
		if (ks->n == cap) {
			struct lb_ksym *grown;

			cap = cap ? cap * 2 : 4096;
			grown = realloc(ks->sym, cap * sizeof(*grown));
			if (!grown) {
				ret = -ENOMEM;
				goto err;
			}
			ks->sym = grown;
		}
		ks->sym[ks->n++] = (struct lb_ksym){ .name = name, .addr = addr };
	}
	qsort(ks->sym, ks->n, sizeof(*ks->sym), cmp_names);
	ks->addrs = malloc((ks->n ? ks->n : 1) * sizeof(*ks->addrs));
	if (!ks->addrs) {
		ret = -ENOMEM;
		goto err;
	}
	for (size_t i = 0; i < ks->n; i++)
		ks->addrs[i] = ks->sym[i].addr;
	qsort(ks->addrs, ks->n, sizeof(*ks->addrs), cmp_addrs);
	*out = ks;
	return 0;
err:
	lb_kallsyms_free(ks);
	return ret;
}

bool lb_kallsyms_has(const struct lb_kallsyms *ks, const char *name)
{
	size_t i = lower_bound(ks, name);

	return i < ks->n && !strcmp(ks->sym[i].name, name);
}

/* Append @name to the ", "-joined list in @buf unless it is there already. */
static int add_near(char *buf, size_t len, const char *name, int count)
{
	size_t used = strlen(buf), nlen = strlen(name);
	const char *p;

	for (p = strstr(buf, name); p; p = strstr(p + 1, name)) {
		if ((p == buf || p[-1] == ' ') && (p[nlen] == ',' || !p[nlen]))
			return count;
	}
	if (count >= LB_KALLSYMS_NEAR_MAX || used + nlen + 3 > len)
		return count;
	snprintf(buf + used, len - used, "%s%s", count ? ", " : "", name);
	return count + 1;
}

/* Add every function of @ks named @base followed by ".": its compiler clones. */
static int add_clones(const struct lb_kallsyms *ks, const char *base, char *buf, size_t len,
		      int count)
{
	char key[256];
	size_t i;

	if (snprintf(key, sizeof(key), "%s.", base) >= (int)sizeof(key))
		return count;
	for (i = lower_bound(ks, key); i < ks->n; i++) {
		if (strncmp(ks->sym[i].name, key, strlen(key)))
			break;
		count = add_near(buf, len, ks->sym[i].name, count);
	}
	return count;
}

int lb_kallsyms_near(const struct lb_kallsyms *ks, const char *name, char *buf, size_t len)
{
	char cand[256], base[256];
	const char *dot;
	int count = 0;

	if (!len)
		return 0;
	buf[0] = '\0';
	/* NAME without its clone suffix, and without its leading underscores. */
	snprintf(base, sizeof(base), "%s", name);
	dot = strchr(base, '.');
	if (dot && dot != base)
		base[dot - base] = '\0';
	if (strcmp(base, name) && lb_kallsyms_has(ks, base))
		count = add_near(buf, len, base, count);
	count = add_clones(ks, base, buf, len, count);
	for (int under = 1; under <= 2; under++) {
		/* Truncation is fine: a cut name matches nothing. */
		if (snprintf(cand, sizeof(cand), "%.*s%.*s", under, "__",
			     (int)(sizeof(cand) - 3), base) < 0)
			continue;
		if (lb_kallsyms_has(ks, cand))
			count = add_near(buf, len, cand, count);
		count = add_clones(ks, cand, buf, len, count);
	}
	for (const char *b = base; *b == '_'; b++) {
		if (b[1] && lb_kallsyms_has(ks, b + 1))
			count = add_near(buf, len, b + 1, count);
	}
	return count;
}

int lb_kallsyms_size(const struct lb_kallsyms *ks, const char *name, unsigned long *size)
{
	size_t i = lower_bound(ks, name), lo = 0, hi = ks->n;
	unsigned long addr;

	if (i >= ks->n || strcmp(ks->sym[i].name, name))
		return -ENOENT;
	addr = ks->sym[i].addr;
	if (!addr)
		return -ENODATA;
	/* The first function address above @addr. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (ks->addrs[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo >= ks->n)
		return -ENODATA;
	*size = ks->addrs[lo] - addr;
	return 0;
}

int lb_kallsyms_check_probe(struct lb_kallsyms **ks, const char *where, const char *what,
			    const char *symbol, unsigned long offset, char *err, size_t len)
{
	unsigned long size;
	char near[512];
	int ret;

	if (!*ks) {
		ret = lb_kallsyms_load(NULL, ks);
		if (ret) {
			snprintf(err, len, "%s: cannot read %s to check kernel symbol %s: %s", where,
				 LB_KALLSYMS_PATH, symbol, strerror(-ret));
			return ret;
		}
	}
	if (!lb_kallsyms_has(*ks, symbol)) {
		lb_kallsyms_near(*ks, symbol, near, sizeof(near));
		snprintf(err, len, "%s: unknown kernel symbol %s%s%s: %s has no function of that "
			 "name%s%s", where, symbol, what ? " for " : "", what ? what : "",
			 LB_KALLSYMS_PATH, near[0] ? "; this kernel has: " : "", near);
		return -ENOENT;
	}
	/* Past the function's end is another function: refused here, as the kernel cannot. */
	if (offset && !lb_kallsyms_size(*ks, symbol, &size) && offset >= size) {
		snprintf(err, len, "%s: %s+%lu is past the end of %s, which is %lu bytes long "
			 "(%s): give an offset inside it", where, symbol, offset, symbol, size,
			 LB_KALLSYMS_PATH);
		return -ERANGE;
	}
	return 0;
}

const char *lb_kprobe_refusal(int err, unsigned long offset)
{
	if (offset && (err == -EILSEQ || err == -EINVAL))
		return " (the kernel refuses a kprobe that is not on an instruction boundary, or "
		       "that falls inside the function's fentry call: give an offset where an "
		       "instruction starts, as objdump -d of the function shows)";
	return " (is the function on the kprobe blacklist, or notrace?)";
}

size_t lb_kallsyms_count(const struct lb_kallsyms *ks)
{
	return ks->n;
}

void lb_kallsyms_free(struct lb_kallsyms *ks)
{
	if (!ks)
		return;
	free(ks->sym);
	free(ks->addrs);
	free(ks->text);
	free(ks);
}
