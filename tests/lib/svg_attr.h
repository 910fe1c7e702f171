/* SPDX-License-Identifier: GPL-2.0 */
/* Reading the SVG the report writes, for its unit tests. */
#ifndef BUILDBPF_TESTS_SVG_ATTR_H
#define BUILDBPF_TESTS_SVG_ATTR_H

/*
 * The numeric value of attribute attr of the first element whose text
 * (tag or content) carries marker; the test fails when there is none.
 */
double svg_attr(const char *svg, const char *marker, const char *attr);

#endif /* BUILDBPF_TESTS_SVG_ATTR_H */
