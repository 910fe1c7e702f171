// SPDX-License-Identifier: GPL-2.0
/* cargo's build.jobs from its config files (include/record/cargo_config.h). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/small_text.h"
#include "record/cargo_config.h"

/* A config file larger than this is not read: cargo's are a few lines. */
#define CARGO_CONFIG_MAX (64u << 10)

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* s past the key word (a bare key, or one in double quotes) when it is one; NULL otherwise. */
static const char *key_is(const char *s, const char *word)
{
	size_t len = strlen(word);

	if (*s == '"')
		return !strncmp(s + 1, word, len) && s[1 + len] == '"' ? skip_space(s + len + 2) : NULL;
	if (strncmp(s, word, len) || isalnum((unsigned char)s[len]) || s[len] == '_' || s[len] == '-')
		return NULL;
	return skip_space(s + len);
}

/* The value after "jobs" at s ("= 4", "= \"default\""), malloc'd; NULL: none there. */
static char *jobs_value(const char *s)
{
	const char *end;

	if (!(s = key_is(s, "jobs")) || *s != '=')
		return NULL;
	s = skip_space(s + 1);
	if (*s == '"' || *s == '\'') {
		end = strchr(s + 1, *s);
		return end ? strndup(s + 1, end - s - 1) : NULL;
	}
	for (end = s; *end == '-' || *end == '+' || isdigit((unsigned char)*end); end++)
		;
	return end > s ? strndup(s, end - s) : NULL;
}

/* One line of the root table, or of [build] when in_build: the value it gives build.jobs, or NULL. */
static char *line_jobs(const char *line, bool in_build)
{
	const char *s = skip_space(line), *k;

	if (in_build)
		return jobs_value(s);
	if (!(k = key_is(s, "build")))
		return NULL;
	if (*k == '.')
		return jobs_value(skip_space(k + 1));
	if (*k != '=' || *(k = skip_space(k + 1)) != '{')
		return NULL;
	/* An inline table: build = { jobs = 2, ... } */
	for (k++; *k && *k != '}'; k++) {
		char *v = jobs_value(skip_space(k));

		if (v)
			return v;
		while (*k && *k != ',' && *k != '}')
			k++;
		if (*k != ',')
			break;
	}
	return NULL;
}

char *cargo_config__jobs_in(const char *text)
{
	bool in_build = false, root = true;
	char *found = NULL, *line, *copy = strdup(text), *save = NULL;

	for (line = copy ? strtok_r(copy, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save)) {
		const char *s = skip_space(line);
		char *v;

		if (*s == '[') {
			/* A table header: [build], or any other (its keys are not build's). */
			root = false;
			in_build = s[1] != '[' && key_is(skip_space(s + 1), "build") &&
				   *key_is(skip_space(s + 1), "build") == ']';
			continue;
		}
		if ((in_build || root) && (v = line_jobs(s, in_build))) {
			free(found);
			found = v;
		}
	}
	free(copy);
	return found;
}

/* dir's config file, if it has one that sets build.jobs: into c.  cargo reads "config" before "config.toml". */
static int try_dir(struct cargo_config *c, const char *dir, const char *sub)
{
	static const char *const names[] = { "config", "config.toml" };
	char *path = NULL, *text;
	size_t i;

	for (i = 0; i < 2 && !c->jobs; i++) {
		if (asprintf(&path, "%s%s/%s", dir, sub, names[i]) < 0)
			return -ENOMEM;
		text = small_text__read(path, CARGO_CONFIG_MAX);
		if (text) {
			c->jobs = cargo_config__jobs_in(text);
			free(text);
			/* The file cargo reads; its sibling is not read when it exists. */
			if (c->jobs) {
				c->file = path;
				return 0;
			}
			i = 2;
		}
		free(path);
		path = NULL;
	}
	return 0;
}

int cargo_config__find_jobs(struct cargo_config *c, const char *cwd, const char *cargo_home)
{
	char *dir;
	int err = 0;

	c->jobs = c->file = NULL;
	if (!cwd || cwd[0] != '/')
		return 0;
	dir = strdup(cwd);
	if (!dir)
		return -ENOMEM;
	/* The deepest directory's setting wins: from cwd up to the root. */
	for (;;) {
		char *slash = strrchr(dir, '/');

		err = try_dir(c, dir, "/.cargo");
		if (err || c->jobs || (slash == dir && !dir[1]))
			break;
		slash[slash == dir ? 1 : 0] = 0;
	}
	free(dir);
	if (!err && !c->jobs && cargo_home)
		err = try_dir(c, cargo_home, "");
	return err;
}

void cargo_config__free(struct cargo_config *c)
{
	free(c->jobs);
	free(c->file);
	c->jobs = c->file = NULL;
}
