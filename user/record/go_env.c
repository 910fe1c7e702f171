// SPDX-License-Identifier: GPL-2.0
/* GOFLAGS from go's env file (include/record/go_env.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/small_text.h"
#include "record/go_env.h"

/* An env file larger than this is not read: go's are a few lines. */
#define GO_ENV_MAX (64u << 10)

char *go_env__value_in(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *line, *end, *found = NULL, *found_end = NULL;

	for (line = text; line && *line; line = *end ? end + 1 : NULL) {
		end = strchr(line, '\n');
		end = end ? end : line + strlen(line);
		/* go's readEnvFile: a name starts with A-Z; the value runs to the line's end. */
		if (*line < 'A' || *line > 'Z' || (size_t)(end - line) <= len || strncmp(line, name, len) ||
		    line[len] != '=')
			continue;
		found = line + len + 1;
		found_end = end;
	}
	return found ? strndup(found, found_end - found) : NULL;
}

/* The file go reads, as its cfg.EnvFile() finds it; NULL: none (GOENV=off, no home), or without memory. */
static char *env_file(const char *goenv, const char *xdg_config_home, const char *home)
{
	char *path = NULL;

	if (goenv && *goenv)
		return strcmp(goenv, "off") ? strdup(goenv) : NULL;
	/* os.UserConfigDir(): $XDG_CONFIG_HOME when absolute, else $HOME/.config. */
	if (xdg_config_home && xdg_config_home[0] == '/')
		return asprintf(&path, "%s/go/env", xdg_config_home) < 0 ? NULL : path;
	if (home && *home)
		return asprintf(&path, "%s/.config/go/env", home) < 0 ? NULL : path;
	return NULL;
}

void go_env__find_goflags(struct go_env *g, const char *goenv, const char *xdg_config_home, const char *home)
{
	char *text;

	g->goflags = NULL;
	g->file = env_file(goenv, xdg_config_home, home);
	if (!g->file)
		return;
	text = small_text__read(g->file, GO_ENV_MAX);
	if (text) {
		g->goflags = go_env__value_in(text, "GOFLAGS");
		free(text);
	}
	if (!g->goflags) {
		free(g->file);
		g->file = NULL;
	}
}

void go_env__free(struct go_env *g)
{
	free(g->goflags);
	free(g->file);
	g->goflags = g->file = NULL;
}
