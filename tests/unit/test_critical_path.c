// SPDX-License-Identifier: GPL-2.0
/*
 * The critical path through what each start waited for, from synthetic
 * records (no root): a job that waited for a job slot is reached from the
 * job whose end freed it, one its runner started late from the job that
 * ended before (the runner's order), one that read a file from its
 * writer; the runner holds only its own work, never a wait.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "graph/graph_run.h"
#include "graph/critical_path.h"
#include "graph/start_cause.h"
#include "model/lanes.h"
#include "lib/json_fields.h"
#include "lib/make_fixture.h"
#include "lib/synth.h"
#include "lib/with_slots.h"
#include "lib/written_trace.h"

#define MS 1000000ull
#define DEV 8
#define MAKE MAKE_FIXTURE_PID

/* make run as argv, its program from 1 ms on. */
static void begin(struct make_fixture *f, const char *const argv[])
{
	make_fixture__begin(f, argv);
}

/* A job of make running program during [start, end] (ms); make forked it woken by waker's exit at woke (ms). */
static void job(struct make_fixture *f, __u32 pid, const char *program, double start, double end, __u32 waker,
		double woke)
{
	synth_fork(f->m, (__u64)(start * MS), MAKE, pid, pid, false);
	synth_exec(f->m, (__u64)(start * MS) + 1000, pid, MAKE, program, (const char *[]){ program, NULL });
	synth_exit(f->m, (__u64)(end * MS), pid, pid, true, 0);
	synth_start_wake(f->w, MAKE, pid, (__u64)(start * MS), (__u64)(woke * MS), waker);
}

/* The command's exit at end_ms, the model and the file log finished. */
static void finish(struct make_fixture *f, __u64 end_ms)
{
	synth_exit(f->m, end_ms * MS, MAKE, MAKE, true, 0);
	cr_assert(eq(int, model__finish(f->m, end_ms * MS), 0));
	file_log__finish(f->fl);
}

/* The graph stage as a recording runs it (it gives the wake records back once read). */
static void run_graph(struct make_fixture *f)
{
	enum graph_step failed;

	cr_assert(eq(int, with_slots__graph_run(&f->run, f->m, f->fl, f->w, &failed), 0));
}

/* Runs the graph stage: the causes, and the path walked through them. */
static void compute(struct make_fixture *f, __u64 end_ms)
{
	finish(f, end_ms);
	run_graph(f);
}

static void end(struct make_fixture *f)
{
	make_fixture__end(f);
}

static size_t idx(const struct make_fixture *f, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(f->m, pid);

	cr_assert_not_null(p, "no process %u", pid);
	return p->id;
}

/* A path's entries as "pid:via" from its start, e.g. "100:spawn 101:slot 102:wait 100:end". */
static const char *steps_text(const struct make_fixture *f, const struct critical_path *cp, char *buf, size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < cp->nr && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%u:%s", i ? " " : "", f->m->procs[cp->steps[i].proc].pid,
					graph_link__name(cp->steps[i].via));
	return buf;
}

/* The graph stage's path, as steps_text() gives it. */
static const char *path_text(const struct make_fixture *f, char *buf, size_t size)
{
	return steps_text(f, &f->run.path, buf, size);
}

/* The longest part of path cp make held. */
static __u64 make_held(const struct make_fixture *f, const struct critical_path *cp)
{
	__u64 most = 0;
	size_t i;

	for (i = 0; i < cp->nr; i++)
		if (cp->steps[i].proc == idx(f, MAKE) && cp->steps[i].to_ns - cp->steps[i].from_ns > most)
			most = cp->steps[i].to_ns - cp->steps[i].from_ns;
	return most;
}

/* make -j2: cc waited for a slot until sleep's exit woke make, while true held the other. */
static void slot_wait(struct make_fixture *f)
{
	begin(f, (const char *[]){ "make", "-j2", NULL });
	job(f, 101, "sleep", 1.2, 500, 0, 0);
	job(f, 102, "true", 1.3, 700, 0, 0);
	job(f, 103, "cc", 501, 900, 101, 499.9);
	compute(f, 901);
}

