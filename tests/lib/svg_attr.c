// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "svg_attr.h"

double svg_attr(const char *svg, const char *marker, const char *attr)
{
	const char *at = strstr(svg, marker), *tag;
	char key[32];

	cr_assert(not(eq(ptr, (void *)at, NULL)), "no %s", marker);
	/* Back to the start of the element the marker is in. */
	for (tag = at; tag > svg && *tag != '<'; tag--)
		;
	snprintf(key, sizeof(key), " %s=\"", attr);
	tag = strstr(tag, key);
	cr_assert(not(eq(ptr, (void *)tag, NULL)), "no %s in the element of %s", attr, marker);
	return atof(tag + strlen(key));
}
