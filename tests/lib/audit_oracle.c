// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include "lib/audit_oracle.h"
#include "lib/json_fields.h"

enum { COSTLIEST = 10, NR_SHELLS = 3 };

double bb_num(struct json_object *obj, const char *key)
{
	return json_object_get_double(need_field(obj, key));
}

double bb_percent(size_t part, size_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 100.0;
}

double bb_error_pct(double predicted, double measured)
{
	return measured > 0 ? 100.0 * (predicted - measured) / measured : 0;
}

double bb_load_1min(void)
{
	char *text = bb_file_text("/proc/loadavg", NULL);
	double load = atof(text);

	free(text);
	return load;
}

const char *bb_runner_or_wrapper(const char *name)
{
	static const char *const runners[] = { "make", "gmake", "ninja", "samu" };
	/* The shells first (NR_SHELLS of them). */
	static const char *const wrappers[] = { "sh", "bash", "dash", "cc", "gcc", "c++", "g++", "clang",
						"collect2", "taskset", "env" };
	size_t n = strcspn(name, " "), i;

	for (i = 0; i < sizeof(runners) / sizeof(*runners); i++)
		if (strlen(runners[i]) == n && !strncmp(name, runners[i], n))
			return "a runner";
	for (i = 0; i < sizeof(wrappers) / sizeof(*wrappers); i++)
		if (strlen(wrappers[i]) == n && !strncmp(name, wrappers[i], n))
			/* A shell running a script (bash configure) is the script's work; sh -c CMD wraps CMD. */
			return i < NR_SHELLS && strncmp(name + n, " -c", 3) ? NULL : "a wrapper";
	return NULL;
}

static double held_ms(struct json_object *step)
{
	return bb_num(step, "path_to_ms") - bb_num(step, "path_from_ms");
}

size_t bb_print_critical_path(struct json_object *summary, const char *build)
{
	struct json_object *chain = need_field(need_field(summary, "critical_chain"), "processes");
	double wall = bb_num(summary, "wall_ms"), best = -1;
	size_t i, n = json_object_array_length(chain), named = 0;
	const char *longest = "-";

	for (i = 0; i < n; i++) {
		struct json_object *s = json_object_array_get_idx(chain, i);
		const char *name = str_field(s, "name"), *kind = bb_runner_or_wrapper(name);
		struct json_object *step = field(s, "step");

		/* A part held by no job (the runner's own, its order, a slot wait) is no step: the audit names none. */
		if (held_ms(s) > best && !(step && !json_object_get_boolean(step))) {
			best = held_ms(s);
			longest = name;
		}
		if (kind && held_ms(s) * 100 >= wall) {
			named++;
			cr_log_info("oracle: %s: critical step %s is %s, held %.0f ms (%.0f %% of the wall)", build, name,
				    kind, held_ms(s), 100 * held_ms(s) / wall);
		}
	}
	cr_log_info("oracle: %s: critical path of %zu steps; its longest (the step to speed up): %s %.0f ms "
		    "(%.0f %% of the wall)%s%s",
		    build, n, longest, best, wall > 0 ? 100 * best / wall : 0, bb_runner_or_wrapper(longest) ? ", " : "",
		    bb_runner_or_wrapper(longest) ? bb_runner_or_wrapper(longest) : "");
	return named;
}

/* A process slice's CPU time, ms. */
static double cpu_ms(struct json_object *slice)
{
	return bb_arg_double(slice, "cpu_user_ms") + bb_arg_double(slice, "cpu_sys_ms");
}

static int by_cpu(const void *x, const void *y)
{
	double a = cpu_ms(*(struct json_object *const *)x), b = cpu_ms(*(struct json_object *const *)y);

	return (a < b) - (a > b);
}

size_t bb_print_costliest(struct json_object *slices, const char *build, const struct bb_ninja_graph *g)
{
	size_t n = json_object_array_length(slices), i, k, shown = n < COSTLIEST ? n : COSTLIEST, repeats = 0;
	struct json_object **sorted = calloc(n ? n : 1, sizeof(*sorted));

	cr_assert(sorted != NULL);
	for (i = 0; i < n; i++)
		sorted[i] = json_object_array_get_idx(slices, i);
	qsort(sorted, n, sizeof(*sorted), by_cpu);
	for (i = 0; i < shown; i++) {
		const char *name = json_object_get_string(need_field(sorted[i], "name"));
		int step = g ? bb_ninja_step_of(g, sorted[i]) : -1;
		bool repeated = false;

		for (k = 0; k < i && !repeated; k++)
			repeated = !strcmp(name, json_object_get_string(need_field(sorted[k], "name")));
		repeats += repeated;
		cr_log_info("oracle: %s: costliest #%zu %s: %.0f ms CPU%s%s%s", build, i + 1, name, cpu_ms(sorted[i]),
			    step >= 0 ? ", ninja step " : "", step >= 0 ? g->steps[step].names[0] : "",
			    repeated ? " (same name as a costlier one)" : "");
	}
	cr_log_info("oracle: %s: %zu of the %zu costliest steps share a costlier one's name", build, repeats, shown);
	free(sorted);
	return repeats;
}

/* Whether path is file, or ends in "/" file (a file outside the build directory is named absolute). */
static bool names_file(const char *path, const char *file)
{
	size_t p = strlen(path), f = strlen(file);

	return p >= f && !strcmp(path + p - f, file) && (p == f || path[p - f - 1] == '/');
}

static bool is_known(struct json_object *race, const struct bb_known_race *known, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names_file(str_field(race, "file"), known[i].file) && str_field_is(race, "kind", known[i].kind))
			return true;
	return false;
}

size_t bb_unexplained_races(struct json_object *summary, const char *build, const struct bb_known_race *known,
			    size_t n)
{
	struct json_object *races = need_field(summary, "races");
	size_t i, unexplained = 0;

	for (i = 0; i < json_object_array_length(races); i++) {
		struct json_object *x = json_object_array_get_idx(races, i);
		bool ok = is_known(x, known, n);

		unexplained += !ok;
		cr_log_info("oracle: %s: race %s %s (%s): %s", build, str_field(x, "kind"), str_field(x, "file"),
			    ok ? "known" : "UNEXPLAINED", str_field(x, "advice"));
	}
	cr_log_info("oracle: %s: %zu races, %zu unexplained", build, json_object_array_length(races), unexplained);
	return unexplained;
}

struct json_object *bb_whatif_row(struct json_object *summary, long long jobs, long long cpus)
{
	struct json_object *w = field(summary, "what_if"), *rows = w ? field(w, "rows") : NULL, *as_run = NULL;
	size_t i;

	for (i = 0; rows && i < json_object_array_length(rows); i++) {
		struct json_object *r = json_object_array_get_idx(rows, i), *quiet = field(r, "quiet");

		if (json_object_get_int64(field(r, "jobs")) != jobs || json_object_get_int64(field(r, "cpus")) != cpus)
			continue;
		if (!quiet || json_object_get_boolean(quiet))
			return r;
		as_run = r;
	}
	return as_run;
}