Test(critical_path, a_job_that_waited_for_a_slot_follows_the_job_that_freed_it)
{
	struct make_fixture f;
	struct critical_path causeless;
	char text[256];

	slot_wait(&f);
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 103)].wait, START_JOB_SLOT));
	/* Without the causes the path did not know the slot: make held it until cc's fork. */
	cr_assert(eq(int, critical_path__compute(&causeless, f.m, &f.run.data, NULL), 0));
	cr_assert(ge(u64, make_held(&f, &causeless), 499 * MS), "%s", steps_text(&f, &causeless, text, sizeof(text)));
	critical_path__free(&causeless);

	cr_assert(eq(str, (char *)path_text(&f, text, sizeof(text)), "100:spawn 101:slot 103:wait 100:end"));
	cr_assert(eq(u64, f.run.path.steps[1].from_ns, 1 * MS + 200000));
	cr_assert(eq(u64, f.run.path.steps[1].to_ns, 500 * MS));
	cr_assert(eq(u64, f.run.path.steps[2].from_ns, 501 * MS));
	/* make's own work: its 1.2 ms before sleep and its exit; cc's 1 ms after the slot freed is a wait. */
	cr_assert(le(u64, make_held(&f, &f.run.path), 1200 * 1000));
	cr_assert(eq(u64, f.run.path.wait_ns, 1 * MS));
	cr_assert(eq(u64, f.run.path.held_ns + f.run.path.wait_ns, 901 * MS), "entries and waits cover the wall");
	end(&f);
}

/*
 * A process that started after the time the walk reached it at (sleep's
 * start put at 600 ms, after the 500 ms its end freed cc's slot at: a
 * reused pid's records in the wrong life): the walk goes on from 500 ms,
 * not from 600, and the path never holds more than the wall.
 */
Test(critical_path, a_start_after_where_the_walk_stands_does_not_take_it_forward)
{
	struct make_fixture f;
	struct critical_path cp;
	char text[256];

	slot_wait(&f);
	f.m->procs[idx(&f, 101)].start_ns = 600 * MS;
	cr_assert(eq(int, critical_path__compute(&cp, f.m, &f.run.data, &f.run.starts), 0));
	cr_assert(le(u64, cp.held_ns + cp.wait_ns, 901 * MS), "%s", steps_text(&f, &cp, text, sizeof(text)));
	for (size_t i = 1; i < cp.nr; i++)
		cr_assert(le(u64, cp.steps[i - 1].to_ns, cp.steps[i].from_ns), "%s", steps_text(&f, &cp, text, sizeof(text)));
	critical_path__free(&cp);
	end(&f);
}

Test(critical_path, a_job_its_runner_started_late_follows_the_runners_order)
{
	struct make_fixture f;
	char text[256];

	/* make -j2 with a slot free: gen, then make ran on (its own work, nothing
	 * woke it) and forked cc 500 ms after gen ended; a job beside gen ended earlier. */
	begin(&f, (const char *[]){ "make", "-j2", NULL });
	job(&f, 101, "gen", 1.2, 300, 0, 0);
	job(&f, 102, "true", 1.3, 50, 0, 0);
	job(&f, 103, "cc", 800, 1000, 0, 0);
	compute(&f, 1001);
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 103)].wait, START_PARENT_BUSY));

	cr_assert(eq(str, (char *)path_text(&f, text, sizeof(text)), "100:spawn 101:order 103:wait 100:end"));
	cr_assert(eq(u64, f.run.path.wait_ns, 500 * MS), "make's 500 ms between gen and cc: a wait, not a step");
	cr_assert(le(u64, make_held(&f, &f.run.path), 1200 * 1000));
	end(&f);
}

Test(critical_path, a_job_that_read_a_file_follows_its_writer_not_a_later_job)
{
	struct make_fixture f;
	char text[256];

	/* make -j2: cc reads gen.h; gen's exit woke make; sleep ran beside them both, ending after gen. */
	begin(&f, (const char *[]){ "make", "-j2", NULL });
	job(&f, 101, "gen", 1.2, 400, 0, 0);
	synth_file_open(f.fl, 300 * MS, 101, DEV, 1, true, "gen.h");
	job(&f, 102, "sleep", 1.3, 600, 0, 0);
	job(&f, 103, "cc", 401, 700, 101, 399.9);
	synth_file_open(f.fl, 450 * MS, 103, DEV, 1, false, "gen.h");
	compute(&f, 701);
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 103)].wait, START_INPUT));

	cr_assert(eq(str, (char *)path_text(&f, text, sizeof(text)), "100:spawn 101:input 103:wait 100:end"));
	cr_assert(eq(str, (char *)f.run.data.files[f.run.data.edges[f.run.path.steps[1].edge].file].path, "/gen.h"));
	cr_assert(eq(u64, f.run.path.wait_ns, 1 * MS));
	end(&f);
}

