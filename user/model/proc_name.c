/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slice names are what a person scans a flame chart by, so they say which
 * step of the build a process was: the program and the file it works on,
 * as a path from the build's directory ("cc1 kernel/sched/core.c",
 * "as -o out/crc.o", "make -C lib"), short enough to fit a slice.
 * Everything else about a process goes in args.
 *
 * The kernel reports no process's working directory; only the command's is
 * recorded.  Where a process ran is inferred from it and the directory
 * changes its ancestors' command lines show (make -C, sh -c "cd dir && …",
 * cmake -E chdir): a program that chdir()s on its own is not followed.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "model/step_names.h"
#include "model/tool_kind.h"
#include "util/array_grow.h"
#include "util/utf8.h"

/* The longest name, in bytes; longer ones end in an ellipsis. */
#define NAME_MAX_BYTES 80
/* The longest shell script shown after "sh -c", in characters. */
#define SCRIPT_MAX_CHARS 48
/* The longest path shown, in bytes; its leading directories give way to "…/". */
#define PATH_SHOWN_MAX_BYTES 48
/* A path outside the build's directory is shown as "../../x" at most. */
#define PATH_MAX_UPS 2

/* U+2026 HORIZONTAL ELLIPSIS */
static const char ellipsis[] = "\xe2\x80\xa6";
#define ELLIPSIS_LEN (sizeof(ellipsis) - 1)
/* "as -o foo.o": a step named by what it writes, in the words of its argv. */
static const char output_mark[] = "-o ";

/*
 * Extensions of files a build step is "about".  Case matters: .C, .S, .F
 * are other languages than .c, .s, .f.  Objects and libraries are left out
 * on purpose: a link has dozens and none of them names the step.
 */
static const char *const source_exts[] = {
	"c", "cc", "cp", "cpp", "cxx", "c++", "C", "CC", "CPP", "i", "ii",
	"h", "hh", "hpp", "hxx", "h++", "H", "inl", "ipp", "tcc",
	"s", "S", "sx", "asm",
	"m", "mm", "M",
	"f", "for", "ftn", "f77", "f90", "f95", "f03", "f08", "F", "FOR", "F90", "F95", "F03", "F08",
	"rs", "go", "d", "zig", "swift", "java", "kt", "scala", "cs", "hs", "ml", "mli", "nim", "vala",
	"cu", "cuh", "hip", "ll", "bc",
	"py", "pl", "pm", "rb", "lua", "tcl", "sh", "cmake",
	"y", "yy", "l", "lex", "proto",
};

/*
 * Options whose value is a separate argument that may itself look like a
 * source file (cc1's "-o /tmp/ccX.s" and "-dumpbase foo.c.c", clang -cc1's
 * "-main-file-name foo.c", "-include config.h"): never the input.
 */
static const char *const value_opts[] = {
	"-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
	"-I", "-L", "-x", "-T", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-mllvm",
	"-D", "-U", "-A", "-aux-info", "-dumpbase", "-dumpbase-ext", "-dumpdir", "-auxbase", "-auxbase-strip",
	"-iprefix", "-iwithprefix", "-isysroot", "-imultiarch", "-imultilib", "-main-file-name",
	"-dependency-file", "-resource-dir", "-internal-isystem", "-internal-externc-isystem",
	"-triple", "-target-cpu", "-tune-cpu", "-split-dwarf-file", "-split-dwarf-output",
};

/* GCC's compilers proper take the dependency file as -MD/-MMD's value. */
static const char *const gcc_proper_value_opts[] = { "-MD", "-MMD" };

/* Where compilers put the temporaries they pass between steps. */
static const char *const temp_dirs[] = { "/tmp", "/var/tmp", "/dev/shm" };

/* Commands of a "sh -c" script that set up (or wait) rather than do the step:
 * "sleep 0.5; cc -o prog …" is the cc, not the sleep. */
static const char *const script_preludes[] = {
	":", "true", "set", "trap", "echo", "printf", "export", "umask", "test", "[", "sleep",
};

/* Of them, those that show nothing: a script of only these runs no command at all. */
static const char *const silent_preludes[] = { ":", "true", "set", "trap", "export", "umask" };

/* Words that start shell syntax a name does not follow. */
static const char *const script_compound[] = {
	"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done",
	"case", "esac", "function", "{", "}", "!", "[[", "select",
};

static bool in_list(const char *s, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		/* The first two bytes rule out most entries without a call: every
		 * option starts with '-'.  s[1] is read only when s[0] is no NUL. */
		if (s[0] != list[i][0] || (s[0] && s[1] != list[i][1]))
			continue;
		if (!strcmp(s, list[i]))
			return true;
	}
	return false;
}

#define IN_LIST(s, list) in_list((s), (list), sizeof(list) / sizeof((list)[0]))

/* The last component of path, ignoring trailing slashes; *len 0 if none. */
static const char *path_basename(const char *path, size_t *len)
{
	size_t end = strlen(path), start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end && end == 1) /* "/" itself */
		start = 0;
	*len = end - start;
	return path + start;
}

/*
 * A word as a build passes a file name: no blank, quote, shell syntax or
 * format (a sed script, an awk program, date's +%s.%N are none).
 */
static bool is_plain_word(const char *s)
{
	for (; *s; s++) {
		unsigned char c = *s;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 ||
		      strchr("._+-/@~,:", c)))
			return false;
	}
	return true;
}

static bool has_source_ext(const char *arg)
{
	size_t len;
	const char *base = path_basename(arg, &len);
	const char *dot = NULL, *p;
	char ext[8];

	for (p = base; p < base + len; p++) {
		if (*p == '.')
			dot = p;
	}
	/* ".c" alone is a hidden file or an option value, not a source. */
	if (!dot || dot == base || base + len - dot - 1 >= (long)sizeof(ext))
		return false;
	memcpy(ext, dot + 1, base + len - dot - 1);
	ext[base + len - dot - 1] = '\0';
	return IN_LIST(ext, source_exts);
}

/* "a" + sep + "b", or just a; NULL on allocation failure. */
static char *join2(const char *a, const char *sep, const char *b)
{
	size_t la = strlen(a), ls = b ? strlen(sep) : 0, lb = b ? strlen(b) : 0;
	char *s = malloc(la + ls + lb + 1);

	if (!s)
		return NULL;
	memcpy(s, a, la);
	memcpy(s + la, sep, ls);
	memcpy(s + la + ls, b ? b : "", lb);
	s[la + ls + lb] = '\0';
	return s;
}

