// SPDX-License-Identifier: GPL-2.0
/*
 * Several hosts' models on one time line, and the audit over all their
 * CPUs (include/hosts/hosts.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hosts/hosts.h"
#include "util/error_text.h"

static const struct event_log_info *info_of(const struct host *h)
{
	return h->rp->info;
}

/* INFO's host name, else "host N"; a name already taken gets " #K". */
static void name_hosts(struct host *hosts, size_t n)
{
	size_t i, j, same;

	for (i = 0; i < n; i++) {
		const char *base = info_of(&hosts[i])->host;

		if (!base || !*base) {
			snprintf(hosts[i].name, sizeof(hosts[i].name), "host %u", (unsigned)(i % 1000) + 1);
			continue;
		}
		for (j = 0, same = 1; j < i; j++)
			same += info_of(&hosts[j])->host && !strcmp(info_of(&hosts[j])->host, base);
		if (same > 1)
			snprintf(hosts[i].name, sizeof(hosts[i].name), "%.60s #%u", base, (unsigned)(same % 1000));
		else
			snprintf(hosts[i].name, sizeof(hosts[i].name), "%.70s", base);
	}
}

/*
 * How far two hosts' times may be placed apart from the truth: each
 * offset's read error, plus each wall clock's NTP error unless both logs
 * come from one machine (the same host name: one clock, its error cancels).
 */
static bool pair_accuracy(const struct host *a, const struct host *b, __u64 *out, const char **why)
{
	const struct event_log_info *x = info_of(a), *y = info_of(b);
	bool one_clock = x->host && y->host && !strcmp(x->host, y->host);

	if (!x->realtime_offset_err_ns || !y->realtime_offset_err_ns) {
		*why = "a log was recorded before buildbpf kept its clock's accuracy";
		return false;
	}
	*out = x->realtime_offset_err_ns + y->realtime_offset_err_ns;
	if (one_clock)
		return true;
	if (!x->clock_synced || !y->clock_synced) {
		*why = "a host's clock was not NTP-synchronised when it recorded";
		return false;
	}
	*out += (x->clock_esterror_us + y->clock_esterror_us) * 1000;
	return true;
}

static void compute_accuracy(struct host_set *hs)
{
	size_t i, j;
	__u64 acc;

	hs->accuracy_known = true;
	hs->accuracy_ns = 0;
	hs->accuracy_note = NULL;
	for (i = 0; i < hs->nr; i++)
		for (j = i + 1; j < hs->nr; j++) {
			if (!pair_accuracy(&hs->hosts[i], &hs->hosts[j], &acc, &hs->accuracy_note)) {
				hs->accuracy_known = false;
				return;
			}
			if (acc > hs->accuracy_ns)
				hs->accuracy_ns = acc;
		}
}

__s64 hosts__common_ns(const struct host_set *hs, size_t h, __u64 ns)
{
	return (__s64)(ns - hs->hosts[h].rp->model->start_ns);
}

int hosts__align(struct host_set *hs, struct host *hosts, size_t n, char *err, size_t size)
{
	__u64 start = UINT64_MAX, end = 0, ws, we;
	size_t i;

	memset(hs, 0, sizeof(*hs));
	hs->hosts = hosts;
	hs->nr = n;
	name_hosts(hosts, n);
	for (i = 0; i < n; i++) {
		struct host *h = &hosts[i];
		const struct model *m = h->rp->model;

		h->realtime_offset_ns = info_of(h)->realtime_offset_ns;
		/* CLOCK_REALTIME - CLOCK_MONOTONIC is years on any machine that
		 * keeps time; 0 is a log that never read it. */
		if (h->realtime_offset_ns <= 0)
			return error_text(-EINVAL, err, size,
					  "'%s' records no wall-clock offset: it cannot be placed beside the others",
					  h->log_name);
		h->own_start_ns = m->start_ns;
		h->own_end_ns = m->end_ns < m->start_ns ? m->start_ns : m->end_ns;
		h->shift_ns = h->realtime_offset_ns - hosts[0].realtime_offset_ns;
		ws = h->own_start_ns + (__u64)h->realtime_offset_ns;
		we = h->own_end_ns + (__u64)h->realtime_offset_ns;
		if (i && (ws > end + HOSTS_MAX_GAP_NS || we + HOSTS_MAX_GAP_NS < start))
			return error_text(-EINVAL, err, size,
					  "'%s' was recorded more than an hour apart from '%s': not one build",
					  h->log_name, hosts[0].log_name);
		start = ws < start ? ws : start;
		end = we > end ? we : end;
	}
	hs->start_wall_ns = start;
	hs->end_wall_ns = end;
	for (i = 0; i < n; i++) {
		struct replay *rp = hosts[i].rp;
		__u64 off = (__u64)hosts[i].realtime_offset_ns;

		if (start < off)
			return error_text(-EINVAL, err, size, "'%s' starts before its host's clock did",
					  hosts[i].log_name);
		/* Only the origin moves: every record keeps its own time. */
		rp->model->start_ns = start - off;
		rp->model->end_ns = end - off;
		if (replay__lay_out(rp))
			return error_text(-ENOMEM, err, size, "out of memory");
	}
	compute_accuracy(hs);
	return 0;
}

