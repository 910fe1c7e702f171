// SPDX-License-Identifier: GPL-2.0
/*
 * Work outside the command's tree (model/daemons.h): a followed daemon's
 * processes marked and drawn apart, its share, and the waits the trace
 * shows when the daemon is not followed.
 *
 * The build: make (10) runs a distcc client (11) from 5 to 995 ms, which
 * preprocesses (12, 5-25 ms) and then waits for the daemon.  The daemon
 * (50, found running) has a worker (51, found) that runs the compile (60,
 * cc1, 100-900 ms, 750 ms of CPU).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "model/daemons.h"
#include "model/lanes.h"
#include "model/trace_layout.h"
#include "model/model.h"
#include "audit/audit.h"
#include "report/audit_json.h"
#include "report/chrome_trace.h"
#include "lib/json_fields.h"
#include "lib/synth.h"
#include "lib/trace_rules.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define DAEMON 50

static struct model *distcc_build(bool daemon_traced, const pid_t *follow, size_t nr_follow)
{
	struct model *m = model__new(10, 0);

	synth_exec(m, 0, 10, 1, "/usr/bin/make", (const char *[]){ "make", "-j2", NULL });
	if (daemon_traced) {
		synth_found(m, 0, DAEMON, 1, 0, "/usr/bin/distccd", (const char *[]){ "distccd", "--daemon", NULL });
		synth_found(m, 0, 51, DAEMON, 0, "/usr/bin/distccd", (const char *[]){ "distccd", "--daemon", NULL });
	}
	synth_fork(m, 5 * MS, 10, 11, 11, false);
	synth_exec(m, 5 * MS, 11, 10, "/usr/bin/distcc", (const char *[]){ "distcc", "cc", "-c", "a.c", NULL });
	synth_fork(m, 5 * MS, 11, 12, 12, false);
	synth_exec(m, 5 * MS, 12, 11, "/usr/bin/cc", (const char *[]){ "cc", "-E", "a.c", NULL });
	synth_exit_acct(m, 25 * MS, 12, 0, 15 * MS, 5 * MS, 20 * MS, 1000);
	if (daemon_traced) {
		synth_fork(m, 100 * MS, 51, 60, 60, false);
		synth_exec(m, 100 * MS, 60, 51, "/usr/lib/gcc/cc1", (const char *[]){ "cc1", "a.i", NULL });
		synth_exit_acct(m, 900 * MS, 60, 0, 700 * MS, 50 * MS, 750 * MS, 30000);
	}
	synth_exit_acct(m, 995 * MS, 11, 0, 8 * MS, 2 * MS, 10 * MS, 3000);
	synth_exit_acct(m, 1000 * MS, 10, 0, 3 * MS, 1 * MS, 4 * MS, 2000);
	cr_assert(eq(int, model__finish(m, 1000 * MS), 0));
	daemons__mark(m, follow, nr_follow);
	lanes__assign_model(m);
	return m;
}

static const pid_t follow_daemon[] = { DAEMON };

Test(daemons, a_followed_daemons_work_is_marked_as_its)
{
	struct model *m = distcc_build(true, follow_daemon, 1);

	cr_assert(eq(u32, synth_proc_of(m, DAEMON)->run_by_daemon, DAEMON));
	cr_assert(eq(u32, synth_proc_of(m, 51)->run_by_daemon, DAEMON));
	cr_assert(eq(u32, synth_proc_of(m, 60)->run_by_daemon, DAEMON));
	cr_assert(eq(u32, synth_proc_of(m, 10)->run_by_daemon, 0));
	cr_assert(eq(u32, synth_proc_of(m, 11)->run_by_daemon, 0));
	cr_assert(eq(u32, synth_proc_of(m, 12)->run_by_daemon, 0));
	model__free(m);
}

Test(daemons, a_found_tree_not_followed_is_not_a_daemons)
{
	struct model *m = distcc_build(true, NULL, 0);

	for (size_t i = 0; i < m->nr_procs; i++)
		cr_assert(eq(u32, m->procs[i].run_by_daemon, 0));
	model__free(m);
}

Test(daemons, a_share_counts_the_daemon_and_what_it_started)
{
	struct model *m = distcc_build(true, follow_daemon, 1);
	const pid_t follow[] = { DAEMON, 4242 };
	struct daemon_share s[2];

	daemons__shares(m, follow, 2, s);
	cr_assert(eq(u32, s[0].pid, DAEMON));
	cr_assert(eq(sz, s[0].nr_procs, 3));
	cr_assert(eq(u64, s[0].cpu_ns, 750 * MS));
	cr_assert(ge(long, s[0].proc, 0));
	cr_assert(eq(u32, m->procs[s[0].proc].pid, DAEMON));
	/* A pid followed but never traced. */
	cr_assert(eq(long, s[1].proc, -1));
	cr_assert(eq(sz, s[1].nr_procs, 0));
	model__free(m);
}

