// SPDX-License-Identifier: GPL-2.0
/* The command line, from argv tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "cli/cli.h"
#include "cli/cli_options.h"
#include "cli/cli_usage.h"
#include "events.h"
#include "version.h"

struct parsed {
	struct cli_opts opts;
	int ret;
	char *out, *err;
};

/* argv without argv[0]; NULL-terminated. */
static struct parsed parse(const char *const args[])
{
	static char *argv[64];
	struct parsed p = {};
	size_t out_len, err_len;
	FILE *out, *err;
	int argc = 0;

	argv[argc++] = "buildbpf";
	for (; *args; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	out = open_memstream(&p.out, &out_len);
	err = open_memstream(&p.err, &err_len);
	cr_assert(out && err);
	p.ret = cli__parse(&p.opts, argc, argv, out, err);
	fclose(out);
	fclose(err);
	return p;
}

static void done(struct parsed *p)
{
	free(p->out);
	free(p->err);
}

/*
 * What cli__parse() says refusing argv: mode (NULL: trace), then option and
 * value times over (and a command to trace, for trace).  malloc'd.
 */
static char *refusal_of_repeated(const char *mode, const char *option, const char *value, size_t times)
{
	char **argv = calloc(2 * times + 4, sizeof(*argv)), *err_text = NULL;
	struct cli_opts opts;
	int argc = 0;
	size_t len;
	FILE *err;

	cr_assert(not(eq(ptr, argv, NULL)));
	argv[argc++] = "buildbpf";
	if (mode)
		argv[argc++] = (char *)mode;
	for (size_t i = 0; i < times; i++) {
		argv[argc++] = (char *)option;
		argv[argc++] = (char *)value;
	}
	if (!mode)
		argv[argc++] = "make";
	err = open_memstream(&err_text, &len);
	cr_assert(lt(int, cli__parse(&opts, argc, argv, stdout, err), 0));
	fclose(err);
	free(argv);
	return err_text;
}

Test(cli, defaults)
{
	struct parsed p = parse((const char *[]){ "make", "-j8", NULL });

	cr_assert(lt(int, 0, p.ret));
	cr_assert(eq(str, (char *)p.opts.output, CLI_DEFAULT_OUTPUT));
	cr_assert(not(p.opts.force || p.opts.quiet || p.opts.verbose || p.opts.keep_root || p.opts.wait_all));
	cr_assert(eq(u32, p.opts.args_max, BB_ARGS_MAX_DEFAULT));
	cr_assert(eq(sz, p.opts.ringbuf_bytes, CLI_DEFAULT_RINGBUF));
	cr_assert(eq(int, p.opts.sched, SCHED_SUMMARY));
	cr_assert(eq(u64, p.opts.sched_resolution_ns, SCHED_DEFAULT_RESOLUTION_NS));
	cr_assert(eq(int, p.opts.cmd_argc, 2));
	cr_assert(eq(str, p.opts.cmd_argv[0], "make"));
	cr_assert(eq(str, p.opts.cmd_argv[1], "-j8"));
	cr_assert(eq(ptr, p.opts.cmd_argv[2], NULL));
	done(&p);
}

/* The command's own options are not ours, with or without "--". */
Test(cli, options_stop_at_the_command)
{
	struct parsed p = parse((const char *[]){ "-f", "-o", "t.json", "gcc", "-o", "x", "-v", NULL });

	cr_assert(lt(int, 0, p.ret));
	cr_assert(p.opts.force);
	cr_assert(not(p.opts.verbose));
	cr_assert(eq(str, (char *)p.opts.output, "t.json"));
	cr_assert(eq(int, p.opts.cmd_argc, 4));
	done(&p);
	p = parse((const char *[]){ "-q", "--", "-weird-command", NULL });
	cr_assert(lt(int, 0, p.ret));
	cr_assert(eq(str, p.opts.cmd_argv[0], "-weird-command"));
	done(&p);
}

Test(cli, every_option)
{
	struct parsed p = parse((const char *[]){ "--output=a.json", "--force", "--user", "nobody", "--args-max", "64K",
						  "--buffer-size", "64M", "--wait-all", "-q", "-v", "--sched", "full",
						  "--sched-resolution", "500us", "--mem-period", "50ms", "true", NULL });

	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(str, (char *)p.opts.output, "a.json"));
	cr_assert(eq(str, (char *)p.opts.user, "nobody"));
	cr_assert(eq(u32, p.opts.args_max, 64 * 1024));
	cr_assert(eq(sz, p.opts.ringbuf_bytes, 64u << 20));
	cr_assert(p.opts.wait_all && p.opts.quiet && p.opts.verbose && p.opts.force);
	cr_assert(eq(int, p.opts.sched, SCHED_FULL));
	cr_assert(eq(u64, p.opts.sched_resolution_ns, 500000));
	cr_assert(eq(u64, p.opts.mem_period_ns, 50000000));
	done(&p);
	p = parse((const char *[]){ "--mem-period", "off", "true", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(u64, p.opts.mem_period_ns, 0));
	done(&p);
	p = parse((const char *[]){ "true", NULL });
	cr_assert(eq(u64, p.opts.mem_period_ns, CLI_MEM_PERIOD_DEFAULT_NS));
	done(&p);
}

Test(cli, help_and_version_exit_zero)
{
	struct parsed p = parse((const char *[]){ "--help", NULL });

	cr_assert(eq(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.out, "Usage: buildbpf"), NULL)));
	cr_assert(eq(str, p.err, ""));
	done(&p);
	p = parse((const char *[]){ "-V", NULL });
	cr_assert(eq(int, p.ret, 0));
	cr_assert(eq(int, strncmp(p.out, "buildbpf ", 9), 0));
	/* main adds the kernel's lines after these. */
	cr_assert(p.opts.version);
	cr_assert(not(eq(ptr, strstr(p.out, "\nlibbpf: "), NULL)), "%s", p.out);
	done(&p);
}

