// SPDX-License-Identifier: GPL-2.0
/*
 * A known amount of resident memory, for the memory tests.
 *
 *   mem-hog MIB [--meet DIR N] [--hold MS] [-- PROG [ARG...]]
 *
 * Touches MIB MiB of fresh anonymous memory (every page written, so all of
 * it is resident); with --meet, makes a directory in DIR and waits (60 s
 * at most) until N hogs have: hogs started together then hold their memory at
 * the same time however slowly each touched its own.  Then it holds the
 * memory MS milliseconds and, with PROG, forks a child
 * that execs PROG while the parent still holds the memory: the child starts
 * as a copy of a large process.  Exits with PROG's status (128+N when it
 * was killed by N), else 0.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *touch(long mib)
{
	size_t len = (size_t)mib << 20, off;
	long page = sysconf(_SC_PAGESIZE);
	char *mem;

	if (!len)
		return NULL;
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("mem-hog: mmap");
		exit(2);
	}
	for (off = 0; off < len; off += page)
		mem[off] = 1;
	return mem;
}

/* The entries in dir other than . and ..; -1 when it cannot be read. */
static long entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	long n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/* Makes this hog's directory in dir, then waits until n hogs have (polling every 10 ms, 60 s at most). */
static void meet(const char *dir, long n)
{
	char path[4096];
	int tries;

	/* A directory, not a file: a file the hog wrote would name its step ("mem-hog > DIR/PID"). */
	snprintf(path, sizeof(path), "%s/%d", dir, (int)getpid());
	if (mkdir(path, 0755)) {
		perror("mem-hog: --meet");
		exit(2);
	}
	for (tries = 0; entries(dir) < n; tries++) {
		if (tries >= 6000) {
			fprintf(stderr, "mem-hog: --meet: %ld of %ld hogs in %s after 60 s\n", entries(dir), n, dir);
			exit(2);
		}
		nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
	}
}

int main(int argc, char **argv)
{
	long mib, hold_ms = 0, meet_n = 0;
	const char *meet_dir = NULL;
	int i = 2, status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: mem-hog MIB [--meet DIR N] [--hold MS] [-- PROG [ARG...]]\n", stderr);
		return 2;
	}
	mib = strtol(argv[1], NULL, 10);
	if (i + 2 < argc && !strcmp(argv[i], "--meet")) {
		meet_dir = argv[i + 1];
		meet_n = strtol(argv[i + 2], NULL, 10);
		i += 3;
	}
	if (i + 1 < argc && !strcmp(argv[i], "--hold")) {
		hold_ms = strtol(argv[i + 1], NULL, 10);
		i += 2;
	}
	touch(mib);
	if (meet_dir)
		meet(meet_dir, meet_n);
	if (hold_ms > 0)
		nanosleep(&(struct timespec){ hold_ms / 1000, (hold_ms % 1000) * 1000000 }, NULL);
	if (i >= argc || strcmp(argv[i], "--") || i + 1 >= argc)
		return 0;
	pid = fork();
	if (pid < 0) {
		perror("mem-hog: fork");
		return 2;
	}
	if (pid == 0) {
		execvp(argv[i + 1], argv + i + 1);
		perror("mem-hog: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("mem-hog: waitpid");
		return 2;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