/* ---- paths ---- */

/*
 * A copy of path without "." or empty components and with ".." taken out
 * where it can be ("/.." is "/"; a relative path keeps its leading "..").
 * Lexical: a symlinked directory's ".." is not followed, which a name can
 * live with.  "." for an empty relative path; NULL on allocation failure.
 */
static char *path_normalise(const char *path)
{
	bool absolute = path[0] == '/';
	char *out = malloc(strlen(path) + 2);
	size_t o = 0, first;
	const char *p = path;

	if (!out)
		return NULL;
	if (absolute)
		out[o++] = '/';
	first = o; /* where the first component starts */
	while (*p) {
		const char *start;
		size_t n, last;

		while (*p == '/')
			p++;
		start = p;
		while (*p && *p != '/')
			p++;
		n = p - start;
		if (!n || (n == 1 && start[0] == '.'))
			continue;
		if (n == 2 && start[0] == '.' && start[1] == '.') {
			last = o;
			while (last > first && out[last - 1] != '/')
				last--;
			if (o > first && !(o - last == 2 && out[last] == '.' && out[last + 1] == '.')) {
				o = last > first ? last - 1 : first;
				continue;
			}
			if (absolute)
				continue;
		}
		if (o > first)
			out[o++] = '/';
		memcpy(out + o, start, n);
		o += n;
	}
	if (!o)
		out[o++] = '.';
	out[o] = '\0';
	return out;
}

/* path taken from directory dir (both may be relative), normalised. */
static char *path_resolve(const char *dir, const char *path)
{
	char *joined, *norm;

	if (path[0] == '/')
		return path_normalise(path);
	joined = join2(dir, "/", path);
	if (!joined)
		return NULL;
	norm = path_normalise(joined);
	free(joined);
	return norm;
}

/*
 * dir (malloc'd, or NULL) if it is no longer than getcwd() reports, else
 * "." (unknown): a longer one is no build's, and each name below it would
 * cost its length.
 */
static char *dir_known(char *dir)
{
	if (!dir || strlen(dir) < PATH_MAX)
		return dir;
	free(dir);
	return strdup(".");
}

/* The directory path names from directory dir, as a cd or -C takes it. */
static char *dir_resolve(const char *dir, const char *path)
{
	return dir_known(path_resolve(dir, path));
}

/* The next component of a normalised path at *p, advancing *p; NULL at the end. */
static const char *next_component(const char **p, size_t *len)
{
	const char *start = *p;

	while (*start == '/')
		start++;
	if (!*start)
		return NULL;
	*p = start;
	while (**p && **p != '/')
		(*p)++;
	*len = *p - start;
	return start;
}

/*
 * The normalised path as seen from the normalised directory from: "x/y"
 * under it, "../x" (up to PATH_MAX_UPS levels) beside it, else the path
 * itself.  A relative path and an absolute directory (or the reverse)
 * cannot be related: the path is shown as it is.
 */
static char *path_from(const char *path, const char *from)
{
	const char *p = strcmp(path, ".") ? path : "", *f = strcmp(from, ".") ? from : "";
	const char *pc, *fc, *rest;
	size_t pn = 0, fn = 0, ups = 0, shared = 0, i, len;
	char *out;

	if ((path[0] == '/') != (from[0] == '/'))
		return strdup(path);
	for (;;) {
		const char *p_next = p, *f_next = f;

		pc = next_component(&p_next, &pn);
		fc = next_component(&f_next, &fn);
		if (!pc || !fc || pn != fn || memcmp(pc, fc, pn))
			break;
		p = p_next;
		f = f_next;
		shared++;
	}
	while (next_component(&f, &fn))
		ups++;
	rest = p + strspn(p, "/");
	/* Sharing only "/" relates two absolute paths in name only. */
	if (ups > PATH_MAX_UPS || (ups && path[0] == '/' && !shared))
		return strdup(path);
	if (!ups)
		return strdup(*rest ? rest : ".");
	len = ups * 3 + strlen(rest);
	out = malloc(len + 1);
	if (!out)
		return NULL;
	for (i = 0; i < ups; i++)
		memcpy(out + i * 3, "../", 3);
	strcpy(out + ups * 3, rest);
	if (!*rest)
		out[len - 1] = '\0'; /* "../.." rather than "../../" */
	return out;
}

/* A compiler's temporary: a file right in /tmp (unless the build is there). */
static bool is_temporary(const char *path, const char *build_dir)
{
	size_t dir_len;
	const char *slash = strrchr(path, '/');
	size_t i;

	if (path[0] != '/' || !slash)
		return false;
	dir_len = slash - path;
	if (strlen(build_dir) == dir_len && !strncmp(build_dir, path, dir_len))
		return false;
	for (i = 0; i < sizeof(temp_dirs) / sizeof(temp_dirs[0]); i++) {
		if (strlen(temp_dirs[i]) == dir_len && !strncmp(temp_dirs[i], path, dir_len))
			return true;
	}
	return false;
}

/* Cuts a long path, in place, to its last components after "…/". */
static void shorten_path(char *s)
{
	size_t len = strlen(s), i;
	const char *base;

	if (len <= PATH_SHOWN_MAX_BYTES)
		return;
	for (i = 0; i < len; i++) {
		if (s[i] == '/' && len - i + ELLIPSIS_LEN <= PATH_SHOWN_MAX_BYTES) {
			memmove(s + ELLIPSIS_LEN, s + i, len - i + 1);
			memcpy(s, ellipsis, ELLIPSIS_LEN);
			return;
		}
	}
	/* One long file name: the whole name's cap cuts it. */
	base = path_basename(s, &i);
	memmove(s, base, i);
	s[i] = '\0';
}

/* ---- where a process runs ---- */

/* The directory an image runs in and the build's, both normalised. */
struct name_dirs {
	const char *dir;
	const char *build;
};

/*
 * What img runs (model/tool_kind.h), which says how its step is named: a
 * shell by its script or script file; a compiler driver by input, else by
 * output; the compiler proper by input; an assembler by input, by output
 * when the input is a temporary; a linker by output; ar by the archive it
 * writes, ranlib by the one it indexes; make by the directory and kbuild
 * obj= it works on; ninja by -C; cmake by its -E command, -P script,
 * --build directory or .cmake file; anything else by its source-file
 * operands, if any.
 */
