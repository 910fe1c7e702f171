/* SPDX-License-Identifier: GPL-2.0 */
/* The HTML report's inline style and script (report/html_report.h). */
#ifndef BUILDBPF_HTML_ASSETS_H
#define BUILDBPF_HTML_ASSETS_H

extern const char html_assets_style[];
extern const char html_assets_script[];

/* Room for html_assets_csp()'s policy and its NUL. */
#define HTML_ASSETS_CSP_LEN 256
/*
 * The page's content security policy: nothing fetched, and no script but
 * html_assets_script, named by its SHA-256 computed here from the script
 * itself (so the two cannot drift), nor any <base> or form target.  A name
 * the escaping let through as markup would then run nothing.
 */
void html_assets_csp(char out[HTML_ASSETS_CSP_LEN]);

#endif /* BUILDBPF_HTML_ASSETS_H */
