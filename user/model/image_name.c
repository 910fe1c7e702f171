// SPDX-License-Identifier: GPL-2.0
/*
 * Slice names are what a person scans a flame chart by, so they say which
 * step of the build a process was: the program and the file it works on,
 * as a path from the build's directory ("cc1 kernel/sched/core.c",
 * "as -o out/crc.o", "make -C lib"), short enough to fit a slice.
 * Everything else about a process goes in args.  How each tool names its
 * step is model/step_detail.c; where each process ran, model/proc_dirs.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/go_names.h"
#include "model/image_args.h"
#include "model/image_name.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "model/probes.h"
#include "model/proc_dirs.h"
#include "model/shell_step.h"
#include "model/step_detail.h"
#include "util/utf8.h"

/*
 * m's directories: its own, else (none attached yet: a model built by
 * hand) *made, for the call.  NULL: no m, or no memory.
 */
static const struct proc_dirs *dirs_of(const struct model *m, struct proc_dirs **made)
{
	*made = NULL;
	if (!m || m->dirs)
		return m ? m->dirs : NULL;
	return *made = proc_dirs__new(m);
}

char *proc_name__build_dir(const struct model *m)
{
	struct proc_dirs *made;
	const struct proc_dirs *d = dirs_of(m, &made);
	char *dir = d || !m ? strdup(d ? proc_dirs__build(d) : ".") : NULL;

	proc_dirs__free(made);
	return dir;
}

/* The directories image k of p is named from: where it ran, and the build's ("." without d). */
static struct name_dirs image_dirs(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p,
				   size_t k)
{
	/* "." for an unknown directory */
	struct name_dirs dirs = { ".", ".", NULL };

	if (d) {
		dirs.dir = proc_dirs__image_dir(d, m, p, k);
		dirs.build = proc_dirs__build(d);
		dirs.root = proc_dirs__source_root(d);
	}
	return dirs;
}

/*
 * go's link writes into $WORK, named anew in every run, and the go command
 * copies it to its -o: the link of p is named by that -o.  *detail NULL
 * when p's parent is no go command with one.  0 or -ENOMEM.
 */
static int go_link_detail(const struct model *m, const struct proc_dirs *d, const struct proc_instance *p,
			  char **detail)
{
	const struct proc_instance *up;
	struct name_dirs dirs;
	const char *out;
	long k;

	*detail = NULL;
	if (!m || p->parent < 0 || (size_t)p->parent >= m->nr_procs)
		return 0;
	up = &m->procs[p->parent];
	k = image_index_at(up, p->start_ns);
	if (k < 0 || image_tool(&up->execs[k]) != TOOL_GO || !(out = image_output(&up->execs[k])))
		return 0;
	dirs = image_dirs(d, m, up, k);
	*detail = name_dirs__shown(&dirs, out);
	return *detail ? 0 : -ENOMEM;
}

/* Whether path, run in dirs, names nothing: none, or a temporary.  -ENOMEM in *err. */
static bool names_nothing(const struct name_dirs *dirs, const char *path, int *err)
{
	bool temp = false;

	*err = path ? name_dirs__temporary(dirs, path, &temp) : 0;
	return !path || temp;
}

/* How far back among the processes started before it an assembler looks for its compiler. */
#define AS_COMPILER_LOOKBACK 4096

/*
 * The compiler whose output the assembler p read: of its parent's earlier
 * children, the latest compiler whose -o is p's input (a driver given
 * several sources reuses one temporary for each), or with no input (-pipe)
 * the latest compiler.  NULL when none.
 */
static const struct proc_instance *assembler_compiler(const struct model *m, const struct proc_instance *p,
						      const char *input)
{
	size_t i, stop = p->id > AS_COMPILER_LOOKBACK ? p->id - AS_COMPILER_LOOKBACK : 0;

	stop = (size_t)p->parent > stop ? (size_t)p->parent : stop;
	for (i = p->id; i-- > stop;) {
		const struct proc_instance *c = &m->procs[i];
		const struct exec_image *img = c->nr_execs ? &c->execs[c->nr_execs - 1] : NULL;
		const char *out;

		if (c->parent != p->parent || !img || image_tool(img) != TOOL_CC_PROPER)
			continue;
		if (!input || ((out = image_output(img)) && !strcmp(out, input)))
			return c;
	}
	return NULL;
}

/*
 * Whether p's image img is an assembler a driver ran on one input that
 * names nothing (a temporary, or none with -pipe), put in *input (NULL:
 * the pipe).  -ENOMEM in *err.
 */
