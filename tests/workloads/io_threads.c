// SPDX-License-Identifier: GPL-2.0
/*
 * A known amount written by threads, for the I/O tests.
 *
 *   io-threads join|leader-first THREADS MIB FILE
 *
 * Creates FILE, writes 1 MiB of it from the main thread, and starts THREADS
 * threads, each writing its own MIB MiB with 1 MiB pwrite()s (buffered, no
 * sync): THREADS * MIB + 1 MiB in THREADS * MIB + 1 write calls in all.
 * join: the main thread waits for them and exits, so every other thread
 * ends before the process does.  leader-first: the main thread ends first
 * (pthread_exit), a zombie while the others write on; the last of them
 * ends the process.  Exits 0, or 1 on any failure.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK (1 << 20)

struct writer {
	pthread_t thread;
	int fd;
	long index, mib;
};

/* MiB number first .. first + n - 1 of fd. */
static void write_mib(int fd, long first, long n)
{
	char *buf = malloc(CHUNK);
	long i;

	if (!buf)
		exit(1);
	memset(buf, 'x', CHUNK);
	for (i = 0; i < n; i++)
		if (pwrite(fd, buf, CHUNK, (off_t)(first + i) * CHUNK) != CHUNK) {
			perror("io-threads: pwrite");
			exit(1);
		}
	free(buf);
}

static void *write_part(void *arg)
{
	const struct writer *w = arg;

	/* leader-first: give the main thread time to end before writing. */
	usleep(50000);
	write_mib(w->fd, w->index * w->mib, w->mib);
	return NULL;
}

int main(int argc, char **argv)
{
	struct writer *w;
	long n, mib, i;
	int fd, leader_first;

	if (argc != 5 || (strcmp(argv[1], "join") && strcmp(argv[1], "leader-first"))) {
		fprintf(stderr, "usage: io-threads join|leader-first THREADS MIB FILE\n");
		return 1;
	}
	leader_first = !strcmp(argv[1], "leader-first");
	n = atol(argv[2]);
	mib = atol(argv[3]);
	fd = open(argv[4], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	w = calloc(n > 0 ? n : 1, sizeof(*w));
	if (fd < 0 || !w || n < 1 || mib < 1) {
		perror("io-threads");
		return 1;
	}
	write_mib(fd, n * mib, 1); /* the main thread's own, after the threads' parts */
	for (i = 0; i < n; i++) {
		w[i] = (struct writer){ .fd = fd, .index = i, .mib = mib };
		if (pthread_create(&w[i].thread, NULL, write_part, &w[i])) {
			fprintf(stderr, "io-threads: cannot start a thread\n");
			return 1;
		}
	}
	if (leader_first)
		pthread_exit(NULL); /* w stays: the threads still use it */
	for (i = 0; i < n; i++)
		pthread_join(w[i].thread, NULL);
	free(w);
	return close(fd) ? 1 : 0;
}
