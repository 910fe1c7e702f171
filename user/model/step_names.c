// SPDX-License-Identifier: GPL-2.0
/* Step names a person can tell apart (include/model/step_names.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_name.h"
#include "model/name_text.h"
#include "model/proc_dirs.h"
#include "model/proc_index.h"
#include "model/step_names.h"
#include "model/step_tags.h"
#include "util/array_grow.h"
#include "util/str_key.h"
#include "util/utf8.h"

/*
 * Every name in one block of text, each NUL-terminated, found by its
 * offset: a million steps' names held as a million small allocations and
 * their pointers took over twice the room (malloc's headers and rounding).
 */
#define NO_NAME UINT32_MAX

struct step_names {
	char *text;
	size_t text_len, text_cap;
	__u32 *name_at;
	__u32 *image_at; /* proc_image_name()'s, where the name says more; NO_NAME: the name is it */
	size_t nr;
};

/* What tells two steps of one name apart, in the order it is tried. */
enum tell_apart { BY_MADE, BY_WRITTEN, BY_DIR, NR_TELL_APART };

struct step {
	struct proc_name_facts facts;
	char *written; /* the first file it wrote that is no temporary, shown; NULL: none known */
	char *name;    /* the name so far: facts.name until something tells it apart */
	__u64 key;     /* str_key(name), for the sort by name */
};

static const char *value_of(const struct step *s, enum tell_apart by)
{
	if (by == BY_MADE)
		return s->facts.made;
	return by == BY_WRITTEN ? s->written : s->facts.dir;
}

/* " > written", " in dir"; what a step makes is a tag of its own (tag_made()). */
static const char *separator(enum tell_apart by)
{
	return by == BY_WRITTEN ? " > " : " in ";
}

/*
 * s's name followed by sep and value, its own part cut so that the value
 * stays whole within the cap.  Unchanged when the value alone would not
 * fit.  0 or -ENOMEM.
 */
static int add_suffix(struct step *s, const char *sep, const char *value)
{
	char *clean = utf8_sanitize(value, strlen(value)), *named;
	size_t room;

	if (!clean)
		return -ENOMEM;
	room = strlen(sep) + strlen(clean);
	/* Room for the ellipsis and a few characters of the name. */
	if (room + 16 > NAME_MAX_BYTES) {
		free(clean);
		return 0;
	}
	named = malloc(strlen(s->name) + room + 1);
	if (named) {
		/* Cut in the copy: facts.name stays the process's name by itself. */
		strcpy(named, s->name);
		proc_name__make_room(named, room);
		strcat(named, sep);
		strcat(named, clean);
		if (s->name != s->facts.name)
			free(s->name);
		s->name = named;
	}
	free(clean);
	return named ? 0 : -ENOMEM;
}

/* Each step's first written file that is no temporary, from the file records. */
static int find_written(const struct model *m, const struct proc_dirs *d, const struct file_log *files,
			struct step *steps)
{
	struct proc_index *own;
	const struct proc_index *x = proc_index__of(m, &own);
	size_t i;
	int err = 0;

	if (!x)
		return -ENOMEM;
	for (i = 0; !err && i < files->nr_opens; i++) {
		const struct file_open *o = &files->opens[i];
		long k = o->write ? proc_index__at(x, o->tgid, o->ts_ns) : -1;

		if (k >= 0 && !steps[k].written)
			err = proc_name__file_shown(d, o->path, &steps[k].written);
	}
	proc_index__free(own);
	return err;
}

static int by_name(const void *x, const void *y, void *ctx)
{
	const struct step *steps = ctx;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return str_key_cmp(steps[a].key, steps[a].name, steps[b].key, steps[b].name) ?: (a > b) - (a < b);
}

static bool same_name(const struct step *a, const struct step *b)
{
	return !str_key_cmp(a->key, a->name, b->key, b->name);
}

/* Two values of a kind differ: a value and none do too. */
static bool values_differ(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) != 0 : a != b;
}

/*
 * The steps order[from, to), of one name, told apart by what they make:
 * " [tag]" (model/step_tags.h) on each whose output says something the
 * others' do not.  0 or -ENOMEM.
 */
static int tag_made(struct step *steps, const size_t *order, size_t from, size_t to)
{
	size_t n = to - from, i;
	const char **made = calloc(n, sizeof(*made));
	char **tags = calloc(n, sizeof(*tags));
	int err = made && tags ? 0 : -ENOMEM;

	for (i = 0; !err && i < n; i++)
		made[i] = steps[order[from + i]].facts.made;
	if (!err)
		err = step_tags(made, n, tags);
	for (i = 0; !err && i < n; i++) {
		char *bracketed = tags[i] ? name_join("[", tags[i], "]") : NULL;

		if (tags[i] && !bracketed)
			err = -ENOMEM;
		else if (bracketed)
			err = add_suffix(&steps[order[from + i]], " ", bracketed);
		free(bracketed);
	}
	for (i = 0; tags && i < n; i++)
		free(tags[i]);
	free(tags);
	free(made);
	return err;
}

/*
 * The steps order[from, to) share a name: each that has one gets the first
 * kind of thing that differs between at least two of them, when any does.
 * 0 or -ENOMEM.
 */
