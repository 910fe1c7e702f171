// SPDX-License-Identifier: GPL-2.0
/*
 * convert --add: logs of several hosts whose clocks differ by a known
 * offset, placed on one time line exactly; distcc's remote jobs linked to
 * the clients that waited for them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "hosts/hosts.h"
#include "model/lanes.h"
#include "model/trace_layout.h"
#include "report/chrome_trace.h"
#include "report/hosts_report.h"
#include "lib/synth.h"
#include "lib/synth_hosts.h"
#include "lib/trace_rules.h"

#define MS 1000000ull
#define SEC 1000000000ull
/* Host A's wall clock minus its monotonic clock: 2026-12-01 on a machine up 5 days. */
#define OFF_A 1796083200000000000ll
/* Host B booted 7.3 s (and 123 ns) later than A: its monotonic clock reads that much less. */
#define B_BEHIND_NS 7300000123ll
#define OFF_B (OFF_A + B_BEHIND_NS)

static size_t proc_index(const struct synth_host *th, __u32 pid)
{
	const struct proc_instance *p = synth_proc_of(th->rp.model, pid);

	cr_assert_not_null(p);
	return p->id;
}

/*
 * A starts at 10 s of its clock; B's recording starts 2 s of wall time
 * later.  A process on each begins at one wall instant: 12.5 s on A's
 * clock, (12.5 - 7.3...) s on B's.
 */
static void two_hosts(struct synth_host *a, struct synth_host *b, struct host *hosts)
{
	__u64 a0 = 10 * SEC, b0 = a0 + 2 * SEC - B_BEHIND_NS;
	__u64 wall_a = a0 + 2500 * MS, wall_b = wall_a - B_BEHIND_NS;

	synth_host_begin(a, "client", OFF_A, a0, 100, 2);
	synth_host_proc(a, 101, 100, wall_a, wall_a + 300 * MS, 10 * MS, (const char *const[]){ "/bin/true", NULL });
	synth_host_end(a, a0 + 4 * SEC);
	synth_host_begin(b, "worker", OFF_B, b0, 200, 4);
	synth_host_proc(b, 201, 200, wall_b, wall_b + 300 * MS, 20 * MS, (const char *const[]){ "/bin/true", NULL });
	synth_host_end(b, b0 + 1 * SEC);
	hosts[0] = (struct host){ .rp = &a->rp, .log_name = "a.bbl" };
	hosts[1] = (struct host){ .rp = &b->rp, .log_name = "b.bbl" };
}

Test(hosts, clocks_a_known_offset_apart_line_up_exactly)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256];
	size_t pa, pb;

	two_hosts(&a, &b, hosts);
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hosts[1].shift_ns, B_BEHIND_NS);
	cr_assert_eq(hs.start_wall_ns, 10 * SEC + (__u64)OFF_A);
	/* B ends 3 s of wall time after the common start, A at 4 s. */
	cr_assert_eq(hs.end_wall_ns - hs.start_wall_ns, 4 * SEC);
	/* The two processes began at one wall instant: the same trace time,
	 * to the microsecond, on both hosts' tracks. */
	pa = proc_index(&a, 101);
	pb = proc_index(&b, 201);
	cr_assert_eq(hosts__common_ns(&hs, 0, a.rp.model->procs[pa].start_ns),
		     hosts__common_ns(&hs, 1, b.rp.model->procs[pb].start_ns));
	cr_assert_eq(hosts__common_ns(&hs, 0, a.rp.model->procs[pa].start_ns), (__s64)(2500 * MS));
	cr_assert_eq(a.rp.layout->procs[pa].span.ts, b.rp.layout->procs[pb].span.ts);
	cr_assert_eq(a.rp.layout->procs[pa].span.ts, 2500001);
	cr_assert_eq(a.rp.layout->procs[pa].span.end, b.rp.layout->procs[pb].span.end);
	/* B's own records keep their times; only its origin moved. */
	cr_assert_eq(b.rp.model->procs[pb].start_ns, 10 * SEC + 2500 * MS - B_BEHIND_NS);
	cr_assert_eq(trace_us(b.rp.model, b.rp.model->end_ns), 4000001);
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}

