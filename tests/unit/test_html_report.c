// SPDX-License-Identifier: GPL-2.0
/*
 * The page (--html) and the summary (--markdown) of a synthetic build
 * whose names are hostile: markup, quotes, Markdown's table and link
 * characters.  Nothing of the build may become markup or end a cell; the
 * Markdown stays under its bound; a kernel-sized build's picture is
 * folded; the trace link is relative and encoded.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "audit/audit.h"
#include "model/lanes.h"
#include "model/model.h"
#include "model/trace_layout.h"
#include "report/answer_rows.h"
#include "report/audit_report.h"
#include "report/html_report.h"
#include "report/markdown_report.h"
#include "util/href.h"
#include "report/svg_draw.h"
#include "util/md_escape.h"
#include "util/sha256.h"
#include "util/term_escape.h"
#include "lib/page_policy.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define T0 (1000 * MS)
#define MAKE_PID 100
#define EVIL "<script>alert(1)</script>|x|\"q\"&amp;[l](x)`b`"

struct page_build {
	struct model *m;
	struct trace_layout *tl;
	struct audit a;
};

/*
 * make and n compiles started 1 ms apart, each running 5 to 54 ms (so
 * they overlap, on many lanes, and differ in width), each compiling a
 * source named evil, k, then '|' up to name_len (page_build_init(): EVIL).
 */
static void page_build_named(struct page_build *b, __u32 n, size_t name_len, const char *evil)
{
	static const char *const make_argv[] = { "make", "-j1", NULL };
	struct audit_input in = { .nr_cpus = 2 };
	/* EVIL, a number, padding to name_len, ".c" and the NUL. */
	size_t cap = strlen(evil) + 12 + name_len + 3;
	char *name = malloc(cap);
	const char *argv[3] = { "cc1", NULL, NULL };
	__u32 k, pid;

	cr_assert(not(eq(ptr, name, NULL)));
	memset(b, 0, sizeof(*b));
	b->m = model__new(MAKE_PID, T0);
	cr_assert(not(eq(ptr, b->m, NULL)));
	synth_exec(b->m, T0, MAKE_PID, 1, "/usr/bin/make", make_argv);
	for (k = 0; k < n; k++) {
		pid = 1000 + k;
		snprintf(name, cap, "%s%u", evil, k);
		while (strlen(name) < name_len)
			strcat(name, "|");
		strcat(name, ".c"); /* an input: the step is named after it */
		argv[1] = name;
		synth_fork(b->m, T0 + k * MS, MAKE_PID, pid, pid, false);
		synth_exec(b->m, T0 + k * MS, pid, MAKE_PID, "/usr/lib/gcc/cc1", argv);
		synth_exit_acct(b->m, T0 + (k + 5 + k % 50) * MS, pid, 0, MS / 2, 0, MS / 2, 100);
	}
	synth_exit_acct(b->m, T0 + (n + 60) * MS, MAKE_PID, 0, 0, 0, 0, 1000);
	cr_assert(eq(int, model__finish(b->m, T0 + (n + 60) * MS), 0));
	lanes__assign_model(b->m);
	b->tl = trace_layout__new(b->m);
	cr_assert(not(eq(ptr, b->tl, NULL)));
	in.cmd_argv = b->m->procs[b->m->root].execs[0].argv;
	in.cmd_argc = b->m->procs[b->m->root].execs[0].argc;
	cr_assert(eq(int, with_slots__audit(&b->a, b->m, NULL, &in), 0));
	free(name);
}

static void page_build_init(struct page_build *b, __u32 n, size_t name_len)
{
	page_build_named(b, n, name_len, EVIL);
}

static void page_build_free(struct page_build *b)
{
	audit__free(&b->a);
	trace_layout__free(b->tl);
	model__free(b->m);
}

static char *html_of(struct page_build *b, const char *href)
{
	const struct html_build hb = { .a = &b->a, .tl = b->tl, .trace_href = href };
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(int, html_report__write(out, &hb), 0));
	cr_assert(eq(int, fclose(out), 0));
	return text;
}

