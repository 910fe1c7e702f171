// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include "diff/diff_html.h"
#include "diff/diff_report.h"
#include "report/html_report.h"
#include "report/svg_draw.h"

/* The comparison's text report (names already terminal-escaped), escaped for HTML. */
static int put_comparison(FILE *out, const struct diff *d)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	if (!mem)
		return -ENOMEM;
	diff_report__text(mem, d);
	if (fclose(mem)) {
		free(text);
		return -ENOMEM;
	}
	html_report__put_pre(out, "comparison", "Comparison", text);
	free(text);
	return 0;
}

static int put_side(FILE *out, const struct diff_side *b, const char *which, const char *id_prefix)
{
	struct trace_layout *tl = trace_layout__new(b->m);
	const struct html_build hb = { .a = b->a, .tl = tl, .s = b->s };
	int err;

	if (!tl)
		return -ENOMEM;
	fprintf(out, "<div class=\"bb-side\"><h2>%s: ", which);
	svg_draw__text(out, b->name);
	fputs("</h2>\n", out);
	err = html_report__overview(out, &hb, id_prefix);
	fputs("</div>\n", out);
	trace_layout__free(tl);
	return err;
}

int diff_html__write(FILE *out, const struct diff *d)
{
	int err;

	html_report__begin(out, "buildbpf diff");
	err = put_comparison(out, d);
	fputs("<div class=\"bb-grid\">\n", out);
	err = err ?: put_side(out, d->old_b, "Old", "old-") ?: put_side(out, d->new_b, "New", "new-");
	fputs("</div>\n", out);
	html_report__end(out);
	return err ?: (ferror(out) ? -EIO : 0);
}
