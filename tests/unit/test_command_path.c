// SPDX-License-Identifier: GPL-2.0
/* How a command's name is looked up in PATH before buildbpf says "not found" or "Permission denied". */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/command_path.h"

static char top[] = "/tmp/bb-launch-XXXXXX";

static void make_file(const char *dir, const char *name)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/%s/%s", top, dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0755);
	cr_assert(fd >= 0, "%s", path);
	close(fd);
}

static void make_dir(const char *dir, mode_t mode)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", top, dir);
	cr_assert(eq(int, mkdir(path, mode), 0), "%s", path);
	cr_assert(eq(int, chmod(path, mode), 0), "%s", path); /* past the umask */
}

static const char *const files[] = { "bin/tool", "locked/hidden" };
static const char *const dirs[] = { "bin/sub", "bin", "locked" };

/* bin/tool, bin/sub/ (a directory), locked/hidden in a directory its owner alone can search. */
static void setup(void)
{
	cr_assert(not(eq(ptr, mkdtemp(top), NULL)));
	cr_assert(eq(int, chmod(top, 0755), 0));
	make_dir("bin", 0755);
	make_file("bin", "tool");
	make_dir("bin/sub", 0755);
	make_dir("locked", 0700);
	make_file("locked", "hidden");
}

static void teardown(void)
{
	char path[256];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, files[i]);
		unlink(path);
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", top, dirs[i]);
		rmdir(path);
	}
	rmdir(top);
}

/* The lookups, as someone other than locked/'s owner: exits 0 when each answers as a shell would. */
static int lookups(void)
{
	char path[1024];

	/* locked/ is searched by no one but its owner: root leaves root, as the command does; others lock it. */
	if (geteuid() == 0 ? setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534)
			   : chmod(strcat(strcpy(path, top), "/locked"), 0))
		return 10;
	snprintf(path, sizeof(path), "/nonexistent:%s/locked:%s/bin", top, top);
	if (!command_path__found("tool", path))
		return 1;
	if (command_path__found("nosuch", path))
		return 2;
	if (command_path__found("sub", path)) /* a directory is not a command */
		return 3;
	if (command_path__found("hidden", path)) /* behind a directory the caller cannot search */
		return 4;
	snprintf(path, sizeof(path), "%s/bin", top);
	if (chdir(path) || !command_path__found("tool", "/nonexistent:")) /* an empty element is the current directory */
		return 5;
	if (command_path__found("tool", "/nonexistent"))
		return 6;
	return 0;
}

Test(command_path, a_name_is_found_only_as_a_file_in_a_searchable_directory, .init = setup, .fini = teardown)
{
	int status;
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (!pid)
		_exit(lookups());
	cr_assert(eq(int, waitpid(pid, &status, 0), pid));
	/* 4: hidden was found behind locked/; 1..6 name the lookup that answered wrong. */
	cr_assert(eq(int, status, 0), "wait status %#x", status);
}