Test(daemons, no_lane_holds_a_daemons_work_and_the_commands)
{
	struct model *m = distcc_build(true, follow_daemon, 1);

	for (size_t i = 0; i < m->nr_procs; i++)
		for (size_t j = 0; j < m->nr_procs; j++)
			if (m->procs[i].lane == m->procs[j].lane)
				cr_assert(eq(u32, m->procs[i].run_by_daemon, m->procs[j].run_by_daemon),
					  "pids %u and %u share lane %u", m->procs[i].pid, m->procs[j].pid,
					  m->procs[i].lane);
	model__free(m);
}

Test(daemons, without_the_daemon_the_client_is_seen_waiting)
{
	struct model *m = distcc_build(false, NULL, 0);
	struct outside_wait w;

	cr_assert(eq(int, daemons__outside_wait(m, &w), 0));
	/* distcc: 990 ms alive, its child 20 ms of it, 10 ms of CPU. */
	cr_assert(eq(u64, w.wait_ns, 960 * MS));
	cr_assert(eq(sz, w.nr_procs, 1));
	cr_assert(eq(u32, m->procs[w.top].pid, 11));
	/* 960 ms waited against 44 ms of CPU, in a 1 s build. */
	cr_assert(daemons__mostly_elsewhere(&w, 44 * MS, 1000 * MS));
	/* Not when the CPU outweighs the wait, nor in a build ten times longer. */
	cr_assert(not(daemons__mostly_elsewhere(&w, 961 * MS, 1000 * MS)));
	cr_assert(not(daemons__mostly_elsewhere(&w, 44 * MS, 10000 * MS)));
	model__free(m);
}

Test(daemons, the_followed_daemons_compile_covers_the_wait)
{
	struct model *m = distcc_build(true, follow_daemon, 1);
	struct outside_wait w;

	cr_assert(eq(int, daemons__outside_wait(m, &w), 0));
	/* distcc waited 25-100 and 900-995 ms: 170 ms, less its 10 ms of CPU. */
	cr_assert(eq(u64, w.wait_ns, 160 * MS));
	cr_assert(not(daemons__mostly_elsewhere(&w, 794 * MS, 1000 * MS)));
	model__free(m);
}

/* The trace as JSON, every rule checked. */
static struct json_object *export(const struct model *m, const struct trace_meta *meta)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int fd = memfd_create("trace", MFD_CLOEXEC);
	struct json_object *root;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write(m, meta, fd), 0));
	cr_assert(eq(long, (long)lseek(fd, 0, SEEK_SET), 0));
	f = fdopen(fd, "r");
	cr_assert(not(eq(ptr, f, NULL)));
	cr_assert(ge(long, (long)getdelim(&text, &len, '\0', f), 1));
	fclose(f);
	len = strlen(text);
	check_trace_text(text, len);
	root = parse_trace_text(text, len);
	free(text);
	check_trace_rules(root);
	return root;
}

Test(daemons, a_followed_daemon_has_its_own_trace_process)
{
	struct model *m = distcc_build(true, follow_daemon, 1);
	const struct event_log_info info = { .cmd_argv = (char *[]){ "make", "-j2", NULL }, .cmd_argc = 2,
					     .follow = follow_daemon, .nr_follow = 1 };
	struct trace_meta meta = { .info = &info };
	struct json_object *root = export(m, &meta), *events;
	bool named = false;
	size_t slices = 0;

	cr_assert(json_object_object_get_ex(root, "traceEvents", &events));
	for (size_t i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i), *args;
		const char *ph = json_object_get_string(json_object_object_get(ev, "ph"));
		const char *name = json_object_get_string(json_object_object_get(ev, "name"));

		if (!strcmp(ph, "M") && !strcmp(name, "process_name") && (int)int_field(ev, "pid") == 16) {
			args = json_object_object_get(ev, "args");
			cr_assert(eq(str, (char *)json_object_get_string(json_object_object_get(args, "name")),
				     "daemon 50: distccd"));
			named = true;
		}
		if (strcmp(ph, "X") || strcmp(json_object_get_string(json_object_object_get(ev, "cat")), "process"))
			continue;
		args = json_object_object_get(ev, "args");
		slices++;
		if ((int)int_field(args, "pid") >= DAEMON) {
			cr_assert(eq(int, (int)int_field(ev, "pid"), 16), "daemon's pid %d", (int)int_field(args, "pid"));
			cr_assert(eq(int, (int)int_field(args, "run_by_daemon"), DAEMON));
			/* Its lanes are numbered from its pid (rule 12). */
			cr_assert(ge(int, (int)int_field(ev, "tid"), 16));
		} else {
			cr_assert(eq(int, (int)int_field(ev, "pid"), 1), "command's pid %d", (int)int_field(args, "pid"));
			cr_assert(not(json_object_object_get_ex(args, "run_by_daemon", NULL)));
		}
	}
	cr_assert(named);
	cr_assert(eq(sz, slices, 6));
	json_object_put(root);
	model__free(m);
}