static enum tool_kind image_tool(const struct exec_image *img)
{
	size_t len = 0;
	const char *base = NULL;
	enum tool_kind tool;

	if (img->argc > 0 && img->argv[0])
		base = path_basename(img->argv[0], &len);
	if (!len && img->filename)
		base = path_basename(img->filename, &len);
	tool = tool_kind__of(base, len);
	/* "clang -cc1" is the compiler proper, "clang -cc1as" the assembler. */
	if (tool == TOOL_CC_DRIVER && img->argc > 1 && img->argv[1]) {
		if (!strcmp(img->argv[1], "-cc1"))
			tool = TOOL_CC_PROPER;
		else if (!strcmp(img->argv[1], "-cc1as"))
			tool = TOOL_ASSEMBLER;
	}
	return tool;
}

/* The value of option opt at argv[*i] ("-C dir", "-Cdir", "--directory=dir"), advancing *i. */
static const char *option_value(const struct exec_image *img, size_t *i, const char *opt, const char *long_opt)
{
	const char *arg = img->argv[*i];
	size_t ol = strlen(opt), ll = long_opt ? strlen(long_opt) : 0;

	if (!strcmp(arg, opt) || (long_opt && !strcmp(arg, long_opt))) {
		if (*i + 1 >= img->argc || !img->argv[*i + 1])
			return NULL;
		return img->argv[++*i];
	}
	if (!strncmp(arg, opt, ol) && arg[ol])
		return arg + ol;
	if (long_opt && !strncmp(arg, long_opt, ll) && arg[ll] == '=')
		return arg + ll + 1;
	return NULL;
}

/* A shell option cluster that includes -c: "-c", "-ec", "-xc". */
static bool is_dash_c(const char *arg)
{
	const char *p;

	if (arg[0] != '-' || arg[1] == '-' || arg[1] == '\0')
		return false;
	for (p = arg + 1; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	}
	return strchr(arg + 1, 'c') != NULL;
}

/*
 * What a shell runs: *script for "sh [opts] -c SCRIPT", else *file for
 * "sh [opts] FILE".  Both NULL for an interactive or stdin shell.
 */
static void shell_operand(const struct exec_image *img, const char **script, const char **file)
{
	size_t i;

	*script = *file = NULL;
	for (i = 1; i < img->argc; i++) {
		const char *arg = img->argv[i];

		if (!arg)
			return;
		if (is_dash_c(arg)) {
			if (i + 1 < img->argc)
				*script = img->argv[i + 1];
			return;
		}
		if (!strcmp(arg, "-o") || !strcmp(arg, "+o") || !strcmp(arg, "-O") || !strcmp(arg, "+O")) {
			i++;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (i + 1 < img->argc)
				*file = img->argv[i + 1];
			return;
		}
		if (arg[0] != '-' && arg[0] != '+') {
			*file = arg;
			return;
		}
	}
}

/* ---- shell scripts ---- */

/* One simple command of a script: its words, unquoted. */
struct script_cmd {
	char **words;
	size_t nr, cap;
};

static void script_cmd__clear(struct script_cmd *cmd)
{
	size_t i;

	for (i = 0; i < cmd->nr; i++)
		free(cmd->words[i]);
	cmd->nr = 0;
}

static void script_cmd__free(struct script_cmd *cmd)
{
	script_cmd__clear(cmd);
	free(cmd->words);
	cmd->words = NULL;
	cmd->cap = 0;
}

/*
 * One word at *s, unquoted, advancing *s; *word NULL when the word uses an
 * expansion ($, `) a name cannot follow.  -ENOMEM, -EINVAL (unbalanced
 * quotes or an expansion), or 0.
 */
static int script_word(const char **s, char **word)
{
	const char *p = *s;
	size_t o = 0;
	char *out = malloc(strlen(p) + 1);

	if (!out)
		return -ENOMEM;
	while (*p && !strchr(" \t\n;&|<>()", *p)) {
		if (*p == '$' || *p == '`')
			goto invalid;
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				goto invalid;
			memcpy(out + o, p + 1, end - p - 1);
			o += end - p - 1;
			p = end + 1;
		} else if (*p == '"') {
			for (p++; *p != '"'; p++) {
				if (!*p || *p == '$' || *p == '`')
					goto invalid;
				if (*p == '\\' && p[1] && strchr("\"\\$`", p[1]))
					p++;
				out[o++] = *p;
			}
			p++;
		} else if (*p == '\\') {
			if (!p[1])
				goto invalid;
			if (p[1] != '\n')
				out[o++] = p[1];
			p += 2;
		} else {
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	*s = p;
	*word = out;
	return 0;
invalid:
	free(out);
	return -EINVAL;
}

/* NAME=value: an assignment before a command's name. */
static bool is_assignment(const char *word)
{
	const char *p = word;

	if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || *p == '_'))
		return false;
	while ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_')
		p++;
	return *p == '=';
}

/*
 * The next simple command of the script at *s, with redirections and
 * leading assignments dropped.  1 with cmd filled, 0 at the script's end,
 * -EINVAL where the script uses what a name does not follow (expansions,
 * compound commands, here-documents), -ENOMEM.
 */
static int script_next_command(const char **s, struct script_cmd *cmd)
{
	const char *p = *s;
	int err = 0;

	script_cmd__clear(cmd);
	for (;;) {
		char *word = NULL;

		p += strspn(p, " \t");
		if (!*p || strchr("\n;&|", *p)) {
			if (*p)
				p += 1 + (strchr("&|", *p) && p[1] == *p);
			if (*p && !cmd->nr)
				continue;
			break;
		}
		if (*p == '#' && !cmd->nr) {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p == '(' || *p == ')')
			return -EINVAL;
		if (*p == '<' || *p == '>' || ((*p >= '0' && *p <= '9') && (p[1] == '>' || p[1] == '<'))) {
			/* A redirection: its target is no word of the command. */
			if (*p != '<' && *p != '>')
				p++;
			if (p[0] == '<' && p[1] == '<')
				return -EINVAL;
			p += 1 + (p[1] == '>' || p[1] == '&');
			p += strspn(p, " \t");
			err = script_word(&p, &word);
			if (err)
				return err;
			free(word);
			continue;
		}
		err = script_word(&p, &word);
		if (err)
			return err;
		if (!cmd->nr && (is_assignment(word) || !strcmp(word, "exec"))) {
			free(word);
			continue;
		}
		if (!cmd->nr && IN_LIST(word, script_compound)) {
			free(word);
			return -EINVAL;
		}
		if (cmd->nr + 2 > cmd->cap) {
			size_t cap = cmd->cap ? 2 * cmd->cap : 8;
			char **words = realloc(cmd->words, cap * sizeof(*words));

			if (!words) {
				free(word);
				return -ENOMEM;
			}
			cmd->words = words;
			cmd->cap = cap;
		}
		cmd->words[cmd->nr++] = word;
		cmd->words[cmd->nr] = NULL;
	}
	*s = p;
	return cmd->nr ? 1 : 0;
}

