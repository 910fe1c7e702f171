/* SPDX-License-Identifier: GPL-2.0 */
/* The HTML report's inline style and script (report/html_report.h). */
#ifndef BUILDBPF_HTML_ASSETS_H
#define BUILDBPF_HTML_ASSETS_H

extern const char html_assets_style[];
extern const char html_assets_script[];

#endif /* BUILDBPF_HTML_ASSETS_H */
