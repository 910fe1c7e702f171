// SPDX-License-Identifier: GPL-2.0
/* A cargo build's --timings page read back: lib/cargo_timings.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "lib/cargo_timings.h"
#include "lib/integration.h"
#include "lib/json_fields.h"

#define UNIT_DATA "const UNIT_DATA = "

/* cargo's description of a unit's target, e.g. " bin \"rg\"": its kind, a bin's name into bin. */
static enum bb_cargo_kind target_kind(const char *target, char *bin, size_t size)
{
	const char *q;

	if (!strcmp(target, " build script"))
		return BB_CARGO_BUILD_SCRIPT;
	if (!strcmp(target, " build script (run)"))
		return BB_CARGO_RUN_BUILD_SCRIPT;
	if (!strncmp(target, " bin \"", 6) && (q = strchr(target + 6, '"'))) {
		snprintf(bin, size, "%.*s", (int)(q - target - 6), target + 6);
		return BB_CARGO_BIN;
	}
	cr_assert(eq(str, (char *)target, ""), "a cargo unit of a kind this oracle does not know: \"%s\"", target);
	return BB_CARGO_LIB;
}

/* rustc's crate name for a package or bin name: dashes become underscores. */
static void crate_name(char *crate, size_t size, const char *name)
{
	char *c;

	snprintf(crate, size, "%s", name);
	for (c = crate; *c; c++)
		if (*c == '-')
			*c = '_';
}

static void read_unit(struct bb_cargo_unit *u, struct json_object *o)
{
	struct json_object *rmeta = field(o, "rmeta_time"), *unlocked = need_field(o, "unlocked_units");
	struct json_object *unlocked_rmeta = need_field(o, "unlocked_rmeta_units");
	char bin[64] = "";
	size_t k;

	snprintf(u->name, sizeof(u->name), "%s", str_field(o, "name"));
	u->kind = target_kind(str_field(o, "target"), bin, sizeof(bin));
	crate_name(u->crate, sizeof(u->crate), u->kind == BB_CARGO_BIN ? bin : u->name);
	u->start_s = json_object_get_double(need_field(o, "start"));
	u->duration_s = json_object_get_double(need_field(o, "duration"));
	u->rmeta_s = rmeta && json_object_is_type(rmeta, json_type_double) ? json_object_get_double(rmeta) : -1;
	u->nr_unlocked = json_object_array_length(unlocked);
	cr_assert(le(sz, u->nr_unlocked, BB_CARGO_MAX_UNLOCKED));
	for (k = 0; k < u->nr_unlocked; k++)
		u->unlocked[k] = json_object_get_int(json_object_array_get_idx(unlocked, k));
	u->nr_unlocked_rmeta = json_object_array_length(unlocked_rmeta);
	cr_assert(le(sz, u->nr_unlocked_rmeta, BB_CARGO_MAX_UNLOCKED));
	for (k = 0; k < u->nr_unlocked_rmeta; k++)
		u->unlocked_rmeta[k] = json_object_get_int(json_object_array_get_idx(unlocked_rmeta, k));
}

void bb_cargo_timings_read(struct bb_cargo_timings *t, const char *target_dir)
{
	char path[4096];
	char *html, *at;
	struct json_tokener *tok = json_tokener_new();
	struct json_object *units;
	size_t i;

	snprintf(path, sizeof(path), "%s/cargo-timings/cargo-timing.html", target_dir);
	html = bb_file_text(path, NULL);
	at = strstr(html, UNIT_DATA);
	cr_assert(not(eq(ptr, at, NULL)), "%s holds no " UNIT_DATA, path);
	at += strlen(UNIT_DATA);
	/* The array ends where a complete JSON value does: the ";" and the rest of the script are left. */
	units = json_tokener_parse_ex(tok, at, (int)strlen(at));
	cr_assert(not(eq(ptr, units, NULL)), "%s: UNIT_DATA is no JSON: %s", path,
		  json_tokener_error_desc(json_tokener_get_error(tok)));
	cr_assert(json_object_is_type(units, json_type_array));
	t->nr = json_object_array_length(units);
	cr_assert(le(sz, t->nr, BB_CARGO_MAX_UNITS));
	for (i = 0; i < t->nr; i++) {
		struct json_object *o = json_object_array_get_idx(units, i);

		cr_assert(eq(i64, int_field(o, "i"), (long long)i), "cargo's units are listed by their index");
		read_unit(&t->units[i], o);
	}
	json_object_put(units);
	json_tokener_free(tok);
	free(html);
}

bool bb_cargo_unit_is(const struct bb_cargo_unit *u, const char *step_name)
{
	char want[160];

	switch (u->kind) {
	case BB_CARGO_BUILD_SCRIPT:
		snprintf(want, sizeof(want), "rustc build script of %s", u->name);
		return !strcmp(step_name, want);
	case BB_CARGO_RUN_BUILD_SCRIPT:
		snprintf(want, sizeof(want), "run build script of %s", u->name);
		return !strcmp(step_name, want);
	case BB_CARGO_BIN:
		snprintf(want, sizeof(want), "rustc %s (bin", u->crate);
		return !strncmp(step_name, want, strlen(want));
	case BB_CARGO_LIB:
		snprintf(want, sizeof(want), "rustc %s (lib", u->crate);
		if (!strncmp(step_name, want, strlen(want)))
			return true;
		snprintf(want, sizeof(want), "rustc %s (proc-macro)", u->crate);
		return !strcmp(step_name, want);
	}
	return false;
}
