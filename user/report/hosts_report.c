// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "report/chrome_trace.h"
#include "report/hosts_report.h"
#include "util/json_write.h"
#include "util/term_escape.h"

/* How a job is matched, said once: the JSON and the note quote it. */
static const char match_rule[] =
	"a compiler run by a daemon on distccd's temporary input is linked to the distcc client on another host "
	"whose life contains it (within the alignment's accuracy): by the source's name where the job's argv has "
	"it (pump mode), else by the same flags (argv less compiler, input and -o), of several such clients the "
	"one that ended first after the job";

int hosts_report__trace_pid0(size_t h)
{
	return (int)h * TRACE_HOST_PID_STRIDE;
}

static struct json_object *host_json(const struct host_set *hs, size_t h)
{
	const struct host *ho = &hs->hosts[h];
	const struct event_log_info *info = ho->rp->info;
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_str(o, "name", ho->name) ?:
	      json_put_str(o, "log", ho->log_name) ?:
	      (info->host ? json_put_str(o, "recorded_host", info->host) : json_put_null(o, "recorded_host")) ?:
	      json_put_int(o, "trace_pid", hosts_report__trace_pid0(h) + 1) ?:
	      json_put_int(o, "cpu_count", info->online_cpus) ?:
	      json_put_int(o, "processes", ho->rp->model->nr_procs) ?:
	      json_put_int(o, "realtime_offset_ns", ho->realtime_offset_ns) ?:
	      json_put_int(o, "clock_shift_ns", ho->shift_ns) ?:
	      json_put_ms(o, "starts_at_ms", ho->own_start_ns - ho->rp->model->start_ns) ?:
	      json_put_ms(o, "ends_at_ms", ho->own_end_ns - ho->rp->model->start_ns) ?:
	      json_put_int(o, "lost_events", (__s64)ho->rp->lost_events);
	if (!err && info->realtime_offset_err_ns)
		err = json_put_int(o, "offset_read_error_ns", (__s64)info->realtime_offset_err_ns) ?:
		      json_put_int(o, "ntp_esterror_us", (__s64)info->clock_esterror_us) ?:
		      json_put_bool(o, "ntp_synced", info->clock_synced);
	return json_done(o, err);
}

static struct json_object *alignment_json(const struct host_set *hs)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_str(o, "method", "wall clock: each log's CLOCK_REALTIME - CLOCK_MONOTONIC at its start") ?:
	      json_put_int(o, "start_time_unix_ns", (__s64)hs->start_wall_ns);
	if (!err && hs->accuracy_known)
		err = json_put_ms(o, "accuracy_ms", hs->accuracy_ns) ?: json_put_int(o, "accuracy_ns", (__s64)hs->accuracy_ns);
	else if (!err)
		err = json_put_null(o, "accuracy_ms") ?: json_put_str(o, "accuracy_unknown_because", hs->accuracy_note);
	return json_done(o, err);
}

static struct json_object *audit_json(const struct hosts_audit *a)
{
	struct json_object *o = json_object_new_object();
	int err;

	err = json_put_ms(o, "wall_ms", a->wall_ns) ?:
	      json_put_int(o, "cpu_count", a->nr_cpus) ?:
	      json_put_ms(o, "cpu_ms", a->cpu_ns) ?:
	      json_put_double(o, "utilisation", a->utilisation) ?:
	      json_put_double(o, "parallelism_avg", a->parallelism);
	if (!err && a->peak_known)
		err = json_put_double(o, "running_peak", a->peak_running);
	else if (!err)
		err = json_put_null(o, "running_peak");
	return json_done(o, err);
}

static struct json_object *remote_json(const struct hosts_audit *a)
{
	struct json_object *o = json_object_new_object(), *by = json_object_new_object();
	int err, k;

	for (k = 0, err = by ? 0 : -ENOMEM; !err && k < MATCH_KINDS; k++)
		err = json_replace(by, remote_match_name(k), json_object_new_int64((__s64)a->by[k]));
	err = err ?: json_put_str(o, "how", match_rule) ?:
		     json_put_int(o, "clients", a->clients) ?:
		     json_put_int(o, "jobs", a->jobs) ?:
		     json_put_int(o, "matched", a->matched) ?:
		     json_put(o, "matched_by", json_object_get(by)) ?:
		     json_put_int(o, "arrows_not_drawn", a->arrows_not_drawn) ?:
		     json_put_ms(o, "client_wall_ms", a->client_wall_ns) ?:
		     json_put_ms(o, "local_wait_ms", a->local_wait_ns) ?:
		     json_put_ms(o, "remote_job_ms", a->remote_job_ns) ?:
		     json_put_ms(o, "remote_cpu_ms", a->remote_cpu_ns);
	json_object_put(by);
	return json_done(o, err);
}

struct json_object *hosts_report__json(const struct host_set *hs)
{
	struct json_object *extra = json_object_new_object(), *o = json_object_new_object();
	struct json_object *arr = json_object_new_array();
	size_t h;
	int err = arr ? 0 : -ENOMEM;

	for (h = 0; !err && h < hs->nr; h++)
		err = json_append(arr, host_json(hs, h));
	if (err) {
		json_object_put(arr);
		arr = NULL;
	}
	err = json_put(o, "hosts", arr) ?:
	      json_put(o, "alignment", alignment_json(hs)) ?:
	      json_put(o, "audit", audit_json(&hs->audit)) ?:
	      json_put(o, "remote_jobs", remote_json(&hs->audit));
	return json_done(extra, json_put(extra, "hosts", json_done(o, err)));
}

void hosts_report__print(FILE *f, const struct host_set *hs)
{
	const struct hosts_audit *a = &hs->audit;
	char esc[TERM_ESCAPE_BUF];
	size_t h;

	for (h = 0; h < hs->nr; h++) {
		const struct host *ho = &hs->hosts[h];

		fprintf(f, "buildbpf: host %s: trace pid %d, %zu processes, %ld CPUs, clock %+.3f ms from the first "
			   "log's\n",
			term_escape(ho->name, esc, sizeof(esc)), hosts_report__trace_pid0(h) + 1, ho->rp->model->nr_procs,
			ho->rp->info->online_cpus, (double)ho->shift_ns / 1e6);
	}
	if (hs->accuracy_known)
		fprintf(f, "buildbpf: hosts aligned on their wall clocks to within %.3f ms (%llu ns)\n",
			hs->accuracy_ns / 1e6, (unsigned long long)hs->accuracy_ns);
	else
		fprintf(f, "buildbpf: hosts aligned on their wall clocks; accuracy unknown: %s\n", hs->accuracy_note);
	fprintf(f, "buildbpf: all hosts: %zu CPUs, %.3f s CPU in %.3f s wall: %.2f busy on average (%.0f %%)\n",
		a->nr_cpus, a->cpu_ns / 1e9, a->wall_ns / 1e9, a->parallelism, a->utilisation * 100);
	if (a->clients || a->jobs)
		fprintf(f, "buildbpf: remote jobs: %zu of %zu linked to their %zu clients; the clients waited %.3f s for "
			   "%.3f s of remote jobs (%.3f s CPU)\n",
			a->matched, a->jobs, a->clients, a->local_wait_ns / 1e9, a->remote_job_ns / 1e9,
			a->remote_cpu_ns / 1e9);
}
