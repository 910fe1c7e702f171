// SPDX-License-Identifier: GPL-2.0
/* A go build's -debug-actiongraph read back: lib/go_actiongraph.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/go_actiongraph.h"
#include "lib/json_fields.h"

/* The -o of the compile among an action's commands ("/compile " then words split at blanks), into out. */
static void compile_output(struct json_object *cmds, char *out, size_t size)
{
	size_t i;

	*out = '\0';
	for (i = 0; cmds && i < json_object_array_length(cmds); i++) {
		const char *cmd = json_object_get_string(json_object_array_get_idx(cmds, i));
		const char *tool = strstr(cmd, "/compile "), *o;

		if (!tool || tool > strchr(cmd, ' '))
			continue;
		o = strstr(tool, " -o ");
		cr_assert(not(eq(ptr, (void *)o, NULL)), "a compile without -o: %s", cmd);
		o += strlen(" -o ");
		snprintf(out, size, "%.*s", (int)strcspn(o, " "), o);
		return;
	}
}

static void read_action(struct bb_go_action *a, struct json_object *o)
{
	struct json_object *deps = field(o, "Deps"), *objdir = field(o, "Objdir"), *cmds = field(o, "Cmd");
	size_t k;

	a->id = (int)int_field(o, "ID");
	snprintf(a->mode, sizeof(a->mode), "%s", str_field(o, "Mode"));
	snprintf(a->package, sizeof(a->package), "%s", str_field(o, "Package"));
	snprintf(a->objdir, sizeof(a->objdir), "%s", objdir ? json_object_get_string(objdir) : "");
	compile_output(cmds && json_object_is_type(cmds, json_type_array) ? cmds : NULL, a->compile_out,
		       sizeof(a->compile_out));
	a->nr_deps = deps && json_object_is_type(deps, json_type_array) ? json_object_array_length(deps) : 0;
	cr_assert(le(sz, a->nr_deps, BB_GO_MAX_DEPS));
	for (k = 0; k < a->nr_deps; k++)
		a->deps[k] = json_object_get_int(json_object_array_get_idx(deps, k));
}

void bb_go_actiongraph_read(struct bb_go_actiongraph *g, const char *path)
{
	struct json_object *actions = json_object_from_file(path);
	size_t i;

	cr_assert(not(eq(ptr, actions, NULL)), "%s: no JSON (go build -debug-actiongraph)", path);
	cr_assert(json_object_is_type(actions, json_type_array));
	g->nr = json_object_array_length(actions);
	cr_assert(le(sz, g->nr, BB_GO_MAX_ACTIONS));
	for (i = 0; i < g->nr; i++) {
		read_action(&g->actions[i], json_object_array_get_idx(actions, i));
		cr_assert(eq(int, g->actions[i].id, (int)i), "go's actions are listed by their ID");
	}
	json_object_put(actions);
}
