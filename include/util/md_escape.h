/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text from a build (a step's name, a path) put in Markdown: GitHub
 * renders a comment's or a job summary's Markdown, raw HTML and links
 * included, so a name must stay text and must not end a table cell.
 */
#ifndef BUILDBPF_MD_ESCAPE_H
#define BUILDBPF_MD_ESCAPE_H

#include <stddef.h>

/*
 * raw as one table cell's text, in buf (size bytes, cut between characters
 * when it does not fit), valid UTF-8: Markdown's and HTML's special
 * characters backslash-escaped; what would start a mention, an autolink,
 * an issue reference or math (@ # $, the ':' of "://", the dot of "www.")
 * each in a <span> of its own; control bytes as '?'; a character that
 * changes how the text reads without being seen (utf8_invisible_len()) as
 * its bytes, \\xNN.  Returns buf.
 */
const char *md_escape_cell(const char *raw, char *buf, size_t size);

#endif /* BUILDBPF_MD_ESCAPE_H */
