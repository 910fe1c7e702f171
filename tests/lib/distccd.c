// SPDX-License-Identifier: GPL-2.0
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include "distccd.h"
#include "integration.h"

#define DISTCCD_BIN "/usr/bin/distccd"
#define DISTCCD_UP_MS 10000
#define DISTCCD_STOP_MS 5000

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static struct sockaddr_in loopback(int port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(port) };

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	return a;
}

/*
 * A port free on 127.0.0.1 now (the kernel's pick for port 0).  Another
 * process may take it before distccd binds: the caller retries then.
 */
static int free_port(void)
{
	struct sockaddr_in a = loopback(0);
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	cr_assert_geq(fd, 0, "socket: %s", strerror(errno));
	cr_assert_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0, "bind 127.0.0.1:0: %s", strerror(errno));
	cr_assert_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	close(fd);
	return ntohs(a.sin_port);
}

static bool accepts(int port)
{
	struct sockaddr_in a = loopback(port);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	bool ok;

	if (fd < 0)
		return false;
	ok = connect(fd, (struct sockaddr *)&a, sizeof(a)) == 0;
	close(fd);
	return ok;
}

/*
 * One attempt on d->port: true once it accepts, false when distccd exited
 * (the port was taken meanwhile).  The test fails on a timeout.
 */
static bool try_start(struct bb_distccd *d)
{
	char port[16], log_opt[128], tmpdir[80];
	const char *argv[] = { DISTCCD_BIN, "--daemon", "--no-detach", "--listen", "127.0.0.1", "--allow", "127.0.0.1",
			       "--port", port, "--user", "nobody", "--jobs", "2", "--log-level=info", log_opt, NULL };
	long long deadline;
	int status;

	snprintf(port, sizeof(port), "%d", d->port);
	snprintf(log_opt, sizeof(log_opt), "--log-file=%s", d->log);
	snprintf(tmpdir, sizeof(tmpdir), "TMPDIR=%s", d->dir);
	d->pid = fork();
	cr_assert_geq(d->pid, 0);
	if (d->pid == 0) {
		/*
		 * Its own session: on SIGTERM distccd kills its process group
		 * (kill(0, ...)), which must not be the test runner's.
		 */
		setsid();
		if (putenv(tmpdir))
			_exit(99);
		execv(argv[0], (char *const *)argv);
		_exit(98);
	}
	deadline = now_ms() + DISTCCD_UP_MS;
	while (!accepts(d->port)) {
		pid_t got = waitpid(d->pid, &status, WNOHANG);

		if (got == d->pid) {
			char *log = bb_distccd_log(d);

			cr_log_warn("distccd on port %d exited (%#x): %s", d->port, status, log);
			free(log);
			d->pid = 0;
			return false;
		}
		cr_assert(now_ms() < deadline, "distccd did not accept on %s within %d ms; its log: %s", d->hosts,
			  DISTCCD_UP_MS, bb_distccd_log(d));
		usleep(10 * 1000);
	}
	return true;
}

void bb_distccd_start(struct bb_distccd *d)
{
	int fd;

	memset(d, 0, sizeof(*d));
	cr_assert(access(DISTCCD_BIN, X_OK) == 0, DISTCCD_BIN " is not installed (apt-get install distcc; make test-deps)");
	snprintf(d->dir, sizeof(d->dir), "/tmp/buildbpf-distccd.XXXXXX");
	cr_assert_not_null(mkdtemp(d->dir));
	cr_assert_eq(chmod(d->dir, 0755), 0);
	/* distccd refuses to run as root: it writes here as nobody. */
	bb_give_to_nobody(d->dir);
	snprintf(d->log, sizeof(d->log), "%s/distccd.log", d->dir);
	fd = open(d->log, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	cr_assert_geq(fd, 0, "%s: %s", d->log, strerror(errno));
	cr_assert_eq(fchown(fd, BB_NOBODY_ID, BB_NOBODY_ID), 0);
	close(fd);
	for (int attempt = 0; attempt < 3; attempt++) {
		d->port = free_port();
		snprintf(d->hosts, sizeof(d->hosts), "127.0.0.1:%d", d->port);
		if (try_start(d))
			return;
	}
	cr_assert_fail("distccd would not start on a free port; its log: %s", bb_distccd_log(d));
}

void bb_distccd_stop(struct bb_distccd *d)
{
	char cmd[128];
	long long deadline;

	if (d->pid > 0) {
		siginfo_t info;

		kill(d->pid, SIGTERM);
		deadline = now_ms() + DISTCCD_STOP_MS;
		/* WNOWAIT: unreaped, its pid (and so its group's id) stays its own. */
		do {
			info.si_pid = 0;
			if (waitid(P_PID, d->pid, &info, WEXITED | WNOHANG | WNOWAIT) || info.si_pid)
				break;
			usleep(10 * 1000);
		} while (now_ms() < deadline);
		/* Its session is its own (setsid): this reaches only it and its children. */
		kill(-d->pid, SIGKILL);
		waitpid(d->pid, NULL, 0);
		d->pid = 0;
	}
	if (d->dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", d->dir);
		if (system(cmd) != 0)
			cr_log_warn("could not remove %s", d->dir);
		d->dir[0] = '\0';
	}
}

char *bb_distccd_log(const struct bb_distccd *d)
{
	char *text = bb_read_file(d->log, NULL);

	return text ? text : strdup("");
}
