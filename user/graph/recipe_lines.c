// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/array_grow.h"
#include "util/text_cmp.h"
#include "graph/recipe_lines.h"
#include "model/file_words.h"
#include "model/shell_words.h"
#include "model/tool_kind.h"

/* A file word of a child's argv, and the child's position among make's children. */
struct word {
	const char *at;
	size_t len;
	size_t pos;
	bool command; /* a shell's command word: a tool the line runs, not a file it makes */
};

static int by_text(const struct word *x, const struct word *y)
{
	return text_cmp(x->at, x->len, y->at, y->len);
}

static int by_text_pos(const void *a, const void *b)
{
	const struct word *x = a, *y = b;
	int c = by_text(x, y);

	return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Appends the file words of p's images' argv (argv[0] left out) to *words as of pos.  0, or -ENOMEM. */
static int add_file_words(const struct proc_instance *p, size_t pos, struct word **words, size_t *nr, size_t *cap)
{
	size_t x, k;

	for (x = 0; x < p->nr_execs; x++) {
		for (k = 1; k < p->execs[x].argc; k++) {
			const char *w = p->execs[x].argv[k];
			bool command = true;

			while (*w) {
				size_t len = shell_word_end(w, SHELL_SPLIT_NAMES) - w;

				if (len && file_word(w, len, FILE_WORD_PATH)) {
					if (array_grow((void **)words, cap, *nr + 1, sizeof(**words)))
						return -ENOMEM;
					(*words)[(*nr)++] = (struct word){ w, len, pos, command };
				}
				if (len)
					command = false;
				else if (strchr(";&|(`{\n", *w))
					command = true;
				w += len ? len : 1;
			}
		}
	}
	return 0;
}

/* Where w's text starts in all[0, nr) (by text, then position): its first position's entry. */
static size_t text_at(const struct word *all, size_t nr, const struct word *w)
{
	size_t lo = 0, hi = nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (by_text(&all[mid], w) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int by_text_only(const void *a, const void *b)
{
	return by_text(a, b);
}

/* Where a file word's stem lies: its directory, and its name after any leading dots up to the next dot. */
struct stem {
	size_t dir_at, dir_len, core_at, core_len;
};

static struct stem stem_of(const struct word *w)
{
	struct stem s = { 0, w->len, 0, 0 };
	size_t end;

	while (s.dir_len > 0 && w->at[s.dir_len - 1] != '/')
		s.dir_len--;
	for (s.core_at = s.dir_len; s.core_at < w->len && w->at[s.core_at] == '.'; s.core_at++)
		;
	for (end = s.core_at; end < w->len && w->at[end] != '.'; end++)
		;
	s.core_len = end - s.core_at;
	/* ./lib/x.in.h and lib/x.h lie in one directory */
	for (; s.dir_len - s.dir_at >= 2 && w->at[s.dir_at] == '.' && w->at[s.dir_at + 1] == '/'; s.dir_at += 2)
		;
	return s;
}

/* Whether a and b name the same stem: mm/.a.o.cmd, mm/a.o and mm/a.c do; x.Tpo and x.Po do. */
static bool same_stem(const struct word *a, const struct word *b)
{
	struct stem x = stem_of(a), y = stem_of(b);

	return x.dir_len - x.dir_at == y.dir_len - y.dir_at && x.core_len == y.core_len &&
	       !memcmp(a->at + x.dir_at, b->at + y.dir_at, x.dir_len - x.dir_at) &&
	       !memcmp(a->at + x.core_at, b->at + y.core_at, x.core_len);
}

/* A temporary file named for a target: the target's name and a short suffix (x.h-t, x.ct, x.tmp). */
#define TEMP_SUFFIX_MAX 4

/* Whether a and b name one file, or one names a temporary file named for the other. */
static bool one_file(const struct word *a, const struct word *b)
{
	const struct word *s = a->len <= b->len ? a : b, *l = a->len <= b->len ? b : a;

	return l->len - s->len <= TEMP_SUFFIX_MAX && !memcmp(s->at, l->at, s->len) &&
	       !memchr(l->at + s->len, '/', l->len - s->len);
}

/*
 * Whether x and y name a file in common, not as the tool a line runs (or
 * one a temporary file named for the other); of new's stem when new.
 */
static bool name_in_common(const struct word *x, size_t nx, const struct word *y, size_t ny, const struct word *new)
{
	size_t i, j;

	for (i = 0; i < nx; i++)
		for (j = 0; j < ny && !x[i].command; j++)
			if (!y[j].command && one_file(&x[i], &y[j]) && (!new || same_stem(&y[j], new)))
				return true;
	return false;
}

/*
 * Whether child p, of words y[0, ny), is the line after a child of words
 * x[0, nx) (each by text): the two name a file in common, not as the tool
 * a line runs ($@, or a file named for it), and each file p names that no
 * child before it named has the stem of one they share: a recipe's later
 * line may name a file made from $@ or $* (the `mv -f x.Tpo x.Po` of
 * automake, kbuild's .x.o.cmd), its first line names a target of its own.
 * all: every child's words, by text then position.
 */
static bool next_line(const struct word *x, size_t nx, const struct word *y, size_t ny, const struct word *all,
		      size_t nr, size_t p)
{
	size_t j;

	if (!name_in_common(x, nx, y, ny, NULL))
		return false;
	for (j = 0; j < ny; j++)
		if (!y[j].command && all[text_at(all, nr, &y[j])].pos == p && !name_in_common(x, nx, y, ny, &y[j]))
			return false;
	return true;
}

/* One make's children, by position among them. */
struct siblings {
	const struct model *m;
	const __u32 *procs; /* model->procs index of each position */
};

static __u64 end_at(const struct siblings *sib, size_t pos)
{
	return sib->m->procs[sib->procs[pos]].end_ns;
}

static int by_end(const void *a, const void *b, void *siblings)
{
	__u64 x = end_at(siblings, *(const size_t *)a), y = end_at(siblings, *(const size_t *)b);

	return x < y ? -1 : x > y;
}

/* How many of the positions ended[0, n) (by end) had ended by ts. */
static size_t ended_by(const struct siblings *sib, const size_t *ended, size_t n, __u64 ts)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (end_at(sib, ended[mid]) <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Which children of a make are later lines of a recipe.  make runs each
 * line in its own shell, the next when it reaps the one before, in the
 * same slot; the records do not show where one recipe ends and the next
 * target's begins in that slot.  make reaps every child that has ended,
 * forking each one's next line at once, before it starts a new recipe: so
 * c2 is the line after c1 when c1 ended before make forked c2 and after
 * make last forked a first line, no later line follows c1 yet, and c1 is
 * the latest such child whose words next_line() accepts (a recipe's lines
 * name its target, $@; its first line names it first).  The tools the
 * lines run (a shell's command words) are not files they name.
 */
static int recipe_lines(const struct model *m, const __u32 *child_off, const __u32 *children, const bool *is_make,
			__s32 *line_before)
{
	struct word *all = NULL, *own = NULL;
	size_t i, k, cap_all = 0, cap_own = 0, cap_off = 0, cap_ended = 0, cap_next = 0, *off = NULL, *ended = NULL;
	bool *has_next = NULL;
	int err = 0;

	for (i = 0; i < m->nr_procs && !err; i++) {
		size_t from = child_off[i], to = child_off[i + 1], nr = 0, first;
		struct siblings sib = { m, children + from };

		if (!is_make[i] || to - from < 2)
			continue;
		/* Each child's words, by text, at off[pos]; all of them again by text then position. */
		if (array_grow((void **)&off, &cap_off, to - from + 1, sizeof(*off)) ||
		    array_grow((void **)&ended, &cap_ended, to - from, sizeof(*ended)) ||
		    array_grow((void **)&has_next, &cap_next, to - from, sizeof(*has_next))) {
			err = -ENOMEM;
			break;
		}
		for (k = from; k < to && !err; k++) {
			off[k - from] = nr;
			err = add_file_words(&m->procs[children[k]], k - from, &own, &nr, &cap_own);
			if (nr > off[k - from])
				qsort(own + off[k - from], nr - off[k - from], sizeof(*own), by_text_only);
		}
		off[to - from] = nr;
		if (err || array_grow((void **)&all, &cap_all, nr + 1, sizeof(*all))) {
			err = -ENOMEM;
			break;
		}
		for (k = 0; k < nr; k++)
			all[k] = own[k];
		qsort(all, nr, sizeof(*all), by_text_pos);
		/* The children's positions by end. */
		for (k = 0; k < to - from; k++) {
			ended[k] = k;
			has_next[k] = false;
		}
		qsort_r(ended, to - from, sizeof(*ended), by_end, &sib);
		for (k = from + 1, first = from; k < to; k++) {
			size_t p = k - from, e = ended_by(&sib, ended, to - from, m->procs[children[k]].start_ns);

			while (e-- > 0 && end_at(&sib, ended[e]) > m->procs[children[first]].start_ns) {
				size_t q = ended[e];

				if (q >= p || has_next[q] ||
				    !next_line(own + off[q], off[q + 1] - off[q], own + off[p], off[p + 1] - off[p], all, nr, p))
					continue;
				line_before[children[k]] = (__s32)children[from + q];
				has_next[q] = true;
				break;
			}
			if (line_before[children[k]] < 0)
				first = k;
		}
	}
	free(all);
	free(own);
	free(off);
	free(ended);
	free(has_next);
	return err;
}

/*
 * Each process's order_before: a recipe's line before, or for a child of
 * a parent that runs no jobs (a shell, a script: one command after
 * another in its own order, no slots) the child that ended last by its
 * fork.  One sweep per parent over its children by start and by end.
 */
static int program_order(const struct model *m, const __u32 *child_off, const __u32 *children,
			 const __s32 *line_before, __s32 *order_before)
{
	size_t i, k, cap = 0, *ended = NULL;

	for (i = 0; i < m->nr_procs; i++) {
		size_t from = child_off[i], to = child_off[i + 1], e = 0;
		struct siblings sib = { m, children + from };
		long last = -1;

		for (k = from; k < to; k++)
			order_before[children[k]] = line_before[children[k]];
		if (tool_kind__is_runner(tool_kind__lookup(m->procs[i].comm)) || to - from < 2)
			continue;
		if (array_grow((void **)&ended, &cap, to - from, sizeof(*ended))) {
			free(ended);
			return -ENOMEM;
		}
		for (k = 0; k < to - from; k++)
			ended[k] = k;
		qsort_r(ended, to - from, sizeof(*ended), by_end, &sib);
		for (k = from; k < to; k++) {
			for (; e < to - from && end_at(&sib, ended[e]) <= m->procs[children[k]].start_ns; e++)
				last = (long)children[from + ended[e]];
			order_before[children[k]] = last;
		}
	}
	free(ended);
	return 0;
}

int recipe_lines__find(const struct model *m, const __u32 *child_off, const __u32 *children, const bool *is_make,
		       __s32 *line_before, __s32 *order_before)
{
	size_t i;

	for (i = 0; i < m->nr_procs; i++)
		line_before[i] = order_before[i] = -1;
	return recipe_lines(m, child_off, children, is_make, line_before) ?:
	       program_order(m, child_off, children, line_before, order_before);
}