static bool reads_a_temporary(const struct model *m, const struct name_dirs *dirs, const struct proc_instance *p,
			      const struct exec_image *img, const char **input, int *err)
{
	size_t others = 0;

	*err = 0;
	if (!m || p->parent < 0 || (size_t)p->parent >= m->nr_procs || image_tool(img) != TOOL_ASSEMBLER)
		return false;
	*input = image_sources(img, TOOL_ASSEMBLER, &others);
	return !others && names_nothing(dirs, *input, err);
}

/* The image of the driver that ran the assembler p, at p's start; NULL when its parent ran none then. */
static const struct exec_image *assembler_driver(const struct model *m, const struct proc_instance *p)
{
	const struct proc_instance *drv = &m->procs[p->parent];
	long up_k = image_index_at(drv, p->start_ns);

	return up_k >= 0 && image_tool(&drv->execs[up_k]) == TOOL_CC_DRIVER ? &drv->execs[up_k] : NULL;
}

/*
 * An assembler named by nothing but temporaries (gcc's "as -o /tmp/ccB.o
 * /tmp/ccA.s" when the driver compiles and links at once) is named by the
 * source its compiler compiled, as that compiler is; else by its driver's
 * one source.  *detail kept when p is none such.  0 or -ENOMEM.
 */
static int assembler_source(const struct model *m, const struct proc_dirs *d, const struct proc_instance *p,
			    size_t k, char **detail)
{
	const struct exec_image *img = &p->execs[k], *src_img = NULL;
	struct name_dirs dirs = image_dirs(d, m, p, k);
	const struct proc_instance *from = NULL;
	const char *input = NULL, *src = NULL;
	size_t others = 0;
	int err = 0;

	if (!reads_a_temporary(m, &dirs, p, img, &input, &err) || !names_nothing(&dirs, image_output(img), &err))
		return err;
	if ((from = assembler_compiler(m, p, input))) {
		src_img = &from->execs[from->nr_execs - 1];
		src = image_sources(src_img, TOOL_CC_PROPER, &others);
	}
	if (!src && (src_img = assembler_driver(m, p))) {
		from = &m->procs[p->parent];
		src = image_sources(src_img, TOOL_CC_DRIVER, &others);
	}
	if (!src || others || names_nothing(&dirs, src, &err))
		return err;
	dirs = image_dirs(d, m, from, (size_t)(src_img - from->execs));
	free(*detail);
	*detail = name_dirs__shown(&dirs, src);
	return *detail ? 0 : -ENOMEM;
}

/*
 * An assembler that reads a temporary is a probe when the compiler that
 * wrote it is one, or with no compiler of its own its driver: kbuild's
 * cc-can-link.sh pipes a program into "gcc -x c - -o /dev/null", whose cc1
 * compiles stdin and whose as writes a temporary object, named by nothing
 * but that.  PROBE_NONE otherwise; -ENOMEM in *err.
 */
static enum probe_kind assembler_probe(const struct model *m, const struct proc_dirs *d,
				       const struct proc_instance *p, size_t k, int *err)
{
	struct name_dirs dirs = image_dirs(d, m, p, k);
	const struct proc_instance *from;
	const struct exec_image *drv;
	const char *input = NULL;

	if (!reads_a_temporary(m, &dirs, p, &p->execs[k], &input, err))
		return PROBE_NONE;
	if ((from = assembler_compiler(m, p, input)))
		return image_probe(&from->execs[from->nr_execs - 1], TOOL_CC_PROPER);
	return (drv = assembler_driver(m, p)) ? image_probe(drv, TOOL_CC_DRIVER) : PROBE_NONE;
}

/* "cc-option" for a shell that is a kbuild probe (model/shell_step.h), else NULL; -ENOMEM in *err. */
static const char *probe_kind(const struct exec_image *img, int *err)
{
	const char *script, *file, *kind = NULL;
	char *option = NULL;

	*err = 0;
	if (image_tool(img) != TOOL_SHELL)
		return NULL;
	shell_operand(img, &script, &file);
	if (script)
		*err = shell_kbuild_probe(script, &kind, &option);
	free(option);
	return kind;
}

/*
 * The word a name starts with: the program, but "run" for a build script
 * (every one is called build-script-build; its package follows),
 * "configure" for a shell running a configure script (not "bash"), and
 * the kind of probe a kbuild probe's shell is ("cc-option", not "sh").
 */
static char *program_word(const struct exec_image *img)
{
	int err;
	const char *kind = probe_kind(img, &err);

	if (err)
		return NULL;
	if (kind)
		return strdup(kind);
	if (shell_configure_script(img))
		return strdup("configure");
	return image_tool(img) == TOOL_BUILD_SCRIPT ? strdup("run") : image_program(img);
}

/*
 * image_display_name() with m's directories d (NULL: no m); with
 * detail_out, also the detail it was named by (NULL when none, or a
 * probe's that the name leaves out), for the caller to free.
 */
