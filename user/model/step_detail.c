// SPDX-License-Identifier: GPL-2.0
/* How each kind of tool names its step (include/model/step_detail.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "model/file_words.h"
#include "model/go_names.h"
#include "model/image_args.h"
#include "model/make_names.h"
#include "model/name_text.h"
#include "model/rust_names.h"
#include "model/shell_step.h"
#include "model/step_detail.h"
#include "model/toolchain_names.h"
#include "util/utf8.h"

/* The longest shell script shown after "sh -c", in characters. */
#define SCRIPT_MAX_CHARS 48

/*
 * How each kind of tool names its step: a compiler driver by input, else
 * by output; the compiler proper by input; an assembler by input, by
 * output when the input is a temporary; a linker by output; ar by the
 * archive it writes, ranlib by the one it indexes; make by the directory
 * and kbuild obj= it works on; ninja by -C; cmake by its -E command, -P
 * script, --build directory or .cmake file; rustc by its crate, a build
 * script by its package, a go tool by its package, cargo and go by their
 * subcommand.  A kind without a row (a
 * cache in front of the driver, a program nothing knows) by its
 * source-file operands, else its first file.  A new toolchain is a row
 * here and a kind in model/tool_kind.c, its namer a small file of its own.
 */
static const struct {
	enum tool_kind tool;
	step_namer_fn *name;
} step_namers[] = {
	{ TOOL_CC_DRIVER, compiler_step_name }, { TOOL_CC_PROPER, compiler_step_name },
	{ TOOL_ASSEMBLER, compiler_step_name }, { TOOL_LINKER, linker_step_name },
	{ TOOL_AR, ar_step_name },		{ TOOL_RANLIB, ranlib_step_name },
	{ TOOL_MAKE, make_step_name },		{ TOOL_NINJA, make_step_name },
	{ TOOL_CMAKE, cmake_step_name },	{ TOOL_RUSTC, rustc_step_name },
	{ TOOL_BUILD_SCRIPT, build_script_step_name }, { TOOL_CARGO, cargo_step_name },
	{ TOOL_GO_TOOL, go_tool_step_name },	{ TOOL_GO, go_step_name },
};

static int detail_at(const struct exec_image *img, const struct name_dirs *dirs, int depth, char **detail);

/* What quotes and separates a word of a script around the file it names ("'x.h';"). */
#define WORD_PUNCTUATION "'\";()`|&<>"

/* Whether the script word w[0, len), its quotes and separators aside, names a file. */
static bool names_file(const char *w, size_t len)
{
	while (len && strchr(WORD_PUNCTUATION, w[len - 1]))
		len--;
	while (len && strchr(WORD_PUNCTUATION, *w)) {
		w++;
		len--;
	}
	return len && file_word(w, len, FILE_WORD_NAMED);
}

/*
 * Cuts the folded s before byte max inside a path's directories: the word
 * across the cut, when it names a file (model/file_words.h; quotes and
 * separators around it aside), loses its leading ones to "…", then " …"
 * stands for the rest.  In place: the directories dropped make room for
 * the ellipses.  Whether it could (the file name then fits, and two bytes
 * or more go).
 */
