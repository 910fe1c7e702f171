// SPDX-License-Identifier: GPL-2.0
/* Where every process and image ran (include/model/proc_dirs.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/paths.h"
#include "model/proc_dirs.h"
#include "model/shell_step.h"
#include "util/array_grow.h"

/* The directory of "cmake -E chdir dir …" or "cmake --build dir", or NULL. */
static const char *cmake_dir_change(const struct exec_image *img)
{
	if (img->argc > 2 && img->argv[1] && img->argv[2] && !strcmp(img->argv[1], "--build"))
		return img->argv[2];
	if (img->argc > 3 && img->argv[1] && img->argv[2] && img->argv[3] && !strcmp(img->argv[1], "-E") &&
	    !strcmp(img->argv[2], "chdir"))
		return img->argv[3];
	return NULL;
}

char *image_dir_after(const char *dir, const struct exec_image *img)
{
	char *out = strdup(dir), *next;
	const char *script, *file, *value, *rest;
	struct shell_cmd cmd = { 0 };
	enum tool_kind tool = image_tool(img);
	bool silent;
	size_t i;

	if (!out)
		return NULL;
	switch (tool) {
	case TOOL_MAKE:
	case TOOL_NINJA:
		for (i = 1; i < img->argc && img->argv[i]; i++) {
			value = image_option_value(img, &i, "-C", tool == TOOL_MAKE ? "--directory" : NULL);
			if (!value)
				continue;
			next = path_dir_resolve(out, value);
			free(out);
			out = next;
			if (!out)
				return NULL;
		}
		break;
	case TOOL_CMAKE:
		/* "cmake --build dir" chdir()s there to run make or ninja. */
		value = cmake_dir_change(img);
		if (value) {
			next = path_dir_resolve(out, value);
			free(out);
			out = next;
		}
		break;
	case TOOL_SHELL:
		shell_operand(img, &script, &file);
		if (script && shell_script_step(script, &out, &cmd, &rest, &silent) == -ENOMEM) {
			free(out);
			out = NULL;
		}
		shell_cmd__free(&cmd);
		break;
	default:
		break;
	}
	return out;
}

/*
 * Where every process and image ran, inferred once for the whole model:
 * naming each image by replaying its ancestors' directory changes cost
 * images x depth x path length.  Directories are shared: an image that
 * changes none keeps its predecessor's string.
 */
struct proc_dirs {
	/* dir[off[i]]: where procs[i] was forked (its parent's directory at
	 * the fork); dir[off[i] + k + 1]: where its image k leaves its children
	 * and its image k + 1 starts. */
	size_t *off;
	const char **dir;
	char **owned; /* the distinct strings dir[] points to */
	size_t nr_owned, cap_owned;
	/* Bytes of them kept, and the most kept: a directory is at most
	 * PATH_MAX long but may cost a 4-byte "cd d", so past a multiple of
	 * the command lines' own bytes, new directories are unknown. */
	size_t bytes, max_bytes;
	const char *unknown; /* "." */
	const char *top;     /* the recorded cwd, where untraced parents left their children */
	const char *build; /* the build's directory: the root's after its own changes */
	const char *source_root; /* proc_dirs__source_root() */
};

/* Keeps s (malloc'd, or NULL) as one of d's strings; NULL without memory. */
static const char *own_dir(struct proc_dirs *d, char *s)
{
	if (s && array_grow((void **)&d->owned, &d->cap_owned, d->nr_owned + 1, sizeof(*d->owned))) {
		free(s);
		return NULL;
	}
	if (s)
		d->owned[d->nr_owned++] = s;
	return s;
}

/*
 * The directory img leaves its children in, started in dir: dir itself
 * when it changes none, unknown past d's budget.
 */
static const char *dir_after_image(struct proc_dirs *d, const char *dir, const struct exec_image *img)
{
	char *after = image_dir_after(dir, img);

	if (after && (!strcmp(after, dir) || d->bytes + strlen(after) > d->max_bytes)) {
		const char *kept = strcmp(after, dir) ? d->unknown : dir;

		free(after);
		return kept;
	}
	if (after)
		d->bytes += strlen(after);
	return own_dir(d, after);
}

/* What proc_dirs keeps at most: 8 bytes per byte of command line, and 1 MiB. */
static size_t dirs_budget(const struct model *m)
{
	size_t bytes = 1 << 20, i, k, a;

	for (i = 0; i < m->nr_procs; i++)
		for (k = 0; k < m->procs[i].nr_execs; k++)
			for (a = 0; a < m->procs[i].execs[k].argc; a++)
				bytes += 8 * (m->procs[i].execs[k].argv[a] ? strlen(m->procs[i].execs[k].argv[a]) + 1 : 1);
	return bytes;
}

