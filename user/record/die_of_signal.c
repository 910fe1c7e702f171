// SPDX-License-Identifier: GPL-2.0
/* Dying of the command's signal: see exit_status.h. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include "record/die_of_signal.h"

void die_of_signal(int signo)
{
	const struct rlimit no_core = { 0, 0 };
	sigset_t only;

	if (signo != SIGINT && signo != SIGTERM && signo != SIGHUP && signo != SIGQUIT)
		return;
	fflush(NULL);
	/* A core of buildbpf says nothing about the build; the command's own
	 * core, if any, was its business.  Not dumpable also stops a piped
	 * core_pattern, which ignores RLIMIT_CORE 0. */
	setrlimit(RLIMIT_CORE, &no_core);
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	signal(signo, SIG_DFL);
	/* The recording blocked it to read it from a signalfd: raised while
	 * blocked it stays pending, and is delivered on the unblock. */
	raise(signo);
	sigemptyset(&only);
	sigaddset(&only, signo);
	sigprocmask(SIG_UNBLOCK, &only, NULL);
}
