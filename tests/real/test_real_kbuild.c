// SPDX-License-Identifier: GPL-2.0
/*
 * A kbuild slice, traced (make test-real-kbuild; too long for make test):
 * Debian's linux-source-6.1 (tests/real/fetch_sources.sh --kbuild), built
 * out of tree as nobody, `make tinyconfig` untraced, then `make -j2 kernel/
 * mm/` under buildbpf --deps=on.  kbuild's own record is the oracle: each
 * object's .cmd file lists the files its compile read (deps_OBJ); those
 * the build generated (in the output tree) must reach that object's
 * compiler as an input flow of the trace.
 *
 * Asserted: the build ran, the trace and summary are valid, every generated
 * input the .cmd files name reached its compile, make's KERNELRELEASE
 * $(shell) calls are told from jobs, and no race is reported.  Printed as
 * "oracle:" lines, for issue 26's items to turn into assertions: the
 * critical path's step to speed up (item 1: never `make obj=kernel`), the
 * -j read (2), the start causes of mm/'s compiles under the shared
 * jobserver (item 3: a job slot held by kernel/'s jobs, not "a slot was
 * free"), the costliest steps' names (item 6: `nm`, `objtool` by operand),
 * and the recall of the generated-header edges of the .cmd files.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/audit_oracle.h"
#include "lib/input_flows.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

TestSuite(real_kbuild, .init = integration_setup, .fini = integration_teardown, .timeout = 3600);

#define MAKE "/usr/bin/make"

enum { MAX_FLOWS = 200000 };

/* The object (e.g. "kernel/fork.o") whose compile process s is part of: its or an ancestor's argv "-o OBJ"; or NULL. */
static const char *object_of(const struct bb_procs *procs, struct json_object *s)
{
	int depth;

	for (depth = 0; s && depth < 8; depth++) {
		struct json_object *argv = bb_arg(s, "argv");
		size_t i;

		for (i = 0; argv && i + 1 < json_object_array_length(argv); i++)
			if (!strcmp(json_object_get_string(json_object_array_get_idx(argv, i)), "-o")) {
				const char *o = json_object_get_string(json_object_array_get_idx(argv, i + 1));
				size_t n = strlen(o);

				if (n > 2 && !strcmp(o + n - 2, ".o"))
					return o;
			}
		s = bb_procs_parent(procs, s);
	}
	return NULL;
}

/* Whether a flow of file (absolute) reached the compile of obj; objs[i]: flow i's reader's object (object_of). */
static bool flow_reached(const struct bb_flow *flows, const char *const *objs, size_t n, const char *file,
			 const char *obj)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (objs[i] && !strcmp(objs[i], obj) && bb_flow_file_is(flows[i].file, file))
			return true;
	return false;
}

struct cmd_recall {
	size_t objects, edges, hits;
};

/*
 * For each `.OBJ.cmd` of dir (relative to out), the generated files its
 * deps_ list names (paths relative to the output tree): edges, and hits
 * those the trace shows reaching the compile of OBJ.
 */
static void cmd_edges(const char *out, const char *dir, const struct bb_flow *flows, const char *const *objs,
		      size_t nr_flows, struct cmd_recall *r)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", out, dir);
	d = opendir(path);
	cr_assert(d != NULL, "no %s", path);
	while ((e = readdir(d))) {
		char obj[PATH_MAX], file[2 * PATH_MAX], *text, *line, *save = NULL;
		size_t n = strlen(e->d_name);
		bool in_deps = false;

		if (e->d_name[0] == '.' && e->d_type == DT_DIR)
			continue;
		if (e->d_type == DT_DIR) {
			snprintf(obj, sizeof(obj), "%s/%s", dir, e->d_name);
			cmd_edges(out, obj, flows, objs, nr_flows, r);
			continue;
		}
		if (e->d_name[0] != '.' || n < 7 || strcmp(e->d_name + n - 6, ".o.cmd"))
			continue;
		snprintf(obj, sizeof(obj), "%s/%.*s", dir, (int)(n - 5), e->d_name + 1);
		snprintf(file, sizeof(file), "%s/%s/%s", out, dir, e->d_name);
		text = bb_file_text(file, NULL);
		r->objects++;
		/* "deps_OBJ := \", then one "  PATH \" a line; a blank line ends it. */
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char dep[PATH_MAX];

			if (!strncmp(line, "deps_", 5)) {
				in_deps = true;
				continue;
			}
			if (!in_deps || line[0] != ' ' || sscanf(line, " %4095s", dep) != 1 || dep[0] == '/' ||
			    dep[0] == '$' || !strcmp(dep, "\\"))
				continue;
			if (line[strspn(line, " ")] == '\0')
				break;
			snprintf(file, sizeof(file), "%s/%s", out, dep);
			r->edges++;
			r->hits += flow_reached(flows, objs, nr_flows, file, obj);
		}
		free(text);
	}
	closedir(d);
}

/*
 * make's $(shell) calls of the slice (model/shell_call.h): the top Makefile
 * exports KERNELRELEASE = $(shell cat include/config/kernel.release), so
 * make runs that `cat` each time it builds a job's environment.  Were it
 * taken for a job, starting a job while filechk renames kernel.release
 * into place would be reported as a race (seen at -j8): each must be
 * flagged, and none a job.  Returns how many of them the trace has.
 */
