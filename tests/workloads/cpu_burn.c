// SPDX-License-Identifier: GPL-2.0
/*
 * A CPU-bound workload for the scheduler integration tests: N threads that
 * each burn SECONDS of their own CPU time (not wall time), so with more
 * threads than CPUs they must wait in the run queue.
 *
 *   cpu-burn THREADS SECONDS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double thread_cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *burn(void *arg)
{
	double seconds = *(const double *)arg;
	volatile unsigned long sink = 0;

	while (thread_cpu_seconds() < seconds)
		for (int i = 0; i < 100000; i++)
			sink += i;
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t threads[256];
	double seconds;
	int n, i;

	if (argc != 3 || (n = atoi(argv[1])) < 1 || n > 256 || (seconds = atof(argv[2])) <= 0) {
		fprintf(stderr, "usage: cpu-burn THREADS SECONDS\n");
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&threads[i], NULL, burn, &seconds)) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(threads[i], NULL);
	return 0;
}
