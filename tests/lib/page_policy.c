// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/sha256.h"
#include "page_policy.h"

/* The policy of page's script-src, up to the next ';' or '"'. */
static void script_src_of(const char *page, char *out, size_t size)
{
	const char *csp = strstr(page, "Content-Security-Policy\" content=\""), *src;

	cr_assert(csp != NULL, "no policy");
	src = strstr(csp, "script-src ");
	cr_assert(src != NULL, "no script-src");
	snprintf(out, size, "%.*s", (int)strcspn(src, ";\""), src);
}

void assert_page_runs_only_its_script(const char *page)
{
	char src[256], want[128], hash[SHA256_BASE64_LEN];
	const char *at, *end = page;
	size_t scripts = 0, elements = 0;

	script_src_of(page, src, sizeof(src));
	cr_assert(eq(ptr, strstr(src, "unsafe-inline"), NULL), "%s", src);
	cr_assert(strstr(page, "base-uri 'none'") != NULL);
	cr_assert(strstr(page, "form-action 'none'") != NULL);
	for (at = strstr(page, "<script>"); at; at = strstr(end, "<script>")) {
		at += strlen("<script>");
		end = strstr(at, "</script>");
		cr_assert(end != NULL);
		sha256_base64(at, end - at, hash);
		snprintf(want, sizeof(want), "'sha256-%s'", hash);
		cr_assert(strstr(src, want) != NULL, "the script's %s is not in %s", want, src);
		scripts++;
	}
	for (at = strstr(page, "<script"); at; at = strstr(at + 1, "<script"))
		elements++;
	cr_assert(eq(sz, scripts, 1));
	cr_assert(eq(sz, elements, 1), "a script element with attributes");
}
