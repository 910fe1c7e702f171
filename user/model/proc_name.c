/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Slice names are what a person scans a flame chart by, so they say which
 * program ran on what ("cc1 foo.c", "sh -c make -C lib…") and stay short
 * enough to fit a slice.  Everything else about a process goes in args.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "model/proc_name.h"
#include "util/utf8.h"

/* The longest name, in bytes; longer ones end in an ellipsis. */
#define NAME_MAX_BYTES 80
/* The longest shell script shown after "sh -c", in characters. */
#define SCRIPT_MAX_CHARS 48

/* U+2026 HORIZONTAL ELLIPSIS */
static const char ellipsis[] = "\xe2\x80\xa6";
#define ELLIPSIS_LEN (sizeof(ellipsis) - 1)

static const char *const shells[] = { "sh", "bash", "dash", "zsh", "ash", "ksh", "mksh" };

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
 * Compiler and assembler options whose value is a separate argument that
 * may itself look like a source file (cc1's "-o /tmp/ccX.s", "-MT foo.c.o",
 * "-include config.h"): that value is never the main input.
 */
static const char *const value_opts[] = {
	"-o", "-MF", "-MT", "-MQ", "-include", "-imacros", "-isystem", "-iquote", "-idirafter",
	"-I", "-L", "-x", "-T", "-Xlinker", "-Xassembler", "-Xpreprocessor", "-Xclang", "-mllvm",
	"-aux-info",
};

static bool in_list(const char *s, const char *const *list, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
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

/* The main input of a compiler-like step: its last source-file operand. */
static const char *main_input(const struct exec_image *img)
{
	const char *found = NULL;
	size_t i;

	for (i = 1; i < img->argc; i++) {
		const char *arg = img->argv[i];

		if (!arg)
			break;
		if (arg[0] == '-') {
			if (IN_LIST(arg, value_opts))
				i++;
			continue;
		}
		if (has_source_ext(arg))
			found = arg;
	}
	return found;
}

/*
 * Folds whitespace runs of the valid UTF-8 string s to one space, in place,
 * and cuts it after max_chars characters with an ellipsis.  s must have
 * room for ELLIPSIS_LEN more bytes than its length.
 */
static void fold_script(char *s, size_t max_chars)
{
	size_t in, out = 0, chars = 0;
	bool space = false;

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

static char *shell_name(const char *prog, const char *script)
{
	char *clean, *folded, *name;
	size_t len = strlen(script);

	clean = utf8_sanitize(script, len);
	if (!clean)
		return NULL;
	/* Folding only shrinks, but the ellipsis may need 3 more bytes. */
	folded = realloc(clean, strlen(clean) + ELLIPSIS_LEN + 1);
	if (!folded) {
		free(clean);
		return NULL;
	}
	fold_script(folded, SCRIPT_MAX_CHARS);
	name = join2(prog, " -c ", folded);
	free(folded);
	return name;
}

static char *basename_clean(const char *path)
{
	size_t len;
	const char *base = path_basename(path, &len);

	return utf8_sanitize(base, len);
}

char *image_display_name(const struct exec_image *img)
{
	const char *script = NULL, *input = NULL;
	char *prog, *detail = NULL, *name = NULL;

	prog = program_name(img);
	if (!prog)
		return NULL;

	if (IN_LIST(prog, shells)) {
		shell_operand(img, &script, &input);
		if (script) {
			name = shell_name(prog, script);
			goto cap;
		}
	} else {
		input = main_input(img);
	}
	if (input) {
		detail = basename_clean(input);
		if (!detail)
			goto cleanup;
	}
	name = join2(prog, " ", detail);
cap:
	if (name)
		cap_name(name, NAME_MAX_BYTES);
cleanup:
	free(detail);
	free(prog);
	return name;
}

char *proc_display_name(const struct proc_instance *p)
{
	size_t len;
	char *comm, *name;

	if (p->nr_execs > 0)
		return image_display_name(&p->execs[p->nr_execs - 1]);

	/* Never exec'd: a fork of its parent, still running the parent's image. */
	len = strnlen(p->comm, BB_COMM_LEN);
	comm = utf8_sanitize(len ? p->comm : "?", len ? len : 1);
	if (!comm)
		return NULL;
	name = join2(comm, " ", "(fork)");
	free(comm);
	return name;
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