/*
 * The step a "sh -c" script runs: its first command that is not a cd or
 * a prelude (set -e, trap, echo).  *dir (malloc'd) follows the cds before
 * it; *rest is where that command starts in the script, or the one a name
 * cannot follow (-EINVAL), or the script's end (0); *silent whether every
 * command before it was a silent prelude.  1 with cmd filled, 0 when there
 * is none, -EINVAL, -ENOMEM.
 */
static int script_step(const char *script, char **dir, struct script_cmd *cmd, const char **rest, bool *silent)
{
	const char *p = script;
	int found;

	*silent = true;
	for (;;) {
		const char *name;

		/* Separators and blanks before a command are no part of it. */
		*rest = p + strspn(p, " \t\n;&|");
		found = script_next_command(&p, cmd);
		if (found != 1)
			break;
		name = cmd->words[0];

		if (!strcmp(name, "cd")) {
			char *next;

			if (cmd->nr < 2 || !strcmp(cmd->words[1], "-"))
				return -EINVAL; /* home or back: not a directory we know */
			next = dir_resolve(*dir, cmd->words[1]);
			if (!next)
				return -ENOMEM;
			free(*dir);
			*dir = next;
			continue;
		}
		if (!IN_LIST(name, script_preludes))
			return 1;
		*silent = *silent && IN_LIST(name, silent_preludes);
	}
	return found;
}

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

/*
 * The directory the image leaves its children in, when started in dir:
 * dir after its make -C, ninja -C, cmake -E chdir / --build or the cds its sh -c
 * script makes before its step.  malloc'd; NULL on allocation failure.
 */
static char *image_dir_after(const char *dir, const struct exec_image *img)
{
	char *out = strdup(dir), *next;
	const char *script, *file, *value, *rest;
	struct script_cmd cmd = { 0 };
	enum tool_kind tool = image_tool(img);
	bool silent;
	size_t i;

	if (!out)
		return NULL;
	switch (tool) {
	case TOOL_MAKE:
	case TOOL_NINJA:
		for (i = 1; i < img->argc && img->argv[i]; i++) {
			value = option_value(img, &i, "-C", tool == TOOL_MAKE ? "--directory" : NULL);
			if (!value)
				continue;
			next = dir_resolve(out, value);
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
			next = dir_resolve(out, value);
			free(out);
			out = next;
		}
		break;
	case TOOL_SHELL:
		shell_operand(img, &script, &file);
		if (script && script_step(script, &out, &cmd, &rest, &silent) == -ENOMEM) {
			free(out);
			out = NULL;
		}
		script_cmd__free(&cmd);
		break;
	default:
		break;
	}
	return out;
}

/* The index of p's image that ran at ts, or -1 before its first exec. */
static long image_index_at(const struct proc_instance *p, __u64 ts)
{
	const struct exec_image *img = proc_image_at(p, ts);

	return img ? img - p->execs : -1;
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

/*
 * Fills procs[i]'s directories from what it was forked in: its parent's,
 * when they are done, else (no parent traced, or a cycle in a model built
 * by hand) top.  0 or -ENOMEM.
 */
static int fill_proc_dirs(struct proc_dirs *d, const struct model *m, size_t i, const char *top,
			  const unsigned char *state)
{
	const struct proc_instance *p = &m->procs[i];
	const char **dir = &d->dir[d->off[i]];
	size_t k;

	dir[0] = top;
	if (p->parent >= 0 && (size_t)p->parent < m->nr_procs && state[p->parent] == DIRS_DONE)
		dir[0] = d->dir[d->off[p->parent] + image_index_at(&m->procs[p->parent], p->start_ns) + 1];
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

/* The directories of every process of m, parents before children.  NULL without memory. */
struct proc_dirs *proc_dirs__new(const struct model *m)
{
	struct proc_dirs *d = calloc(1, sizeof(*d));
	size_t n = m->nr_procs, i, nr = 0, *stack = NULL;
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
	/* "." stands for an unknown cwd */
	top = own_dir(d, dir_known(path_normalise(m->cwd ? m->cwd : ".")));
	d->unknown = own_dir(d, strdup("."));
	d->max_bytes = dirs_budget(m);
	if (!d->dir || !stack || !state || !top || !d->unknown)
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

			if (fill_proc_dirs(d, m, j, top, state))
				goto fail;
			state[j] = DIRS_DONE;
		}
	}
	d->top = d->build = top;
	if (m->root >= 0 && (size_t)m->root < n)
		d->build = d->dir[d->off[m->root] + m->procs[m->root].nr_execs];
	free(stack);
	free(state);
	return d;
fail:
	free(stack);
	free(state);
	proc_dirs__free(d);
	return NULL;
}

/* ---- names ---- */

/* The program: argv[0]'s basename, else the exec'd file's, else comm. */
static char *program_name(const struct exec_image *img)
{
	const char *base = NULL;
	size_t len = 0;

	if (img->argc > 0 && img->argv[0])
		base = path_basename(img->argv[0], &len);
	if (!len && img->filename)
		base = path_basename(img->filename, &len);
	if (!len) {
		base = img->comm;
		len = strnlen(img->comm, BB_COMM_LEN);
	}
	if (!len) {
		base = "?";
		len = 1;
	}
	return utf8_sanitize(base, len);
}