Test(daemons, the_audit_splits_out_the_daemons_share)
{
	struct model *m = distcc_build(true, follow_daemon, 1);
	struct audit_input in = { .nr_cpus = 2, .follow = follow_daemon, .nr_follow = 1 };
	struct json_object *o, *d;
	struct audit a;

	cr_assert(eq(int, with_slots__audit(&a, m, NULL, &in), 0));
	cr_assert(eq(sz, a.nr_daemons, 1));
	cr_assert(eq(u64, a.daemons[0].cpu_ns, 750 * MS));
	/* Counted in the build's CPU too. */
	cr_assert(eq(u64, a.cpu_ns, (750 + 20 + 10 + 4) * MS));
	/* The daemon and its idle worker serve throughout: not steps. */
	cr_assert(a.wrapper[synth_proc_of(m, DAEMON)->id]);
	cr_assert(a.wrapper[synth_proc_of(m, 51)->id]);
	cr_assert(not(a.wrapper[synth_proc_of(m, 60)->id]));
	cr_assert(not(a.mostly_elsewhere));
	o = audit_json__new(&a, m);
	cr_assert(not(eq(ptr, o, NULL)));
	d = json_object_array_get_idx(json_object_object_get(o, "daemons"), 0);
	cr_assert(not(eq(ptr, d, NULL)));
	cr_assert(eq(int, (int)int_field(d, "pid"), DAEMON));
	cr_assert(eq(int, (int)int_field(d, "processes"), 3));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(d, "cpu_ms")), 750.0));
	json_object_put(o);
	audit__free(&a);
	model__free(m);
}

Test(daemons, the_audit_says_when_the_build_mostly_waited)
{
	struct model *m = distcc_build(false, NULL, 0);
	struct audit_input in = { .nr_cpus = 2 };
	struct json_object *o, *w;
	struct audit a;

	cr_assert(eq(int, with_slots__audit(&a, m, NULL, &in), 0));
	cr_assert(eq(sz, a.nr_daemons, 0));
	cr_assert(a.mostly_elsewhere);
	o = audit_json__new(&a, m);
	w = json_object_object_get(o, "outside_wait");
	cr_assert(json_object_get_boolean(json_object_object_get(w, "mostly_elsewhere")));
	cr_assert(eq(dbl, json_object_get_double(json_object_object_get(w, "wait_ms")), 960.0));
	cr_assert(eq(int, (int)int_field(json_object_object_get(w, "longest"), "pid"), 11));
	json_object_put(o);
	audit__free(&a);
	model__free(m);
}

Test(daemons, each_works_lanes_are_numbered_from_one)
{
	struct model *m = distcc_build(true, follow_daemon, 1);
	struct trace_layout *tl = trace_layout__new(m);
	__u32 next_cmd = 1, next_daemon = 1;

	cr_assert(not(eq(ptr, tl, NULL)));
	for (size_t i = 0; i < tl->nr_lanes; i++) {
		if (tl->lane_owner[i] == 0)
			cr_assert(eq(u32, tl->lane_number[i], next_cmd++));
		else {
			cr_assert(eq(u32, tl->lane_owner[i], DAEMON));
			cr_assert(eq(u32, tl->lane_number[i], next_daemon++));
		}
	}
	cr_assert(ge(u32, next_cmd, 2));
	cr_assert(ge(u32, next_daemon, 2));
	trace_layout__free(tl);
	model__free(m);
}
