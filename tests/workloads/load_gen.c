// SPDX-License-Identifier: GPL-2.0
/*
 * Workloads for the load suite (tests/test_load.c): shapes a build rarely
 * has but a tracer must survive without losing anything.
 *
 *   load-gen sleepers N MS      N children alive at once: each blocks on a
 *                               pipe until all N exist, then sleeps MS ms;
 *                               their pids go to stdout, one a line
 *   load-gen threads N MS       one process, N threads that each sleep MS ms
 *   load-gen burst N STATUS PROG [ARG...]
 *                               forks N children as fast as it can, each
 *                               execs PROG; waits for all, exits STATUS
 *                               (1 if a child failed)
 *   load-gen rt-burst N STATUS PROG [ARG...]
 *                               the same at SCHED_FIFO priority 10
 *   load-gen exec-args FILE     execs the NUL-separated argv in FILE
 *                               (argv[0] is the program's path)
 *   load-gen execveat DIR REL   execveat(open(DIR), REL): the kernel names
 *                               the image "/dev/fd/N/REL"
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, ms % 1000 * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

static int usage(void)
{
	fprintf(stderr, "usage: load-gen sleepers N MS | threads N MS | [rt-]burst N STATUS PROG [ARG...] |\n"
			"                exec-args FILE | execveat DIR REL\n");
	return 2;
}

/* Waits for n children; 0 when every one exited 0. */
static int reap_all(long n)
{
	int status, failed = 0;

	for (; n > 0; n--) {
		if (wait(&status) < 0) {
			perror("wait");
			return 1;
		}
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			failed++;
	}
	if (failed)
		fprintf(stderr, "load-gen: %d children failed\n", failed);
	return failed ? 1 : 0;
}

static int sleepers(long n, long ms)
{
	int barrier[2];
	char byte;
	long i;

	if (pipe(barrier)) {
		perror("pipe");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			close(barrier[1]);
			/* EOF once the parent has forked them all. */
			if (read(barrier[0], &byte, 1) != 0)
				_exit(3);
			sleep_ms(ms);
			_exit(0);
		}
		printf("%d\n", pid);
	}
	close(barrier[1]);
	fflush(stdout);
	return reap_all(n);
}

static void *thread_sleep(void *arg)
{
	sleep_ms(*(const long *)arg);
	return NULL;
}

static int threads(long n, long ms)
{
	pthread_t *tids = calloc(n, sizeof(*tids));
	pthread_attr_t attr;
	long i;
	int err;

	if (!tids)
		return 1;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (i = 0; i < n; i++) {
		err = pthread_create(&tids[i], &attr, thread_sleep, &ms);
		if (err) {
			fprintf(stderr, "load-gen: pthread_create: %s\n", strerror(err));
			return 1;
		}
	}
	for (i = 0; i < n; i++)
		pthread_join(tids[i], NULL);
	free(tids);
	return 0;
}

static int burst(long n, int status, char **argv)
{
	long i;

	for (i = 0; i < n; i++) {
		pid_t pid = fork();

		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			execv(argv[0], argv);
			_exit(127);
		}
	}
	return reap_all(n) ? 1 : status;
}

/*
 * A burst the tracer's reader cannot keep up with: at real-time priority
 * the burst and its children (who inherit it) hold both CPUs, and the
 * reader, an ordinary task, runs only in the scheduler's real-time
 * throttling gaps.  At normal priority a reader woken at an eighth of even
 * a 4 KiB buffer drains it between two fork+execs.
 */
static int rt_burst(long n, int status, char **argv)
{
	struct sched_param param = { .sched_priority = 10 };

	if (sched_setscheduler(0, SCHED_FIFO, &param)) {
		perror("sched_setscheduler");
		return 1;
	}
	return burst(n, status, argv);
}

static int exec_args(const char *path)
{
	char *text = NULL, **argv;
	size_t cap = 0, len = 0, argc = 0, i;
	FILE *f = fopen(path, "r");
	ssize_t n;

	if (!f) {
		perror(path);
		return 1;
	}
	n = getdelim(&text, &cap, EOF, f);
	fclose(f);
	if (n <= 0 || text[n - 1] != '\0') {
		fprintf(stderr, "load-gen: %s: expected NUL-terminated args\n", path);
		return 1;
	}
	len = n;
	for (i = 0; i < len; i++)
		argc += text[i] == '\0';
	argv = calloc(argc + 1, sizeof(*argv));
	if (!argv)
		return 1;
	argv[0] = text;
	for (i = 0, argc = 1; i + 1 < len; i++)
		if (text[i] == '\0')
			argv[argc++] = text + i + 1;
	execv(argv[0], argv);
	perror(argv[0]);
	return 127;
}

static int exec_at(const char *dir, const char *rel)
{
	char *argv[] = { (char *)rel, NULL };
	int fd = open(dir, O_PATH | O_DIRECTORY);

	if (fd < 0) {
		perror(dir);
		return 1;
	}
	execveat(fd, rel, argv, environ, 0);
	perror("execveat");
	return 127;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "sleepers"))
		return sleepers(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return threads(atol(argv[2]), atol(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "burst"))
		return burst(atol(argv[2]), atoi(argv[3]), argv + 4);
	if (argc >= 5 && !strcmp(argv[1], "rt-burst"))
		return rt_burst(atol(argv[2]), atoi(argv[3]), argv + 4);
	if (argc == 3 && !strcmp(argv[1], "exec-args"))
		return exec_args(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "execveat"))
		return exec_at(argv[2], argv[3]);
	return usage();
}