Test(hosts, a_host_that_started_first_sets_the_common_start)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256];

	two_hosts(&a, &b, hosts);
	/* Given the other way round: B's log first, A added. */
	hosts[0] = (struct host){ .rp = &b.rp, .log_name = "b.bbl" };
	hosts[1] = (struct host){ .rp = &a.rp, .log_name = "a.bbl" };
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hosts[1].shift_ns, -B_BEHIND_NS);
	cr_assert_eq(hs.start_wall_ns, 10 * SEC + (__u64)OFF_A);
	cr_assert_eq(trace_us(b.rp.model, b.rp.info->start_ns), 2000001);
	cr_assert_eq(trace_us(a.rp.model, a.rp.info->start_ns), 1);
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}

Test(hosts, logs_that_cannot_be_placed_are_refused_clearly)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256];

	two_hosts(&a, &b, hosts);
	b.info.realtime_offset_ns = 0;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), -EINVAL);
	cr_assert_str_eq(err, "'b.bbl' records no wall-clock offset: it cannot be placed beside the others");
	/* A day apart: not one build. */
	b.info.realtime_offset_ns = OFF_B + 86400 * (__s64)SEC;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), -EINVAL);
	cr_assert(strstr(err, "more than an hour apart") != NULL, "%s", err);
	synth_host_free(&a);
	synth_host_free(&b);
}

Test(hosts, the_accuracy_is_both_reads_and_both_ntp_errors)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256];

	two_hosts(&a, &b, hosts);
	/* Old logs: unknown, and said why. */
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_not(hs.accuracy_known);
	cr_assert_not_null(hs.accuracy_note);
	a.info.realtime_offset_err_ns = 40;
	b.info.realtime_offset_err_ns = 60;
	a.info.clock_esterror_us = 500;
	b.info.clock_esterror_us = 1500;
	a.info.clock_synced = true;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_not(hs.accuracy_known, "B's clock is not synchronised");
	cr_assert(strstr(hs.accuracy_note, "NTP") != NULL);
	b.info.clock_synced = true;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert(hs.accuracy_known);
	cr_assert_eq(hs.accuracy_ns, 100 + 2000 * 1000);
	/* One machine (the same host name): one clock, only the reads count. */
	b.info.host = "client";
	b.info.clock_synced = false;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert(hs.accuracy_known);
	cr_assert_eq(hs.accuracy_ns, 100);
	cr_assert_str_eq(hosts[0].name, "client");
	cr_assert_str_eq(hosts[1].name, "client #2");
	b.info.host = NULL;
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_str_eq(hosts[1].name, "host 2");
	synth_host_free(&a);
	synth_host_free(&b);
}