/*
 * make -j1: gen writes x.h; a waits for gen's slot; b reads x.h but
 * waited for a's slot, which freed later; then make, its slot free,
 * waited for b's end anyway (an order no file shows) and forked ld.
 * Its records, the model finished; the graph stage not run.
 */
static void one_chain_recorded(struct make_fixture *f)
{
	begin(f, (const char *[]){ "make", "-j1", NULL });
	job(f, 101, "gen", 1.2, 200, 0, 0);
	synth_file_open(f->fl, 150 * MS, 101, DEV, 1, true, "x.h");
	job(f, 102, "cc", 201, 500, 101, 199.9);
	job(f, 103, "cc", 502, 800, 102, 499.9);
	synth_file_open(f->fl, 600 * MS, 103, DEV, 1, false, "x.h");
	job(f, 104, "ld", 900, 1000, 103, 800.1);
	finish(f, 1001);
}

static void one_chain(struct make_fixture *f)
{
	one_chain_recorded(f);
	run_graph(f);
}

Test(critical_path, slots_inputs_and_the_runners_order_in_one_chain)
{
	struct make_fixture f;
	char text[256];

	one_chain(&f);
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 103)].wait, START_JOB_SLOT));
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 104)].wait, START_AFTER_JOB));

	cr_assert(eq(str, (char *)path_text(&f, text, sizeof(text)),
		     "100:spawn 101:slot 102:slot 103:order 104:wait 100:end"));
	/* The waits: 1 ms, 2 ms, 100 ms; make holds its start and its exit only. */
	cr_assert(eq(u64, f.run.path.wait_ns, 103 * MS));
	cr_assert(le(u64, make_held(&f, &f.run.path), 1200 * 1000));
	end(&f);
}

Test(critical_path, the_driver_walks_the_path_its_steps_give_by_hand)
{
	struct make_fixture f;
	struct job_slots slots;
	struct build_graph g;
	struct start_causes sc;
	struct critical_path cp;
	char text[256], by_hand[256];

	/* Every kind of link: the driver's order (slots, edges, causes, path) is the only one that gives it.
	 * By hand first: the driver gives the wake records back once it has read them. */
	one_chain_recorded(&f);
	cr_assert(eq(int, job_slots__init(&slots, f.m, NULL, 0), 0));
	cr_assert(eq(int, build_graph__compute(&g, f.m, &slots, f.fl), 0));
	cr_assert(eq(int, start_causes__compute(&sc, f.m, &g, &slots, f.w), 0));
	cr_assert(eq(int, critical_path__compute(&cp, f.m, &g, &sc), 0));
	steps_text(&f, &cp, by_hand, sizeof(by_hand));
	run_graph(&f);
	path_text(&f, text, sizeof(text));
	cr_assert(eq(str, text, "100:spawn 101:slot 102:slot 103:order 104:wait 100:end"));
	cr_assert(eq(str, by_hand, text));
	cr_assert(eq(u64, cp.held_ns, f.run.path.held_ns));
	cr_assert(eq(u64, cp.wait_ns, f.run.path.wait_ns));
	critical_path__free(&cp);
	start_causes__free(&sc);
	build_graph__free(&g);
	job_slots__free(&slots);
	end(&f);
}

Test(critical_path, without_start_causes_a_parallel_runner_holds_what_it_cannot_name)
{
	struct make_fixture f;
	struct critical_path cp;
	char text[256];

	slot_wait(&f);
	cr_assert(eq(int, critical_path__compute(&cp, f.m, &f.run.data, NULL), 0));
	cr_assert(eq(str, (char *)steps_text(&f, &cp, text, sizeof(text)), "100:spawn 103:wait 100:end"));
	cr_assert(eq(u64, cp.wait_ns, 0));
	critical_path__free(&cp);
	end(&f);
}

