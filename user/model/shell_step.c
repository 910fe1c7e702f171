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

/* How automake's recursive rule says its own target: "target=`echo all-recursive | sed s/-recursive//`". */
#define RECURSIVE_TARGET "target=`echo "
#define RECURSIVE_SUFFIX "-recursive"

int shell_recursive_target(const char *script, char **target)
{
	const char *at = subdir_list(script, &(size_t){ 0 }) ? strstr(script, RECURSIVE_TARGET) : NULL;
	size_t n;

	*target = NULL;
	if (!at)
		return 0;
	at += strlen(RECURSIVE_TARGET);
	n = strcspn(at, " `|;\n");
	/* make substituted $@: a word of its own that ends in -recursive, nothing left to expand. */
	if (n <= strlen(RECURSIVE_SUFFIX) || strncmp(at + n - strlen(RECURSIVE_SUFFIX), RECURSIVE_SUFFIX,
						     strlen(RECURSIVE_SUFFIX)) || memchr(at, '$', n))
		return 0;
	*target = strndup(at, n);
	return *target ? 0 : -ENOMEM;
}

/* What marks kbuild's try-run (scripts/Makefile.compiler) and Kconfig's cc-option: a scratch .tmp_$$ directory. */
#define PROBE_TMP ".tmp_$$"
#define PROBE_ECHO "then echo \""

/* The words of s[0, len) without the blanks around them, malloc'd; NULL when none (or without memory: *err). */
static char *trimmed(const char *s, size_t len, int *err)
{
	char *out;

	while (len && strchr(" \t\n", *s)) {
		s++;
		len--;
	}
	while (len && strchr(" \t\n", s[len - 1]))
		len--;
	if (!len)
		return NULL;
	out = strndup(s, len);
	*err = out ? 0 : -ENOMEM;
	return out;
}

/*
 * The option kbuild's try-run echoes when the compile works ("then echo
 * \"-fno-PIE\""), which is the one it probes, or what Kconfig's cc-option
 * gives the compiler between -Werror and its "-c -x c /dev/null".
 */
static char *probed_option(const char *script, int *err)
{
	const char *at = strstr(script, PROBE_ECHO), *end, *stop;
	size_t n;

	if (at) {
		at += strlen(PROBE_ECHO);
		end = strchr(at, '"');
		if (end && memchr(at, '-', (size_t)(end - at)))
			return trimmed(at, (size_t)(end - at), err);
	}
	at = strstr(script, "-Werror ");
	if (!at)
		return NULL;
	at += strlen("-Werror ");
	end = at + strcspn(at, ";|&)}"); /* the compile's command: an option may name /dev/null too */
	/* The option ends where the compile's own words start: -c or -S, then -x LANG /dev/null. */
	for (stop = at; stop < end; stop += n) {
		stop += strspn(stop, " ");
		n = strcspn(stop, " ");
		if (n == 2 && stop[0] == '-' && strchr("cSx", stop[1]))
			return trimmed(at, (size_t)(stop - at), err);
	}
	return NULL;
}

int shell_kbuild_probe(const char *script, const char **kind, char **option)
{
	int err = 0;

	*kind = NULL;
	*option = NULL;
	if (!strstr(script, PROBE_TMP) || !strstr(script, "/dev/null") || !(*option = probed_option(script, &err)))
		return err;
	if (strstr(script, "-x assembler"))
		*kind = "as-option";
	else
		*kind = strstr(script, "-x c ") ? "cc-option" : "try-run";
	return 0;
}
