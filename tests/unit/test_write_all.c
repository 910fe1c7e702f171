// SPDX-License-Identifier: GPL-2.0
/* A whole buffer written however write() splits it (util/write_all.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/write_all.h"

/* More than a pipe holds (64 KiB by default): the writer blocks, and is interrupted, many times. */
#define BIG_BYTES (1u << 20)

struct drain {
	int fd;
	char *got;
	size_t nr;
};

static void *drain_pipe(void *arg)
{
	struct drain *d = arg;

	/* Small reads: the writer finds the pipe full again and again.  One byte more than is written: room to
	 * see a write_all() that writes too much. */
	while (d->nr <= BIG_BYTES) {
		size_t room = BIG_BYTES + 1 - d->nr;
		ssize_t n = read(d->fd, d->got + d->nr, room < 4096 ? room : 4096);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		d->nr += (size_t)n;
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
}

Test(write_all, a_pipe_gets_every_byte_through_interrupted_writes)
{
	/* No SA_RESTART: a timer's signal cuts a blocked write() short or fails it with EINTR. */
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval every_ms = { { 0, 1000 }, { 0, 1000 } }, off = { 0 };
	char *buf = malloc(BIG_BYTES);
	struct drain d = { .got = malloc(BIG_BYTES + 1) };
	pthread_t reader;
	int fds[2];
	size_t i;

	cr_assert(buf && d.got);
	for (i = 0; i < BIG_BYTES; i++)
		buf[i] = (char)(i * 7 + i / 251);
	cr_assert(eq(int, pipe(fds), 0));
	d.fd = fds[0];
	cr_assert(eq(int, sigaction(SIGALRM, &sa, NULL), 0));
	cr_assert(eq(int, pthread_create(&reader, NULL, drain_pipe, &d), 0));
	cr_assert(eq(int, setitimer(ITIMER_REAL, &every_ms, NULL), 0));
	cr_assert(eq(int, write_all(fds[1], buf, BIG_BYTES), 0));
	setitimer(ITIMER_REAL, &off, NULL);
	close(fds[1]);
	pthread_join(reader, NULL);
	cr_assert(eq(sz, d.nr, BIG_BYTES));
	cr_assert(eq(int, memcmp(d.got, buf, BIG_BYTES), 0));
	close(fds[0]);
	free(buf);
	free(d.got);
}

Test(write_all, a_file_holds_what_was_written)
{
	static const char text[] = "first line\nsecond line\n";
	char back[sizeof(text)] = { 0 };
	FILE *f = tmpfile();

	cr_assert(f != NULL);
	cr_assert(eq(int, write_all(fileno(f), text, sizeof(text) - 1), 0));
	cr_assert(eq(int, write_all(fileno(f), "", 0), 0));
	cr_assert(eq(long, (long)pread(fileno(f), back, sizeof(back), 0), (long)sizeof(text) - 1));
	cr_assert(eq(str, back, (char *)text));
	fclose(f);
}

Test(write_all, nothing_to_write_touches_no_descriptor)
{
	cr_assert(eq(int, write_all(-1, "x", 0), 0));
}

Test(write_all, a_failed_write_returns_its_errno)
{
	int fds[2], full = open("/dev/full", O_WRONLY);

	cr_assert(eq(int, write_all(-1, "x", 1), -EBADF));
	cr_assert(ge(int, full, 0));
	cr_assert(eq(int, write_all(full, "x", 1), -ENOSPC));
	close(full);
	/* No reader left: EPIPE, once SIGPIPE no longer ends the test. */
	signal(SIGPIPE, SIG_IGN);
	cr_assert(eq(int, pipe(fds), 0));
	close(fds[0]);
	cr_assert(eq(int, write_all(fds[1], "x", 1), -EPIPE));
	close(fds[1]);
}
