// SPDX-License-Identifier: GPL-2.0
/*
 * Compiler caches' calls (audit/compiler_cache.h) told from the process
 * tree alone, in each shape ccache and sccache take: "ccache gcc", the
 * masquerade symlink, the fall-back to the compiler, the sccache server.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "audit/compiler_cache.h"
#include "report/compiler_cache_report.h"
#include "audit/audit.h"
#include "model/lanes.h"
#include "lib/written_trace.h"
#include "lib/json_fields.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull

/* pid runs argv under parent from at to end (ms) with cpu ms of CPU time. */
static void run(struct model *m, __u32 pid, __u32 parent, __u64 at, __u64 end, __u64 cpu, const char *path,
		const char *const argv[])
{
	synth_fork(m, at * MS, parent, pid, pid, false);
	synth_exec(m, at * MS, pid, parent, path, argv);
	synth_exit_acct(m, end * MS, pid, 0, cpu * MS, 0, cpu * MS, 1000);
}

/* A compile the way gcc does it: the driver, cc1, as (ms from at). */
static void gcc_compile(struct model *m, __u32 pid, __u32 parent, __u64 at, const char *src)
{
	run(m, pid, parent, at, at + 100, 2, "/usr/bin/gcc", (const char *[]){ "gcc", "-c", "-o", "x.o", src, NULL });
	run(m, pid + 1, pid, at + 1, at + 90, 80, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
	    (const char *[]){ "cc1", "-quiet", src, "-o", "/tmp/cc.s", NULL });
	run(m, pid + 2, pid, at + 90, at + 99, 5, "/usr/bin/as", (const char *[]){ "as", "-o", "x.o", NULL });
}

/* The preprocessor the way gcc runs it: the driver and cc1 -E. */
static void gcc_preprocess(struct model *m, __u32 pid, __u32 parent, __u64 at, const char *src)
{
	run(m, pid, parent, at, at + 20, 1, "/usr/bin/gcc", (const char *[]){ "gcc", "-E", src, NULL });
	run(m, pid + 1, pid, at + 1, at + 19, 15, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1",
	    (const char *[]){ "cc1", "-E", "-quiet", src, NULL });
}

static void ccache_call(struct model *m, __u32 pid, __u64 at, __u64 end, const char *src)
{
	synth_fork(m, at * MS, 10, pid, pid, false);
	synth_exec(m, at * MS, pid, 10, "/usr/bin/ccache",
		   (const char *[]){ "ccache", "gcc", "-c", "-o", "x.o", src, NULL });
	synth_exit_acct(m, end * MS, pid, 0, 3 * MS, 0, 3 * MS, 1000);
}

static struct model *finish(struct model *m, __u64 end)
{
	synth_exit_acct(m, end * MS, 10, 0, 1 * MS, 0, 1 * MS, 1000);
	cr_assert(eq(int, model__finish(m, end * MS), 0));
	return m;
}

static struct model *make_start(void)
{
	struct model *m = model__new(10, 0);

	synth_exec(m, 0, 10, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	return m;
}

static void compute(struct compiler_cache *c, const struct model *m)
{
	cr_assert(eq(int, compiler_cache__compute(c, m), 0));
}

static void assert_counts(const struct compiler_cache *c, size_t direct, size_t pre, size_t misses, size_t unc)
{
	cr_assert(eq(sz, c->nr_unknown, 0));
	cr_assert(eq(sz, c->nr_hits_direct, direct));
	cr_assert(eq(sz, c->nr_hits_preprocessed, pre));
	cr_assert(eq(sz, c->nr_misses, misses));
	cr_assert(eq(sz, c->nr_uncacheable, unc));
	cr_assert(eq(sz, c->nr_calls, direct + pre + misses + unc));
}

Test(compiler_cache, ccache_gcc_hits_misses_and_fallback_are_told_apart)
{
	struct model *m = make_start();
	struct compiler_cache c;

	ccache_call(m, 20, 10, 12, "a.c"); /* direct hit: nothing under it */
	ccache_call(m, 30, 20, 50, "b.c"); /* preprocessed hit */
	gcc_preprocess(m, 31, 30, 21, "b.c");
	ccache_call(m, 40, 60, 200, "c.c"); /* miss */
	gcc_preprocess(m, 41, 40, 61, "c.c");
	gcc_compile(m, 43, 40, 90, "c.c");
	/* Linking: ccache gives up and execs the compiler in its own process. */
	synth_fork(m, 210 * MS, 10, 50, 50, false);
	synth_exec(m, 210 * MS, 50, 10, "/usr/bin/ccache", (const char *[]){ "ccache", "gcc", "-o", "p", "x.o", NULL });
	synth_exec(m, 211 * MS, 50, 10, "/usr/bin/gcc", (const char *[]){ "gcc", "-o", "p", "x.o", NULL });
	run(m, 51, 50, 212, 240, 20, "/usr/bin/ld", (const char *[]){ "ld", "-o", "p", NULL });
	synth_exit_acct(m, 250 * MS, 50, 0, 2 * MS, 0, 2 * MS, 1000);
	compute(&c, finish(m, 300));

	assert_counts(&c, 1, 1, 1, 1);
	cr_assert(eq(str, c.tool, "ccache"));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 20)->id), CACHE_HIT_DIRECT));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 30)->id), CACHE_HIT_PREPROCESSED));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 40)->id), CACHE_MISS));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 50)->id), CACHE_UNCACHEABLE));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 44)->id), CACHE_NONE));
	/* What ran for a call is named by its outcome: cc1 -E for a hit, cc1 for a miss. */
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 32)->id), CACHE_HIT_PREPROCESSED));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 44)->id), CACHE_MISS));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 51)->id), CACHE_UNCACHEABLE));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 20)->id), CACHE_HIT_DIRECT));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 10)->id), CACHE_NONE));
	/* The miss: ccache 3 + gcc -E 1 + cc1 -E 15 + gcc 2 + cc1 80 + as 5 ms of CPU, 140 ms wall. */
	cr_assert(eq(u64, c.miss_cpu_ns, 106 * MS));
	cr_assert(eq(u64, c.miss_wall_ns, 140 * MS));
	/* The hits: 3 ms, and 3 + 1 + 15 ms; 2 + 30 ms wall. */
	cr_assert(eq(u64, c.hit_cpu_ns, 22 * MS));
	cr_assert(eq(u64, c.hit_wall_ns, 32 * MS));
	cr_assert(eq(sz, c.nr_saved, 0)); /* no step both hit and missed */
	compiler_cache__free(&c);
	model__free(m);
}

