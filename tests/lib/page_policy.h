/* SPDX-License-Identifier: GPL-2.0 */
/* The content security policy of a page written by --html or diff --html. */
#ifndef BUILDBPF_TESTS_PAGE_POLICY_H
#define BUILDBPF_TESTS_PAGE_POLICY_H

/*
 * Fails the test unless page's policy allows its one inline script by that
 * script's SHA-256, no script by 'unsafe-inline', and sets base-uri and
 * form-action to 'none'.
 */
void assert_page_runs_only_its_script(const char *page);

#endif /* BUILDBPF_TESTS_PAGE_POLICY_H */
