// SPDX-License-Identifier: GPL-2.0
/* The one sentence that says as whom buildbpf read or wrote when it was refused. */
#include <errno.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "util/as_user.h"

Test(as_user, names_the_user_only_for_a_permission_error_after_leaving_root)
{
	char buf[AS_USER_HINT_BUF];

	cr_assert(eq(str,
		     (char *)as_user__hint(buf, sizeof(buf), EACCES, "alice", "writes", "choose a path {} can write"),
		     " (buildbpf writes as alice, not root; choose a path alice can write)"));
	cr_assert(eq(str, (char *)as_user__hint(buf, sizeof(buf), EPERM, "alice", "writes", "remove it by hand"),
		     " (buildbpf writes as alice, not root; remove it by hand)"));
	cr_assert(eq(str, (char *)as_user__hint(buf, sizeof(buf), EACCES, "bob", "reads", NULL),
		     " (buildbpf reads as bob, not root)"));
	/* Root, or another error: nothing to explain. */
	cr_assert(eq(str, (char *)as_user__hint(buf, sizeof(buf), EACCES, NULL, "writes", "x"), ""));
	cr_assert(eq(str, (char *)as_user__hint(buf, sizeof(buf), ENOENT, "alice", "writes", "x"), ""));
	/* A name from the password database is escaped like any other name buildbpf prints. */
	cr_assert(eq(str, (char *)as_user__hint(buf, sizeof(buf), EACCES, "a\033[2Jb", "reads", NULL),
		     " (buildbpf reads as a\\x1b[2Jb, not root)"));
}
