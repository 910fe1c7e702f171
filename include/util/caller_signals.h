/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The caller's signals are the caller's.  A signal ignored when buildbpf
 * starts stays ignored, by buildbpf and by the command: nohup asks that of
 * SIGHUP, a shell of SIGINT and SIGQUIT for a job started with `&` in a
 * script, and a POSIX shell keeps such a signal ignored itself (it cannot
 * be trapped or reset).  So buildbpf catches, reads from its signalfd and
 * forwards only the stop signals not ignored at its start; what it
 * changes for itself (SIGPIPE ignored, the stop signals blocked) is given
 * back before the command execs.  The command adds nothing of buildbpf's.
 */
#ifndef BUILDBPF_CALLER_SIGNALS_H
#define BUILDBPF_CALLER_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/* signo's disposition is SIG_IGN now. */
static inline bool signal_ignored(int signo)
{
	struct sigaction sa;

	return !sigaction(signo, NULL, &sa) && sa.sa_handler == SIG_IGN;
}

#endif /* BUILDBPF_CALLER_SIGNALS_H */
