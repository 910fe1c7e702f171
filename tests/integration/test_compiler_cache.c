// SPDX-License-Identifier: GPL-2.0
/*
 * Compiler caches' calls counted by the audit against the caches' own
 * statistics: Debian's ccache on a small C project (its cache in the
 * test's directory), as CC="ccache gcc" and as the masquerade symlink;
 * a cold build (all misses), a warm one (all hits), one source changed
 * (one miss).  Each build's counts are ccache's, zeroed before it.  The
 * same with sccache, whose server each traced build starts (so the trace
 * holds it) and whose statistics are that server's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(compiler_cache, .init = integration_setup, .fini = integration_teardown, .timeout = 240);

#define NR_SOURCES 4

static void write_project(void)
{
	char name[16], text[128];

	for (int f = 0; f < NR_SOURCES; f++) {
		snprintf(name, sizeof(name), "s%d.c", f);
		snprintf(text, sizeof(text), "int f%d(int x) { return x * %d + 1; }\n", f, f + 3);
		bb_write_file(&run, name, text);
	}
	bb_write_file(&run, "main.c", "int f0(int);\nint main(void) { return f0(0) - 1; }\n");
	bb_write_file(&run, "Makefile",
		      "OBJS = s0.o s1.o s2.o s3.o main.o\n"
		      "prog: $(OBJS)\n"
		      "\t$(CC) -o $@ $(OBJS)\n"
		      "%.o: %.c\n"
		      "\t$(CC) -O2 -c $< -o $@\n"
		      "clean:\n"
		      "\trm -f prog $(OBJS)\n");
}

/* ccache's own figures (ccache --print-stats: "name\tvalue" lines). */
struct ccache_stats {
	long direct, preprocessed, miss, link;
};

static void ccache_cmd(const char *arg, struct ccache_stats *st)
{
	char dir_env[160];
	char *out, *line;

	snprintf(dir_env, sizeof(dir_env), "CCACHE_DIR=%s", bb_path(&run, "ccache"));
	out = bb_run_plain(&run, run.dir, (const char *const[]){ "/usr/bin/env", dir_env, "ccache", arg, NULL }, false,
			   NULL);
	for (line = strtok(out, "\n"); st && line; line = strtok(NULL, "\n")) {
		char key[64];
		long v;

		if (sscanf(line, "%63s %ld", key, &v) != 2)
			continue;
		if (!strcmp(key, "direct_cache_hit"))
			st->direct = v;
		else if (!strcmp(key, "preprocessed_cache_hit"))
			st->preprocessed = v;
		else if (!strcmp(key, "cache_miss"))
			st->miss = v;
		else if (!strcmp(key, "called_for_link"))
			st->link = v;
	}
	free(out);
}

/*
 * One traced build with ccache statistics zeroed before it; the audit's
 * compiler_cache must count what ccache counted.  masquerade: the compiler
 * is gcc found first in /usr/lib/ccache, else CC="ccache gcc".
 */
static struct json_object *build_and_compare(const char *name, bool masquerade, struct ccache_stats *st)
{
	char dir_env[160], path_env[4200], summary[32], trace[32];
	const char *env[] = { dir_env, masquerade ? path_env : NULL, NULL };
	struct json_object *s, *c;

	snprintf(dir_env, sizeof(dir_env), "CCACHE_DIR=%s", bb_path(&run, "ccache"));
	snprintf(path_env, sizeof(path_env), "PATH=/usr/lib/ccache:%s", getenv("PATH") ?: "/usr/bin:/bin");
	snprintf(summary, sizeof(summary), "%s.json", name);
	snprintf(trace, sizeof(trace), "%s-trace.json", name);
	ccache_cmd("-z", NULL);
	bb_run_in(&run,
		  /* -v: the compiler cache's line may be left out of the brief answers. */
		  (const char *const[]){ "-v", "-o", trace, "--summary-json", summary, "--", "make",
					 masquerade ? "CC=gcc" : "CC=ccache gcc", NULL },
		  env);
	cr_assert(eq(int, run.status, 0), "%s: buildbpf exited %d: %s", name, run.status, run.err);
	memset(st, 0, sizeof(*st));
	ccache_cmd("--print-stats", st);
	cr_log_info("%s: ccache: %ld direct, %ld preprocessed, %ld misses, %ld link\n%s", name, st->direct,
		    st->preprocessed, st->miss, st->link, run.err);
	s = bb_load_summary(&run, summary);
	c = need_field(s, "compiler_cache");
	cr_assert(str_field_is(c, "tool", "ccache"), "%s", name);
	cr_assert(eq(i64, int_field(c, "hits_direct"), st->direct), "%s", name);
	cr_assert(eq(i64, int_field(c, "hits_preprocessed"), st->preprocessed), "%s", name);
	cr_assert(eq(i64, int_field(c, "misses"), st->miss), "%s", name);
	cr_assert(eq(i64, int_field(c, "uncacheable"), st->link), "%s", name);
	cr_assert(strstr(run.err, "buildbpf: compiler cache: ccache,") != NULL, "%s: no audit line", name);
	json_object_get(c);
	json_object_put(s);
	return c;
}

static void make_clean(void)
{
	free(bb_run_plain(&run, run.dir, (const char *const[]){ "/usr/bin/make", "clean", NULL }, false, NULL));
}