static char *image_name_in(const struct model *m, const struct proc_dirs *d, const struct proc_instance *p, size_t k,
			   char **detail_out)
{
	const struct exec_image *img = &p->execs[k];
	struct name_dirs dirs = image_dirs(d, m, p, k);
	struct exec_image script;
	char *prog, *detail = NULL, *raw = NULL, *name = NULL;
	enum probe_kind probe;
	int err;

	/* "autom4te configure.ac", not "perl configure.ac": named as the program a person ran. */
	if (image_script_run(img, &script))
		img = &script;
	prog = program_word(img);
	if (!prog || step_detail(img, &dirs, &detail))
		goto cleanup;
	if (!detail && image_tool(img) == TOOL_GO_TOOL && go_tool_is_link(img) && go_link_detail(m, d, p, &detail))
		goto cleanup;
	if (img == &p->execs[k] && assembler_source(m, d, p, k, &detail))
		goto cleanup;
	probe = image_probe(img, image_tool(img));
	if (!probe && img == &p->execs[k]) {
		probe = assembler_probe(m, d, p, k, &err);
		if (err)
			goto cleanup;
	}
	if (probe == PROBE_OTHER) {
		free(detail);
		detail = NULL;
	}
	raw = name_join(prog, " ", detail);
	if (raw && probe) {
		char *marked = name_join(raw, " ", "(probe)");

		free(raw);
		raw = marked;
	}
	/* Paths are raw bytes from the kernel: the name is made valid once, here. */
	name = raw ? utf8_sanitize(raw, strlen(raw)) : NULL;
	if (name)
		name_shorten(name, NAME_MAX_BYTES);
cleanup:
	free(raw);
	if (detail_out)
		*detail_out = detail;
	else
		free(detail);
	free(prog);
	return name;
}

char *image_display_name(const struct model *m, const struct proc_instance *p, size_t k)
{
	struct proc_dirs *made;
	const struct proc_dirs *d = dirs_of(m, &made);
	char *name = !m || d ? image_name_in(m, d, p, k, NULL) : NULL;

	proc_dirs__free(made);
	return name;
}

char *proc_image_name(const struct model *m, const struct proc_instance *p)
{
	size_t len;
	char *comm, *name;

	if (p->nr_execs > 0)
		return image_display_name(m, p, p->nr_execs - 1);

	/* Never exec'd: a fork of its parent, still running the parent's image. */
	len = strnlen(p->comm, BB_COMM_LEN);
	comm = utf8_sanitize(len ? p->comm : "?", len ? len : 1);
	if (!comm)
		return NULL;
	name = name_join(comm, " ", "(fork)");
	free(comm);
	return name;
}

/* The -o of img run in dirs, shown whole, when it is no temporary; *made NULL when none.  0 or -ENOMEM. */
static int output_made(const struct exec_image *img, const struct name_dirs *dirs, char **made)
{
	const char *out = image_output(img);
	bool temp = false;
	char *full;

	*made = NULL;
	if (!out)
		return 0;
	if (name_dirs__temporary(dirs, out, &temp))
		return -ENOMEM;
	if (temp)
		return 0;
	/* Not shortened: the part that tells two steps apart may be any of it (model/step_tags.h). */
	full = path_resolve(dirs->dir, out);
	*made = full ? path_from_root(full, dirs->build, dirs->root) : NULL;
	free(full);
	return *made ? 0 : -ENOMEM;
}

/*
 * What image k of p makes: its -o; a sh -c script's, the -o of the step it
 * runs (ninja's "cd bld && cc … -o CMakeFiles/x.dir/a.c.o -c a.c").
 */
static int image_made(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p, size_t k,
		      char **made)
{
	const struct exec_image *img = &p->execs[k];
	struct name_dirs dirs = image_dirs(d, m, p, k);
	struct shell_cmd cmd = { 0 };
	struct exec_image step = { 0 };
	const char *script, *file, *rest;
	char *step_dir;
	bool silent;
	int err;

	if (image_tool(img) != TOOL_SHELL)
		return output_made(img, &dirs, made);
	*made = NULL;
	shell_operand(img, &script, &file);
	if (!script)
		return 0;
	step_dir = strdup(dirs.dir);
	if (!step_dir)
		return -ENOMEM;
	err = shell_script_step(script, &step_dir, &cmd, &rest, &silent);
	if (err == 1) {
		step.argv = cmd.words;
		step.argc = cmd.nr;
		dirs.dir = step_dir;
		err = output_made(&step, &dirs, made);
	}
	free(step_dir);
	shell_cmd__free(&cmd);
	return err == -ENOMEM ? err : 0;
}