/* ---- the audit over every host ---- */

/* The running counter of host h at common time t (0 before its first sample). */
static double running_at(const struct host_set *hs, size_t h, size_t *cursor, __s64 t)
{
	const struct sched_model *s = hs->hosts[h].rp->sched;

	while (*cursor + 1 < s->nr_samples && hosts__common_ns(hs, h, s->samples[*cursor + 1].ts_ns) <= t)
		(*cursor)++;
	if (!s->nr_samples || hosts__common_ns(hs, h, s->samples[*cursor].ts_ns) > t)
		return 0;
	return s->samples[*cursor].running;
}

/*
 * The highest sum of the hosts' running counters: each host's counter is
 * a step function, so the sum changes only at some host's sample; every
 * sample time of every host is visited once per host (n is small).
 */
static void peak_running(struct host_set *hs)
{
	size_t h, k, g, cursor[HOSTS_MAX];
	double peak = 0;

	hs->audit.peak_known = true;
	for (h = 0; h < hs->nr; h++)
		hs->audit.peak_known = hs->audit.peak_known && hs->hosts[h].rp->sched;
	if (!hs->audit.peak_known)
		return;
	for (h = 0; h < hs->nr; h++) {
		const struct sched_model *s = hs->hosts[h].rp->sched;

		memset(cursor, 0, sizeof(cursor));
		for (k = 0; k < s->nr_samples; k++) {
			__s64 t = hosts__common_ns(hs, h, s->samples[k].ts_ns);
			double sum = 0;

			for (g = 0; g < hs->nr; g++)
				sum += running_at(hs, g, &cursor[g], t);
			peak = sum > peak ? sum : peak;
		}
	}
	hs->audit.peak_running = peak;
}

int hosts__audit(struct host_set *hs)
{
	struct hosts_audit *a = &hs->audit;
	size_t h, i;

	a->wall_ns = hs->end_wall_ns - hs->start_wall_ns;
	a->nr_cpus = 0;
	a->cpu_ns = 0;
	for (h = 0; h < hs->nr; h++) {
		const struct model *m = hs->hosts[h].rp->model;

		a->nr_cpus += info_of(&hs->hosts[h])->online_cpus;
		for (i = 0; i < m->nr_procs; i++)
			a->cpu_ns += m->procs[i].utime_ns + m->procs[i].stime_ns;
	}
	a->parallelism = a->wall_ns ? (double)a->cpu_ns / (double)a->wall_ns : 0;
	a->utilisation = a->nr_cpus ? a->parallelism / (double)a->nr_cpus : 0;
	peak_running(hs);
	return 0;
}

void hosts__free(struct host_set *hs)
{
	free(hs->links);
	hs->links = NULL;
	hs->nr_links = 0;
}

const char *remote_match_name(enum remote_match how)
{
	static const char *const names[MATCH_KINDS] = { "source", "window", "end_order" };

	return how < MATCH_KINDS ? names[how] : "?";
}
