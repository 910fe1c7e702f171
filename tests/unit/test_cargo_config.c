// SPDX-License-Identifier: GPL-2.0
/*
 * cargo's build.jobs from its config files, as cargo finds them: the
 * forms TOML gives the key, and the files' order (the deepest directory
 * first, "config" before "config.toml", $CARGO_HOME last).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/cargo_config.h"

Test(cargo_config, build_jobs_in_each_form_toml_gives_it)
{
	static const struct {
		const char *text, *jobs;
	} cases[] = {
		{ "[build]\njobs = 3\n", "3" },
		{ "[build]\n  jobs=4 # four\n", "4" },
		{ "build.jobs = 5\n", "5" },
		{ "build = { target-dir = \"t\", jobs = 6 }\n", "6" },
		{ "[build]\njobs = -1\n", "-1" },
		{ "[build]\njobs = \"default\"\n", "default" },
		{ "[net]\noffline = true\n[build]\nrustflags = []\njobs = 7\n[target.x]\njobs = 9\n", "7" },
		/* Not build.jobs: another table's key, a comment, a longer key, a key after a table header. */
		{ "[profile.release]\njobs = 2\n", NULL },
		{ "# [build]\n# jobs = 2\n", NULL },
		{ "[build]\njobserver = 2\n", NULL },
		{ "[net]\nbuild.jobs = 2\n", NULL },
		{ "[build.x]\njobs = 2\n", NULL },
		{ "", NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *jobs = cargo_config__jobs_in(cases[i].text);

		if (cases[i].jobs)
			cr_assert(eq(str, jobs ? jobs : "(none)", (char *)cases[i].jobs), "case %zu", i);
		else
			cr_assert(eq(ptr, jobs, NULL), "case %zu: %s", i, jobs);
		free(jobs);
	}
}

static char top[] = "/tmp/buildbpf-cargo-config.XXXXXX";

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

static void dir(const char *rel)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", top, rel);
	cr_assert(eq(int, mkdir(path, 0755), 0), "%s", path);
}

static const char *const made_files[] = { "ws/.cargo/config.toml", "ws/crate/.cargo/config",
					  "ws/crate/.cargo/config.toml", "home/config.toml" };
static const char *const made_dirs[] = { "ws/crate/src/.cargo", "ws/crate/src", "ws/crate/.cargo", "ws/crate",
					 "ws/.cargo", "ws", "home" };

/* ws/.cargo/config.toml: jobs 2; ws/crate/.cargo/config (no jobs) beside a config.toml (jobs 9); home: jobs 4. */
static void tree(void)
{
	cr_assert(not(eq(ptr, mkdtemp(top), NULL)));
	for (size_t i = sizeof(made_dirs) / sizeof(made_dirs[0]); i-- > 0;)
		dir(made_dirs[i]);
	put("ws/.cargo/config.toml", "[build]\njobs = 2\n");
	put("ws/crate/.cargo/config", "[net]\noffline = true\n");
	put("ws/crate/.cargo/config.toml", "[build]\njobs = 9\n");
	put("home/config.toml", "[build]\njobs = 4\n");
}

static void untree(void)
{
	char path[512];

	for (size_t i = 0; i < sizeof(made_files) / sizeof(made_files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, made_files[i]);
		unlink(path);
	}
	for (size_t i = 0; i < sizeof(made_dirs) / sizeof(made_dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, made_dirs[i]);
		rmdir(path);
	}
	rmdir(top);
}

/* What a command started in rel (below top) finds; home: $CARGO_HOME below top, or none. */
static void finds(const char *rel, const char *home, const char *jobs, const char *file)
{
	struct cargo_config c;
	char cwd[512], cargo_home[512], want[512];

	snprintf(cwd, sizeof(cwd), "%s/%s", top, rel);
	snprintf(cargo_home, sizeof(cargo_home), "%s/%s", top, home ? home : "");
	cr_assert(eq(int, cargo_config__find_jobs(&c, cwd, home ? cargo_home : NULL), 0));
	cr_assert(eq(str, c.jobs ? c.jobs : "(none)", (char *)(jobs ? jobs : "(none)")), "from %s", rel);
	if (file) {
		snprintf(want, sizeof(want), "%s/%s", top, file);
		cr_assert(eq(str, c.file ? c.file : "(none)", want), "from %s", rel);
	} else {
		cr_assert(eq(ptr, c.file, NULL));
	}
	cargo_config__free(&c);
}

Test(cargo_config, the_deepest_file_that_sets_it_wins_then_cargo_home, .init = tree, .fini = untree)
{
	/* crate's "config" is the file cargo reads there (its config.toml is not): ws's setting holds. */
	finds("ws/crate/src", "home", "2", "ws/.cargo/config.toml");
	finds("ws", NULL, "2", "ws/.cargo/config.toml");
	/* Above the workspace only $CARGO_HOME's is left. */
	finds("home", "home", "4", "home/config.toml");
	finds("", NULL, NULL, NULL);
}