static char *markdown_of(struct page_build *b, size_t max)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	cr_assert(eq(int, markdown_report__write_max(out, &b->a, b->m, max), 0));
	cr_assert(eq(int, fclose(out), 0));
	return text;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

/* A make that ran no job: the page says nothing compiled, as the report does, in place of the answers. */
Test(html_report, a_build_that_compiled_nothing_says_so_on_the_page)
{
	struct page_build b;
	char *html;

	page_build_init(&b, 0, 8);
	html = html_of(&b, NULL);
	cr_assert(not(eq(ptr, strstr(html, "<p class=\"bb-note\" id=\"nothing-compiled\">nothing compiled: make ran "
					   "no job, every target was up to date: no parallelism to audit</p>"),
			 NULL)));
	cr_assert(eq(ptr, strstr(html, "<table class=\"bb-t bb-answers\""), NULL), "no answers about nothing");
	free(html);
	page_build_free(&b);

	page_build_init(&b, 3, 8);
	html = html_of(&b, NULL);
	cr_assert(eq(ptr, strstr(html, "nothing-compiled"), NULL));
	cr_assert(not(eq(ptr, strstr(html, "<table class=\"bb-t bb-answers\""), NULL)));
	free(html);
	page_build_free(&b);
}

Test(html_report, names_from_the_build_never_become_markup)
{
	struct page_build b;
	char *page;

	page_build_init(&b, 12, 0);
	page = html_of(&b, "t.json");
	/* One script element, ours, at the end: the build's "<script>" is text. */
	cr_assert(eq(sz, count(page, "<script"), 1), "a <script> from the build got through");
	cr_assert(not(eq(ptr, strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"), NULL)));
	cr_assert(eq(ptr, strstr(page, "\"q\""), NULL), "a quote from the build was not escaped");
	/* Nothing fetched: no src= and no link to anything but the trace and the page's own sections. */
	cr_assert(eq(ptr, strstr(page, " src="), NULL));
	cr_assert(eq(sz, count(page, "href="), count(page, "href=\"#") + 1));
	cr_assert(eq(sz, count(page, "href=\"t.json\""), 1));
	cr_assert(not(eq(ptr, strstr(page, "default-src 'none'"), NULL)));
	cr_assert(not(eq(ptr, strstr(page, "<section id=\"critical-path\">"), NULL)));
	cr_assert(not(eq(ptr, strstr(page, "<section id=\"top-rss\">"), NULL)));
	free(page);
	page_build_free(&b);
}

/* Pipes outside backslash escapes: one per cell border. */
static size_t cell_borders(const char *line, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (line[i] == '\\')
			i++;
		else if (line[i] == '|')
			n++;
	}
	return n;
}

Test(html_report, markdown_tables_keep_their_shape)
{
	struct page_build b;
	const char *line, *nl;
	size_t header_borders = 0, rows = 0;
	char *md, *tables;

	page_build_init(&b, 12, 0);
	md = markdown_of(&b, MARKDOWN_REPORT_MAX);
	/* Past the answers' fenced block (literal text), nothing of the build is markup. */
	tables = strstr(md, "\n```\n");
	cr_assert(not(eq(ptr, tables, NULL)));
	cr_assert(eq(ptr, strstr(tables, "<script>"), NULL));
	cr_assert(eq(ptr, strstr(tables, "[l](x)"), NULL), "a link from the build was not escaped");
	cr_assert(not(eq(ptr, strstr(tables, "\\<script\\>alert(1)\\</script\\>"), NULL)));
	/* Every row of a table has as many borders as its header. */
	for (line = md; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			break;
		if (*line != '|') {
			header_borders = 0;
			continue;
		}
		if (!header_borders) {
			header_borders = cell_borders(line, nl - line);
			continue;
		}
		cr_assert(eq(sz, cell_borders(line, nl - line), header_borders), "row: %.*s", (int)(nl - line), line);
		rows++;
	}
	cr_assert(not(eq(sz, rows, 0)));
	free(md);
	page_build_free(&b);
}

Test(html_report, markdown_stays_under_its_bound)
{
	struct page_build b;
	char *md;

	/* Long names, most of their bytes escaped: the tables overflow a small bound. */
	page_build_init(&b, 200, 400);
	md = markdown_of(&b, MARKDOWN_REPORT_MAX);
	cr_assert(lt(sz, strlen(md), (size_t)MARKDOWN_REPORT_MAX));
	free(md);
	md = markdown_of(&b, 3000);
	cr_assert(lt(sz, strlen(md), (size_t)3000), "%zu characters", strlen(md));
	cr_assert(not(eq(ptr, strstr(md, "left out to stay under 3000 characters"), NULL)), "%s", md);
	/* The answers come first and are always kept. */
	cr_assert(not(eq(ptr, strstr(md, "parallel?"), NULL)));
	free(md);
	page_build_free(&b);
}

Test(html_report, a_kernel_sized_build_is_folded_and_says_so)
{
	struct page_build b;
	char *page;
	size_t drawn;

	page_build_init(&b, 9000, 0);
	page = html_of(&b, NULL);
	drawn = count(page, "class=\"n\"");
	cr_assert(le(sz, drawn, 6000), "%zu processes drawn", drawn);
	cr_assert(ge(sz, drawn, 1000), "%zu processes drawn", drawn);
	cr_assert(not(eq(ptr, strstr(page, "folded (grey where nothing else is drawn; the trace has them)"), NULL)));
	cr_assert(eq(sz, drawn, 6000), "the 6000 widest, make among them");
	/* Where only folded ones ran, the lane shows a band, not nothing. */
	cr_assert(not(eq(ptr, strstr(page, "processes not drawn: "), NULL)));
	cr_assert(not(eq(ptr, strstr(page, "No JSON trace was written"), NULL)));
	free(page);
	page_build_free(&b);
}

Test(html_report, markdown_cells_escape_what_github_renders)
{
	char buf[128];

	cr_assert(eq(str, (char *)md_escape_cell("a|b<i>[x](y)&amp;\n", buf, sizeof(buf)),
		     "a\\|b\\<i\\>\\[x\\](y)\\&amp;?"));
	/* Cut, never past the buffer, never half an escape. */
	cr_assert(eq(str, (char *)md_escape_cell("||||||||", buf, 8), "\\|\\|\\|"));
}

/* The bidi controls and invisible characters a name could hide or reverse itself with. */
static const char *const unseen[] = {
	"\xe2\x80\xae", /* U+202E RIGHT-TO-LEFT OVERRIDE */
	"\xe2\x81\xa6", /* U+2066 LEFT-TO-RIGHT ISOLATE */
	"\xe2\x81\xa7", /* U+2067 RIGHT-TO-LEFT ISOLATE */
	"\xe2\x80\x8f", /* U+200F RIGHT-TO-LEFT MARK */
	"\xd8\x9c",	/* U+061C ARABIC LETTER MARK */
	"\xe2\x80\x8b", /* U+200B ZERO WIDTH SPACE */
	"\xef\xbb\xbf", /* U+FEFF ZERO WIDTH NO-BREAK SPACE */
};

/* s's bytes as \xNN each (with Markdown's backslash doubled when md). */
static void as_bytes(const char *s, bool md, char *out, size_t size)
{
	size_t o = 0;

	for (; *s; s++)
		o += snprintf(out + o, size - o, md ? "\\\\x%02x" : "\\x%02x", (unsigned char)*s);
}

static char *svg_text_of(const char *raw)
{
	char *text = NULL;
	size_t len;
	FILE *out = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, out, NULL)));
	svg_draw__text(out, raw);
	cr_assert(eq(int, fclose(out), 0));
	return text;
}

