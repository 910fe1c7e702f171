/* SPDX-License-Identifier: GPL-2.0 */
/* The SVG tests' check that a picture is well-formed XML. */
#ifndef BUILDBPF_TESTS_XML_CHECK_H
#define BUILDBPF_TESTS_XML_CHECK_H

#include <stddef.h>

/*
 * A small XML well-formedness check: tags balance, attributes are quoted,
 * text and attribute values hold no raw '<' or bare '&', no control bytes.
 * Returns NULL or what is wrong.
 */
const char *xml_check(const char *x, size_t *nr_elements);

#endif /* BUILDBPF_TESTS_XML_CHECK_H */