/* How far proc_dirs__new() got with a process. */
enum dirs_state { DIRS_TODO, DIRS_PENDING, DIRS_DONE };

/* libtool's directory for what it builds (its $objdir), where it makes a library's links. */
#define LIBTOOL_OBJDIR ".libs"

/*
 * The directory libtool's ln works in: libtool --mode=link makes a
 * library's links in a subshell, "(cd .libs && rm -f x.la && ln -s
 * ../x.la x.la)", a cd inside its script that no command line shows.
 * NULL when p is no ln of a libtool script run by up.
 */
static const char *libtool_ln_subdir(const struct exec_image *up, const struct proc_instance *p)
{
	const char *script, *file, *base;
	size_t i;

	if (!p->nr_execs || !p->execs[0].argc || !p->execs[0].argv[0])
		return NULL;
	base = strrchr(p->execs[0].argv[0], '/');
	if (strcmp(base ? base + 1 : p->execs[0].argv[0], "ln"))
		return NULL;
	shell_operand(up, &script, &file);
	base = file ? strrchr(file, '/') : NULL;
	if (!file || strcmp(base ? base + 1 : file, "libtool"))
		return NULL;
	for (i = 1; i < up->argc && up->argv[i]; i++)
		if (!strcmp(up->argv[i], "--mode=link"))
			return LIBTOOL_OBJDIR;
	return NULL;
}

/*
 * Where p, forked in dir by image k of its parent up, starts its first
 * image: dir, but the directory automake's loop (shell_loop_subdir()) cds
 * to for the make it is, the (*makes)-th of up's (counted here: children
 * are filled in order of start), or libtool's for its links
 * (libtool_ln_subdir()).  0 or -ENOMEM.
 */
static int subshell_dir(struct proc_dirs *d, const struct proc_instance *up, long k, const struct proc_instance *p,
			size_t *makes, const char **dir)
{
	const char *script, *file, *objdir;
	char *sub = NULL, *full;
	int err = 0;

	if (k < 0 || image_tool(&up->execs[k]) != TOOL_SHELL)
		return 0;
	objdir = libtool_ln_subdir(&up->execs[k], p);
	if (objdir) {
		sub = strdup(objdir);
		err = sub ? 0 : -ENOMEM;
	} else if (p->nr_execs && image_tool(&p->execs[0]) == TOOL_MAKE) {
		shell_operand(&up->execs[k], &script, &file);
		if (script)
			err = shell_loop_subdir(script, (*makes)++, &sub);
	}
	if (err || !sub)
		return err;
	full = path_dir_resolve(*dir, sub);
	free(sub);
	if (full && strcmp(full, *dir)) {
		*dir = own_dir(d, full);
		return *dir ? 0 : -ENOMEM;
	}
	free(full);
	return full ? 0 : -ENOMEM;
}

/*
 * Fills procs[i]'s directories from what it was forked in: its parent's,
 * when they are done, else (no parent traced, or a cycle in a model built
 * by hand) top.  makes[j]: how many makes of automake's loop procs[j]
 * started so far.  0 or -ENOMEM.
 */
static int fill_proc_dirs(struct proc_dirs *d, const struct model *m, size_t i, const char *top,
			  const unsigned char *state, size_t *makes)
{
	const struct proc_instance *p = &m->procs[i];
	const char **dir = &d->dir[d->off[i]];
	size_t k;

	dir[0] = top;
	if (p->parent >= 0 && (size_t)p->parent < m->nr_procs && state[p->parent] == DIRS_DONE) {
		const struct proc_instance *up = &m->procs[p->parent];
		long at = image_index_at(up, p->start_ns);

		dir[0] = d->dir[d->off[p->parent] + at + 1];
		if (subshell_dir(d, up, at, p, &makes[p->parent], &dir[0]))
			return -ENOMEM;
	}
	for (k = 0; k < p->nr_execs; k++) {
		dir[k + 1] = dir_after_image(d, dir[k], &p->execs[k]);
		if (!dir[k + 1])
			return -ENOMEM;
	}
	return 0;
}

void proc_dirs__free(struct proc_dirs *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < d->nr_owned; i++)
		free(d->owned[i]);
	free(d->owned);
	free(d->dir);
	free(d->off);
	free(d);
}

/*
 * The deepest directory *root (the build's or an ancestor) shares with the
 * source image k of p was given, when it is a compiler's and no temporary
 * nor in a scratch directory of its own.  0 or -ENOMEM.
 */