/*
 * The terminal shows every byte outside printable ASCII as \xNN; the page,
 * the picture and the Markdown show these characters the same way (and
 * the rest of a name's UTF-8 as it is): "cod\u202Eexe.c" reads reversed
 * nowhere.
 */
Test(html_report, bidi_and_invisible_characters_are_shown_not_obeyed)
{
	char name[64], bytes[64], shown[256], term[256], md[256];
	struct page_build b;
	char *svg, *page, *mdown;
	size_t i;

	for (i = 0; i < sizeof(unseen) / sizeof(unseen[0]); i++) {
		snprintf(name, sizeof(name), "caf\xc3\xa9%sexe.c", unseen[i]);
		as_bytes(unseen[i], false, bytes, sizeof(bytes));
		snprintf(shown, sizeof(shown), "caf\xc3\xa9%sexe.c", bytes);
		cr_assert(eq(str, (char *)term_escape(unseen[i], term, sizeof(term)), bytes), "the terminal's rule");
		svg = svg_text_of(name);
		cr_assert(eq(str, svg, shown), "the page and the picture");
		free(svg);
		as_bytes(unseen[i], true, bytes, sizeof(bytes));
		snprintf(shown, sizeof(shown), "caf\xc3\xa9%sexe.c", bytes);
		cr_assert(eq(str, (char *)md_escape_cell(name, md, sizeof(md)), shown), "the Markdown");
	}
	/* Other non-ASCII text is a name's own: kept. */
	svg = svg_text_of("\xe2\x82\xac \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d");
	cr_assert(eq(str, svg, "\xe2\x82\xac \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d"));
	free(svg);

	/* A whole page and summary of a build whose sources are named so. */
	page_build_named(&b, 3, 0, "evil\xe2\x80\xae" "c.exe\xe2\x81\xa6");
	page = html_of(&b, NULL);
	mdown = markdown_of(&b, MARKDOWN_REPORT_MAX);
	for (i = 0; i < sizeof(unseen) / sizeof(unseen[0]); i++) {
		cr_assert(eq(ptr, strstr(page, unseen[i]), NULL), "the page holds unseen character %zu raw", i);
		cr_assert(eq(ptr, strstr(mdown, unseen[i]), NULL), "the Markdown holds unseen character %zu raw", i);
	}
	cr_assert(not(eq(ptr, strstr(page, "evil\\xe2\\x80\\xaec.exe\\xe2\\x81\\xa6"), NULL)));
	cr_assert(not(eq(ptr, strstr(mdown, "evil\\\\xe2\\\\x80\\\\xaec.exe\\\\xe2\\\\x81\\\\xa6"), NULL)), "%s", mdown);
	free(page);
	free(mdown);
	page_build_free(&b);
}