/* The client host a and the daemon's b, aligned, each remote job linked to its client. */
static void link_distcc_hosts(struct synth_host *a, struct synth_host *b, struct host *hosts, struct host_set *hs)
{
	char err[256];

	hosts[0] = (struct host){ .rp = &a->rp, .log_name = "a.bbl" };
	hosts[1] = (struct host){ .rp = &b->rp, .log_name = "b.bbl" };
	cr_assert_eq(hosts__align(hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hosts__link_remote_jobs(hs), 0);
}

Test(hosts, distcc_jobs_link_to_the_clients_that_waited)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	/* B's clock reads B_BEHIND_NS less than A's at one instant. */
	__u64 a0 = 10 * SEC, b0 = a0 - B_BEHIND_NS, t = a0 + 100 * MS, u = t - B_BEHIND_NS;

	synth_host_begin(&a, "client", OFF_A, a0, 100, 2);
	/* Two clients with the same flags, overlapping: 300 sent first ... */
	synth_distcc_client(&a, 300, "one.c", "-O2", t, t + 20 * MS, t + 400 * MS);
	synth_distcc_client(&a, 310, "two.c", "-O2", t + 5 * MS, t + 30 * MS, t + 450 * MS);
	/* ... one with other flags, and a pump-mode client. */
	synth_distcc_client(&a, 320, "three.c", "-O0", t + 6 * MS, t + 40 * MS, t + 500 * MS);
	synth_distcc_client(&a, 330, "four.c", "-O2", t + 7 * MS, t + 50 * MS, t + 600 * MS);
	/* A local compile is no client. */
	synth_host_proc(&a, 340, 100, t, t + 10 * MS, 5 * MS, (const char *const[]){ "/usr/bin/cc", "-c", "five.c", NULL });
	synth_host_end(&a, a0 + 2 * SEC);

	synth_host_begin(&b, "worker", OFF_B, b0, 200, 4);
	synth_distcc_job(&b, 400, "/tmp/distccd_aa.i", "-O2", u + 25 * MS, u + 300 * MS);
	synth_distcc_job(&b, 410, "/tmp/distccd_bb.i", "-O2", u + 35 * MS, u + 350 * MS);
	synth_distcc_job(&b, 420, "/tmp/distccd_cc.i", "-O0", u + 45 * MS, u + 360 * MS);
	synth_distcc_job(&b, 430, "/tmp/distccd_dd/home/u/src/four.c", "-O2", u + 55 * MS, u + 370 * MS);
	/* A job no client waited for (its flags match no one in its window). */
	synth_distcc_job(&b, 440, "/tmp/distccd_ee.i", "-O3", u + 60 * MS, u + 100 * MS);
	synth_host_end(&b, b0 + 2 * SEC);

	link_distcc_hosts(&a, &b, hosts, &hs);
	cr_assert_eq(hosts__audit(&hs), 0);
	cr_assert_eq(hs.audit.clients, 4);
	cr_assert_eq(hs.audit.jobs, 5, "the driver per job, never its cc1");
	cr_assert_eq(hs.nr_links, 4);
	cr_assert_eq(hs.audit.matched, 4);
	/* Jobs in start order: 400 had three clients in its window, took the first to end after it. */
	cr_assert_eq(hs.links[0].job_proc, proc_index(&b, 400));
	cr_assert_eq(hs.links[0].client_proc, proc_index(&a, 300));
	cr_assert_eq(hs.links[0].how, MATCH_END_ORDER);
	cr_assert_eq(hs.links[1].job_proc, proc_index(&b, 410));
	cr_assert_eq(hs.links[1].client_proc, proc_index(&a, 310));
	cr_assert_eq(hs.links[1].how, MATCH_END_ORDER, "330 fits too");
	cr_assert_eq(hs.links[2].client_proc, proc_index(&a, 320));
	cr_assert_eq(hs.links[2].how, MATCH_WINDOW);
	cr_assert_eq(hs.links[3].job_proc, proc_index(&b, 430));
	cr_assert_eq(hs.links[3].client_proc, proc_index(&a, 330));
	cr_assert_eq(hs.links[3].how, MATCH_SOURCE);
	cr_assert_eq(hs.links[0].client_host, 0);
	cr_assert_eq(hs.links[0].job_host, 1);
	/* 300 waited from its send (its cpp's end) to its end; the job ran 275 ms. */
	cr_assert_eq(hs.links[0].wait_ns, 380 * MS);
	cr_assert_eq(hs.links[0].job_ns, 275 * MS);
	cr_assert_eq(hs.links[0].job_cpu_ns, 52 * MS);
	cr_assert_eq(hs.audit.by[MATCH_END_ORDER], 2);
	cr_assert_eq(hs.audit.by[MATCH_WINDOW], 1);
	cr_assert_eq(hs.audit.by[MATCH_SOURCE], 1);
	cr_assert_eq(hs.audit.remote_cpu_ns, 5 * 52 * MS, "every job's CPU, matched or not");
	cr_assert_eq(hs.audit.arrows_not_drawn, 0);
	/* The audit over both hosts: 6 CPUs, every process's CPU. */
	cr_assert_eq(hs.audit.nr_cpus, 6);
	cr_assert_eq(hs.audit.cpu_ns, 4 * 2 * MS + 5 * MS + 5 * 52 * MS);
	cr_assert_eq(hs.audit.wall_ns, 2 * SEC);
	cr_assert_float_eq(hs.audit.parallelism, (double)hs.audit.cpu_ns / (double)hs.audit.wall_ns, 1e-12);
	cr_assert_float_eq(hs.audit.utilisation, hs.audit.parallelism / 6, 1e-12);
	cr_assert_not(hs.audit.peak_known, "no scheduler records");
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}