Test(compiler_cache, a_masquerade_symlink_is_ccache)
{
	struct model *m = make_start();
	struct compiler_cache c;

	/* PATH=/usr/lib/ccache:...: the exec is the symlink, named gcc; it runs the real gcc. */
	run(m, 20, 10, 10, 200, 3, "/usr/lib/ccache/gcc", (const char *[]){ "gcc", "-c", "-o", "x.o", "a.c", NULL });
	gcc_preprocess(m, 21, 20, 11, "a.c");
	gcc_compile(m, 23, 20, 40, "a.c");
	run(m, 30, 10, 210, 215, 3, "/usr/lib/ccache/gcc", (const char *[]){ "gcc", "-c", "-o", "y.o", "b.c", NULL });
	/* Not a cache: a gcc elsewhere, and a directory that only ends in "ccache". */
	gcc_compile(m, 40, 10, 220, "c.c");
	run(m, 50, 10, 330, 340, 3, "/opt/noccache/gcc", (const char *[]){ "gcc", "-c", "d.c", NULL });
	compute(&c, finish(m, 400));

	assert_counts(&c, 1, 0, 1, 0);
	cr_assert(eq(str, c.tool, "ccache"));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 40)->id), CACHE_NONE));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 50)->id), CACHE_NONE));
	compiler_cache__free(&c);
	model__free(m);
}

Test(compiler_cache, a_hit_saves_what_its_steps_miss_cost)
{
	struct model *m = make_start();
	struct compiler_cache c;

	ccache_call(m, 20, 10, 150, "a.c"); /* miss: 3 + 1 + 15 + 2 + 80 + 5 ms CPU, 140 ms */
	gcc_preprocess(m, 21, 20, 11, "a.c");
	gcc_compile(m, 23, 20, 40, "a.c");
	ccache_call(m, 30, 200, 210, "a.c"); /* the same step again: a direct hit, 3 ms CPU, 10 ms */
	ccache_call(m, 40, 220, 230, "b.c"); /* a hit with no miss to measure against */
	compute(&c, finish(m, 300));

	assert_counts(&c, 2, 0, 1, 0);
	cr_assert(eq(sz, c.nr_saved, 1));
	cr_assert(eq(u64, c.saved_cpu_ns, 103 * MS));
	cr_assert(eq(u64, c.saved_wall_ns, 130 * MS));
	compiler_cache__free(&c);
	model__free(m);
}

/*
 * sccache: the first client (20) starts the server (21, no arguments),
 * which daemonises (25, a fork that execs nothing), outlives the client
 * and runs every client's compiles; client 30's a.c misses, client 40's
 * b.c hits (sccache always preprocesses); client 50 links, which it runs
 * itself.
 */
static struct model *sccache_build(void)
{
	struct model *m = make_start();