/* md_escape_cell()'s text with its escapes undone: what the reader sees. */
static void md_unescape(const char *md, char *out)
{
	for (; *md; md++) {
		if (!strncmp(md, "<span>", 6) || !strncmp(md, "</span>", 7)) {
			md += md[1] == '/' ? 6 : 5;
			continue;
		}
		if (*md == '\\' && md[1])
			md++;
		*out++ = *md;
	}
	*out = '\0';
}

/*
 * What GitHub and GitLab turn into a link, a ping or math in a job summary
 * or a merge-request note: each such start is a <span> of its own, so no
 * text of the rendered page holds it with what follows (a backslash alone
 * leaves "@all" in the text, and a mention is found in the text).
 */
Test(html_report, markdown_cells_hold_no_link_mention_or_math)
{
	static const struct {
		const char *raw, *never;
	} cases[] = {
		{ "cc @all", "@all" },
		{ "ping @org/team", "@org" },
		{ "https://evil.example/x.c", "://" },
		{ "see www.evil.example", "www." },
		{ "WWW.EVIL.EXAMPLE", "WWW." },
		{ "mail root@evil.example", "@evil" },
		{ "$x^2$.c", "$x" },
		{ "$$\\sum$$", "$$" },
		{ "fixes #1 and owner/repo#2", "#1" },
	};
	char buf[512], seen[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		md_escape_cell(cases[i].raw, buf, sizeof(buf));
		cr_assert(eq(ptr, strstr(buf, cases[i].never), NULL), "%s: %s", cases[i].raw, buf);
		/* Nothing is lost: the reader sees the name. */
		md_unescape(buf, seen);
		cr_assert(eq(str, seen, (char *)cases[i].raw), "%s", buf);
	}
	cr_assert(eq(str, (char *)md_escape_cell("a@b", buf, sizeof(buf)), "a<span>\\@</span>b"));
	/* Only what starts one: a colon of our own text stays plain. */
	cr_assert(eq(str, (char *)md_escape_cell("note: a.b www", buf, sizeof(buf)), "note: a.b www"));
	/* Cut between pieces, never inside a <span> nor a character. */
	cr_assert(eq(str, (char *)md_escape_cell("ab@c", buf, 16), "ab"));
	cr_assert(eq(str, (char *)md_escape_cell("ab\xc3\xa9", buf, 4), "ab"));
}

