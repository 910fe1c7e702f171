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

/*
 * A timeline's caption: the one scale both are drawn on, and where this
 * build's ends on it.  0, or -ENOMEM.
 */
static int scale_caption(char **caption, const struct diff *d, const struct diff_side *b, __u64 span_ns)
{
	bool old_longer = d->old_b->a->wall_ns >= d->new_b->a->wall_ns;

	if (asprintf(caption, "Both builds' timelines are drawn on one time scale, the longer build's wall (%s, "
			      "%.2f s), so that their lengths compare at a glance: this build (%.2f s) ends %.0f %% of "
			      "the way across.  Zooming changes this timeline's scale alone; fit restores it.",
		     old_longer ? "old" : "new", span_ns / 1e9, b->a->wall_ns / 1e9,
		     span_ns ? 100.0 * b->a->wall_ns / span_ns : 100.0) < 0) {
		*caption = NULL;
		return -ENOMEM;
	}
	return 0;
}

static int put_side(FILE *out, const struct diff *d, const struct diff_side *b, const char *which,
		    const char *id_prefix)
{
	struct html_build hb = { .a = b->a, .s = b->s, .span_ns = diff__longer_wall_ns(d) };
	struct trace_layout *tl;
	char *caption;
	int err;

	if (scale_caption(&caption, d, b, hb.span_ns))
		return -ENOMEM;
	hb.timeline_caption = caption;
	hb.tl = tl = trace_layout__new(b->m);
	if (!tl) {
		free(caption);
		return -ENOMEM;
	}
	fprintf(out, "<div class=\"bb-side\"><h2>%s: ", which);
	svg_draw__text(out, b->name);
	fputs("</h2>\n", out);
	err = html_report__overview(out, &hb, id_prefix);
	fputs("</div>\n", out);
	trace_layout__free(tl);
	free(caption);
	return err;
}

int diff_html__write(FILE *out, const struct diff *d)
{
	int err;

	html_report__begin(out, "buildbpf diff");
	err = put_comparison(out, d);
	fputs("<div class=\"bb-grid\">\n", out);
	err = err ?: put_side(out, d, d->old_b, "Old", "old-") ?: put_side(out, d, d->new_b, "New", "new-");
	fputs("</div>\n", out);
	html_report__end(out);
	return err ?: (ferror(out) ? -EIO : 0);
}