/* --version's own lines: what a bug report needs, one line each. */
static char *version_text(const char *commit, const char *libbpf)
{
	static char text[512];
	FILE *out = fmemopen(text, sizeof(text), "w");

	cr_assert_not_null(out);
	cli__print_version(out, commit, libbpf);
	cr_assert(eq(int, fclose(out), 0));
	return text;
}

Test(cli, version_names_the_commit_and_libbpf)
{
	cr_assert(eq(str, version_text("9ceb859a3609", "v1.1"),
		     "buildbpf " BUILDBPF_VERSION "\ncommit: 9ceb859a3609\nlibbpf: v1.1\n"));
	cr_assert(eq(str, version_text("9ceb859a3609-dirty", "v1.4"),
		     "buildbpf " BUILDBPF_VERSION "\ncommit: 9ceb859a3609-dirty\nlibbpf: v1.4\n"));
}

Test(cli, version_from_a_tarball_says_so)
{
	cr_assert(eq(str, version_text("", "v1.1"),
		     "buildbpf " BUILDBPF_VERSION "\ncommit: unknown (not built from a git checkout)\nlibbpf: v1.1\n"));
	cr_assert(eq(str, version_text(NULL, NULL),
		     "buildbpf " BUILDBPF_VERSION "\ncommit: unknown (not built from a git checkout)\nlibbpf: unknown\n"));
}

