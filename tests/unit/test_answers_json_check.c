// SPDX-License-Identifier: GPL-2.0
/*
 * The checker of answers against the what-if in a summary
 * (lib/answers_json_check.h), on crafted summaries: one that agrees, then
 * each contradiction the issue read on real builds, which it must refuse.
 * Rows: as run 20 s beside outside work, its own -j2 quiet 10 s, -j4 on
 * 2 CPUs (more jobs), -j4 on 4 CPUs (more CPUs), unlimited.
 */
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <json-c/json.h>
#include "lib/answers_json_check.h"

struct crafted {
	double as_run, own, more_jobs, more_cpus; /* seconds */
	const char *help;		       /* "more CPUs or jobs?"'s text */
	const char *speed;		       /* "speed up?"'s text */
	const char *step_name;		       /* "speed up?"'s step_name; NULL: null */
	double step_without, other_without;    /* the critical steps' wall without each, seconds */
	double against;			       /* speed_up's against_wall_ms, seconds; 0: no step figures */
};

static struct json_object *summary(const struct crafted *c)
{
	char text[8192], step[64], figures[256] = "{}";
	struct json_object *o;

	snprintf(step, sizeof(step), c->step_name ? "\"%s\"" : "null", c->step_name);
	if (c->against)
		snprintf(figures, sizeof(figures), "{\"wall_without_ms\":%.3f,\"against_wall_ms\":%.3f}",
			 c->step_without * 1000, c->against * 1000);
	snprintf(text, sizeof(text),
		 "{\"what_if\":{\"rows\":["
		 "{\"kind\":\"as_run\",\"jobs\":2,\"cpus\":2,\"quiet\":false,\"wall_ms\":%.3f},"
		 "{\"kind\":\"own_quiet\",\"jobs\":2,\"cpus\":2,\"quiet\":true,\"wall_ms\":%.3f},"
		 "{\"kind\":\"twice_cpus_as_jobs\",\"jobs\":4,\"cpus\":2,\"quiet\":true,\"wall_ms\":%.3f},"
		 "{\"kind\":\"twice_cpus\",\"jobs\":4,\"cpus\":4,\"quiet\":true,\"wall_ms\":%.3f},"
		 "{\"kind\":\"unlimited\",\"jobs\":null,\"cpus\":null,\"quiet\":true,\"wall_ms\":1000.0}]},"
		 "\"critical_chain\":{\"processes\":["
		 "{\"name\":\"cc1 src/big.c\",\"wall_without_ms\":%.3f},"
		 "{\"name\":\"cc1 src/small.c\",\"wall_without_ms\":%.3f},"
		 "{\"name\":\"make\"}]},"
		 "\"answers\":{\"brief\":["
		 "{\"id\":\"more_cpus_or_jobs\",\"text\":\"%s\",\"step_name\":null,"
		 "\"figures\":{\"own_jobs_wall_ms\":%.3f,\"as_run_wall_ms\":%.3f}},"
		 "{\"id\":\"speed_up\",\"text\":\"%s\",\"step_name\":%s,\"figures\":%s}]}}",
		 c->as_run * 1000, c->own * 1000, c->more_jobs * 1000, c->more_cpus * 1000, c->step_without * 1000,
		 c->other_without * 1000, c->help, c->own * 1000, c->as_run * 1000, c->speed, step, figures);
	o = json_tokener_parse(text);
	cr_assert_not_null(o, "crafted summary: %s", text);
	return o;
}

/* A build that agrees: a quiet machine halves it, -j4 on 4 CPUs halves that, big.c is worth 30 %. */
static const struct crafted agreeing = {
	.as_run = 20, .own = 10, .more_jobs = 9.95, .more_cpus = 5,
	.help = "a quieter machine, then more CPUs with more jobs; the model: ...",
	.speed = "cc1 src/big.c on the critical path: without it 7.00 s against 10.00 s on a quiet machine (-30 %)",
	.step_name = "cc1 src/big.c", .step_without = 7, .other_without = 9.9, .against = 10,
};

static void expect(const struct crafted *c, bool agree, const char *words)
{
	struct json_object *o = summary(c);
	char why[2048] = "";

	cr_assert(eq(int, bb_summary_answers_agree(o, why, sizeof(why)), agree), "%s", why);
	if (!agree)
		cr_assert(strstr(why, words) != NULL, "the reason names '%s': %s", words, why);
	json_object_put(o);
}

