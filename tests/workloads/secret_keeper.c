// SPDX-License-Identifier: GPL-2.0
/*
 * A process with something to hide, for the security tests.
 *
 *   secret-keeper [--undumpable] DIR TAG
 *
 * With --undumpable it first makes itself not dumpable, as ssh-agent does.
 * Then it touches 64 MiB of fresh memory, writes 1 MiB to DIR/TAG.secret.new
 * (mode 0600: a name its argv does not hold), renames it to DIR/TAG.secret
 * and has a child read it back (a writer -> reader pair, so the file is one
 * --deps records, its rename too).  Installed setuid root with DIR root's 0700, it
 * is a setuid helper reading where the user may not.  Exits 3 when it
 * cannot create the file (setuid not honoured here), else 0.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#define MEM_MIB 64
#define FILE_BYTES (1 << 20)

static void touch_memory(void)
{
	size_t len = (size_t)MEM_MIB << 20;
	long page = sysconf(_SC_PAGESIZE);
	char *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (mem == MAP_FAILED) {
		perror("secret-keeper: mmap");
		exit(2);
	}
	for (size_t off = 0; off < len; off += page)
		mem[off] = 1;
}

static void read_back(const char *path)
{
	static char buf[65536];
	int fd = open(path, O_RDONLY);

	if (fd < 0) {
		perror("secret-keeper: open for reading");
		_exit(2);
	}
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

int main(int argc, char **argv)
{
	static char block[FILE_BYTES];
	char path[4096], fresh[4200];
	int i = 1, fd, status;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "--undumpable")) {
		if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
			perror("secret-keeper: prctl");
			return 2;
		}
		i++;
	}
	if (argc - i != 2) {
		fputs("usage: secret-keeper [--undumpable] DIR TAG\n", stderr);
		return 2;
	}
	touch_memory();
	snprintf(path, sizeof(path), "%s/%s.secret", argv[i], argv[i + 1]);
	snprintf(fresh, sizeof(fresh), "%s.new", path);
	fd = open(fresh, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0) {
		perror("secret-keeper: create");
		return 3;
	}
	memset(block, 's', sizeof(block));
	if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block)) {
		perror("secret-keeper: write");
		return 2;
	}
	close(fd);
	if (rename(fresh, path)) {
		perror("secret-keeper: rename");
		return 2;
	}
	pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		read_back(path);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		return 2;
	return 0;
}
