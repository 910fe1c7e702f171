// SPDX-License-Identifier: GPL-2.0
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include "util/run_beside.h"

struct beside {
	void (*fn)(void *);
	void *arg;
};

static void *run(void *p)
{
	const struct beside *b = p;

	b->fn(b->arg);
	return NULL;
}

void run_beside(void (*beside)(void *), void *beside_arg, void (*here)(void *), void *here_arg)
{
	struct beside b = { beside, beside_arg };
	sigset_t all, was;
	pthread_t thread;
	bool started;

	/* A new thread starts with its creator's mask: every signal blocked there, the caller's own back here. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &was);
	started = !pthread_create(&thread, NULL, run, &b);
	pthread_sigmask(SIG_SETMASK, &was, NULL);
	here(here_arg);
	if (started)
		pthread_join(thread, NULL);
	else
		beside(beside_arg);
}