	synth_fork(m, 10 * MS, 10, 20, 20, false);
	synth_exec(m, 10 * MS, 20, 10, "/usr/bin/sccache",
		   (const char *[]){ "sccache", "gcc", "-c", "-o", "z.o", "z.c", NULL });
	run(m, 21, 20, 11, 13, 1, "/usr/bin/sccache", (const char *[]){ "sccache", NULL });
	synth_fork(m, 12 * MS, 21, 25, 25, false);
	synth_exit_acct(m, 900 * MS, 25, 0, 30 * MS, 0, 30 * MS, 1000);
	gcc_preprocess(m, 22, 25, 15, "z.c");
	synth_exit_acct(m, 40 * MS, 20, 0, 2 * MS, 0, 2 * MS, 1000);
	synth_fork(m, 100 * MS, 10, 30, 30, false);
	synth_exec(m, 100 * MS, 30, 10, "/usr/bin/sccache",
		   (const char *[]){ "sccache", "gcc", "-c", "-o", "a.o", "a.c", NULL });
	synth_fork(m, 100 * MS, 10, 40, 40, false);
	synth_exec(m, 100 * MS, 40, 10, "/usr/bin/sccache",
		   (const char *[]){ "sccache", "gcc", "-c", "-o", "b.o", "b.c", NULL });
	gcc_preprocess(m, 31, 25, 101, "a.c");
	gcc_preprocess(m, 33, 25, 102, "b.c");
	/* The server's probe of the compiler names no client's operand: no call's work. */
	gcc_preprocess(m, 37, 25, 103, "/tmp/sccache-probe.c");
	run(m, 35, 25, 130, 230, 2, "/usr/bin/gcc", (const char *[]){ "gcc", "-c", "-o", "a.o", "a.c", NULL });
	run(m, 36, 35, 131, 220, 80, "/usr/lib/gcc/x86_64-linux-gnu/12/cc1", (const char *[]){ "cc1", "a.c", NULL });
	synth_exit_acct(m, 130 * MS, 40, 0, 2 * MS, 0, 2 * MS, 1000);
	synth_exit_acct(m, 240 * MS, 30, 0, 2 * MS, 0, 2 * MS, 1000);
	/* The link: the client runs the compiler itself, sccache caches no link. */
	run(m, 50, 10, 300, 400, 2, "/usr/bin/sccache", (const char *[]){ "sccache", "gcc", "-o", "p", "a.o", NULL });
	run(m, 51, 50, 301, 399, 2, "/usr/bin/gcc", (const char *[]){ "gcc", "-o", "p", "a.o", NULL });
	return finish(m, 1000);
}

Test(compiler_cache, sccache_servers_compiles_are_given_to_their_clients)
{
	struct model *m = sccache_build();
	struct compiler_cache c;

	compute(&c, m);
	assert_counts(&c, 0, 2, 1, 1);
	cr_assert(eq(str, c.tool, "sccache"));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 50)->id), CACHE_UNCACHEABLE));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 21)->id), CACHE_SERVER));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 20)->id), CACHE_HIT_PREPROCESSED));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 30)->id), CACHE_MISS));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 40)->id), CACHE_HIT_PREPROCESSED));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 36)->id), CACHE_MISS));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 34)->id), CACHE_HIT_PREPROCESSED));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 21)->id), CACHE_NONE));
	cr_assert(eq(int, compiler_cache__of(&c, synth_proc_of(m, 25)->id), CACHE_SERVER));
	cr_assert(eq(int, compiler_cache__step(&c, synth_proc_of(m, 38)->id), CACHE_NONE));
	/* The miss: the client's 2 ms, gcc -E 1 + cc1 -E 15, gcc 2 + cc1 80; not the server's own 30. */
	cr_assert(eq(u64, c.miss_cpu_ns, 100 * MS));
	/* The hits: each client's 2 ms and its preprocessing's 16. */
	cr_assert(eq(u64, c.hit_cpu_ns, 36 * MS));
	compiler_cache__free(&c);
	model__free(m);
}

Test(compiler_cache, a_build_without_a_cache_has_no_calls)
{
	struct model *m = make_start();
	struct compiler_cache c;

	gcc_compile(m, 20, 10, 10, "a.c");
	run(m, 30, 10, 200, 300, 50, "/usr/bin/distcc", (const char *[]){ "distcc", "gcc", "-c", "b.c", NULL });
	compute(&c, finish(m, 400));
	assert_counts(&c, 0, 0, 0, 0);
	cr_assert(eq(str, c.tool, ""));
	cr_assert(eq(int, compiler_cache__of(&c, 1), CACHE_NONE));
	cr_assert(compiler_cache__word(CACHE_SERVER) == NULL);
	compiler_cache__free(&c);
	model__free(m);
}

