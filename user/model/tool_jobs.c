// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "model/make_args.h"
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

/* name=value: e's field of that name, or NULL for a variable no tool here reads. */
static const char **env_field(struct jobs_env *e, const char *word, size_t len)
{
	static const char *const names[] = { "MAKEFLAGS", "CARGO_BUILD_JOBS", "GOFLAGS" };
	const char **fields[] = { &e->makeflags, &e->cargo_build_jobs, &e->goflags };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncmp(word, names[i], len))
			return fields[i];
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

void tool_jobs__of_proc(struct tool_jobs *j, const struct proc_instance *p, const struct jobs_env *env,
			size_t nr_cpus)
{
	static const struct jobs_env none;
	struct jobs_env e = env ? *env : none;
	const struct exec_image *im;
	size_t k;

	memset(j, 0, sizeof(*j));
	if (!p->nr_execs)
		return;
	for (k = 0; k + 1 < p->nr_execs; k++)
		tool_jobs__env_argv(&e, p->execs[k].argv, p->execs[k].argc);
	im = &p->execs[p->nr_execs - 1];
	tool_jobs__from_argv(j, im->argv, im->argc, &e, nr_cpus);
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
