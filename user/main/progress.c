// SPDX-License-Identifier: GPL-2.0
/* The progress line of convert, report and diff on a terminal (include/main/progress.h). */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "main/progress.h"
#include "report/progress_line.h"

bool progress__wanted(const struct cli_opts *opts)
{
	return isatty(STDERR_FILENO) && !opts->quiet && !opts->no_progress;
}

void progress__init(struct progress *p, bool on, FILE *out)
{
	memset(p, 0, sizeof(*p));
	p->on = on;
	p->out = out;
	p->step = "analysing";
	if (on) /* off, no call takes it (progress__end destroys it only when on) */
		pthread_mutex_init(&p->lock, NULL);
	clock_gettime(CLOCK_MONOTONIC, &p->start);
}

struct progress_log *progress__add_log(struct progress *p, const char *name, int fd)
{
	struct progress_log *log;
	struct stat st;

	if (!p->on || p->nr_logs == PROGRESS_LOGS_MAX)
		return NULL;
	log = &p->logs[p->nr_logs++];
	*log = (struct progress_log){ .p = p, .name = name };
	if (!fstat(fd, &st) && S_ISREG(st.st_mode))
		log->size = st.st_size;
	return log;
}

static __u64 since_start_ns(const struct progress *p)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (now.tv_sec - p->start.tv_sec) * 1000000000ull + now.tv_nsec - p->start.tv_nsec;
}

/* The line as the figures stand; with p->lock held. */
static void draw_line(struct progress *p, __u64 now_ns)
{
	struct progress_figures f = { .step = "reading" };
	char names[256] = "", text[512];
	size_t i, at = 0;

	for (i = 0; i < p->nr_logs; i++) {
		const struct progress_log *log = &p->logs[i];

		at += snprintf(names + at, at < sizeof(names) ? sizeof(names) - at : 0, "%s%s", i ? ", " : "",
			       log->name);
		at = at < sizeof(names) ? at : sizeof(names) - 1;
		f.done_bytes += log->read ? log->size : log->offset;
		f.total_bytes += log->size;
		f.records += log->records;
		f.counting |= !log->read;
	}
	if (!f.counting)
		f.step = p->step;
	f.names = names;
	progress_line__format(text, sizeof(text), &f);
	/* \033[K: what a longer line before left on the right goes. */
	fprintf(p->out, "\r%s\033[K", text);
	fflush(p->out);
	p->shown_ns = now_ns;
}

/* The line once the work has run long enough, and not more often than the eye needs. */
static void maybe_show(struct progress *p)
{
	__u64 now_ns = since_start_ns(p);

	if (now_ns >= PROGRESS_AFTER_NS && (!p->shown_ns || now_ns - p->shown_ns >= PROGRESS_EVERY_NS))
		draw_line(p, now_ns);
}

/* With p->lock held. */
static void erase(struct progress *p)
{
	if (!p->shown_ns)
		return;
	fputs("\r\033[K", p->out);
	fflush(p->out);
	p->shown_ns = 0;
}

void progress__records(void *ctx, __u64 records, __u64 offset)
{
	struct progress_log *log = ctx;
	struct progress *p = log->p;

	/* A reader that finds the other one showing the line skips its turn. */
	if (pthread_mutex_trylock(&p->lock))
		return;
	log->records = records;
	log->offset = offset;
	maybe_show(p);
	pthread_mutex_unlock(&p->lock);
}

void progress__log_read(struct progress_log *log)
{
	if (!log)
		return;
	pthread_mutex_lock(&log->p->lock);
	log->read = true;
	erase(log->p);
	pthread_mutex_unlock(&log->p->lock);
}

void progress__step(struct progress *p, const char *step)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->lock);
	p->step = step;
	maybe_show(p);
	pthread_mutex_unlock(&p->lock);
}

void progress__erase(struct progress *p)
{
	if (!p->on)
		return;
	pthread_mutex_lock(&p->lock);
	erase(p);
	pthread_mutex_unlock(&p->lock);
}

void progress__end(struct progress *p)
{
	if (!p->on)
		return;
	progress__erase(p);
	pthread_mutex_destroy(&p->lock);
	p->on = false;
}
