// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle for CPU time: runs a command, waits for it, and prints what
 * the kernel charged the whole tree to its waiting parent
 * (getrusage(RUSAGE_CHILDREN): every descendant reaped down the chain), as
 * the tests compare buildbpf's per-process figures with it.
 *
 *   rusage-children PROG [ARG...]
 *
 * Prints one line on stdout, "USER_US SYS_US", after the command's own
 * output, and exits with the command's status (128+N if killed by N).
 *
 *   rusage-children --touch MIB
 *       touches MIB MiB of fresh memory, then _exit()s: most of its CPU
 *       time is the address space's teardown, after the exit began
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static int touch(long mib)
{
	size_t len = (size_t)mib << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		perror("rusage-children: mmap");
		return 1;
	}
	for (size_t off = 0; off < len; off += page)
		mem[off] = 1;
	/* No munmap, no exit handlers: the kernel tears the 2 GiB down in exit. */
	_exit(0);
}

int main(int argc, char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--touch"))
		return touch(atol(argv[2]));
	if (argc < 2) {
		fprintf(stderr, "usage: rusage-children PROG [ARG...] | --touch MIB\n");
		return 2;
	}
	pid = fork();
	if (pid < 0) {
		perror("rusage-children: fork");
		return 1;
	}
	if (pid == 0) {
		execvp(argv[1], argv + 1);
		perror("rusage-children: exec");
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid) {
		perror("rusage-children: waitpid");
		return 1;
	}
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("%lld %lld\n", (long long)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec,
	       (long long)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec);
	fflush(stdout);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