static size_t release_calls(struct json_object *slices)
{
	size_t i, n = 0;

	for (i = 0; i < json_object_array_length(slices); i++) {
		struct json_object *s = json_object_array_get_idx(slices, i);
		const char *a0 = bb_arg_argv(s, 0), *a2 = a0 ? bb_arg_argv(s, 2) : NULL;

		if (!a2 || strcmp(a0, "/bin/sh") || strncmp(a2, "cat include/config/kernel.release", 33))
			continue;
		cr_assert(bb_arg_flag(s, "make_shell_call"), "not a $(shell) call: %s", json_object_to_json_string(s));
		n++;
	}
	return n;
}

Test(real_kbuild, tinyconfig_kernel_and_mm)
{
	static struct bb_flow flows[MAX_FLOWS];
	static const char *objs[MAX_FLOWS];
	const char *root = getenv("BUILDBPF_REAL_SRC");
	char src[PATH_MAX], out[PATH_MAX], srcarg[PATH_MAX + 8], outarg[PATH_MAX + 8];
	struct json_object *trace, *slices, *summary, *waits;
	struct bb_procs *procs;
	struct cmd_recall recall = { 0 };
	double config_s, load = bb_load_1min();
	size_t nr_flows, i;

	cr_assert(root && *root, "BUILDBPF_REAL_SRC is not set (make test-real-kbuild sets it)");
	snprintf(src, sizeof(src), "%s/linux-source-6.1", root);
	cr_assert(access(src, R_OK) == 0, "no %s: run tests/real/fetch_sources.sh --kbuild %s", src, root);
	snprintf(out, sizeof(out), "%s/out", run.dir);
	cr_assert(eq(int, mkdir(out, 0755), 0));
	bb_give_to_nobody(run.dir);
	bb_give_to_nobody(out);
	/* The cache may be where nobody cannot read (root's home): a copy of hard links, or a copy, readable by all. */
	snprintf(srcarg, sizeof(srcarg), "%s/linux", run.dir);
	free(bb_run_plain(&run, run.dir,
			  (const char *[]){ "/bin/sh", "-c", "cp -al \"$0\" \"$1\" 2>/dev/null || { rm -rf \"$1\" && cp -a \"$0\" \"$1\"; }", src,
					    srcarg, NULL },
			  false, NULL));
	snprintf(outarg, sizeof(outarg), "O=%s", out);
	free(bb_run_plain(&run, run.dir, (const char *[]){ MAKE, "-s", "-C", srcarg, outarg, "tinyconfig", NULL }, true,
			  &config_s));
	bb_run_in(&run,
		  (const char *[]){ "--deps=on", "--summary-json", "s.json", "-o", "t.json", "--", MAKE, "-C", srcarg,
				    outarg, "-j2", "kernel/", "mm/", NULL },
		  (const char *[]){ "SUDO_UID=65534", "SUDO_GID=65534", NULL });
	cr_assert(eq(int, run.status, 0), "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	trace = bb_load_trace(bb_path(&run, "t.json"));
	slices = bb_slices(trace, "process");
	nr_flows = bb_input_flows(trace, slices, flows, MAX_FLOWS);
	/* Each reader's object once: the .cmd files ask about each flow many times. */
	procs = bb_procs_new(slices);
	for (i = 0; i < nr_flows; i++)
		objs[i] = object_of(procs, flows[i].reader);
	bb_procs_free(procs);
	cmd_edges(out, "kernel", flows, objs, nr_flows, &recall);
	cmd_edges(out, "mm", flows, objs, nr_flows, &recall);

	waits = field(summary, "start_waits");
	cr_log_info("oracle: kbuild: make tinyconfig %.1f s untraced; make -j2 kernel/ mm/ %.1f s traced, %zu "
		    "processes, load %.1f before, %.1f after",
		    config_s, bb_num(summary, "wall_ms") / 1000, json_object_array_length(slices), load, bb_load_1min());
	cr_log_info("oracle: kbuild: buildbpf read -j%lld (%s) of the real -j2",
		    int_field(need_field(summary, "jobs"), "requested"), str_field(need_field(summary, "jobs"), "source"));
	cr_log_info("oracle: kbuild: start causes %s", waits ? json_object_to_json_string(waits) : "none");
	cr_log_info("oracle: kbuild: what-if %s",
		    field(summary, "what_if") ? json_object_to_json_string(field(summary, "what_if")) : "none");
	cr_log_info("oracle: kbuild: .cmd files of %zu objects name %zu generated inputs; %zu (%.1f %%) reached the "
		    "compile as an input flow",
		    recall.objects, recall.edges, recall.hits,
		    recall.edges ? 100.0 * (double)recall.hits / (double)recall.edges : 100.0);
	bb_print_critical_path(summary, "kbuild");
	bb_print_costliest(slices, "kbuild", NULL);

	cr_assert(lt(sz, 0, recall.objects), "no .o.cmd file in kernel/ or mm/");
	cr_assert(eq(sz, recall.hits, recall.edges), "kbuild's generated inputs must all be seen");
	cr_assert(ge(sz, release_calls(slices), 1), "make's KERNELRELEASE calls not seen");
	cr_assert(eq(sz, bb_unexplained_races(summary, "kbuild", NULL, 0), 0), "a race in kbuild");
	bb_reliability("linux-source-6.1 tinyconfig, make -j2 kernel/ mm/", "every generated .cmd input seen", trace,
		       "%zu of %zu generated .cmd inputs seen", recall.hits, recall.edges);
	json_object_put(slices);
	json_object_put(trace);
	json_object_put(summary);
}