/*
 * What p makes: its own -o, else (cc1, as, collect2, ld) that of the
 * compiler driver or cache above it, whose job it is part of.
 */
static int proc_made(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p,
		     struct proc_name_facts *f)
{
	size_t hops;
	int err = image_made(d, m, p, p->nr_execs - 1, &f->made);

	if (err || f->made || !tool_kind__is_toolchain(image_tool(&p->execs[p->nr_execs - 1])))
		return err;
	/* A driver runs its compiler, assembler and linker directly, collect2 its ld: a few hops at most. */
	for (hops = 0; hops < 4 && p->parent >= 0 && (size_t)p->parent < m->nr_procs; hops++) {
		const struct proc_instance *up = &m->procs[p->parent];
		long k = image_index_at(up, p->start_ns);
		enum tool_kind tool = k >= 0 ? image_tool(&up->execs[k]) : TOOL_OTHER;

		if (!tool_kind__is_toolchain(tool))
			return 0;
		if (tool == TOOL_CC_DRIVER || tool == TOOL_CACHE)
			return image_made(d, m, up, k, &f->made);
		p = up;
	}
	return 0;
}

int proc_name__facts(const struct model *m, const struct proc_dirs *d, const struct proc_instance *p,
		     struct proc_name_facts *f)
{
	const struct exec_image *img = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	enum tool_kind tool = img ? image_tool(img) : TOOL_OTHER;
	struct name_dirs dirs;
	char *detail = NULL;
	/* With m's directories the name is made from the same dirs as below: its detail serves both. */
	bool named_by_detail = img && d;
	int err = 0;

	*f = (struct proc_name_facts){ .alike = img && image_probe(img, tool) };
	f->name = named_by_detail ? image_name_in(m, d, p, p->nr_execs - 1, &detail) : proc_image_name(m, p);
	if (!f->name || f->alike) {
		free(detail);
		if (!f->name)
			goto fail;
		return 0;
	}
	/* A fork makes nothing of its own: only what it wrote or where it ran tell two apart. */
	dirs = image_dirs(d, m, p, img ? p->nr_execs - 1 : 0);
	if (img && !named_by_detail)
		err = step_detail(img, &dirs, &detail);
	f->bare = img && !err && !detail && tool == TOOL_OTHER;
	free(detail);
	if (err || (img && proc_made(d, m, p, f)))
		goto fail;
	f->dir = path_from(dirs.dir, dirs.build);
	if (!f->dir)
		goto fail;
	if (!strcmp(f->dir, ".")) {
		free(f->dir);
		f->dir = NULL;
	} else {
		path_shorten(f->dir);
	}
	return 0;
fail:
	proc_name_facts__free(f);
	return -ENOMEM;
}

void proc_name_facts__free(struct proc_name_facts *f)
{
	free(f->name);
	free(f->made);
	free(f->dir);
	*f = (struct proc_name_facts){ 0 };
}

int proc_name__file_shown(const struct proc_dirs *d, const char *path, char **shown)
{
	const char *build = d ? proc_dirs__build(d) : ".";
	char *norm;

	*shown = NULL;
	if (path[0] == '/' && path_is_temporary(path, build))
		return 0;
	/* A path cut at the front ("…/b/c") is shown as it came. */
	norm = path[0] == '/' ? path_normalise(path) : strdup(path);
	*shown = norm && path[0] == '/' ? path_from_root(norm, build, d ? proc_dirs__source_root(d) : NULL) : norm;
	if (norm != *shown)
		free(norm);
	if (!*shown)
		return -ENOMEM;
	path_shorten(*shown);
	return 0;
}

void proc_name__make_room(char *name, size_t suffix_len)
{
	if (suffix_len + NAME_ELLIPSIS_LEN < NAME_MAX_BYTES)
		name_shorten(name, NAME_MAX_BYTES - suffix_len);
}

char *argv_display_name(char *const *argv, size_t argc, size_t max_bytes)
{
	size_t i, len = 0, pos = 0;
	char *raw, *name;

	for (i = 0; i < argc; i++)
		len += (argv[i] ? strlen(argv[i]) : 0) + 1;
	raw = malloc(len + 1);
	if (!raw)
		return NULL;
	for (i = 0; i < argc; i++) {
		size_t l = argv[i] ? strlen(argv[i]) : 0;

		if (i)
			raw[pos++] = ' ';
		memcpy(raw + pos, argv[i] ? argv[i] : "", l);
		pos += l;
	}
	raw[pos] = '\0';
	name = utf8_sanitize(raw, pos);
	free(raw);
	if (name && max_bytes > NAME_ELLIPSIS_LEN)
		name_cap(name, max_bytes);
	return name;
}
