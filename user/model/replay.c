// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "util/cpu_list.h"
#include "util/error_text.h"
#include "model/daemons.h"
#include "model/lanes.h"
#include "model/proc_dirs.h"
#include "model/replay.h"
#include "model/step_names.h"

static const char *level_name(enum sched_level level)
{
	return level == SCHED_FULL ? "full" : level == SCHED_SUMMARY ? "summary" : "off";
}

static bool is_sched_record(const struct bb_event_header *hdr)
{
	return hdr->type == BB_EV_CPU_SLICE || hdr->type == BB_EV_CPU_IDLE;
}

/* Why the trace does not show the whole build, or NULL. */
static const char *partial_reason(struct replay *rp, const struct bbl_trailer *t, __u64 cut_at)
{
	if (!t) {
		snprintf(rp->partial_buf, sizeof(rp->partial_buf),
			 "the recording was cut short at byte %llu (buildbpf stopped before the build ended)",
			 (unsigned long long)cut_at);
		return rp->partial_buf;
	}
	if (t->flags & BBL_CAPTURE_FAILED)
		return "event capture failed during the build";
	if (t->signal_seen) {
		snprintf(rp->partial_buf, sizeof(rp->partial_buf), "buildbpf received SIG%s: the build was interrupted",
			 sigabbrev_np(t->signal_seen) ?: "?");
		return rp->partial_buf;
	}
	if (t->lost_events) {
		snprintf(rp->partial_buf, sizeof(rp->partial_buf), "%llu events lost (the ring buffer was full)",
			 (unsigned long long)t->lost_events);
		return rp->partial_buf;
	}
	return NULL;
}

/*
 * Possible CPUs that were offline when recording sent no records: the
 * parallelism figures leave them out.  An unreadable list leaves them in.
 */
static void mark_offline_cpus(struct sched_model *s, const char *online_list)
{
	bool *online = calloc(s->nr_cpus ? s->nr_cpus : 1, sizeof(*online));
	size_t cpu;

	if (online && !cpu_list__parse(online_list, online, s->nr_cpus))
		for (cpu = 0; cpu < s->nr_cpus; cpu++)
			if (!online[cpu])
				sched_model__set_absent(s, cpu);
	free(online);
}

/*
 * After the last record: the model finished, then what is derived from it,
 * in the order each needs the one before.  0 or -ENOMEM.
 */
static int finish_stages(struct replay *rp, const struct event_log_info *info)
{
	int e;

	e = model__finish(rp->model, rp->end_ns) ?: proc_dirs__attach(rp->model);
	if (!e) {
		daemons__mark(rp->model, info->follow, info->nr_follow);
		lanes__assign_model(rp->model);
	}
	if (!e && rp->model->root >= 0 && rp->exited && !rp->model->procs[rp->model->root].exited) {
		/* Its exit record was lost, but waitpid told us how it ended. */
		struct proc_instance *root = &rp->model->procs[rp->model->root];

		root->exited = true;
		root->unfinished = false;
		root->exit_record_lost = true;
		root->exit_status = rp->wait_status;
	}
	if (!e && rp->sched)
		e = sched_model__finish(rp->sched, rp->end_ns);
	if (!e && rp->files) {
		file_log__finish(rp->files);
		e = file_log__drop_hidden(rp->files, rp->model);
	}
	if (!e) {
		/* Named last: a step's name may come from the files it wrote. */
		e = step_names__attach(rp->model, rp->files);
	}
	return e;
}

