// SPDX-License-Identifier: GPL-2.0
/* Paths as step names show them (include/model/paths.h). */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "model/name_text.h"
#include "model/paths.h"

/* The longest path shown, in bytes; its leading directories give way to "…/". */
#define PATH_SHOWN_MAX_BYTES 48

/* Where compilers put the temporaries they pass between steps. */
static const char *const temp_dirs[] = { "/tmp", "/var/tmp", "/dev/shm" };

const char *path_basename_of(const char *path, size_t len, size_t *base_len)
{
	size_t end = len, start;

	while (end > 1 && path[end - 1] == '/')
		end--;
	start = end;
	while (start > 0 && path[start - 1] != '/')
		start--;
	if (start == end && end == 1) /* "/" itself */
		start = 0;
	*base_len = end - start;
	return path + start;
}

const char *path_basename(const char *path, size_t *len)
{
	return path_basename_of(path, strlen(path), len);
}

char *path_normalise(const char *path)
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

char *path_resolve(const char *dir, const char *path)
{
	char *joined, *norm;

	if (path[0] == '/')
		return path_normalise(path);
	joined = name_join(dir, "/", path);
	if (!joined)
		return NULL;
	norm = path_normalise(joined);
	free(joined);
	return norm;
}

char *path_dir_known(char *dir)
{
	if (!dir || strlen(dir) < PATH_MAX)
		return dir;
	free(dir);
	return strdup(".");
}

char *path_dir_resolve(const char *dir, const char *path)
{
	return path_dir_known(path_resolve(dir, path));
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

char *path_from(const char *path, const char *from)
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

bool path_is_temporary(const char *path, const char *build_dir)
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
		size_t len = strlen(temp_dirs[i]);

		if (len == dir_len && !strncmp(temp_dirs[i], path, dir_len))
			return true;
		/* The go command's $WORK, a fresh go-build<N> there in every run, and everything under it. */
		if (len < dir_len && !strncmp(temp_dirs[i], path, len) && !strncmp(path + len, "/go-build", 9) &&
		    isdigit((unsigned char)path[len + 9]))
			return true;
	}
	return false;
}

bool path_is_temp_dir(const char *dir)
{
	return NAME_IN_LIST(dir, temp_dirs);
}

void path_shorten(char *s)
{
	path_shorten_to(s, PATH_SHOWN_MAX_BYTES);
}

void path_shorten_to(char *s, size_t max_bytes)
{
	size_t len = strlen(s), i;
	const char *base;

	if (len <= max_bytes)
		return;
	for (i = 0; i < len; i++) {
		if (s[i] == '/' && len - i + NAME_ELLIPSIS_LEN <= max_bytes) {
			memmove(s + NAME_ELLIPSIS_LEN, s + i, len - i + 1);
			memcpy(s, NAME_ELLIPSIS, NAME_ELLIPSIS_LEN);
			return;
		}
	}
	/* One long file name: the whole name's cap cuts it. */
	base = path_basename(s, &i);
	memmove(s, base, i);
	s[i] = '\0';
}

bool path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return path[0] == '/';
	return !strncmp(path, dir, n) && (path[n] == '/' || path[n] == '\0');
}

char *path_common_dir(const char *a, const char *b)
{
	size_t i, end = 0;
	char *out;

	if (a[0] != '/' || b[0] != '/')
		return strdup(".");
	for (i = 0; a[i] && a[i] == b[i]; i++) {
		if (a[i] == '/')
			end = i;
	}
	/* Both ran out together, or one is a directory of the other. */
	if ((!a[i] && (!b[i] || b[i] == '/')) || (!b[i] && a[i] == '/'))
		end = i;
	out = strndup(a, end ? end : 1);
	return out;
}

char *path_from_root(const char *full, const char *build, const char *root)
{
	if (root && strcmp(root, build) && !path_is_under(full, build) && path_is_under(full, root))
		return path_from(full, root);
	return path_from(full, build);
}

char *name_dirs__shown(const struct name_dirs *dirs, const char *path)
{
	char *full = path_resolve(dirs->dir, path), *shown;

	if (!full)
		return NULL;
	shown = path_from_root(full, dirs->build, dirs->root);
	free(full);
	if (shown)
		path_shorten(shown);
	return shown;
}

int name_dirs__temporary(const struct name_dirs *dirs, const char *path, bool *temp)
{
	char *full = path_resolve(dirs->dir, path);

	if (!full)
		return -ENOMEM;
	*temp = path_is_temporary(full, dirs->build);
	free(full);
	return 0;
}