/*
 * The daemon started the second sender's compiler first (its children run
 * in whatever order a busy machine runs them).  Each job still gets its
 * own client: the one that ended first after it, not the first sender,
 * which would leave the other job without a client that outlived it.
 */
Test(hosts, jobs_started_out_of_send_order_each_get_their_client)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	__u64 a0 = 10 * SEC, b0 = a0 - B_BEHIND_NS, t = a0 + 100 * MS, u = t - B_BEHIND_NS;

	synth_host_begin(&a, "client", OFF_A, a0, 100, 2);
	synth_distcc_client(&a, 300, "one.c", "-O2", t, t + 10 * MS, t + 500 * MS);
	synth_distcc_client(&a, 310, "two.c", "-O2", t + 5 * MS, t + 20 * MS, t + 300 * MS);
	synth_host_end(&a, a0 + 2 * SEC);
	synth_host_begin(&b, "worker", OFF_B, b0, 200, 4);
	synth_distcc_job(&b, 400, "/tmp/distccd_bb.i", "-O2", u + 30 * MS, u + 280 * MS); /* two.c's */
	synth_distcc_job(&b, 410, "/tmp/distccd_aa.i", "-O2", u + 40 * MS, u + 480 * MS); /* one.c's */
	synth_host_end(&b, b0 + 2 * SEC);

	link_distcc_hosts(&a, &b, hosts, &hs);
	cr_assert_eq(hs.audit.matched, 2, "both jobs linked");
	cr_assert_eq(hs.links[0].job_proc, proc_index(&b, 400));
	cr_assert_eq(hs.links[0].client_proc, proc_index(&a, 310));
	cr_assert_eq(hs.links[0].how, MATCH_END_ORDER);
	cr_assert_eq(hs.links[1].job_proc, proc_index(&b, 410));
	cr_assert_eq(hs.links[1].client_proc, proc_index(&a, 300));
	cr_assert_eq(hs.links[1].how, MATCH_WINDOW);
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}

/* The peak of the hosts' running counters together, at the instant they overlap. */
Test(hosts, the_peak_adds_the_hosts_counters_at_each_instant)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	char err[256];

	two_hosts(&a, &b, hosts);
	a.rp.sched = sched_model__new(SCHED_SUMMARY, 10 * MS, 2, a.info.start_ns);
	b.rp.sched = sched_model__new(SCHED_SUMMARY, 10 * MS, 4, b.info.start_ns);
	cr_assert(a.rp.sched && b.rp.sched);
	/* A: one thread busy for 1 s from 0.5 s; B: three threads from 2.5 s of A's time line. */
	synth_cpu_slice(a.rp.sched, 0, 101, 101, a.info.start_ns + 500 * MS, a.info.start_ns + 3000 * MS, 0);
	for (__u32 c = 0; c < 3; c++)
		synth_cpu_slice(b.rp.sched, c, 201 + c, 201, b.info.start_ns + 500 * MS, b.info.start_ns + 900 * MS, 0);
	cr_assert_eq(sched_model__finish(a.rp.sched, a.rp.end_ns), 0);
	cr_assert_eq(sched_model__finish(b.rp.sched, b.rp.end_ns), 0);
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hosts__link_remote_jobs(&hs), 0);
	cr_assert_eq(hosts__audit(&hs), 0);
	cr_assert(hs.audit.peak_known);
	cr_assert_float_eq(hs.audit.peak_running, 4.0, 1e-9);
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}

