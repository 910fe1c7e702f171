/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two independent pieces of work at once, on a machine's second CPU: one
 * on a thread of its own, the other on the caller's, both done when
 * run_beside() returns.  The two must share nothing mutable.
 *
 *   run_beside(load, &sides[1], load, &sides[0]);
 */
#ifndef BUILDBPF_RUN_BESIDE_H
#define BUILDBPF_RUN_BESIDE_H

/*
 * Runs beside(beside_arg) on another thread while here(here_arg) runs on
 * this one, and joins it.  The other thread takes no signal: a stop
 * handler runs on the caller's thread, as without it.  When no thread can
 * be made, both run here, here first: a caller need not know.
 */
void run_beside(void (*beside)(void *), void *beside_arg, void (*here)(void *), void *here_arg);

#endif /* BUILDBPF_RUN_BESIDE_H */