static int tell_apart(struct step *steps, const size_t *order, size_t from, size_t to)
{
	enum tell_apart by;
	size_t i;
	int err = 0;

	for (i = from; i < to; i++) {
		if (steps[order[i]].facts.alike)
			return 0;
	}
	for (by = 0; by < NR_TELL_APART; by++) {
		const char *first = value_of(&steps[order[from]], by);
		bool differs = false;

		for (i = from + 1; i < to && !differs; i++)
			differs = values_differ(first, value_of(&steps[order[i]], by));
		if (!differs)
			continue;
		if (by == BY_MADE)
			return tag_made(steps, order, from, to);
		for (i = from; !err && i < to; i++) {
			struct step *s = &steps[order[i]];

			if (value_of(s, by))
				err = add_suffix(s, separator(by), value_of(s, by));
		}
		return err;
	}
	return 0;
}

/* d: m's directories. */
static int name_steps(const struct model *m, const struct proc_dirs *d, const struct file_log *files,
		      struct step *steps, size_t *order)
{
	size_t n = m->nr_procs, i, end;
	int err = 0;

	for (i = 0; !err && i < n; i++) {
		err = proc_name__facts(m, d, &m->procs[i], &steps[i].facts);
		if (!err)
			steps[i].name = steps[i].facts.name;
	}
	if (!err && files)
		err = find_written(m, d, files, steps);
	for (i = 0; !err && i < n; i++) {
		if (steps[i].facts.bare && steps[i].written)
			err = add_suffix(&steps[i], separator(BY_WRITTEN), steps[i].written);
		order[i] = i;
		steps[i].key = str_key(steps[i].name);
	}
	if (err)
		return err;
	qsort_r(order, n, sizeof(*order), by_name, steps);
	for (i = 0; !err && i < n; i = end) {
		/* The keys are the sort's: tell_apart() renames only the group behind. */
		for (end = i + 1; end < n && same_name(&steps[order[end]], &steps[order[i]]); end++)
			;
		if (end - i > 1)
			err = tell_apart(steps, order, i, end);
	}
	return err;
}

/*
 * Where s, copied to the end of n's text, starts.  0 or -ENOMEM; the
 * offsets are 32-bit, so text past 4 GiB (tens of millions of steps) is
 * out of memory as well.
 */
static int keep_text(struct step_names *n, const char *s, __u32 *at)
{
	size_t len = strlen(s) + 1;

	if (n->text_len + len > NO_NAME || array_grow((void **)&n->text, &n->text_cap, n->text_len + len, 1))
		return -ENOMEM;
	memcpy(n->text + n->text_len, s, len);
	*at = (__u32)n->text_len;
	n->text_len += len;
	return 0;
}

struct step_names *step_names__new(const struct model *m, const struct file_log *files)
{
	struct step_names *names = calloc(1, sizeof(*names));
	size_t n = m->nr_procs, i;
	struct step *steps = calloc(n ? n : 1, sizeof(*steps));
	size_t *order = calloc(n ? n : 1, sizeof(*order));
	/* A model the replay did not finish has no directories yet: made here, once. */
	struct proc_dirs *made = m->dirs ? NULL : proc_dirs__new(m);
	const struct proc_dirs *d = m->dirs ? m->dirs : made;
	int err = names && steps && order && d ? 0 : -ENOMEM;

	if (!err) {
		names->name_at = malloc((n ? n : 1) * sizeof(*names->name_at));
		names->image_at = malloc((n ? n : 1) * sizeof(*names->image_at));
		names->nr = n;
		err = names->name_at && names->image_at ? name_steps(m, d, files, steps, order) : -ENOMEM;
	}
	for (i = 0; steps && i < n; i++) {
		bool told_apart = steps[i].name != steps[i].facts.name;

		if (!err) {
			names->image_at[i] = NO_NAME;
			err = keep_text(names, steps[i].name, &names->name_at[i]) ?:
			      (told_apart ? keep_text(names, steps[i].facts.name, &names->image_at[i]) : 0);
		}
		if (told_apart)
			free(steps[i].name);
		free(steps[i].written);
		proc_name_facts__free(&steps[i].facts);
	}
	free(steps);
	free(order);
	proc_dirs__free(made);
	if (err) {
		step_names__free(names);
		return NULL;
	}
	return names;
}

const char *step_names__of(const struct step_names *n, size_t proc)
{
	return proc < n->nr ? n->text + n->name_at[proc] : NULL;
}

const char *step_names__image_of(const struct step_names *n, size_t proc)
{
	if (proc >= n->nr)
		return NULL;
	return n->text + (n->image_at[proc] != NO_NAME ? n->image_at[proc] : n->name_at[proc]);
}

void step_names__free(struct step_names *n)
{
	if (!n)
		return;
	free(n->text);
	free(n->name_at);
	free(n->image_at);
	free(n);
}

int step_names__attach(struct model *m, const struct file_log *files)
{
	struct step_names *n = step_names__new(m, files);

	if (!n)
		return -ENOMEM;
	if (m->names)
		m->free_names(m->names);
	m->names = n;
	m->free_names = step_names__free;
	return 0;
}