int replay__run(struct replay *rp, struct event_log_reader *r, const struct replay_opts *opts, char *err,
		size_t size)
{
	const struct event_log_info *info = event_log_reader__info(r);
	enum sched_level level = opts->sched_given ? opts->sched : info->sched;
	__u64 span = opts->max_span_ns ? opts->max_span_ns : REPLAY_DEFAULT_MAX_SPAN_NS;
	__u64 resolution = opts->sched_resolution_ns ? opts->sched_resolution_ns : info->sched_resolution_ns;
	__u64 last_ts = info->start_ns, limit, records = 0;
	bool deps = info->deps && (!opts->deps_given || opts->deps);
	const struct bbl_trailer *t;
	const void *rec;
	size_t len;
	int e;

	memset(rp, 0, sizeof(*rp));
	rp->info = info;
	if (opts->deps_given && opts->deps && !info->deps)
		return error_text(-EINVAL, err, size, "recorded with --deps=off: --deps=on needs a recording made with it");
	if (level > info->sched)
		return error_text(-EINVAL, err, size, "recorded with --sched=%s: --sched=%s needs a recording made with it",
			    level_name(info->sched), level_name(level));
	limit = info->start_ns > UINT64_MAX - span ? UINT64_MAX : info->start_ns + span;
	rp->model = model__new(info->root_pid, info->start_ns);
	if (level != SCHED_OFF)
		rp->sched = sched_model__new(level, resolution, info->possible_cpus, info->start_ns);
	if (deps) {
		rp->files = file_log__new();
		rp->wakes = start_wakes__new();
	}
	if (!rp->model || (level != SCHED_OFF && !rp->sched) || (deps && (!rp->files || !rp->wakes)) ||
	    model__set_cwd(rp->model, info->cwd))
		return error_text(-ENOMEM, err, size, "out of memory");
	if (rp->sched && info->online_cpu_list)
		mark_offline_cpus(rp->sched, info->online_cpu_list);

	while ((e = event_log_reader__next(r, &rec, &len, err, size)) == 1) {
		const struct bb_event_header *hdr = rec;

		if (opts->stop && *opts->stop)
			return error_text(-EINTR, err, size, "stopped");
		if (opts->on_records && ++records % REPLAY_PROGRESS_EVERY == 0)
			opts->on_records(opts->on_records_ctx, records, event_log_reader__offset(r));
		if (len < sizeof(*hdr)) {
			rp->model->stats.malformed++;
			continue;
		}
		/* Counters and lanes take memory in proportion to the span: a
		 * record dated years after the start is refused, not drawn. */
		if (hdr->ts_ns > limit) {
			rp->out_of_range++;
			continue;
		}
		if (file_log__is_record(hdr->type)) {
			/* --deps=off drops them; a recording without deps has none. */
			if (rp->files && file_log__add(rp->files, rec, len) == -ENOMEM)
				return error_text(-ENOMEM, err, size, "out of memory");
		} else if (start_wakes__is_record(hdr->type)) {
			/* Part of the build graph: kept and dropped with the file records. */
			if (rp->wakes && start_wakes__add(rp->wakes, rec, len) == -ENOMEM)
				return error_text(-ENOMEM, err, size, "out of memory");
		} else if (is_sched_record(hdr)) {
			if (rp->sched) {
				e = sched_model__add_event(rp->sched, rec, len);
				if (e == -ENOMEM)
					return error_text(e, err, size, "out of memory");
			}
		} else {
			e = model__add_event(rp->model, rec, len);
			if (e == -ENOMEM)
				return error_text(e, err, size, "out of memory");
		}
		if (hdr->ts_ns > last_ts)
			last_ts = hdr->ts_ns;
	}
	if (e < 0 && e != -ENODATA)
		return e;
	t = event_log_reader__trailer(r);
	rp->complete = t != NULL;
	if (t) {
		if (t->end_ns < info->start_ns || t->end_ns > limit)
			return error_text(-EBADMSG, err, size, "corrupt: the trailer's end time lies outside the recording");
		rp->end_ns = t->end_ns;
		rp->lost_events = t->lost_events;
		rp->exited = t->flags & BBL_EXITED;
		rp->wait_status = t->wait_status;
	} else {
		/* Cut short: the trace ends with the last record that arrived. */
		rp->end_ns = last_ts;
	}
	rp->partial_reason = partial_reason(rp, t, event_log_reader__offset(r));

	e = finish_stages(rp, info);
	if (e)
		return error_text(e, err, size, "cannot reconstruct the build: %s", strerror(-e));
	return 0;
}

int replay__exit_code(const struct replay *rp)
{
	if (!rp->exited)
		return -1;
	if (WIFEXITED(rp->wait_status))
		return WEXITSTATUS(rp->wait_status);
	if (WIFSIGNALED(rp->wait_status))
		return 128 + WTERMSIG(rp->wait_status);
	return -1;
}

int replay__lay_out(struct replay *rp)
{
	trace_layout__free(rp->layout);
	rp->layout = trace_layout__new(rp->model);
	return rp->layout ? 0 : -ENOMEM;
}

void replay__free(struct replay *rp)
{
	trace_layout__free(rp->layout);
	model__free(rp->model);
	sched_model__free(rp->sched);
	rp->layout = NULL;
	file_log__free(rp->files);
	rp->files = NULL;
	start_wakes__free(rp->wakes);
	rp->wakes = NULL;
	rp->model = NULL;
	rp->sched = NULL;
}