/* A rustc of the runner over [start, end] (ms), its .rmeta (ino) written to a temporary and renamed into place at meta. */
static void rustc(struct make_fixture *f, __u32 pid, double start, double end, __u64 ino, const char *crate,
		  double meta)
{
	char tmp[64], rmeta[64];

	synth_fork(f->m, (__u64)(start * MS), MAKE, pid, pid, false);
	synth_exec(f->m, (__u64)(start * MS) + 1000, pid, MAKE, "rustc", (const char *[]){ "rustc", crate, NULL });
	synth_exit(f->m, (__u64)(end * MS), pid, pid, true, 0);
	snprintf(tmp, sizeof(tmp), "t/rmeta%u/full.rmeta", pid);
	snprintf(rmeta, sizeof(rmeta), "t/lib%s.rmeta", crate);
	synth_file_open(f->fl, (__u64)((meta - 10) * MS), pid, DEV, ino, true, tmp);
	synth_file_rename(f->fl, (__u64)(meta * MS), pid, tmp, rmeta);
}

/*
 * cargo's pipelining: util starts once heavy renamed its .rmeta into
 * place, long before heavy's codegen ends, and app once util's is; each
 * rustc tells cargo down a pipe, running on.
 */
static void pipelined(struct make_fixture *f)
{
	begin(f, (const char *[]){ "cargo", "build", NULL });
	rustc(f, 101, 1.2, 300, 1, "heavy", 100);
	rustc(f, 102, 101, 600, 2, "util", 150);
	synth_start_wake_running(f->w, MAKE, 102, 101 * MS, (__u64)(100.5 * MS), 101);
	synth_file_open(f->fl, 102 * MS, 102, DEV, 1, false, "t/libheavy.rmeta");
	rustc(f, 103, 151, 900, 3, "app", 160);
	synth_start_wake_running(f->w, MAKE, 103, 151 * MS, (__u64)(150.5 * MS), 102);
	synth_file_open(f->fl, 152 * MS, 103, DEV, 2, false, "t/libutil.rmeta");
	synth_file_open(f->fl, 153 * MS, 103, DEV, 1, false, "t/libheavy.rmeta");
	compute(f, 901);
}

Test(critical_path, a_dependent_started_on_a_renamed_rmeta_follows_the_rename_not_the_writers_end)
{
	struct make_fixture f;
	const struct start_cause *util;
	char text[256];

	pipelined(&f);
	util = &f.run.starts.procs[idx(&f, 102)];
	cr_assert(eq(int, util->wait, START_INPUT));
	cr_assert(eq(u64, util->ready_ns, 100 * MS), "ready at heavy's rename, not its end (300 ms)");
	cr_assert(eq(str, (char *)start_cause__text(util, f.m, text, sizeof(text)), "input from rustc [101], still running"));
	cr_assert(eq(int, f.run.starts.procs[idx(&f, 103)].wait, START_INPUT));

	cr_assert(eq(str, (char *)path_text(&f, text, sizeof(text)), "100:spawn 101:input 102:input 103:wait 100:end"));
	/* heavy holds the path up to its rename, util up to its own; app to its end. */
	cr_assert(eq(u64, f.run.path.steps[1].to_ns, 100 * MS));
	cr_assert(eq(u64, f.run.path.steps[2].from_ns, 101 * MS));
	cr_assert(eq(u64, f.run.path.steps[2].to_ns, 150 * MS));
	cr_assert(eq(u64, f.run.path.steps[3].from_ns, 151 * MS));
	cr_assert(eq(u64, f.run.path.wait_ns, 2 * MS), "a ms before each dependent's fork");
	cr_assert(eq(u64, f.run.path.held_ns + f.run.path.wait_ns, 901 * MS), "entries and waits cover the wall");
	end(&f);
}