/* Each mistake: an error return, one line on stderr starting "buildbpf: ". */
Test(cli, mistakes_are_one_line_errors)
{
	static const char *const cases[][6] = {
		{ NULL },
		{ "-o", NULL },
		{ "-o", "", "true", NULL },
		{ "--bogus", "true", NULL },
		{ "-x", "true", NULL },
		{ "--args-max", "0", "true", NULL },
		{ "--args-max", "129K", "true", NULL },
		{ "--args-max", "-1", "true", NULL },
		{ "--args-max", "1.5K", "true", NULL },
		{ "--buffer-size", "3000", "true", NULL },
		{ "--buffer-size", "2G", "true", NULL },
		{ "--sched", "some", "true", NULL },
		{ "--sched-resolution", "0", "true", NULL },
		{ "--sched-resolution", "1min", "true", NULL },
		{ "--sched-resolution", "11s", "true", NULL },
		{ "--mem-period", "0", "true", NULL },
		{ "--mem-period", "500us", "true", NULL },
		{ "--mem-period", "11s", "true", NULL },
		{ "convert", "--mem-period", "50ms", "a.bbl", NULL },
		{ "--user", "x", "--keep-root", "true", NULL },
		{ "-f", NULL },
		{ "record", NULL },
		{ "record", "--log", "x.bbl", "true", NULL },
		{ "convert", NULL },
		{ "convert", "a.bbl", "b.bbl", NULL },
		{ "convert", "--user", "nobody", "a.bbl", NULL },
		{ "convert", "--wait-all", "a.bbl", NULL },
		{ "report", "a.bbl", "-o", "t.json", NULL },
		{ "--log", "", "true", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parsed p = parse(cases[i]);

		cr_assert(lt(int, p.ret, 0), "case %zu", i);
		cr_assert(eq(int, strncmp(p.err, "buildbpf: ", 10), 0), "case %zu: %s", i, p.err);
		cr_assert(eq(ptr, strchr(p.err, '\n'), p.err + strlen(p.err) - 1), "case %zu: %s", i, p.err);
		done(&p);
	}
}

/* The first argument names a mode; "--" traces a command of that name. */
Test(cli, record_convert_and_report)
{
	struct parsed p = parse((const char *[]){ "record", "-q", "make", "-j2", NULL });

	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(int, p.opts.mode, CLI_RECORD));
	cr_assert(eq(str, (char *)p.opts.output, CLI_DEFAULT_LOG));
	cr_assert(eq(str, p.opts.cmd_argv[0], "make"));
	cr_assert(p.opts.quiet);
	done(&p);

	/* Options may follow the recording. */
	p = parse((const char *[]){ "convert", "b.bbl", "-o", "t.json", "--sched=off", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(int, p.opts.mode, CLI_CONVERT));
	cr_assert(eq(str, (char *)p.opts.log_path, "b.bbl"));
	cr_assert(eq(str, (char *)p.opts.output, "t.json"));
	cr_assert(p.opts.sched_given && !p.opts.resolution_given);
	cr_assert(eq(int, p.opts.sched, SCHED_OFF));
	done(&p);

	p = parse((const char *[]){ "report", "b.bbl", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(int, p.opts.mode, CLI_REPORT));
	cr_assert(not(p.opts.sched_given));
	done(&p);

	/* A mode that loads no BPF leaves root under sudo, unless asked to keep it. */
	p = parse((const char *[]){ "convert", "--keep-root", "b.bbl", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(p.opts.keep_root);
	done(&p);
	p = parse((const char *[]){ "report", "b.bbl", "--keep-root", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(p.opts.keep_root);
	done(&p);

	/* The page and the summary: from a build, convert and report; never from record, never one file for two. */
	p = parse((const char *[]){ "report", "b.bbl", "--html", "b.html", "--markdown", "b.md", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(str, (char *)p.opts.html, "b.html"));
	cr_assert(eq(str, (char *)p.opts.markdown, "b.md"));
	done(&p);
	p = parse((const char *[]){ "--html", "b.html", "--markdown", "b.md", "--", "make", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(str, (char *)p.opts.html, "b.html"));
	done(&p);
	p = parse((const char *[]){ "record", "--markdown", "b.md", "--", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(strstr(p.err, "record writes only the event log (hint: buildbpf convert LOG --markdown FILE)") != NULL,
		  "%s", p.err);
	done(&p);
	p = parse((const char *[]){ "convert", "b.bbl", "-o", "t.json", "--html", "t.json", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(strstr(p.err, "must name different files") != NULL, "%s", p.err);
	done(&p);
	p = parse((const char *[]){ "report", "b.bbl", "--html", "", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(strstr(p.err, "--html needs a file name") != NULL, "%s", p.err);
	done(&p);

	p = parse((const char *[]){ "--log", "k.bbl", "--", "report", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(int, p.opts.mode, CLI_TRACE));
	cr_assert(eq(str, (char *)p.opts.keep_log, "k.bbl"));
	cr_assert(eq(str, p.opts.cmd_argv[0], "report"));
	done(&p);
}

Test(cli, sizes_and_durations_take_units)
{
	struct parsed p = parse((const char *[]){ "--args-max", "4096", "--buffer-size", "4KiB",
						  "--sched-resolution", "2s", "true", NULL });

	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(u32, p.opts.args_max, 4096));
	cr_assert(eq(sz, p.opts.ringbuf_bytes, 4096));
	cr_assert(eq(u64, p.opts.sched_resolution_ns, 2000000000ull));
	done(&p);
}

/* "--duration 60" once meant 60 ns: a bare number is refused, with the units in the error. */
Test(cli, a_duration_without_a_unit_is_refused)
{
	struct parsed p = parse((const char *[]){ "record", "--attach", "4242", "--duration", "60", NULL });

	cr_assert(lt(int, p.ret, 0), "%s", p.err);
	cr_assert(not(eq(ptr, strstr(p.err, "--duration '60': expected a duration (e.g. 30s, 500ms)"), NULL)), "%s", p.err);
	done(&p);
}

Test(cli, merge_options)
{
	struct parsed p = parse((const char *[]){ "--merge", "build/**/*.json", "--merge", "x.json", "--keep-trace-dir",
						  "--merge-max-file", "2M", "--merge-max-events", "500", "make", NULL });

	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(sz, p.opts.nr_merge, 2));
	cr_assert(eq(str, (char *)p.opts.merge[0], "build/**/*.json"));
	cr_assert(eq(str, (char *)p.opts.merge[1], "x.json"));
	cr_assert(p.opts.keep_trace_dir && !p.opts.no_trace_dir);
	cr_assert(eq(sz, p.opts.merge_max_file, 2u << 20));
	cr_assert(eq(sz, p.opts.merge_max_events, 500));
	done(&p);

	p = parse((const char *[]){ "--keep-trace-dir", "--no-trace-dir", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.err, "exclude"), NULL)));
	done(&p);
	p = parse((const char *[]){ "--merge-max-file", "0", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);
	p = parse((const char *[]){ "--merge", "", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);
}

/* --deps: off by default (its cost), off or on when given; convert may lower it. */
Test(cli, deps_level)
{
	struct parsed p = parse((const char *[]){ "make", NULL });

	cr_assert(not(p.opts.deps));
	cr_assert(not(p.opts.deps_given));
	done(&p);
	p = parse((const char *[]){ "--deps=on", "make", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(p.opts.deps);
	cr_assert(p.opts.deps_given);
	done(&p);
	p = parse((const char *[]){ "--deps=off", "make", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(not(p.opts.deps));
	cr_assert(p.opts.deps_given);
	done(&p);
	p = parse((const char *[]){ "convert", "b.bbl", "--deps", "off", NULL });
	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(not(p.opts.deps));
	cr_assert(p.opts.deps_given);
	done(&p);
	p = parse((const char *[]){ "--deps", "maybe", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(eq(str, p.err, "buildbpf: --deps 'maybe': expected on or off\n"));
	done(&p);
}

Test(cli, diff_mode_takes_two_recordings_and_its_options)
{
	struct parsed p = parse((const char *[]){ "diff", "old.bbl", "--json", "-", "new.bbl", "--markdown", "c.md",
						  "--svg", "d.svg", "--fail-if", "wall>+10%", "--fail-if",
						  "program:cc1.cpu>+20%", "-q", "-f", "--html", "d.html", NULL });

	cr_assert(lt(int, 0, p.ret), "%s", p.err);
	cr_assert(eq(int, p.opts.mode, CLI_DIFF));
	cr_assert(eq(str, (char *)p.opts.diff_old, "old.bbl"));
	cr_assert(eq(str, (char *)p.opts.diff_new, "new.bbl"));
	cr_assert(eq(str, (char *)p.opts.diff_json, "-"));
	cr_assert(eq(str, (char *)p.opts.diff_markdown, "c.md"));
	cr_assert(eq(str, (char *)p.opts.svg, "d.svg"));
	cr_assert(eq(str, (char *)p.opts.html, "d.html"));
	cr_assert(eq(sz, p.opts.nr_fail_if, 2));
	cr_assert(eq(str, p.opts.fail_if[1].program, "cc1"));
	cr_assert(p.opts.quiet && p.opts.force);
	done(&p);
}

/* Each of these is refused with one "buildbpf: diff: " line. */
Test(cli, diff_mode_refusals)
{
	const char *const *cases[] = {
		(const char *[]){ "diff", "old.bbl", NULL },
		(const char *[]){ "diff", "a", "b", "c", NULL },
		(const char *[]){ "diff", "a", "b", "--sched=off", NULL },
		(const char *[]){ "diff", "a", "b", "-o", "x", NULL },
		(const char *[]){ "diff", "a", "b", "--fail-if", "wall>>1", NULL },
		(const char *[]){ "diff", "a", "b", "--fail-if", NULL },
		(const char *[]){ "diff", "a", "b", "--json", "-", "--markdown", "-", NULL },
		(const char *[]){ "diff", "a", "b", "--svg", "", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct parsed p = parse(cases[i]);
		char *nl = strchr(p.err, '\n');

		cr_assert(lt(int, p.ret, 0), "case %zu accepted", i);
		cr_assert(eq(int, strncmp(p.err, "buildbpf: diff: ", 16), 0), "case %zu: %s", i, p.err);
		cr_assert(nl && !nl[1], "case %zu: not one line: %s", i, p.err);
		done(&p);
	}
}

/* diff's messages come from its rows: the option by its name, the limit from the table. */
Test(cli, diff_messages_name_the_option_and_the_limit)
{
	char *err_text, want[64];

	struct parsed p = parse((const char *[]){ "diff", "a", "b", "--svg", "", NULL });
	cr_assert(eq(str, p.err, "buildbpf: diff: --svg needs a file name (- for stdout)\n"));
	done(&p);
	p = parse((const char *[]){ "diff", "a", "b", "--json=", NULL });
	cr_assert(eq(str, p.err, "buildbpf: diff: --json needs a file name (- for stdout)\n"));
	done(&p);
	p = parse((const char *[]){ "diff", "a", "b", "--bogus", NULL });
	cr_assert(eq(str, p.err, "buildbpf: diff: unknown option '--bogus' (diff takes --json, --markdown, --svg, "
				 "--html, --fail-if, -f, -q, --no-progress; see --help)\n"));
	done(&p);
	err_text = refusal_of_repeated("diff", "--fail-if", "wall>+1%", CLI_FAIL_IF_MAX + 1);
	snprintf(want, sizeof(want), "buildbpf: diff: --fail-if: at most %d conditions\n", CLI_FAIL_IF_MAX);
	cr_assert(eq(str, err_text, want));
	free(err_text);
}

/* One row that convert, report and diff read; trace and record refuse it by name. */
Test(cli, no_progress_is_for_the_modes_that_read_recordings)
{
	const char *const *takers[] = {
		(const char *[]){ "convert", "a.bbl", "--no-progress", NULL },
		(const char *[]){ "report", "--no-progress", "a.bbl", NULL },
		(const char *[]){ "diff", "a.bbl", "b.bbl", "--no-progress", NULL },
	};
	size_t i;

	for (i = 0; i < sizeof(takers) / sizeof(takers[0]); i++) {
		struct parsed p = parse(takers[i]);

		cr_assert(eq(int, p.ret, 1), "case %zu: %s", i, p.err);
		cr_assert(eq(int, p.opts.no_progress, true), "case %zu", i);
		done(&p);
	}
	struct parsed p = parse((const char *[]){ "report", "a.bbl", NULL });
	cr_assert(eq(int, p.opts.no_progress, false));
	done(&p);
	p = parse((const char *[]){ "record", "--no-progress", "--", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: record: --no-progress is for convert, report and diff, which read recordings\n"));
	done(&p);
	p = parse((const char *[]){ "--no-progress", "--", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: --no-progress is for convert, report and diff, which read recordings\n"));
	done(&p);
}

Test(cli, attach_takes_a_pid_and_no_command)
{
	struct parsed p = parse((const char *[]){ "record", "--attach", "4242", "--duration", "1500ms", NULL });

	cr_assert(lt(int, 0, p.ret));
	cr_assert(eq(int, p.opts.mode, CLI_RECORD));
	cr_assert(eq(int, p.opts.attach_pid, 4242));
	cr_assert(eq(u64, p.opts.duration_ns, 1500000000ull));
	cr_assert(eq(int, p.opts.cmd_argc, 0));
	done(&p);

	p = parse((const char *[]){ "--attach", "4242", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.err, "no COMMAND with it"), NULL)));
	done(&p);

	p = parse((const char *[]){ "--duration", "2s", "--", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.err, "--duration is for --attach"), NULL)));
	done(&p);

	p = parse((const char *[]){ "--attach", "4242", "--wait-all", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);

	p = parse((const char *[]){ "convert", "x.bbl", "--attach", "1", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);

	for (size_t i = 0; i < 4; i++) {
		const char *bad[] = { "0", "-5", "12x", "99999999999" };

		p = parse((const char *[]){ "--attach", bad[i], NULL });
		cr_assert(lt(int, p.ret, 0), "--attach '%s' was taken", bad[i]);
		cr_assert(not(eq(ptr, strstr(p.err, "expected a process id"), NULL)));
		done(&p);
	}
}

Test(cli, a_command_named_diff_runs_after_dashes)
{
	struct parsed p = parse((const char *[]){ "--", "diff", "a", "b", NULL });

	cr_assert(lt(int, 0, p.ret));
	cr_assert(eq(int, p.opts.mode, CLI_TRACE));
	cr_assert(eq(str, p.opts.cmd_argv[0], "diff"));
	done(&p);
}

Test(cli, follow_is_repeatable_beside_a_command)
{
	struct parsed p = parse((const char *[]){ "--follow", "10", "--follow", "20", "--", "make", NULL });

	cr_assert(lt(int, 0, p.ret));
	cr_assert(eq(sz, p.opts.nr_follow, 2));
	cr_assert(eq(int, p.opts.follow[0], 10));
	cr_assert(eq(int, p.opts.follow[1], 20));
	done(&p);

	p = parse((const char *[]){ "--follow", "10", "--attach", "20", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);
	p = parse((const char *[]){ "--follow", "10", "--wait-all", "--", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.err, "daemon outlives the build"), NULL)));
	done(&p);
	p = parse((const char *[]){ "--follow", "x", "--", "make", NULL });
	cr_assert(lt(int, p.ret, 0));
	cr_assert(not(eq(ptr, strstr(p.err, "--follow 'x': expected a process id"), NULL)));
	done(&p);
}

/* convert --add: the other hosts' recordings, in order; refused where it means nothing. */
Test(cli, add_takes_other_hosts_recordings_for_convert_only)
{
	struct parsed p = parse((const char *const[]){ "convert", "client.bbl", "--add", "w1.bbl", "--add", "w2.bbl",
						       "-o", "t.json", NULL });

	cr_assert_eq(p.ret, 1, "%s", p.err);
	cr_assert_str_eq(p.opts.log_path, "client.bbl");
	cr_assert_eq(p.opts.nr_add, 2);
	cr_assert_str_eq(p.opts.add[0], "w1.bbl");
	cr_assert_str_eq(p.opts.add[1], "w2.bbl");
	done(&p);

	p = parse((const char *const[]){ "report", "client.bbl", "--add", "w1.bbl", NULL });
	cr_assert_lt(p.ret, 0);
	cr_assert(strstr(p.err, "--add puts recordings of other hosts in one trace: it is for convert") != NULL, "%s",
		  p.err);
	done(&p);

	p = parse((const char *const[]){ "convert", "client.bbl", "--add", "w1.bbl", "--svg", "s.svg", NULL });
	cr_assert_lt(p.ret, 0);
	cr_assert(strstr(p.err, "--svg, --summary-json, --html and --markdown show one host's build") != NULL, "%s",
		  p.err);
	done(&p);
	p = parse((const char *const[]){ "convert", "client.bbl", "--add", "w1.bbl", "--html", "b.html", NULL });
	cr_assert_lt(p.ret, 0);
	cr_assert(strstr(p.err, "show one host's build") != NULL, "%s", p.err);
	done(&p);

	p = parse((const char *const[]){ "convert", "client.bbl", "--add", "", NULL });
	cr_assert_lt(p.ret, 0);
	cr_assert_str_eq(p.err, "buildbpf: --add: needs a recording\n");
	done(&p);
}

/* Whether another row of the families of o has the -x of o on its --help line. */
static bool on_a_shared_line(const struct cli_option *rows, size_t nr, const struct cli_option *o)
{
	char name[3] = { '-', o->short_name, '\0' };

	for (size_t k = 0; k < nr; k++)
		if (&rows[k] != o && (rows[k].modes & o->modes) && rows[k].help_names && o->short_name &&
		    strstr(rows[k].help_names, name))
			return true;
	return false;
}

/* Each row of the option table says all the parser, --help and the messages need of it. */
Test(cli, every_option_row_is_whole)
{
	size_t nr, i, k;
	const struct cli_option *rows = cli__options(&nr);

	cr_assert(lt(sz, 20, nr));
	for (i = 0; i < nr; i++) {
		const struct cli_option *o = &rows[i];
		bool valued = o->value == CLI_TEXT || o->value == CLI_CHOICE || o->value == CLI_NUMBER ||
			      o->value == CLI_SIZE || o->value == CLI_DURATION || o->value == CLI_PARSED;

		cr_assert(o->name && *o->name && o->modes, "row %zu", i);
		/* Only diff's -h and a row named on another's line go without a line of their own. */
		if (!o->help)
			cr_assert(on_a_shared_line(rows, nr, o) || (o->value == CLI_HELP && o->modes == CLI_IN_DIFF),
				  "--%s: no --help line", o->name);
		else
			cr_assert(eq(chr, o->help[strlen(o->help) - 1], '\n'), "--%s: help ends a line", o->name);
		cr_assert(eq(int, !!o->arg, valued), "--%s: a value has a placeholder in --help", o->name);
		if (o->value == CLI_TEXT)
			cr_assert(eq(sz, o->size, sizeof(char *)), "--%s", o->name);
		else if (o->value == CLI_PARSED)
			cr_assert(o->parse && o->size && o->expect, "--%s", o->name);
		else if (o->value != CLI_HELP)
			cr_assert(o->size == 1 || o->size == 2 || o->size == 4 || o->size == 8, "--%s", o->name);
		if (o->value == CLI_NUMBER || o->value == CLI_SIZE || o->value == CLI_DURATION)
			cr_assert(o->expect && o->min <= o->max, "--%s", o->name);
		if (o->value == CLI_CHOICE)
			cr_assert(o->choices && o->choices[0].word && o->choices[1].word, "--%s", o->name);
		if (o->max_items)
			cr_assert(not(eq(ptr, o->too_many ? strstr(o->too_many, "{max}") : NULL, NULL)), "--%s", o->name);
		/* A family of modes (diff's, the others') names each option once. */
		for (k = i + 1; k < nr; k++) {
			if (!(o->modes & rows[k].modes))
				continue;
			cr_assert(not(eq(str, (char *)o->name, (char *)rows[k].name)), "--%s twice", o->name);
			cr_assert(o->short_name == 0 || o->short_name != rows[k].short_name, "-%c twice", o->short_name);
		}
	}
}

/* A limit in a message is the table's, spelled from it: never a second literal. */
Test(cli, messages_spell_the_limits)
{
	char *err_text, want[64];

	err_text = refusal_of_repeated(NULL, "--merge", "x.json", CLI_MERGE_MAX + 1);
	snprintf(want, sizeof(want), "buildbpf: --merge: too many (at most %d; use a glob)\n", CLI_MERGE_MAX);
	cr_assert(eq(str, err_text, want));
	free(err_text);

	struct parsed p = parse((const char *[]){ "--args-max", "1G", "make", NULL });
	snprintf(want, sizeof(want), "expected 1 to %u bytes", BB_ARGS_MAX_LIMIT);
	cr_assert(not(eq(ptr, strstr(p.err, want), NULL)), "%s", p.err);
	done(&p);
	p = parse((const char *[]){ "--buffer-size", "3K", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: --buffer-size '3K': expected a power of two from 4K to 1G\n"));
	done(&p);
	p = parse((const char *[]){ "--merge-max-file", "0", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: --merge-max-file '0': expected 1 byte to 1G (e.g. 64M)\n"));
	done(&p);
	p = parse((const char *[]){ "--mem-period", "1us", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: --mem-period '1us': expected off or a duration from 1ms to 10s (e.g. 50ms)\n"));
	done(&p);
	p = parse((const char *[]){ "--sched", "most", "make", NULL });
	cr_assert(eq(str, p.err, "buildbpf: --sched 'most': expected off, summary or full\n"));
	done(&p);
}

/* --list-options: every row, diff's too, for the man page and completion check. */
Test(cli, list_options_prints_the_table)
{
	size_t nr, lines = 0;
	struct parsed p = parse((const char *[]){ "--list-options", NULL });

	cli__options(&nr);
	cr_assert(eq(int, p.ret, 0), "%s", p.err);
	for (const char *c = p.out; *c; c++)
		lines += *c == '\n';
	cr_assert(eq(sz, lines, nr), "%s", p.out);
	cr_assert(not(eq(ptr, strstr(p.out, "trace,record,convert -o --output\n"), NULL)), "%s", p.out);
	cr_assert(not(eq(ptr, strstr(p.out, "diff - --fail-if\n"), NULL)), "%s", p.out);
	done(&p);
	/* Only whole and alone: not an abbreviation, not beside other options. */
	p = parse((const char *[]){ "--list-options", "-q", NULL });
	cr_assert(lt(int, p.ret, 0));
	done(&p);
}