Test(compiler_cache, the_audit_line_and_the_json_say_the_counts)
{
	struct model *m = make_start();
	struct compiler_cache c;
	struct json_object *o;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	ccache_call(m, 20, 10, 150, "a.c");
	gcc_preprocess(m, 21, 20, 11, "a.c");
	gcc_compile(m, 23, 20, 40, "a.c");
	ccache_call(m, 30, 200, 210, "a.c");
	compute(&c, finish(m, 300));
	out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	compiler_cache_report__print(out, &c);
	fclose(out);
	cr_assert(eq(str, text,
		     "buildbpf: compiler cache: ccache, 2 calls: 1 hit (1 direct, 0 preprocessed), 1 miss (0.11 s CPU,\n"
		     "buildbpf:   0.14 s wall), 0 uncacheable; 1 hit saved 0.10 s CPU against their steps' misses\n"));
	o = compiler_cache_report__json(&c);
	cr_assert(o != NULL);
	cr_assert(str_field_is(o, "tool", "ccache"));
	cr_assert(eq(i64, int_field(o, "calls"), 2));
	cr_assert(eq(i64, int_field(o, "hits"), 1));
	cr_assert(eq(i64, int_field(o, "hits_direct"), 1));
	cr_assert(eq(i64, int_field(o, "misses"), 1));
	cr_assert(eq(i64, int_field(o, "uncacheable"), 0));
	cr_assert(eq(i64, int_field(o, "saved_hits"), 1));
	json_object_put(o);
	free(text);
	/* A critical-path step's name says which call it ran for. */
	out = open_memstream(&text, &len);
	cr_assert(out != NULL);
	compiler_cache_report__put_step(out, &c, (long)synth_proc_of(m, 30)->id);
	compiler_cache_report__put_step(out, &c, (long)synth_proc_of(m, 24)->id);
	compiler_cache_report__put_step(out, &c, (long)synth_proc_of(m, 10)->id);
	compiler_cache_report__put_step(out, &c, -1);
	fclose(out);
	cr_assert(eq(str, text, " (cache hit) (cache miss)"));
	free(text);
	compiler_cache__free(&c);
	model__free(m);
}

Test(compiler_cache, the_trace_marks_each_call)
{
	struct model *m = make_start();
	const struct audit_input in = { .nr_cpus = 2 };
	const struct event_log_info info = { .cmd_argv = (char *[]){ "make", NULL }, .cmd_argc = 1 };
	struct trace_meta meta = { .info = &info };
	struct json_object *root, *events;
	struct audit a;
	size_t i, marked = 0;

	ccache_call(m, 20, 10, 150, "a.c");
	gcc_preprocess(m, 21, 20, 11, "a.c");
	gcc_compile(m, 23, 20, 40, "a.c");
	ccache_call(m, 30, 200, 210, "b.c");
	finish(m, 300);
	lanes__assign_model(m);
	cr_assert(eq(int, with_slots__audit(&a, m, NULL, &in), 0));
	meta.audit = &a;
	root = written_trace(m, &meta);
	cr_assert(json_object_object_get_ex(root, "traceEvents", &events));
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i), *args, *cache;
		int pid;

		if (!str_field_is(ev, "ph", "X") || !str_field_is(ev, "cat", "process"))
			continue;
		args = need_field(ev, "args");
		pid = (int)int_field(args, "pid");
		cache = field(args, "cache");
		if (pid == 20 || pid == 30) {
			cr_assert(cache != NULL, "call %d unmarked", pid);
			cr_assert(eq(str, (char *)json_object_get_string(cache), pid == 20 ? "miss" : "hit"));
			marked++;
		} else {
			cr_assert(cache == NULL, "%d is no call", pid);
		}
	}
	cr_assert(eq(sz, marked, 2));
	json_object_put(root);
	audit__free(&a);
	model__free(m);
}

Test(compiler_cache, sccache_calls_to_a_server_outside_the_trace_are_unknown)
{
	struct model *m = make_start();
	struct compiler_cache c;

	run(m, 20, 10, 10, 50, 2, "/usr/bin/sccache", (const char *[]){ "sccache", "gcc", "-c", "a.c", NULL });
	run(m, 30, 10, 60, 100, 2, "/usr/bin/sccache", (const char *[]){ "sccache", "gcc", "-o", "p", "a.o", NULL });
	run(m, 31, 30, 61, 99, 2, "/usr/bin/gcc", (const char *[]){ "gcc", "-o", "p", "a.o", NULL });
	compute(&c, finish(m, 200));
	cr_assert(eq(sz, c.nr_unknown, 1));
	cr_assert(eq(sz, c.nr_uncacheable, 1));
	cr_assert(eq(sz, c.nr_calls, 2));
	cr_assert(eq(sz, c.nr_hits_direct + c.nr_hits_preprocessed + c.nr_misses, 0));
	cr_assert(eq(str, (char *)compiler_cache__word(compiler_cache__of(&c, synth_proc_of(m, 20)->id)), "unknown"));
	compiler_cache__free(&c);
	model__free(m);
}