/* FIPS 180-4's examples (one block, two blocks, none). */
Test(html_report, sha256_is_fips_180s)
{
	static const struct {
		const char *msg, *base64;
	} vectors[] = {
		{ "abc", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE=" },
		{ "", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=" },
	};
	char out[SHA256_BASE64_LEN];
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(vectors[0]); i++) {
		sha256_base64(vectors[i].msg, strlen(vectors[i].msg), out);
		cr_assert(eq(str, out, (char *)vectors[i].base64), "\"%s\"", vectors[i].msg);
	}
}

Test(html_report, the_policy_runs_only_the_pages_own_script)
{
	struct page_build b;
	char *page;

	page_build_init(&b, 12, 0);
	page = html_of(&b, "t.json");
	assert_page_runs_only_its_script(page);
	free(page);
	page_build_free(&b);
}

Test(html_report, trace_link_is_relative_and_encoded)
{
	char dir[] = "/tmp/bb-href-XXXXXX", sub[64], from[128], to[128];
	char *href;

	cr_assert(not(eq(ptr, mkdtemp(dir), NULL)));
	snprintf(sub, sizeof(sub), "%s/a b", dir);
	cr_assert(eq(int, mkdir(sub, 0700), 0));
	snprintf(from, sizeof(from), "%s/page.html", sub);
	snprintf(to, sizeof(to), "%s/t\"<>.json", dir);
	href = href_relative(from, to);
	cr_assert(eq(str, href, "../t%22%3C%3E.json"));
	free(href);
	href = href_relative(to, from);
	cr_assert(eq(str, href, "a%20b/page.html"));
	free(href);
	href = href_relative(from, from);
	cr_assert(eq(str, href, "page.html"));
	free(href);
	rmdir(sub);
	rmdir(dir);
}

/*
 * The page's answers are rows, one per brief answer: the question apart
 * from the words, the words the brief report prints (no "buildbpf: ", no
 * line breaks), the shown ones exactly those the report prints.
 */
Test(html_report, answers_are_rows_of_the_brief_report)
{
	struct answer_row rows[AUDIT_ANSWERS_MAX];
	struct page_build b;
	char *page, *brief = NULL, tr[128];
	size_t nr, i, len;
	FILE *out;

	page_build_init(&b, 12, 0);
	cr_assert(eq(int, answer_rows__compute(rows, &nr, &b.a, b.m), 0));
	cr_assert(not(eq(sz, nr, 0)));
	cr_assert(eq(str, (char *)rows[0].id, "parallel"));
	cr_assert(eq(str, rows[0].question, "parallel?"));
	out = open_memstream(&brief, &len);
	cr_assert(not(eq(ptr, out, NULL)));
	audit_answers__print_brief(out, &b.a, b.m, AUDIT_REPORT_ANSWER_LINES);
	cr_assert(eq(int, fclose(out), 0));
	page = html_of(&b, NULL);
	cr_assert(eq(ptr, strstr(page, "<pre"), NULL), "the answers are a block of terminal text");
	for (i = 0; i < nr; i++) {
		cr_assert(eq(ptr, strstr(rows[i].text, "buildbpf:"), NULL), "%s", rows[i].text);
		cr_assert(eq(ptr, strchr(rows[i].text, '\n'), NULL), "%s", rows[i].text);
		/* The words' start is in the report, after its question, only when the report shows it. */
		cr_assert(eq(int, strstr(brief, rows[i].question) != NULL, rows[i].shown), "%s", rows[i].id);
		snprintf(tr, sizeof(tr), "<tr data-answer=\"%s\"", rows[i].id);
		cr_assert(not(eq(ptr, strstr(page, tr), NULL)), "no row for %s", rows[i].id);
	}
	answer_rows__free(rows, nr);
	free(brief);
	free(page);
	page_build_free(&b);
}