/* path (an argument of the image) as the name shows it. */
static char *shown_path(const char *path, const struct name_dirs *dirs)
{
	char *full = path_resolve(dirs->dir, path), *shown;

	if (!full)
		return NULL;
	shown = path_from(full, dirs->build);
	free(full);
	if (shown)
		shorten_path(shown);
	return shown;
}

/*
 * The file an argument names, or NULL: a plain word whose last component
 * has an extension ("mm/filemap.o", "data.bin"; "s/x/y/" and "/dev/null"
 * have none), or the value of a NAME=VALUE argument that is one (awk's
 * "-v file=mm/filemap.o").
 */
static const char *file_word(const char *arg)
{
	const char *path = is_assignment(arg) ? strchr(arg, '=') + 1 : arg, *base;
	size_t len, i;

	if (!*path || *path == '-' || *path == '+' || !is_plain_word(path))
		return NULL;
	base = path_basename(path, &len);
	/* A dot that is neither the first nor the last character. */
	for (i = 1; i + 1 < len; i++) {
		if (base[i] == '.')
			return path;
	}
	return NULL;
}

/*
 * The source-file operands of a compiler-like step: the first, and in
 * *others how many more.  NULL when it has none.
 */
static const char *source_operands(const struct exec_image *img, enum tool_kind tool, size_t *others)
{
	const char *first = NULL;
	size_t i;

	*others = 0;
	for (i = 1; i < img->argc; i++) {
		const char *arg = img->argv[i];

		if (!arg)
			break;
		if (arg[0] == '-') {
			if (IN_LIST(arg, value_opts) ||
			    (tool == TOOL_CC_PROPER && IN_LIST(arg, gcc_proper_value_opts) && strcmp(img->argv[1], "-cc1")))
				i++;
			continue;
		}
		if (!has_source_ext(arg) || (tool == TOOL_OTHER && file_word(arg) != arg))
			continue;
		if (first)
			(*others)++;
		else
			first = arg;
	}
	return first;
}

/* The -o (or --output) value, or NULL. */
static const char *output_operand(const struct exec_image *img)
{
	const char *out = NULL, *v;
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if ((v = option_value(img, &i, "-o", "--output")) && (img->argv[i] == v || img->argv[i][1] == '-'))
			out = v; /* "-o x" and "--output=x", not "-openmp" */
	}
	return out;
}

/* The archive operand of ar: after the operation key and its positional arguments. */
static const char *ar_archive(const struct exec_image *img)
{
	const char *key = NULL;
	size_t i, skip = 0;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i];

		if (!strncmp(arg, "--", 2)) {
			if (!strcmp(arg, "--plugin") || !strcmp(arg, "--target") || !strcmp(arg, "--output"))
				i++;
			continue;
		}
		if (!key) {
			key = arg[0] == '-' ? arg + 1 : arg;
			/* relpos for a/b/i, count for N */
			skip = !!strpbrk(key, "abi") + !!strchr(key, 'N');
			continue;
		}
		if (skip) {
			skip--;
			continue;
		}
		return arg;
	}
	return NULL;
}

/* The first argument that is no option, or NULL. */
static const char *first_operand(const struct exec_image *img)
{
	size_t i;

	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if (img->argv[i][0] != '-')
			return img->argv[i];
	}
	return NULL;
}

/* *temp: whether path, an argument of the image, is a compiler's temporary.  0 or -ENOMEM. */
static int temporary_arg(const char *path, const struct name_dirs *dirs, bool *temp)
{
	char *full = path_resolve(dirs->dir, path);

	if (!full)
		return -ENOMEM;
	*temp = is_temporary(full, dirs->build);
	free(full);
	return 0;
}

/*
 * A program we know nothing of is named by the first file among its
 * arguments that is no temporary: "nm mm/filemap.o", "objtool
 * mm/filemap.o".  Options are skipped but not their values, which only
 * the program knows.  NULL when none; *oom on allocation failure.
 */
static const char *file_operand(const struct exec_image *img, const struct name_dirs *dirs, bool *oom)
{
	size_t i;

	*oom = false;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *path = img->argv[i][0] == '-' ? NULL : file_word(img->argv[i]);
		bool temp;

		if (!path)
			continue;
		if (temporary_arg(path, dirs, &temp)) {
			*oom = true;
			return NULL;
		}
		if (!temp)
			return path;
	}
	return NULL;
}

/*
 * What a probe works on, not a file of the build: /dev/null and stdin
 * ("-"), configure's conftest and conftest.*, kbuild's try-run scratch
 * directory .tmp_<pid>.
 */
static bool is_probe_file(const char *path)
{
	const char *base, *c;
	size_t len;

	if (!strcmp(path, "/dev/null") || !strcmp(path, "-"))
		return true;
	base = path_basename(path, &len);
	if (len >= 8 && !strncmp(base, "conftest", 8) && (len == 8 || base[8] == '.'))
		return true;
	for (c = path; (c = strstr(c, ".tmp_")); c += 5) {
		size_t digits = strspn(c + 5, "0123456789");

		if ((c == path || c[-1] == '/') && digits && (c[5 + digits] == '/' || !c[5 + digits]))
			return true;
	}
	return false;
}

/* A compiler, assembler or linker: what a probe runs, and what runs under a probe's driver. */
static bool is_toolchain(enum tool_kind tool)
{
	return tool == TOOL_CC_DRIVER || tool == TOOL_CC_PROPER || tool == TOOL_ASSEMBLER || tool == TOOL_LINKER ||
	       tool == TOOL_CACHE;
}

/*
 * A probe is a check of what the toolchain accepts, not a step that makes
 * part of the build: a toolchain program whose input or output is a probe
 * file, and the conftest program itself.  configure's are named by their
 * conftest file ("cc1 conftest.c (probe)"); the others' files say nothing
 * ("cc1 (probe)" for kbuild's cc-option on /dev/null).
 */
enum probe_kind { PROBE_NONE, PROBE_CONFTEST, PROBE_OTHER };

static enum probe_kind image_probe(const struct exec_image *img, enum tool_kind tool)
{
	size_t i, len = 0;
	const char *base = img->argc > 0 && img->argv[0] ? path_basename(img->argv[0], &len) : NULL;
	enum probe_kind kind = PROBE_NONE;