static int widen_root(struct proc_dirs *d, const struct model *m, const struct proc_instance *p, size_t k,
		      char **root)
{
	const struct exec_image *img = &p->execs[k];
	enum tool_kind tool = image_tool(img);
	const char *src;
	char *full, *common;
	size_t others;

	if (tool != TOOL_CC_DRIVER && tool != TOOL_CC_PROPER)
		return 0;
	src = image_sources(img, tool, &others);
	if (!src)
		return 0;
	full = path_resolve(proc_dirs__image_dir(d, m, p, k), src);
	if (!full)
		return -ENOMEM;
	if (path_is_under(full, *root) || path_is_temporary(full, d->build)) {
		free(full);
		return 0;
	}
	common = path_common_dir(*root, full);
	free(full);
	if (!common)
		return -ENOMEM;
	/* A scratch directory of its own in /tmp (config.guess's): no source of the build's tree. */
	if (path_is_temp_dir(common)) {
		free(common);
		return 0;
	}
	free(*root);
	*root = common;
	return 0;
}

/* How many directories below root the build's is ("a/b" from root: 2). */
static size_t levels_below(const char *build, const char *root)
{
	size_t n = strlen(root), levels = 0;

	for (build += n; *build; build++)
		levels += *build == '/' && build[1];
	return levels + (n == 1); /* under "/", the first component has no slash of its own before it */
}

/* proc_dirs__source_root() of d, the directories of m.  0 or -ENOMEM. */
static int find_source_root(struct proc_dirs *d, const struct model *m)
{
	char *root;
	size_t i, k;
	int err = 0;

	d->source_root = d->build;
	if (d->build[0] != '/')
		return 0;
	root = strdup(d->build);
	if (!root)
		return -ENOMEM;
	for (i = 0; !err && i < m->nr_procs; i++)
		for (k = 0; !err && k < m->procs[i].nr_execs; k++)
			err = widen_root(d, m, &m->procs[i], k, &root);
	/* Sharing only "/", or further up than names show "../": no root but the build's. */
	if (err || !strcmp(root, "/") || !strcmp(root, d->build) || levels_below(d->build, root) > PATH_MAX_UPS) {
		free(root);
		return err;
	}
	d->source_root = own_dir(d, root);
	return d->source_root ? 0 : -ENOMEM;
}

/* Parents before children. */
struct proc_dirs *proc_dirs__new(const struct model *m)
{
	struct proc_dirs *d = calloc(1, sizeof(*d));
	size_t n = m->nr_procs, i, nr = 0, *stack = NULL, *makes = NULL;
	unsigned char *state = NULL;
	const char *top;

	if (!d)
		return NULL;
	d->off = calloc(n + 1, sizeof(*d->off));
	for (i = 0; d->off && i < n; i++)
		d->off[i + 1] = d->off[i] + m->procs[i].nr_execs + 1;
	d->dir = d->off ? calloc(d->off[n] ? d->off[n] : 1, sizeof(*d->dir)) : NULL;
	stack = calloc(n ? n : 1, sizeof(*stack));
	state = calloc(n ? n : 1, sizeof(*state));
	makes = calloc(n ? n : 1, sizeof(*makes));
	/* "." stands for an unknown cwd */
	top = own_dir(d, path_dir_known(path_normalise(m->cwd ? m->cwd : ".")));
	d->unknown = own_dir(d, strdup("."));
	d->max_bytes = dirs_budget(m);
	if (!d->dir || !stack || !state || !makes || !top || !d->unknown)
		goto fail;
	for (i = 0; i < n; i++) {
		long a = (long)i;

		/* Its ancestors not done yet, then them top down. */
		while (a >= 0 && (size_t)a < n && state[a] == DIRS_TODO) {
			state[a] = DIRS_PENDING;
			stack[nr++] = (size_t)a;
			a = m->procs[a].parent;
		}
		while (nr > 0) {
			size_t j = stack[--nr];

			if (fill_proc_dirs(d, m, j, top, state, makes))
				goto fail;
			state[j] = DIRS_DONE;
		}
	}
	d->top = d->build = top;
	if (m->root >= 0 && (size_t)m->root < n)
		d->build = d->dir[d->off[m->root] + m->procs[m->root].nr_execs];
	if (find_source_root(d, m))
		goto fail;
	free(stack);
	free(state);
	free(makes);
	return d;
fail:
	free(stack);
	free(state);
	free(makes);
	proc_dirs__free(d);
	return NULL;
}

int proc_dirs__attach(struct model *m)
{
	struct proc_dirs *d = proc_dirs__new(m);

	if (!d)
		return -ENOMEM;
	if (m->dirs)
		m->free_dirs(m->dirs);
	m->dirs = d;
	m->free_dirs = proc_dirs__free;
	return 0;
}

const char *proc_dirs__image_dir(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p,
				 size_t k)
{
	bool in_model = p >= m->procs && p < m->procs + m->nr_procs;

	return in_model ? d->dir[d->off[p - m->procs] + k] : d->top;
}

const char *proc_dirs__build(const struct proc_dirs *d)
{
	return d->build;
}

const char *proc_dirs__source_root(const struct proc_dirs *d)
{
	return d->source_root;
}
