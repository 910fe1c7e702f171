/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How buildbpf ends when the command it ran was killed by a signal.  A
 * shell (and `timeout`) tells Ctrl-C from a failure by how its child died:
 * `buildbpf -- make; echo next` must stop at ^C as `make; echo next` does,
 * so buildbpf dies of the signal its command died of, after its own
 * cleanup, instead of exiting 128+N.
 */
#ifndef BUILDBPF_DIE_OF_SIGNAL_H
#define BUILDBPF_DIE_OF_SIGNAL_H

/*
 * signo is one buildbpf forwards to the command (SIGINT, SIGTERM, SIGHUP,
 * SIGQUIT): flushes stdio, restores the default action, unblocks it and
 * raises it, with core dumps off (SIGQUIT must not leave a core file of
 * buildbpf).  Does not return then.  Returns for 0 and any other signal.
 */
void die_of_signal(int signo);

#endif /* BUILDBPF_DIE_OF_SIGNAL_H */