/* A reader that started after its writer ended waited for that end (make's recipe), renamed file or not. */
Test(critical_path, a_renamed_file_read_after_its_writer_ended_is_ready_at_the_end)
{
	struct make_fixture f;

	begin(&f, (const char *[]){ "make", "-j2", NULL });
	rustc(&f, 101, 1.2, 300, 1, "heavy", 100);
	job(&f, 102, "cc", 301, 600, 101, 300);
	synth_file_open(f.fl, 302 * MS, 102, DEV, 1, false, "t/libheavy.rmeta");
	compute(&f, 601);
	cr_assert(eq(u64, f.run.data.edges[0].ready_ns, 300 * MS));
	cr_assert(eq(u64, f.run.starts.procs[idx(&f, 102)].ready_ns, 300 * MS));
	cr_assert(not(f.run.starts.procs[idx(&f, 102)].input_running));
	end(&f);
}

/*
 * A .rmeta its writer wrote on after (its code) is ready at the rename for
 * a reader cargo started only after that writer's end (a job slot was not
 * free): the path leaves the writer at the rename, and the reader is not
 * said to have started while the writer still ran.
 */
Test(critical_path, a_renamed_rmeta_its_writer_wrote_on_after_is_ready_at_the_rename_for_a_later_reader)
{
	struct make_fixture f;

	begin(&f, (const char *[]){ "cargo", "build", NULL });
	synth_exec(f.m, 1 * MS + 1, MAKE, 1, "/usr/bin/cargo", (const char *[]){ "cargo", "build", NULL });
	rustc(&f, 101, 1.2, 300, 1, "heavy", 100);
	synth_file_open(f.fl, 200 * MS, 101, DEV, 9, true, "t/heavy.cgu.0.o");
	job(&f, 102, "rustc", 301, 600, 101, 300);
	synth_file_open(f.fl, 302 * MS, 102, DEV, 1, false, "t/libheavy.rmeta");
	compute(&f, 601);
	cr_assert(eq(u64, f.run.data.edges[0].ready_ns, 100 * MS));
	cr_assert(eq(u64, f.run.starts.procs[idx(&f, 102)].ready_ns, 100 * MS));
	cr_assert(not(f.run.starts.procs[idx(&f, 102)].input_running));
	end(&f);
}

/*
 * The trace draws a pipelined input from the rename that published it, not
 * from its writer's start or end: each arrow's s on the writer's lane at the
 * rename, its f at the reader's start, both bound to a zero-length "input"
 * slice there (trace rule 9: written_trace() checks every flow binds).
 */
Test(chrome_trace, a_pipelined_input_is_drawn_from_its_rename)
{
	struct make_fixture f;
	struct trace_meta meta = { .graph = NULL };
	struct json_object *trace, *events, *heavy, *util;
	size_t i, from_heavy = 0, inputs = 0, from_util = 0;

	pipelined(&f);
	lanes__assign_model(f.m); /* as replay does */
	meta.graph = &f.run;
	trace = written_trace(f.m, &meta);
	events = trace_events(trace);
	heavy = written_trace_proc_slice(trace, 101);
	util = written_trace_proc_slice(trace, 102);
	cr_assert(not(eq(ptr, heavy, NULL)));
	cr_assert(not(eq(ptr, util, NULL)));
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (!str_field_is(ev, "name", "input"))
			continue;
		cr_assert(str_field_is(ev, "cat", "input"), "every input here was ready before its writer ended");
		if (!str_field_is(ev, "ph", "s"))
			continue;
		inputs++;
		if (int_field(ev, "tid") != int_field(heavy, "tid") || int_field(ev, "pid") != int_field(heavy, "pid"))
			continue;
		/* heavy's rename at 100 ms, 98.8 ms into its process (from 1.2 ms): util's and app's input. */
		cr_assert(eq(i64, int_field(ev, "ts") - int_field(heavy, "ts"), 98800));
		from_heavy++;
	}
	cr_assert(eq(sz, inputs, 3), "heavy's .rmeta to util and app, util's to app");
	cr_assert(eq(sz, from_heavy, 2));
	/* util's own rename, at 150 ms, 49 ms into it (from 101 ms), starts app's third. */
	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "X") && str_field_is(ev, "name", "ready") &&
		    int_field(ev, "tid") == int_field(util, "tid") && int_field(ev, "ts") > int_field(util, "ts")) {
			cr_assert(eq(i64, int_field(ev, "ts") - int_field(util, "ts"), 49000));
			from_util++;
		}
	}
	cr_assert(eq(sz, from_util, 1));
	json_object_put(trace);
	end(&f);
}