/* Cold, warm, one source changed: the counts the cache itself kept, each time. */
static void cold_warm_touched(bool masquerade)
{
	struct ccache_stats st;
	struct json_object *c;

	write_project();
	c = build_and_compare("cold", masquerade, &st);
	cr_assert(eq(long, st.miss, NR_SOURCES + 1), "a cold cache misses every compile");
	cr_assert(eq(long, st.link, 1));
	cr_assert(eq(i64, int_field(c, "hits"), 0));
	cr_assert(double_field(c, "miss_cpu_ms") > 0, "the misses cost CPU");
	json_object_put(c);

	make_clean();
	c = build_and_compare("warm", masquerade, &st);
	cr_assert(eq(long, st.direct + st.preprocessed, NR_SOURCES + 1), "a warm cache hits every compile");
	cr_assert(eq(i64, int_field(c, "misses"), 0));
	json_object_put(c);

	bb_write_file(&run, "s2.c", "int f2(int x) { return x * 11 - 1; }\n");
	c = build_and_compare("touched", masquerade, &st);
	cr_assert(eq(long, st.miss, 1), "the changed source misses");
	json_object_put(c);
}

/* make test-deps installs Debian's ccache and sccache: a test without one fails, saying so. */
static void need_program(const char *path)
{
	cr_assert(eq(int, access(path, X_OK), 0), "no %s: make test-deps installs it (the Makefile's INTEG_DEB_PKGS)",
		  path);
}

Test(compiler_cache, ccache_gcc_counts_match_ccaches_own)
{
	need_program("/usr/bin/ccache");
	cold_warm_touched(false);
}

Test(compiler_cache, the_masquerade_symlinks_counts_match_ccaches_own)
{
	need_program("/usr/lib/ccache/gcc");
	cold_warm_touched(true);
}

/* sccache's environment: its cache and a port of this test's own (other builds on the machine may run one). */
struct sccache_env {
	char dir[160], port[48];
};

static void sccache_env_init(struct sccache_env *e)
{
	snprintf(e->dir, sizeof(e->dir), "SCCACHE_DIR=%s", bb_path(&run, "sccache"));
	snprintf(e->port, sizeof(e->port), "SCCACHE_SERVER_PORT=%d", 20000 + (int)(getpid() % 20000));
}

/* sccache --show-stats ("Label    N" lines): hits, misses, and the calls it does not cache. */
static void sccache_cmd(const struct sccache_env *e, const char *arg, long *hits, long *misses, long *uncached)
{
	char *out, *line;
	long v;

	out = bb_run_plain(&run, run.dir,
			   (const char *const[]){ "/usr/bin/env", e->dir, e->port, "sccache", arg, NULL }, false, NULL);
	for (line = strtok(out, "\n"); hits && line; line = strtok(NULL, "\n")) {
		const char *num = line + strcspn(line, "0123456789");

		if (sscanf(num, "%ld", &v) != 1)
			continue;
		if (!strncmp(line, "Cache hits ", 11))
			*hits = v;
		else if (!strncmp(line, "Cache misses ", 13))
			*misses = v;
		else if (!strncmp(line, "Non-compilation calls", 21) || !strncmp(line, "Non-cacheable calls", 19))
			*uncached += v;
	}
	free(out);
}

static void sccache_build_and_compare(const struct sccache_env *e, const char *name, long want_misses)
{
	const char *env[] = { e->dir, e->port, NULL };
	long hits = 0, misses = 0, uncached = 0;
	struct json_object *s, *c;
	char summary[32], trace[32];

	snprintf(summary, sizeof(summary), "sc-%s.json", name);
	snprintf(trace, sizeof(trace), "sc-%s-trace.json", name);
	bb_run_in(&run, (const char *const[]){ "--summary-json", summary, "-o", trace, "--", "make", "CC=sccache gcc", NULL },
		  env);
	cr_assert(eq(int, run.status, 0), "%s: buildbpf exited %d: %s", name, run.status, run.err);
	sccache_cmd(e, "--show-stats", &hits, &misses, &uncached);
	/* The next build starts its own server, inside its trace. */
	free(bb_run_plain(&run, run.dir, (const char *const[]){ "/usr/bin/env", e->dir, e->port, "sccache",
								  "--stop-server", NULL }, false, NULL));
	cr_log_info("%s: sccache: %ld hits, %ld misses, %ld not cached\n%s", name, hits, misses, uncached, run.err);
	cr_assert(eq(long, misses, want_misses), "%s", name);
	s = bb_load_summary(&run, summary);
	c = need_field(s, "compiler_cache");
	cr_assert(str_field_is(c, "tool", "sccache"), "%s", name);
	cr_assert(eq(i64, int_field(c, "hits"), hits), "%s", name);
	cr_assert(eq(i64, int_field(c, "misses"), misses), "%s", name);
	cr_assert(eq(i64, int_field(c, "uncacheable"), uncached), "%s", name);
	cr_assert(eq(i64, int_field(c, "unknown"), 0), "%s", name);
	json_object_put(s);
}

Test(compiler_cache, sccache_counts_match_sccaches_own)
{
	struct sccache_env e;

	need_program("/usr/bin/sccache");
	sccache_env_init(&e);
	write_project();
	sccache_build_and_compare(&e, "cold", NR_SOURCES + 1);
	make_clean();
	sccache_build_and_compare(&e, "warm", 0);
	bb_write_file(&run, "s2.c", "int f2(int x) { return x * 11 - 1; }\n");
	sccache_build_and_compare(&e, "touched", 1);
}
