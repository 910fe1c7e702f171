/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a run is stopped: the first SIGINT, SIGTERM or SIGHUP sets a flag
 * that every mode checks at its next step (replay, merge, before
 * writing); a second one kills.
 */
#ifndef BUILDBPF_MAIN_STOP_H
#define BUILDBPF_MAIN_STOP_H

#include <signal.h>

/* Arms the handler for the three signals. */
void stop__arm(void);
/* The flag: the signal that asked to stop; 0: none. */
volatile sig_atomic_t *stop__flag(void);

#endif /* BUILDBPF_MAIN_STOP_H */
