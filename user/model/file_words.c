// SPDX-License-Identifier: GPL-2.0
/* The one rule for a file's word (include/model/file_words.h). */
#include <stdbool.h>
#include <string.h>
#include "model/file_words.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "model/shell_words.h"

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

/* Of them, the C family's that a C compiler driver compiles and distcc sends to be compiled. */
static const char *const c_family_exts[] = { "c", "cc", "cpp", "cxx", "c++", "C", "m", "mm", "S", "i", "ii" };

/* Whether ext[0, len) is in list (no extension is 8 bytes long). */
static bool ext_in(const char *ext, size_t len, const char *const *list, size_t nr)
{
	char name[8];

	if (len >= sizeof(name))
		return false;
	memcpy(name, ext, len);
	name[len] = '\0';
	return name_in_list(name, list, nr);
}

#define EXT_IN(ext, len, list) ext_in((ext), (len), (list), sizeof(list) / sizeof((list)[0]))

/* No blank, quote, shell syntax or format in w[0, len). */
static bool is_plain_word(const char *w, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char c = w[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80 ||
		      (c && strchr("._+-/@~,:", c))))
			return false;
	}
	return true;
}

/* A letter, a '/' or '.', not a device every command may name (2>/dev/null). */
static bool is_path_like(const char *w, size_t len)
{
	size_t i;
	bool letter = false;

	for (i = 0; i < len; i++)
		letter |= (w[i] >= 'a' && w[i] <= 'z') || (w[i] >= 'A' && w[i] <= 'Z');
	return letter && (memchr(w, '/', len) || memchr(w, '.', len)) && !(len > 5 && !memcmp(w, "/dev/", 5));
}

/* FILE_WORD_NAMED: a plain word with a base name "x.y", or NAME= one. */
static const char *named_file(const char *w, size_t len)
{
	size_t name = shell_assignment_len(w, len), base_len, i;
	const char *path = w + name, *base;

	len -= name;
	if (!len || *path == '-' || *path == '+' || !is_plain_word(path, len))
		return NULL;
	base = path_basename_of(path, len, &base_len);
	/* A dot that is neither the first nor the last character. */
	for (i = 1; i + 1 < base_len; i++) {
		if (base[i] == '.')
			return path;
	}
	return NULL;
}

/* FILE_WORD_SOURCE: the base name's extension is a source's. */
static bool is_source(const char *w, size_t len)
{
	size_t base_len;
	const char *base = path_basename_of(w, len, &base_len), *dot = NULL, *p;

	for (p = base; p < base + base_len; p++) {
		if (*p == '.')
			dot = p;
	}
	/* ".c" alone is a hidden file or an option value, not a source. */
	return dot && dot != base && EXT_IN(dot + 1, base + base_len - dot - 1, source_exts);
}

/* FILE_WORD_C_SOURCE: the text after the last dot is a C-family extension. */
static bool is_c_source(const char *w, size_t len)
{
	const char *dot = memrchr(w, '.', len);

	return dot && EXT_IN(dot + 1, w + len - dot - 1, c_family_exts);
}

const char *file_word(const char *w, size_t len, enum file_word_test test)
{
	if (len && w[0] == '-')
		return NULL;
	switch (test) {
	case FILE_WORD_OPERAND:
		return w;
	case FILE_WORD_PATH:
		return is_path_like(w, len) ? w : NULL;
	case FILE_WORD_NAMED:
		return named_file(w, len);
	case FILE_WORD_SOURCE:
		return is_source(w, len) ? w : NULL;
	case FILE_WORD_C_SOURCE:
		return is_c_source(w, len) ? w : NULL;
	}
	return NULL;
}
