// SPDX-License-Identifier: GPL-2.0
/* What a shell runs (include/model/shell_step.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/name_text.h"
#include "model/paths.h"
#include "model/shell_step.h"

/* Commands of a "sh -c" script that set up (or wait) rather than do the step:
 * "sleep 0.5; cc -o prog …" is the cc, not the sleep. */
static const char *const script_preludes[] = {
	":", "true", "set", "trap", "echo", "printf", "export", "umask", "test", "[", "sleep",
};

/* Of them, those that show nothing: a script of only these runs no command at all. */
static const char *const silent_preludes[] = { ":", "true", "set", "trap", "export", "umask" };

/* A shell option cluster that includes -c: "-c", "-ec", "-xc". */
static bool is_dash_c(const char *arg)
{
	const char *p;

	if (arg[0] != '-' || arg[1] == '-' || arg[1] == '\0')
		return false;
	for (p = arg + 1; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return false;
	}
	return strchr(arg + 1, 'c') != NULL;
}

void shell_operand(const struct exec_image *img, const char **script, const char **file)
{
	size_t i;

	*script = *file = NULL;
	for (i = 1; i < img->argc; i++) {
		const char *arg = img->argv[i];

		if (!arg)
			return;
		if (is_dash_c(arg)) {
			if (i + 1 < img->argc)
				*script = img->argv[i + 1];
			return;
		}
		if (!strcmp(arg, "-o") || !strcmp(arg, "+o") || !strcmp(arg, "-O") || !strcmp(arg, "+O")) {
			i++;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (i + 1 < img->argc)
				*file = img->argv[i + 1];
			return;
		}
		if (arg[0] != '-' && arg[0] != '+') {
			*file = arg;
			return;
		}
	}
}

const char *shell_configure_script(const struct exec_image *img)
{
	const char *script, *file, *base;
	size_t len;

	if (image_tool(img) != TOOL_SHELL)
		return NULL;
	shell_operand(img, &script, &file);
	if (!file)
		return NULL;
	base = path_basename(file, &len);
	return len == strlen("configure") && !strncmp(base, "configure", len) ? file : NULL;
}

int shell_script_step(const char *script, char **dir, struct shell_cmd *cmd, const char **rest, bool *silent)
{
	const char *p = script, *shown = NULL;
	int found;

	*silent = true;
	for (;;) {
		const char *name;

		/* Separators and blanks before a command are no part of it. */
		*rest = p + strspn(p, " \t\n;&|");
		found = shell_next_command(&p, cmd);
		if (found != 1)
			break;
		name = cmd->words[0];

		if (!strcmp(name, "cd")) {
			char *next;

			if (cmd->nr < 2 || !strcmp(cmd->words[1], "-"))
				return -EINVAL; /* home or back: not a directory we know */
			next = path_dir_resolve(*dir, cmd->words[1]);
			if (!next)
				return -ENOMEM;
			free(*dir);
			*dir = next;
			continue;
		}
		if (!NAME_IN_LIST(name, script_preludes))
			return 1;
		if (!shown && !NAME_IN_LIST(name, silent_preludes))
			shown = *rest;
		*silent = *silent && !shown;
	}
	if (found == 0)
		*rest = shown ? shown : script;
	return found;
}

/* The one file of action when it is "rm -f FILE", else NULL (malloc'd).  0 or -ENOMEM. */
static int removed_file(const char *action, char **file)
{
	struct shell_cmd cmd = { 0 };
	int found = shell_next_command(&action, &cmd);

	*file = NULL;
	if (found == 1 && cmd.nr == 3 && !strcmp(cmd.words[0], "rm") && !strcmp(cmd.words[1], "-f")) {
		*file = strdup(cmd.words[2]);
		found = *file ? 1 : -ENOMEM;
	}
	shell_cmd__free(&cmd);
	return found == -ENOMEM ? found : 0;
}

int shell_trap_target(const char *script, char **target)
{
	struct shell_cmd cmd = { 0 };
	int err = 0;

	*target = NULL;
	while (shell_next_command(&script, &cmd) == 1) {
		if (!strcmp(cmd.words[0], "trap")) {
			/* "trap ACTION SIGNAL…": only an action names a file. */
			if (cmd.nr >= 3)
				err = removed_file(cmd.words[1], target);
			break;
		}
		if (!NAME_IN_LIST(cmd.words[0], script_preludes))
			break;
	}
	shell_cmd__free(&cmd);
	return err;
}

/* What marks automake's recursive rule: its loop, and the cd each of its makes runs after. */
#define SUBDIR_LOOP "for subdir in $list; do"
#define SUBDIR_CD "cd $subdir && "
#define SUBDIR_LIST "list='"

/*
 * The directories of automake's loop in script: the value of its list=
 * assignments (one per case of the target: all alike, else unknown), in
 * *len bytes.  NULL when it has none.
 */
static const char *subdir_list(const char *script, size_t *len)
{
	const char *list = NULL, *at = script, *end;

	if (!strstr(script, SUBDIR_LOOP) || !strstr(script, SUBDIR_CD))
		return NULL;
	while ((at = strstr(at, SUBDIR_LIST))) {
		at += strlen(SUBDIR_LIST);
		end = strchr(at, '\'');
		if (!end || (list && ((size_t)(end - at) != *len || memcmp(at, list, *len))))
			return NULL;
		list = at;
		*len = (size_t)(end - at);
		at = end;
	}
	return list;
}

int shell_loop_subdir(const char *script, size_t k, char **subdir)
{
	size_t len, n;
	const char *list = subdir_list(script, &len), *end;

	*subdir = NULL;
	for (end = list ? list + len : NULL; list && list < end; list += n) {
		list += strspn(list, " \t\n");
		n = strcspn(list, " \t\n'");
		if (n && !k--) {
			/* A word the shell would expand is no directory we know. */
			if (memchr(list, '$', n) || memchr(list, '`', n))
				return 0;
			*subdir = strndup(list, n);
			return *subdir ? 0 : -ENOMEM;
		}
		if (!n)
			break;
	}
	return 0;
}