/* The trace of two aligned hosts: own trace pids per host, named after it, the rules kept, the link drawn. */
Test(hosts, each_host_gets_its_own_trace_processes_and_the_links_bind)
{
	struct synth_host a, b;
	struct host hosts[2];
	struct host_set hs;
	struct trace_meta metas[2] = {};
	struct trace_part parts[2];
	struct trace_link link;
	struct json_object *root, *evs, *extra;
	char err[256], *text;
	size_t len, i, named = 0, flows = 0;
	__s64 ts[2] = { -1, -1 };
	FILE *f;
	int fd = memfd_create("hosts-trace", MFD_CLOEXEC);

	cr_assert_geq(fd, 0);
	two_hosts(&a, &b, hosts);
	cr_assert_eq(hosts__align(&hs, hosts, 2, err, sizeof(err)), 0, "%s", err);
	cr_assert_eq(hosts__link_remote_jobs(&hs), 0);
	cr_assert_eq(hosts__audit(&hs), 0);
	for (i = 0; i < 2; i++) {
		metas[i].layout = hosts[i].rp->layout;
		parts[i] = (struct trace_part){ hosts[i].rp->model, &metas[i], hosts_report__trace_pid0(i), hosts[i].name };
	}
	link = (struct trace_link){ 0, proc_index(&a, 101), 1, proc_index(&b, 201), "remote job" };
	extra = hosts_report__json(&hs);
	cr_assert_not_null(extra);
	cr_assert_eq(chrome_trace__write_parts(parts, 2, &link, 1, extra, fd), 0);
	json_object_put(extra);
	len = (size_t)lseek(fd, 0, SEEK_END);
	text = calloc(1, len + 1);
	f = fdopen(fd, "r");
	cr_assert(text && f);
	rewind(f);
	cr_assert_eq(fread(text, 1, len, f), len);
	fclose(f);
	root = parse_trace_text(text, len);
	free(text);
	check_trace_rules(root);
	evs = json_object_object_get(root, "traceEvents");
	for (i = 0; i < json_object_array_length(evs); i++) {
		struct json_object *ev = json_object_array_get_idx(evs, i), *args = json_object_object_get(ev, "args");
		const char *name = json_object_get_string(json_object_object_get(ev, "name"));
		long long pid = json_object_get_int64(json_object_object_get(ev, "pid"));

		if (!strcmp(name, "process_name")) {
			const char *want = pid == 1 ? "client: " : pid == 65 ? "worker: " : NULL;

			cr_assert_not_null(want, "a trace pid %lld outside the hosts' ranges", pid);
			cr_assert_eq(strncmp(json_object_get_string(json_object_object_get(args, "name")), want, strlen(want)),
				     0);
			named++;
		} else if (!strcmp(name, "remote job")) {
			cr_assert_eq(pid, json_object_get_string(json_object_object_get(ev, "ph"))[0] == 's' ? 1 : 65);
			flows++;
		} else if (!strcmp(json_object_get_string(json_object_object_get(ev, "ph")), "X") &&
			   json_object_object_get(args, "pid")) {
			long long real = json_object_get_int64(json_object_object_get(args, "pid"));

			if (real == 101 || real == 201)
				ts[real == 201] = json_object_get_int64(json_object_object_get(ev, "ts"));
			cr_assert_eq(pid, real >= 200 ? 65 : 1, "process %lld on trace pid %lld", real, pid);
		}
	}
	cr_assert_eq(named, 2);
	cr_assert_eq(flows, 2);
	/* One wall instant, one trace time, across the hosts. */
	cr_assert_eq(ts[0], 2500001);
	cr_assert_eq(ts[1], 2500001);
	cr_assert_not_null(json_object_object_get(json_object_object_get(root, "otherData"), "hosts"));
	json_object_put(root);
	hosts__free(&hs);
	synth_host_free(&a);
	synth_host_free(&b);
}