	if (base && len == 8 && !strncmp(base, "conftest", 8))
		return PROBE_CONFTEST;
	if (!is_toolchain(tool))
		return PROBE_NONE;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i], *file = arg;

		if (!strcmp(arg, "-o") && i + 1 < img->argc && img->argv[i + 1])
			file = img->argv[++i];
		else if (arg[0] == '-' && arg[1]) {
			if (IN_LIST(arg, value_opts))
				i++;
			continue;
		}
		if (is_probe_file(file))
			kind = strncmp(path_basename(file, &len), "conftest", 8) ? PROBE_OTHER : PROBE_CONFTEST;
		if (kind == PROBE_OTHER)
			break;
	}
	return kind;
}

/* "-o shown" for an output path; NULL on allocation failure. */
static char *output_detail(const char *path, const struct name_dirs *dirs)
{
	char *shown = shown_path(path, dirs), *detail;

	if (!shown)
		return NULL;
	detail = join2(output_mark, "", shown);
	free(shown);
	return detail;
}

/*
 * A compiler's, assembler's or other program's detail: its first source
 * operand and "+N more"; a compiler or assembler whose input is missing
 * or a temporary shows what it writes instead.  0 or -ENOMEM.
 */
static int inputs_detail(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs,
			 char **detail)
{
	size_t others;
	const char *input = source_operands(img, tool, &others), *output = NULL;
	char *shown, more[32];
	bool by_output = tool == TOOL_CC_DRIVER || tool == TOOL_CC_PROPER || tool == TOOL_ASSEMBLER, temp;
	int err = 0;

	*detail = NULL;
	if (by_output) {
		output = output_operand(img);
		/* A temporary names nothing: gcc's /tmp/ccX.s differs in every run. */
		if (output && ((err = temporary_arg(output, dirs, &temp)) || temp))
			output = NULL;
		if (!err && input && output && !(err = temporary_arg(input, dirs, &temp)) && !temp)
			output = NULL;
		if (err)
			return err;
		if (output) {
			*detail = output_detail(output, dirs);
			return *detail ? 0 : -ENOMEM;
		}
	}
	if (!input && tool == TOOL_OTHER) {
		bool oom;

		input = file_operand(img, dirs, &oom);
		if (oom)
			return -ENOMEM;
	}
	if (!input)
		return 0;
	shown = shown_path(input, dirs);
	if (!shown || !others) {
		*detail = shown;
		return shown ? 0 : -ENOMEM;
	}
	snprintf(more, sizeof(more), " +%zu more", others);
	*detail = join2(shown, "", more);
	free(shown);
	return *detail ? 0 : -ENOMEM;
}

/* Appends " key value" to *s (malloc'd); 0 or -ENOMEM. */
static int append_part(char **s, const char *key, const char *value)
{
	char *part = join2(key, "", value), *next;

	if (!part)
		return -ENOMEM;
	next = *s ? join2(*s, " ", part) : strdup(part);
	free(part);
	if (!next)
		return -ENOMEM;
	free(*s);
	*s = next;
	return 0;
}

/*
 * Appends key and the directory img moves to (make -C, cmake --build) as
 * seen from the build's directory; given is the argument as written, shown
 * when it is the build's directory itself (the top make's -C).  0 or -ENOMEM.
 */
static int dir_change_detail(const struct exec_image *img, const struct name_dirs *dirs, const char *key,
			     const char *given, char **detail)
{
	char *after = image_dir_after(dirs->dir, img), *shown;
	int err;

	shown = after ? path_from(after, dirs->build) : NULL;
	free(after);
	if (shown && !strcmp(shown, ".")) {
		free(shown);
		shown = strdup(given);
	}
	if (!shown)
		return -ENOMEM;
	shorten_path(shown);
	err = append_part(detail, key, shown);
	free(shown);
	return err;
}

/*
 * make and ninja: "-C dir" (the directory it works in, from the build's),
 * kbuild's "obj=dir", else "-f makefile".  0 or -ENOMEM.
 */
static int make_detail(const struct exec_image *img, enum tool_kind tool, const struct name_dirs *dirs,
		       char **detail)
{
	const char *last_c = NULL, *obj = NULL, *file = NULL, *v;
	char *shown;
	size_t i;
	int err = 0;

	*detail = NULL;
	for (i = 1; i < img->argc && img->argv[i]; i++) {
		if ((v = option_value(img, &i, "-C", tool == TOOL_MAKE ? "--directory" : NULL)))
			last_c = v;
		else if (tool == TOOL_MAKE && ((v = option_value(img, &i, "-f", "--file")) ||
					       (v = option_value(img, &i, "--makefile", NULL))))
			file = v;
		else if (tool == TOOL_MAKE && !strncmp(img->argv[i], "obj=", 4))
			obj = img->argv[i] + 4;
	}
	if (last_c)
		err = dir_change_detail(img, dirs, "-C ", last_c, detail);
	if (!err && obj)
		err = append_part(detail, "obj=", obj);
	if (!err && file && !last_c && !obj) {
		shown = shown_path(file, dirs);
		err = shown ? append_part(detail, "-f ", shown) : -ENOMEM;
		free(shown);
	}
	return err;
}

/*
 * cmake: "-E command" with its first plain operand (cmake_depends: its
 * target's directory), "-P script", "--build dir", else its .cmake
 * operand.  0 or -ENOMEM.
 */
static int cmake_detail(const struct exec_image *img, const struct name_dirs *dirs, char **detail)
{
	const char *operand = NULL, *last = NULL;
	char *shown, *slash;
	size_t i;
	int err;

	*detail = NULL;
	if (img->argc < 3 || !img->argv[1] || !img->argv[2])
		return 0;
	if (!strcmp(img->argv[1], "--build"))
		return dir_change_detail(img, dirs, "--build ", img->argv[2], detail);
	if (!strcmp(img->argv[1], "-P")) {
		shown = shown_path(img->argv[2], dirs);
		err = shown ? append_part(detail, "-P ", shown) : -ENOMEM;
		free(shown);
		return err;
	}
	if (strcmp(img->argv[1], "-E")) /* "--check-build-system CMakeFiles/Makefile.cmake" */
		return inputs_detail(img, TOOL_CMAKE, dirs, detail);
	err = append_part(detail, "-E ", img->argv[2]);
	for (i = 3; !err && i < img->argc && img->argv[i]; i++) {
		const char *arg = img->argv[i];

		/* Options, and messages (cmake_echo_color's) are no operands. */
		if (arg[0] == '-' || !arg[0] || strpbrk(arg, " \t\n"))
			continue;
		if (!operand)
			operand = arg;
		last = arg;
	}
	if (err || !operand)
		return err;
	/* cmake_depends ... CMakeFiles/<target>.dir/DependInfo.cmake */
	shown = shown_path(!strcmp(img->argv[2], "cmake_depends") ? last : operand, dirs);
	if (!shown)
		return -ENOMEM;
	if (!strcmp(img->argv[2], "cmake_depends") && (slash = strrchr(shown, '/')))
		*slash = '\0';
	err = append_part(detail, "", shown);
	free(shown);
	return err;
}

