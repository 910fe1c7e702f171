// SPDX-License-Identifier: GPL-2.0
/* Compiler caches' calls in words and JSON (include/report/compiler_cache_report.h). */
#include "report/compiler_cache_report.h"
#include "report/report_text.h"
#include "util/json_write.h"

static const char *plural(size_t n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

void compiler_cache_report__print(FILE *out, const struct compiler_cache *c)
{
	size_t hits = c->nr_hits_direct + c->nr_hits_preprocessed;
	struct report_line l;
	FILE *f;

	if (!c->nr_calls)
		return;
	f = report_line__begin(&l, out);
	fprintf(f, "compiler cache: %s, ", c->tool);
	report_put_count(f, c->nr_calls);
	fprintf(f, " %s: ", plural(c->nr_calls, "call", "calls"));
	report_put_count(f, hits);
	fprintf(f, " %s (%zu direct, %zu preprocessed), ", plural(hits, "hit", "hits"), c->nr_hits_direct,
		c->nr_hits_preprocessed);
	report_put_count(f, c->nr_misses);
	fprintf(f, " %s", plural(c->nr_misses, "miss", "misses"));
	if (c->nr_misses) {
		fputs(" (", f);
		report_put_sec(f, c->miss_cpu_ns);
		fputs(" CPU, ", f);
		report_put_sec(f, c->miss_wall_ns);
		fputs(" wall)", f);
	}
	fputs(", ", f);
	report_put_count(f, c->nr_uncacheable);
	fputs(" uncacheable", f);
	if (c->nr_unknown) {
		fputs(", ", f);
		report_put_count(f, c->nr_unknown);
		fputs(" unknown (sccache's server ran outside the trace; hint: --follow its pid)", f);
	}
	if (c->nr_saved) {
		fputs("; ", f);
		report_put_count(f, c->nr_saved);
		fprintf(f, " %s saved ", plural(c->nr_saved, "hit", "hits"));
		report_put_sec(f, c->saved_cpu_ns);
		fputs(" CPU against their steps' misses", f);
	}
	report_line__end(&l);
}

void compiler_cache_report__put_step(FILE *out, const struct compiler_cache *c, long proc)
{
	const char *word = proc >= 0 ? compiler_cache__word(compiler_cache__step(c, (size_t)proc)) : NULL;

	if (word)
		fprintf(out, " (cache %s)", word);
}

struct json_object *compiler_cache_report__json(const struct compiler_cache *c)
{
	struct json_object *o;
	int err;

	o = json_object_new_object();
	err = json_put_str(o, "tool", c->tool) ?: json_put_uint(o, "calls", c->nr_calls) ?:
	      json_put_uint(o, "hits", c->nr_hits_direct + c->nr_hits_preprocessed) ?:
	      json_put_uint(o, "hits_direct", c->nr_hits_direct) ?:
	      json_put_uint(o, "hits_preprocessed", c->nr_hits_preprocessed) ?:
	      json_put_uint(o, "misses", c->nr_misses) ?: json_put_uint(o, "uncacheable", c->nr_uncacheable) ?:
	      json_put_uint(o, "unknown", c->nr_unknown) ?:
	      json_put_ms(o, "miss_cpu_ms", c->miss_cpu_ns) ?: json_put_ms(o, "miss_wall_ms", c->miss_wall_ns) ?:
	      json_put_ms(o, "hit_cpu_ms", c->hit_cpu_ns) ?: json_put_ms(o, "hit_wall_ms", c->hit_wall_ns) ?:
	      json_put_uint(o, "saved_hits", c->nr_saved) ?: json_put_ms(o, "saved_cpu_ms", c->saved_cpu_ns) ?:
	      json_put_ms(o, "saved_wall_ms", c->saved_wall_ns);
	return json_done(o, err);
}
