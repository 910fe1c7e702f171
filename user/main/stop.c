// SPDX-License-Identifier: GPL-2.0
#include <signal.h>
#include "main/stop.h"
#include "util/caller_signals.h"

/*
 * Once the command is done, a first SIGINT, SIGTERM or SIGHUP stops the
 * conversion at its next check (replay, merge, before writing): the
 * recording stays, for `convert` later.  A second one kills (SA_RESETHAND).
 * While the command runs these signals are blocked and read by the
 * recorder, so the handler is armed from the start.  One the caller
 * ignores stays ignored (util/caller_signals.h).
 */
static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
}

void stop__arm(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESETHAND };
	int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (!signal_ignored(sigs[i]))
			sigaction(sigs[i], &sa, NULL);
}

volatile sig_atomic_t *stop__flag(void)
{
	return &stop_signal;
}
