/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two pieces of work at once (util/run_beside.h): one on a thread of its
 * own that takes no signal, one on the caller's, both done on return.
 */
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/run_beside.h"

struct work {
	bool ran;
	pthread_t thread;
	bool int_blocked, term_blocked;
};

static void note(void *arg)
{
	struct work *w = arg;
	sigset_t mask;

	w->ran = true;
	w->thread = pthread_self();
	pthread_sigmask(SIG_BLOCK, NULL, &mask);
	w->int_blocked = sigismember(&mask, SIGINT) == 1;
	w->term_blocked = sigismember(&mask, SIGTERM) == 1;
}

Test(run_beside, one_on_its_own_thread_deaf_to_signals_the_other_here)
{
	struct work beside = { 0 }, here = { 0 };
	sigset_t stops, after;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &stops, NULL);
	run_beside(note, &beside, note, &here);
	cr_assert(eq(int, beside.ran, true));
	cr_assert(eq(int, here.ran, true));
	cr_assert(not(eq(int, pthread_equal(here.thread, pthread_self()), 0)), "here runs on the caller's thread");
	cr_assert(eq(int, pthread_equal(beside.thread, pthread_self()), 0), "beside runs on a thread of its own");
	/* A stop signal's handler runs on the caller's thread: the other blocks them. */
	cr_assert(eq(int, beside.int_blocked, true));
	cr_assert(eq(int, beside.term_blocked, true));
	cr_assert(eq(int, here.int_blocked, false));
	cr_assert(eq(int, here.term_blocked, false));
	pthread_sigmask(SIG_BLOCK, NULL, &after);
	cr_assert(eq(int, sigismember(&after, SIGINT), 0), "the caller's mask is given back");
}
