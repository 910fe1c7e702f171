// SPDX-License-Identifier: GPL-2.0
/*
 * GOFLAGS from go's env file, as the go command finds and reads it: the
 * lines `go env -w` writes (the last one naming it winning, comments and
 * other names skipped), and the file's place ($GOENV, "off" for none,
 * then $XDG_CONFIG_HOME/go/env, then $HOME/.config/go/env).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/go_env.h"

Test(go_env, goflags_as_go_reads_its_env_file)
{
	static const struct {
		const char *text, *goflags;
	} cases[] = {
		{ "GOFLAGS=-p=1\n", "-p=1" },
		{ "GOPROXY=off\nGOFLAGS=-mod=mod -p=2\nGOPATH=/g\n", "-mod=mod -p=2" },
		{ "GOFLAGS=-p=1\nGOFLAGS=-p=3", "-p=3" },
		{ "GOFLAGS=\n", "" },
		/* Not GOFLAGS: a comment, an indented line, a longer name, another name. */
		{ "# GOFLAGS=-p=1\n", NULL },
		{ " GOFLAGS=-p=1\n", NULL },
		{ "GOFLAGSX=-p=1\n", NULL },
		{ "XGOFLAGS=-p=1\nGOFLAGS\n", NULL },
		{ "", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *v = go_env__value_in(cases[i].text, "GOFLAGS");

		if (cases[i].goflags)
			cr_assert(eq(str, v ? v : "(none)", (char *)cases[i].goflags), "case %zu", i);
		else
			cr_assert(eq(ptr, v, NULL), "case %zu: %s", i, v);
		free(v);
	}
}

static char top[] = "/tmp/buildbpf-go-env.XXXXXX";

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	f = fopen(path, "w");
	cr_assert(not(eq(ptr, f, NULL)), "%s", path);
	fputs(text, f);
	fclose(f);
}

static void tree(void)
{
	char path[512];

	cr_assert(not(eq(ptr, mkdtemp(top), NULL)));
	snprintf(path, sizeof(path), "%s/home", top);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/home/.config", top);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/home/.config/go", top);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/xdg", top);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/xdg/go", top);
	mkdir(path, 0755);
	put("home/.config/go/env", "GOFLAGS=-p=1\n");
	put("xdg/go/env", "GOFLAGS=-p=2\n");
	put("goenv", "GOPATH=/g\nGOFLAGS=-p=3\n");
	put("other", "GOPATH=/g\n");
}

static void untree(void)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	cr_assert(eq(int, system(cmd), 0));
}

/* g's GOFLAGS and file (relative to top, "" for none) with these settings (relative paths under top). */
static void expect(const char *goenv, const char *xdg, const char *home, const char *goflags, const char *file)
{
	char e[512], x[512], h[512], want[512];
	struct go_env g;

	snprintf(e, sizeof(e), "%s%s%s", goenv && strcmp(goenv, "off") ? top : "",
		 goenv && strcmp(goenv, "off") ? "/" : "", goenv ? goenv : "");
	snprintf(x, sizeof(x), "%s/%s", top, xdg ? xdg : "");
	snprintf(h, sizeof(h), "%s/%s", top, home ? home : "");
	go_env__find_goflags(&g, goenv ? e : NULL, xdg ? x : NULL, home ? h : NULL);
	if (!goflags) {
		cr_assert(eq(ptr, g.goflags, NULL), "%s", g.goflags);
		cr_assert(eq(ptr, g.file, NULL), "no file named when it sets none");
	} else {
		snprintf(want, sizeof(want), "%s/%s", top, file);
		cr_assert(eq(str, g.goflags ? g.goflags : "(none)", (char *)goflags));
		cr_assert(eq(str, g.file ? g.file : "(none)", want));
	}
	go_env__free(&g);
}

Test(go_env, the_file_go_reads_goenv_then_xdg_config_home_then_home, .init = tree, .fini = untree)
{
	expect(NULL, NULL, "home", "-p=1", "home/.config/go/env");
	expect(NULL, "xdg", "home", "-p=2", "xdg/go/env");
	expect("goenv", "xdg", "home", "-p=3", "goenv");
	expect("other", "xdg", "home", NULL, NULL);
	expect("off", "xdg", "home", NULL, NULL);
	expect(NULL, NULL, NULL, NULL, NULL);
	/* A relative XDG_CONFIG_HOME is no config directory to go: $HOME's then. */
	{
		struct go_env g;
		char h[512];

		snprintf(h, sizeof(h), "%s/home", top);
		go_env__find_goflags(&g, NULL, "xdg", h);
		cr_assert(eq(str, g.goflags ? g.goflags : "(none)", "-p=1"));
		go_env__free(&g);
	}
}
