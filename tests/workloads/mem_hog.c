// SPDX-License-Identifier: GPL-2.0
/*
 * A known amount of resident memory, for the memory tests.
 *
 *   mem-hog MIB [--hold MS] [-- PROG [ARG...]]
 *
 * Touches MIB MiB of fresh anonymous memory (every page written, so all of
 * it is resident), holds it MS milliseconds, then, with PROG, forks a child
 * that execs PROG while the parent still holds the memory: the child starts
 * as a copy of a large process.  Exits with PROG's status (128+N when it
 * was killed by N), else 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

int main(int argc, char **argv)
{
	long mib, hold_ms = 0;
	int i = 2, status;
	pid_t pid;

	if (argc < 2) {
		fputs("usage: mem-hog MIB [--hold MS] [-- PROG [ARG...]]\n", stderr);
		return 2;
	}
	mib = strtol(argv[1], NULL, 10);
	if (i + 1 < argc && !strcmp(argv[i], "--hold")) {
		hold_ms = strtol(argv[i + 1], NULL, 10);
		i += 2;
	}
	touch(mib);
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
