/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A real distcc compile server for the integration suites: Debian's
 * distccd, listening on 127.0.0.1 only, on a free port, as nobody.  All
 * test traffic stays on loopback.
 */
#ifndef BUILDBPF_TESTS_DISTCCD_H
#define BUILDBPF_TESTS_DISTCCD_H

#include <sys/types.h>

struct bb_distccd {
	pid_t pid;        /* the listening distccd (--no-detach: our child, leader of its own session) */
	int port;         /* on 127.0.0.1 */
	char hosts[32];   /* "127.0.0.1:PORT", for DISTCC_HOSTS */
	char dir[64];     /* its own directory, nobody's: the log, TMPDIR of its compiles */
	char log[96];     /* its log file (--log-level=info) in dir */
};

/*
 * Starts distccd (--daemon --no-detach --listen 127.0.0.1 --allow
 * 127.0.0.1 --user nobody) and returns once it accepts connections.  The
 * test fails, with the reason, when distccd is not installed (apt-get
 * install distcc) or does not come up within 10 s.
 */
void bb_distccd_start(struct bb_distccd *d);
/*
 * Stops it (SIGTERM, then SIGKILL to its whole session after 5 s), reaps
 * it and removes its directory.  Accepts a server never started (pid 0).
 */
void bb_distccd_stop(struct bb_distccd *d);
/* Its log so far (malloc'd, "" when empty). */
char *bb_distccd_log(const struct bb_distccd *d);

#endif /* BUILDBPF_TESTS_DISTCCD_H */
