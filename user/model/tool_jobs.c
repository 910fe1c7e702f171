// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/image_args.h"
#include "model/make_args.h"
#include "model/shell_step.h"
#include "model/shell_words.h"
#include "model/tool_kind.h"
#include "util/base_name.h"
#include "model/tool_jobs.h"

static long make_jobs(struct tool_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env)
{
	long jobs = make_args__jobs(argv, argc);

	j->source = JOBS_ARGUMENT;
	if (!jobs && env->makeflags) {
		jobs = make_args__makeflags_jobs(env->makeflags);
		j->source = JOBS_MAKEFLAGS;
	}
	if (!jobs) {
		jobs = 1;
		j->source = JOBS_TOOL_DEFAULT;
	}
	return jobs;
}

/* cargo reads -j (or --config build.jobs), then $CARGO_BUILD_JOBS, then its config files. */
static long cargo_jobs(struct tool_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env,
		       size_t nr_cpus)
{
	long jobs = make_args__cargo_jobs_value(make_args__cargo_jobs_arg(argv, argc), nr_cpus);

	j->source = JOBS_ARGUMENT;
	if (!jobs && env->cargo_build_jobs) {
		jobs = make_args__cargo_jobs_value(env->cargo_build_jobs, nr_cpus);
		j->source = JOBS_CARGO_BUILD_JOBS;
	}
	if (!jobs && env->cargo_config_jobs) {
		jobs = make_args__cargo_jobs_value(env->cargo_config_jobs, nr_cpus);
		j->source = JOBS_CARGO_CONFIG;
		j->config_file = jobs ? env->cargo_config_file : NULL;
	}
	return jobs;
}

/* go reads -p, then GOFLAGS: $GOFLAGS when set and not empty, else its env file's (cfg.Getenv). */
static long go_jobs(struct tool_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env)
{
	long jobs = make_args__go_jobs(argv, argc);

	j->source = JOBS_ARGUMENT;
	if (jobs)
		return jobs;
	if (env->goflags && *env->goflags) {
		jobs = make_args__goflags_jobs(env->goflags);
		j->source = JOBS_GOFLAGS;
	} else if (env->go_env_goflags) {
		jobs = make_args__goflags_jobs(env->go_env_goflags);
		j->source = JOBS_GO_ENV;
		j->config_file = jobs ? env->go_env_file : NULL;
	}
	return jobs;
}

void tool_jobs__from_argv(struct tool_jobs *j, char *const *argv, size_t argc, const struct jobs_env *env,
			   size_t nr_cpus)
{
	static const struct jobs_env none;
	enum tool_kind kind;
	const char *tool;
	long jobs = 0;

	memset(j, 0, sizeof(*j));
	if (!argc || !argv[0])
		return;
	env = env ? env : &none;
	tool = base_name(argv[0]);
	/* By the exact name: a make of another name may read its options otherwise. */
	kind = tool_kind__lookup(tool);
	if (kind == TOOL_MAKE) {
		jobs = make_jobs(j, argv, argc, env);
	} else if (kind == TOOL_NINJA) {
		jobs = make_args__ninja_jobs(argv, argc);
		j->source = JOBS_ARGUMENT;
		if (!jobs) {
			/* ninja's GuessParallelism() */
			jobs = nr_cpus <= 1 ? 2 : nr_cpus == 2 ? 3 : (long)nr_cpus + 2;
			j->source = JOBS_TOOL_DEFAULT;
		}
	} else if (kind == TOOL_CARGO || kind == TOOL_GO) {
		if (kind == TOOL_CARGO) {
			jobs = cargo_jobs(j, argv, argc, env, nr_cpus);
		} else {
			jobs = go_jobs(j, argv, argc, env);
		}
		if (!jobs) {
			/* Both default to the CPU count (go's -p is GOMAXPROCS). */
			jobs = (long)nr_cpus;
			j->source = JOBS_TOOL_DEFAULT;
		}
	} else {
		return;
	}
	j->jobs = jobs;
	snprintf(j->tool, sizeof(j->tool), "%s", tool);
}