Test(answers_json_check, answers_read_off_the_rows_agree)
{
	expect(&agreeing, true, NULL);
}

/* Issue 39's 447-step build: "neither" three lines above -j4 on 4 CPUs halving the build. */
Test(answers_json_check, neither_beside_a_row_with_more_cpus_twice_as_fast_is_refused)
{
	struct crafted c = agreeing;

	c.help = "a quieter machine, not more CPUs or jobs; the model: ...";
	expect(&c, false, "does not say more CPUs");
	c.help = "neither is clearly the limit; the model: ...";
	expect(&c, false, "does not say");
}

Test(answers_json_check, more_jobs_said_where_more_jobs_gain_nothing_is_refused)
{
	struct crafted c = agreeing;

	c.help = "a quieter machine, then more jobs, then more CPUs; the model: ...";
	expect(&c, false, "the answer says more jobs");
}

Test(answers_json_check, a_quieter_machine_that_halves_the_build_must_be_said)
{
	struct crafted c = agreeing;

	c.help = "more CPUs with more jobs; the model: ...";
	expect(&c, false, "a quieter machine");
}

Test(answers_json_check, more_cpus_said_where_they_gain_under_ten_percent_is_refused)
{
	struct crafted c = agreeing;

	c.more_cpus = 9.5;
	expect(&c, false, "under 10 %");
	c.help = "a quieter machine, not more CPUs or jobs; the model: ...";
	expect(&c, true, NULL);
}

/* Issue 39: "no single step stands out" and then "if cc1 ... took no time" saving much. */
Test(answers_json_check, no_step_stands_out_beside_a_step_worth_thirty_percent_is_refused)
{
	struct crafted c = agreeing;

	c.speed = "no single step stands out: none took 10 % of the wall on its own";
	c.step_name = NULL;
	c.against = 0;
	expect(&c, false, "without cc1 src/big.c");
	c.step_without = 9.5; /* worth 5 %: nothing stands out */
	expect(&c, true, NULL);
}

Test(answers_json_check, the_step_named_must_be_the_one_that_gains_most)
{
	struct crafted c = agreeing;

	c.step_name = "cc1 src/small.c";
	expect(&c, false, "cc1 src/big.c gains most");
}

/* fzf's: the step weighed against as run beside outside work, the other answers against a quiet machine. */
Test(answers_json_check, a_step_weighed_against_another_row_than_the_base_is_refused)
{
	struct crafted c = agreeing;

	c.against = c.as_run;
	expect(&c, false, "not against the base row");
}

Test(answers_json_check, quoted_figures_must_be_the_rows)
{
	struct crafted c = agreeing;
	struct json_object *o = summary(&c), *brief, *figures;
	char why[2048] = "";

	/* The own -j figure is the quiet row's, not as run's. */
	json_object_object_get_ex(json_object_object_get(o, "answers"), "brief", &brief);
	figures = json_object_object_get(json_object_array_get_idx(brief, 0), "figures");
	json_object_object_add(figures, "own_jobs_wall_ms", json_object_new_double(20000));
	cr_assert(not(bb_summary_answers_agree(o, why, sizeof(why))));
	cr_assert(strstr(why, "is not the row's") != NULL, "%s", why);
	json_object_put(o);
}

Test(answers_json_check, without_rows_no_answer_quotes_a_model)
{
	struct json_object *o = json_tokener_parse("{\"what_if\":null,\"answers\":{\"brief\":[{\"id\":\"more_cpus_or_jobs\","
						   "\"text\":\"more CPUs; the model: -j4 on 4 CPUs 1.00 s\","
						   "\"figures\":{}}]}}");
	char why[2048] = "";

	cr_assert(not(bb_summary_answers_agree(o, why, sizeof(why))));
	cr_assert(strstr(why, "quotes a model") != NULL, "%s", why);
	json_object_put(o);
}

/* A gain of exactly 10 % is too near the rule for rounded figures: either verdict stands. */
Test(answers_json_check, a_gain_at_the_rule_is_not_judged)
{
	struct crafted c = agreeing;

	c.more_jobs = 10;
	c.more_cpus = 9; /* 10 % below the own -j's 10 s */
	expect(&c, true, NULL);
	c.help = "a quieter machine, not more CPUs or jobs; the model: ...";
	expect(&c, true, NULL);
}
