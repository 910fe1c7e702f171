// SPDX-License-Identifier: GPL-2.0
/* Whose a process is, and what the kernel hides of it from a user: one rule for --attach's target and its tree. */
#include <errno.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "record/proc_owner.h"
#include "events.h"

static const struct run_as alice = { .uid = 1000, .gid = 1000, .name = "alice" };

/* alice's own process, dumpable. */
static struct proc_owner alices(void)
{
	return (struct proc_owner){ .uids = { 1000, 1000, 1000 }, .gids = { 1000, 1000, 1000 }, .proc_uid = 1000 };
}

Test(proc_owner, reads_this_process)
{
	struct proc_owner o;
	size_t i;

	cr_assert(eq(int, proc_owner__read(getpid(), &o), 0));
	for (i = 0; i < 3; i++) {
		cr_assert(eq(u32, o.uids[i], getuid()), "uid %zu", i);
		cr_assert(eq(u32, o.gids[i], getgid()), "gid %zu", i);
	}
	/* Dumpable: /proc/PID is owned by its euid. */
	cr_assert(eq(u32, o.proc_uid, geteuid()));
	/* Above the kernel's PID_MAX_LIMIT (4M): no such process. */
	cr_assert(eq(int, proc_owner__read(5000000, &o), -ENOENT));
}

Test(proc_owner, a_user_reads_only_their_own_dumpable_processes)
{
	const struct run_as root = { .uid = 0, .gid = 0, .name = "root" };
	struct proc_owner o = alices();

	cr_assert(eq(u32, proc_owner__hidden(&o, &alice), 0));
	o.uids[2] = 0; /* a setuid program's saved uid */
	cr_assert(eq(u32, proc_owner__hidden(&o, &alice), BB_HIDDEN_CREDS));
	cr_assert(eq(u32, proc_owner__hidden(&o, &root), 0)); /* root's hides nothing */
	o = alices();
	o.gids[1] = 42; /* setgid */
	cr_assert(eq(u32, proc_owner__hidden(&o, &alice), BB_HIDDEN_CREDS));
	o = alices();
	o.proc_uid = 0; /* PR_SET_DUMPABLE 0: /proc/PID is root's */
	cr_assert(eq(u32, proc_owner__hidden(&o, &alice), BB_HIDDEN_NOT_DUMPABLE));
	/* Another user's process: the credentials are the reason, whatever /proc/PID's owner. */
	o = (struct proc_owner){ .uids = { 0, 0, 0 }, .gids = { 0, 0, 0 }, .proc_uid = 0 };
	cr_assert(eq(u32, proc_owner__hidden(&o, &alice), BB_HIDDEN_CREDS));
}