static bool cut_in_path(char *s, size_t max)
{
	size_t len = strlen(s), start = max, end, slash = 0, i, keep, at;

	if (len <= max || s[max] == ' ')
		return false;
	while (start > 0 && s[start - 1] != ' ')
		start--;
	end = start + strcspn(s + start, " ");
	if (!names_file(s + start, end - start))
		return false;
	for (i = start; i < end; i++) {
		if (s[i] == '/')
			slash = i;
	}
	keep = end - slash;
	if (slash < start + 2 || start + NAME_ELLIPSIS_LEN + keep > max)
		return false;
	memmove(s + start + NAME_ELLIPSIS_LEN, s + slash, keep);
	memcpy(s + start, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
	at = start + NAME_ELLIPSIS_LEN + keep;
	if (end < len) {
		s[at++] = ' ';
		memcpy(s + at, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
		at += NAME_ELLIPSIS_LEN;
	}
	s[at] = '\0';
	return true;
}

/*
 * name_fold() of a script: when a path crosses the cut, its leading
 * directories give way ("echo ' WRAP …/asm/early_ioremap.h' …"), not its
 * file name.  Same room needed; returns whether it cut.
 */
static bool fold_script(char *s, size_t max_chars)
{
	size_t i;

	name_fold(s, SIZE_MAX);
	/* Bytes for characters: only a script of ASCII up to the cut is cut in a path's directories. */
	for (i = 0; i <= max_chars && s[i] && !((unsigned char)s[i] & 0x80); i++)
		;
	if (i > max_chars && cut_in_path(s, max_chars))
		return true;
	return name_fold(s, max_chars);
}

/* script folded and cut to SCRIPT_MAX_CHARS (fold_script()), valid UTF-8; *cut whether it was.  NULL without memory. */
static char *folded_script(const char *script, bool *cut)
{
	char *clean = utf8_sanitize(script, strlen(script));
	/* Folding only shrinks, but the ellipsis may need 3 more bytes. */
	char *folded = clean ? realloc(clean, strlen(clean) + NAME_ELLIPSIS_LEN + 1) : NULL;

	if (!folded) {
		free(clean);
		return NULL;
	}
	*cut = fold_script(folded, SCRIPT_MAX_CHARS);
	return folded;
}

/*
 * A script of nothing but preludes that show nothing (kbuild's line of an
 * empty command, automake's ": >>dir/.deps/x.Po"): "-c" and the script,
 * cut in its paths' directories when that keeps its end, the file it
 * names (": >>…/.deps/x.Po"), else at the end (kbuild's "set -e; exec
 * >/dev/null; trap 'rm -f mm/x.o; …", whose trap names the file).  0 or
 * -ENOMEM.
 */
static int silent_script_detail(const char *script, char **detail)
{
	char *clean = utf8_sanitize(script, strlen(script)), *whole;
	size_t cap = strlen("-c ") + SCRIPT_MAX_CHARS, len;
	bool cut;

	*detail = NULL;
	if (!clean)
		return -ENOMEM;
	name_fold(clean, SIZE_MAX);
	whole = name_join("-c", " ", clean);
	free(clean);
	if (!whole)
		return -ENOMEM;
	name_shorten(whole, cap);
	len = strlen(whole);
	if (len < NAME_ELLIPSIS_LEN || strcmp(whole + len - NAME_ELLIPSIS_LEN, NAME_ELLIPSIS)) {
		*detail = whole;
		return 0;
	}
	free(whole);
	clean = folded_script(script, &cut);
	*detail = clean ? name_join("-c", " ", clean) : NULL;
	free(clean);
	return *detail ? 0 : -ENOMEM;
}

/*
 * A recipe line whose prelude is all it runs, or all the recorded argv
 * kept of it: named by the target its trap removes (model/shell_step.h),
 * "../out/mm/x.o (no command)" or "… (command cut)".  *detail NULL when
 * no trap names one.  0 or -ENOMEM.
 */
static int trap_target_detail(const char *script, const struct name_dirs *dirs, const char *marker, char **detail)
{
	char *target, *shown;
	int err = shell_trap_target(script, &target);

	*detail = NULL;
	if (err || !target)
		return err;
	shown = name_dirs__shown(dirs, target);
	*detail = shown ? name_join(shown, " ", marker) : NULL;
	free(shown);
	free(target);
	return *detail ? 0 : -ENOMEM;
}

/*
 * A sh -c script: shown whole when short; a longer one is named by the step
 * it runs when that step has a detail ("-c cc src/foo.c" for ninja's
 * "cd /b && /usr/bin/cc -D… -c ../src/foo.c"), else by its first command
 * after its prelude (kbuild's "set -e; exec >/dev/null; trap 'rm -f …' HUP;
 * …" before every command of a recipe) that shows something, else whole
 * (silent_script_detail()).  0 or -ENOMEM.
 */
static int shell_script_detail(const char *script, bool argv_cut, const struct name_dirs *dirs, int depth,
			       char **detail)
{
	struct shell_cmd cmd = { 0 };
	struct exec_image step = { 0 };
	struct name_dirs step_dirs = *dirs;
	char *folded, *step_dir = NULL, *prog = NULL, *step_detail = NULL;
	const char *rest = script;
	int err = 0, found;
	bool cut, silent;

	*detail = NULL;
	folded = folded_script(script, &cut);
	if (!folded)
		return -ENOMEM;
	if (!cut || depth > 0)
		goto whole;
	step_dir = strdup(dirs->dir);
	if (!step_dir) {
		err = -ENOMEM;
		goto whole;
	}
	found = shell_script_step(script, &step_dir, &cmd, &rest, &silent);
	if ((found == 0 && silent) || (found == -EINVAL && argv_cut && !strncmp(rest, "trap", 4))) {
		err = trap_target_detail(script, dirs, found ? "(command cut)" : "(no command)", detail);
		if (!err && !*detail && found == 0)
			err = silent_script_detail(script, detail);
		if (err || *detail)
			goto whole;
	}
	if (found != 1) {
		err = found == -ENOMEM ? found : 0;
		goto after_prelude;
	}
	step.argv = cmd.words;
	step.argc = cmd.nr;
	step_dirs.dir = step_dir;
	prog = image_program(&step);
	err = prog ? detail_at(&step, &step_dirs, depth + 1, &step_detail) : -ENOMEM;
	if (!err && step_detail) {
		char *named = name_join(prog, " ", step_detail);

		if (named) {
			*detail = name_join("-c", " ", named);
			free(named);
		}
		if (!*detail)
			err = -ENOMEM;
	}
after_prelude:
	/* A script of nothing but a prelude is shown whole. */
	if (!err && !*detail && rest != script && *rest) {
		free(folded);
		folded = folded_script(rest, &cut);
		err = folded ? 0 : -ENOMEM;
	}
whole:
	if (!err && !*detail) {
		*detail = name_join("-c", " ", folded);
		if (!*detail)
			err = -ENOMEM;
	}
	free(step_detail);
	free(prog);
	free(step_dir);
	free(folded);
	shell_cmd__free(&cmd);
	return err;
}

/*
 * A configure script (its name's program word, model/image_name.h) by the
 * directory it configures from the sources' root, when it is no top-level
 * one ("(libiberty)"), and "--no-create" when config.status --recheck runs
 * it again.  0 or -ENOMEM.
 */
static int configure_detail(const struct exec_image *img, const char *file, const struct name_dirs *dirs,
			    char **detail)
{
	char *dir = name_dirs__shown(dirs, file), *slash = dir ? strrchr(dir, '/') : NULL, *sub = NULL;
	size_t i;
	int err = 0;

	*detail = NULL;
	if (!dir)
		return -ENOMEM;
	/* The shown script's directory: "." (none) for "configure" itself. */
	if (slash) {
		*slash = '\0';
		sub = name_join("(", dir, ")");
		err = sub ? 0 : -ENOMEM;
	}
	for (i = 2; !err && i < img->argc && img->argv[i]; i++) {
		if (!strcmp(img->argv[i], "--no-create")) {
			err = name_append(&sub, "", "--no-create");
			break;
		}
	}
	free(dir);
	*detail = sub;
	return err;
}

/*
 * A script named by what it does, not by its opening text: automake's
 * recursive rule by its target ("all-recursive (recursive make)"), a
 * kbuild probe by the option it probes (its kind is the name's program
 * word, model/image_name.c).  *detail NULL for any other.  0 or -ENOMEM.
 */
static int script_purpose(const char *script, char **detail)
{
	const char *kind;
	char *target;
	int err = shell_kbuild_probe(script, &kind, detail);

	if (err || *detail)
		return err;
	err = shell_recursive_target(script, &target);
	if (!err && target) {
		*detail = name_join(target, " ", "(recursive make)");
		err = *detail ? 0 : -ENOMEM;
	}
	free(target);
	return err;
}

/* A shell: by what its -c script does, else the script (shell_script_detail()), else its script file. */
static int shell_detail(const struct exec_image *img, const struct name_dirs *dirs, int depth, char **detail)
{
	const char *script, *file, *configure = shell_configure_script(img);
	int err;

	*detail = NULL;
	if (configure)
		return configure_detail(img, configure, dirs, detail);
	shell_operand(img, &script, &file);
	if (script && (err = script_purpose(script, detail)))
		return err;
	if (script && *detail)
		return 0;
	if (script)
		return shell_script_detail(script, img->flags & BB_EXEC_ARGS_TRUNCATED, dirs, depth, detail);
	if (!file)
		return 0;
	*detail = name_dirs__shown(dirs, file);
	return *detail ? 0 : -ENOMEM;
}

/* step_detail() of an image depth sh -c scripts deep (a script within a script is shown whole). */
static int detail_at(const struct exec_image *img, const struct name_dirs *dirs, int depth, char **detail)
{
	enum tool_kind tool = image_tool(img);
	size_t i;

	if (tool == TOOL_SHELL)
		return shell_detail(img, dirs, depth, detail);
	for (i = 0; i < sizeof(step_namers) / sizeof(step_namers[0]); i++) {
		if (step_namers[i].tool == tool)
			return step_namers[i].name(img, tool, dirs, detail);
	}
	return inputs_step_name(img, tool, dirs, detail);
}

int step_detail(const struct exec_image *img, const struct name_dirs *dirs, char **detail)
{
	return detail_at(img, dirs, 0, detail);
}
