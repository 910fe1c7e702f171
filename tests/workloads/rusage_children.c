// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle for CPU time: runs a command, waits for it, and prints what
 * the kernel charged the whole tree to its waiting parent
 * (getrusage(RUSAGE_CHILDREN): every descendant reaped down the chain), as
 * the tests compare buildbpf's per-process figures with it.
 *
 *   rusage-children PROG [ARG...]
 *
 * Prints one line on stdout, "USER_US SYS_US BUSY_US SELF_US WALL_US", after the
 * command's own output, and exits with the command's status (128+N if
 * killed by N).  BUSY_US is the CPU time the whole machine was not idle
 * while the command ran (wall x online CPUs less /proc/stat's idle and
 * iowait, which a tickless kernel keeps exactly rather than by sampling
 * ticks); SELF_US is the wrapper's own CPU time.  BUSY_US less the other
 * two is what ran outside the command's tree meanwhile, WALL_US long.
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
#include <time.h>
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
	/* No munmap, no exit handlers: the kernel tears what it touched down in exit. */
	_exit(0);
}

static long long now_us(void)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec * 1000000LL + now.tv_nsec / 1000;
}

/* Wall time x CPUs less idle time, in us, at *wall_us (CLOCK_MONOTONIC, nohz idle time's clock). */
static long long machine_not_idle_us(long long *wall_us)
{
	unsigned long long user, nice, system, idle, iowait;
	FILE *f = fopen("/proc/stat", "r");
	int n = 0;

	*wall_us = now_us();
	if (f) {
		n = fscanf(f, "cpu %llu %llu %llu %llu %llu", &user, &nice, &system, &idle, &iowait);
		fclose(f);
	}
	if (n != 5)
		return 0;
	return *wall_us * sysconf(_SC_NPROCESSORS_ONLN) - (long long)(idle + iowait) * 1000000 / sysconf(_SC_CLK_TCK);
}

static long long tv_us(struct timeval tv)
{
	return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv)
{
	struct rusage ru, self;
	long long busy_us, start_us, end_us;
	int status;
	pid_t pid;

	if (argc == 3 && !strcmp(argv[1], "--touch"))
		return touch(atol(argv[2]));
	if (argc < 2) {
		fprintf(stderr, "usage: rusage-children PROG [ARG...] | --touch MIB\n");
		return 2;
	}
	busy_us = machine_not_idle_us(&start_us);
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
	busy_us = machine_not_idle_us(&end_us) - busy_us;
	getrusage(RUSAGE_CHILDREN, &ru);
	getrusage(RUSAGE_SELF, &self);
	printf("%lld %lld %lld %lld %lld\n", tv_us(ru.ru_utime), tv_us(ru.ru_stime), busy_us,
	       tv_us(self.ru_utime) + tv_us(self.ru_stime), end_us - start_us);
	fflush(stdout);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