/* The variables a tool here reads a job count from, as jobs_env's fields. */
static const char *const job_variables[] = { "MAKEFLAGS", "CARGO_BUILD_JOBS", "GOFLAGS" };
#define NR_JOB_VARIABLES (sizeof(job_variables) / sizeof(job_variables[0]))

static const char **env_slot(struct jobs_env *e, size_t i)
{
	const char **fields[NR_JOB_VARIABLES] = { &e->makeflags, &e->cargo_build_jobs, &e->goflags };

	return fields[i];
}

/* name=value: e's field of that name, or NULL for a variable no tool here reads. */
static const char **env_field(struct jobs_env *e, const char *word, size_t len)
{
	for (size_t i = 0; i < NR_JOB_VARIABLES; i++)
		if (strlen(job_variables[i]) == len && !strncmp(word, job_variables[i], len))
			return env_slot(e, i);
	return NULL;
}

void tool_jobs__env_argv(struct jobs_env *e, char *const *argv, size_t argc)
{
	const char **field;
	size_t i;

	if (!argc || !argv[0] || strcmp(base_name(argv[0]), "env"))
		return;
	for (i = 1; i < argc && argv[i]; i++) {
		const char *w = argv[i], *eq = strchr(w, '=');

		if (!strcmp(w, "-i") || !strcmp(w, "--ignore-environment") || !strcmp(w, "-")) {
			/* Nothing inherited; cargo's config files are files, still read, but go finds its
			 * env file through HOME (or GOENV, XDG_CONFIG_HOME), gone now. */
			e->makeflags = e->cargo_build_jobs = e->goflags = NULL;
			e->go_env_goflags = e->go_env_file = NULL;
		} else if ((!strcmp(w, "-u") || !strcmp(w, "--unset")) && i + 1 < argc) {
			if ((field = env_field(e, argv[i + 1], strlen(argv[i + 1]))))
				*field = NULL;
			i++;
		} else if (!strcmp(w, "-C") || !strcmp(w, "--chdir") || !strcmp(w, "-S") || !strcmp(w, "--split-string")) {
			i++; /* its argument */
		} else if (!strncmp(w, "--unset=", 8)) {
			if ((field = env_field(e, w + 8, strlen(w + 8))))
				*field = NULL;
		} else if (w[0] == '-') {
			continue; /* -0, -v, --debug: no variable */
		} else if (eq && eq > w) {
			if ((field = env_field(e, w, (size_t)(eq - w))))
				*field = eq + 1;
		} else {
			break; /* the command */
		}
	}
}

struct jobs_env tool_jobs__env_of_log(const struct event_log_info *info)
{
	const struct bbl_jobs_settings *js = &info->jobs_settings;

	return (struct jobs_env){ info->makeflags,	    js->cargo_build_jobs, js->goflags,
				  js->cargo_config_jobs, js->cargo_config_file, js->go_env_goflags,
				  js->go_env_file };
}

/* The values a script gave the job variables, unquoted, for a jobs_env to point at while it is read. */
struct script_values {
	char value[NR_JOB_VARIABLES][256];
};

/* One NAME=value word of a script, applied to e when NAME is a job variable (a value too long: unknown). */
static void script_assign(struct jobs_env *e, struct script_values *v, const char *word)
{
	const char *eq = strchr(word, '=');
	const char **field = eq ? env_field(e, word, (size_t)(eq - word)) : NULL;
	size_t i;

	if (!field)
		return;
	for (i = 0; env_slot(e, i) != field; i++)
		;
	*field = strlen(eq + 1) < sizeof(v->value[i]) ? strcpy(v->value[i], eq + 1) : NULL;
}

