/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Command lines as words, with no shell: a workload recipe's command and
 * server, --server, and a command tracer's start line.
 */
#ifndef LB_WORDS_H
#define LB_WORDS_H

#define LB_WORDS_MAX 64		/* words in one command line at most */

/*
 * lb_words_split - the words of @s into *@argv (allocated, NULL-terminated):
 * split on blanks; '...' keeps what it quotes as it is (blanks, an empty
 * word); "{recipe}" outside quotes becomes @recipe_dir (NULL: left as it
 * is). No shell: nothing else is special. Returns the number of words, or
 * -EINVAL (none, an unclosed quote, more than LB_WORDS_MAX) or -ENOMEM.
 */
int lb_words_split(const char *s, const char *recipe_dir, char ***argv);

/*
 * lb_words_subst - replace every @key (e.g. "{pid}") in every word of
 * @argv, quoted or not, with @val. Returns how many words changed, or
 * -ENOMEM.
 */
int lb_words_subst(char **argv, const char *key, const char *val);

/* lb_words_free - free what lb_words_split() made; NULL is fine. */
void lb_words_free(char **argv);

#endif