/*
 * Folds whitespace runs of the valid UTF-8 string s to one space, in place,
 * and cuts it after max_chars characters with an ellipsis.  s must have
 * room for ELLIPSIS_LEN more bytes than its length.  Returns whether it cut.
 */
static bool fold_script(char *s, size_t max_chars)
{
	size_t in, out = 0, chars = 0;
	bool space = false, cut = false;

	for (in = 0; s[in]; in++) {
		unsigned char c = s[in];

		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f') {
			space = out > 0;
			continue;
		}
		if ((c & 0xc0) != 0x80) { /* a character starts here */
			if (chars + space >= max_chars) {
				memcpy(s + out, ellipsis, ELLIPSIS_LEN);
				out += ELLIPSIS_LEN;
				cut = true;
				break;
			}
			chars += 1 + space;
		}
		if (space) {
			s[out++] = ' ';
			space = false;
		}
		s[out++] = c;
	}
	s[out] = '\0';
	return cut;
}

static int image_detail(const struct exec_image *img, const struct name_dirs *dirs, int depth, char **detail);

/* script folded and cut to SCRIPT_MAX_CHARS (fold_script()), valid UTF-8; *cut whether it was.  NULL without memory. */
static char *folded_script(const char *script, bool *cut)
{
	char *clean = utf8_sanitize(script, strlen(script));
	/* Folding only shrinks, but the ellipsis may need 3 more bytes. */
	char *folded = clean ? realloc(clean, strlen(clean) + ELLIPSIS_LEN + 1) : NULL;

	if (!folded) {
		free(clean);
		return NULL;
	}
	*cut = fold_script(folded, SCRIPT_MAX_CHARS);
	return folded;
}

/*
 * A sh -c script: shown whole when short; a longer one is named by the step
 * it runs when that step has a detail ("-c cc src/foo.c" for ninja's
 * "cd /b && /usr/bin/cc -D… -c ../src/foo.c"), else cut after its prelude
 * (kbuild's "set -e; exec >/dev/null; trap 'rm -f …' HUP; …" before every
 * command of a recipe).  0 or -ENOMEM.
 */
static int script_detail(const char *script, const struct name_dirs *dirs, int depth, char **detail)
{
	struct script_cmd cmd = { 0 };
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
	found = script_step(script, &step_dir, &cmd, &rest, &silent);
	if (found == 0 && silent) {
		/* kbuild's recipe lines of an empty command: "set -e; trap …" and nothing else. */
		*detail = strdup("-c (no command)");
		err = *detail ? 0 : -ENOMEM;
		goto whole;
	}
	if (found != 1) {
		err = found == -ENOMEM ? found : 0;
		goto after_prelude;
	}
	step.argv = cmd.words;
	step.argc = cmd.nr;
	step_dirs.dir = step_dir;
	prog = program_name(&step);
	err = prog ? image_detail(&step, &step_dirs, depth + 1, &step_detail) : -ENOMEM;
	if (!err && step_detail) {
		char *named = join2(prog, " ", step_detail);

		if (named) {
			*detail = join2("-c", " ", named);
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
		*detail = join2("-c", " ", folded);
		if (!*detail)
			err = -ENOMEM;
	}
	free(step_detail);
	free(prog);
	free(step_dir);
	free(folded);
	script_cmd__free(&cmd);
	return err;
}

/* What follows the program in img's name, or *detail NULL.  0 or -ENOMEM. */
static int image_detail(const struct exec_image *img, const struct name_dirs *dirs, int depth, char **detail)
{
	enum tool_kind tool = image_tool(img);
	const char *script, *file;

	*detail = NULL;
	switch (tool) {
	case TOOL_SHELL:
		shell_operand(img, &script, &file);
		if (script)
			return script_detail(script, dirs, depth, detail);
		if (!file)
			return 0;
		*detail = shown_path(file, dirs);
		return *detail ? 0 : -ENOMEM;
	case TOOL_MAKE:
	case TOOL_NINJA:
		return make_detail(img, tool, dirs, detail);
	case TOOL_CMAKE:
		return cmake_detail(img, dirs, detail);
	case TOOL_LINKER:
		file = output_operand(img);
		break;
	case TOOL_AR:
	case TOOL_RANLIB:
		file = tool == TOOL_AR ? ar_archive(img) : first_operand(img);
		if (!file)
			return 0;
		*detail = shown_path(file, dirs);
		return *detail ? 0 : -ENOMEM;
	default:
		return inputs_detail(img, tool, dirs, detail);
	}
	if (!file)
		return 0;
	*detail = output_detail(file, dirs);
	return *detail ? 0 : -ENOMEM;
}

/* Cuts the valid UTF-8 string s, in place, to max_bytes with an ellipsis. */
static void cap_name(char *s, size_t max_bytes)
{
	size_t cut;

	if (strlen(s) <= max_bytes)
		return;
	cut = utf8_prefix_len(s, max_bytes - ELLIPSIS_LEN);
	while (cut > 0 && s[cut - 1] == ' ')
		cut--;
	memcpy(s + cut, ellipsis, ELLIPSIS_LEN + 1);
}

/* m's directories: its own, else (a model built by hand) *made, for the call.  NULL: no m, or no memory. */
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
	char *dir = d || !m ? strdup(d ? d->build : ".") : NULL;

	proc_dirs__free(made);
	return dir;
}

/*
 * image_display_name(); with detail_out, also the detail it was named by
 * (NULL when none, or a probe's that the name leaves out), for the caller
 * to free.
 */