/* The assignments at s before a command's name: "NAME=v ... cmd", and bare ones before it ("NAME=v; cmd"). */
static void leading_assignments(struct jobs_env *e, struct script_values *v, const char *s)
{
	for (;;) {
		char *word = NULL;

		s += strspn(s, " \t\n;");
		if (shell_word(&s, &word) || !word || !shell_is_assignment(word)) {
			free(word);
			return;
		}
		script_assign(e, v, word);
		free(word);
	}
}

/*
 * What a shell's -c script sets for its first command named prog (a base
 * name): the job variables it exports before that command, and those
 * assigned before its name.  As far as the shell's words can be followed
 * (model/shell_words.h): past an expansion or a compound command, nothing.
 */
static void script_env(struct jobs_env *e, struct script_values *v, const char *script, const char *prog)
{
	struct shell_cmd cmd = {};
	const char *s = script, *at = script;
	size_t i;

	while (shell_next_command(&s, &cmd) == 1) {
		if (!strcmp(base_name(cmd.words[0]), prog)) {
			leading_assignments(e, v, at);
			break;
		}
		for (i = 1; !strcmp(cmd.words[0], "export") && i < cmd.nr; i++)
			script_assign(e, v, cmd.words[i]);
		at = s;
	}
	shell_cmd__free(&cmd);
}

/* What image im changes of e for what it runs next, next (an `env NAME=VALUE`, a shell's script). */
static void hand_on(struct jobs_env *e, struct script_values *v, const struct exec_image *im,
		    const struct exec_image *next)
{
	const char *script, *file;

	tool_jobs__env_argv(e, im->argv, im->argc);
	shell_operand(im, &script, &file);
	if (script && next->argc && next->argv[0])
		script_env(e, v, script, base_name(next->argv[0]));
}

void tool_jobs__of_proc(struct tool_jobs *j, const struct model *m, size_t proc, const struct jobs_env *env,
			size_t nr_cpus)
{
	static const struct jobs_env none;
	struct jobs_env e = env ? *env : none;
	const struct proc_instance *p = &m->procs[proc];
	size_t path[TOOL_JOBS_MAX_ABOVE + 1], depth = 0, d, k;
	struct script_values v;
	long q;

	memset(j, 0, sizeof(*j));
	if (!p->nr_execs)
		return;
	for (q = (long)proc; q >= 0 && depth < TOOL_JOBS_MAX_ABOVE + 1; q = m->procs[q].parent)
		path[depth++] = (size_t)q;
	/* From the highest: each process's images in turn, then its child on the way to p. */
	for (d = depth; d-- > 0;) {
		const struct proc_instance *x = &m->procs[path[d]], *child = d ? &m->procs[path[d - 1]] : NULL;
		long at = child ? image_index_at(x, child->start_ns) : (long)x->nr_execs - 1;

		for (k = 0; at >= 0 && k < (size_t)at; k++)
			hand_on(&e, &v, &x->execs[k], &x->execs[k + 1]);
		if (child && at >= 0 && child->nr_execs)
			hand_on(&e, &v, &x->execs[at], &child->execs[0]);
	}
	tool_jobs__from_argv(j, p->execs[p->nr_execs - 1].argv, p->execs[p->nr_execs - 1].argc, &e, nr_cpus);
}

const char *tool_jobs__source_text(enum tool_jobs_source source)
{
	switch (source) {
	case JOBS_ARGUMENT:
		return "from the command";
	case JOBS_MAKEFLAGS:
		return "from MAKEFLAGS";
	case JOBS_TOOL_DEFAULT:
		return "its default";
	case JOBS_CARGO_BUILD_JOBS:
		return "from CARGO_BUILD_JOBS";
	case JOBS_CARGO_CONFIG:
		return "from cargo's config";
	case JOBS_GOFLAGS:
		return "from GOFLAGS";
	case JOBS_GO_ENV:
		return "from go env";
	default:
		return "unknown";
	}
}