static char *image_name_detail(const struct model *m, const struct proc_instance *p, size_t k, char **detail_out)
{
	const struct exec_image *img = &p->execs[k];
	struct proc_dirs *made;
	const struct proc_dirs *d = dirs_of(m, &made);
	/* "." for an unknown directory */
	struct name_dirs dirs = { ".", "." };
	char *prog, *detail = NULL, *raw = NULL, *name = NULL;
	enum probe_kind probe;

	prog = program_name(img);
	if (!prog || (m && !d))
		goto cleanup;
	if (d) {
		bool in_model = p >= m->procs && p < m->procs + m->nr_procs;

		dirs.dir = in_model ? d->dir[d->off[p - m->procs] + k] : d->top;
		dirs.build = d->build;
	}
	if (image_detail(img, &dirs, 0, &detail))
		goto cleanup;
	probe = image_probe(img, image_tool(img));
	if (probe == PROBE_OTHER) {
		free(detail);
		detail = NULL;
	}
	raw = join2(prog, " ", detail);
	if (raw && probe) {
		char *marked = join2(raw, " ", "(probe)");

		free(raw);
		raw = marked;
	}
	/* Paths are raw bytes from the kernel: the name is made valid once, here. */
	name = raw ? utf8_sanitize(raw, strlen(raw)) : NULL;
	if (name)
		cap_name(name, NAME_MAX_BYTES);
cleanup:
	free(raw);
	if (detail_out)
		*detail_out = detail;
	else
		free(detail);
	proc_dirs__free(made);
	free(prog);
	return name;
}

char *image_display_name(const struct model *m, const struct proc_instance *p, size_t k)
{
	return image_name_detail(m, p, k, NULL);
}

char *proc_display_name(const struct model *m, const struct proc_instance *p)
{
	const char *step = m && m->names && p >= m->procs && p < m->procs + m->nr_procs
				   ? step_names__of(m->names, p - m->procs)
				   : NULL;

	return step ? strdup(step) : proc_image_name(m, p);
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
	name = join2(comm, " ", "(fork)");
	free(comm);
	return name;
}

/* ---- what tells steps apart (model/step_names.h) ---- */

/* The directories image k of p is named from: where it ran, and the build's. */
static struct name_dirs image_dirs(const struct proc_dirs *d, const struct model *m, const struct proc_instance *p,
				   size_t k)
{
	/* "." for an unknown directory */
	struct name_dirs dirs = { ".", "." };

	if (d) {
		dirs.dir = p >= m->procs && p < m->procs + m->nr_procs ? d->dir[d->off[p - m->procs] + k] : d->top;
		dirs.build = d->build;
	}
	return dirs;
}

/* The -o of img run in dirs, shown, when it is no temporary; *made NULL when none.  0 or -ENOMEM. */
static int output_made(const struct exec_image *img, const struct name_dirs *dirs, char **made)
{
	const char *out = output_operand(img);
	bool temp = false;

	*made = NULL;
	if (!out)
		return 0;
	if (temporary_arg(out, dirs, &temp))
		return -ENOMEM;
	if (temp)
		return 0;
	*made = shown_path(out, dirs);
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
	struct script_cmd cmd = { 0 };
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
	err = script_step(script, &step_dir, &cmd, &rest, &silent);
	if (err == 1) {
		step.argv = cmd.words;
		step.argc = cmd.nr;
		dirs.dir = step_dir;
		err = output_made(&step, &dirs, made);
	}
	free(step_dir);
	script_cmd__free(&cmd);
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

	f->made_own = f->made != NULL;
	if (err || f->made || !is_toolchain(image_tool(&p->execs[p->nr_execs - 1])))
		return err;
	/* A driver runs its compiler, assembler and linker directly, collect2 its ld: a few hops at most. */
	for (hops = 0; hops < 4 && p->parent >= 0 && (size_t)p->parent < m->nr_procs; hops++) {
		const struct proc_instance *up = &m->procs[p->parent];
		long k = image_index_at(up, p->start_ns);
		enum tool_kind tool = k >= 0 ? image_tool(&up->execs[k]) : TOOL_OTHER;

		if (!is_toolchain(tool))
			return 0;
		if (tool == TOOL_CC_DRIVER || tool == TOOL_CACHE)
			return image_made(d, m, up, k, &f->made);
		p = up;
	}
	return 0;
}

int proc_name__facts(const struct model *m, const struct proc_instance *p, struct proc_name_facts *f)
{
	const struct exec_image *img = p->nr_execs ? &p->execs[p->nr_execs - 1] : NULL;
	enum tool_kind tool = img ? image_tool(img) : TOOL_OTHER;
	const struct proc_dirs *d = m->dirs;
	struct name_dirs dirs;
	char *detail = NULL;
	/* With m's directories the name is made from the same dirs as below: its detail serves both. */
	bool named_by_detail = img && d;
	int err = 0;

	*f = (struct proc_name_facts){ .alike = img && image_probe(img, tool) };
	f->name = named_by_detail ? image_name_detail(m, p, p->nr_execs - 1, &detail) : proc_image_name(m, p);
	if (!f->name || f->alike) {
		free(detail);
		if (!f->name)
			goto fail;
		return 0;
	}
	/* A fork makes nothing of its own: only what it wrote or where it ran tell two apart. */
	dirs = image_dirs(d, m, p, img ? p->nr_execs - 1 : 0);
	if (img && !named_by_detail)
		err = image_detail(img, &dirs, 0, &detail);
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
		shorten_path(f->dir);
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

int proc_name__file_shown(const struct model *m, const char *path, char **shown)
{
	const char *build = m && m->dirs ? m->dirs->build : ".";
	char *norm;

	*shown = NULL;
	if (path[0] == '/' && is_temporary(path, build))
		return 0;
	/* A path cut at the front ("…/b/c") is shown as it came. */
	norm = path[0] == '/' ? path_normalise(path) : strdup(path);
	*shown = norm && path[0] == '/' ? path_from(norm, build) : norm;
	if (norm != *shown)
		free(norm);
	if (!*shown)
		return -ENOMEM;
	shorten_path(*shown);
	return 0;
}

void proc_name__make_room(char *name, size_t suffix_len)
{
	if (suffix_len + ELLIPSIS_LEN < NAME_MAX_BYTES)
		cap_name(name, NAME_MAX_BYTES - suffix_len);
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
	if (name && max_bytes > ELLIPSIS_LEN)
		cap_name(name, max_bytes);
	return name;
}
