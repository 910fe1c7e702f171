// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/capability.h>
#include "record/privilege.h"
#include "util/term_escape.h"

static int parse_id(const char *s, unsigned long *out)
{
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	*out = strtoul(s, &end, 10);
	return errno || *end ? -1 : 0;
}

static void fill_from_passwd(struct run_as *ra, const struct passwd *pw)
{
	snprintf(ra->name, sizeof(ra->name), "%s", pw->pw_name);
	snprintf(ra->home, sizeof(ra->home), "%s", pw->pw_dir);
	snprintf(ra->shell, sizeof(ra->shell), "%s", pw->pw_shell && *pw->pw_shell ? pw->pw_shell : "/bin/sh");
}

const char *run_as__user(const struct run_as *ra)
{
	return ra->drop ? ra->name : NULL;
}

int run_as__resolve(struct run_as *ra, const char *user_opt, bool keep_root, bool keep_env)
{
	const struct passwd *pw;
	unsigned long id, gid;
	const char *sudo_uid;

	memset(ra, 0, sizeof(*ra));
	/* Only root may act for another user: a user whose buildbpf has file
	 * capabilities must not have another user's processes pass the
	 * ownership checks (--attach, --follow, --cgroup) as theirs. */
	if (user_opt && getuid() != 0) {
		fprintf(stderr, "buildbpf: --user is for root only (hint: run buildbpf as that user, or under sudo)\n");
		return -1;
	}
	if (user_opt) {
		pw = getpwnam(user_opt);
		if (!pw && parse_id(user_opt, &id) == 0)
			pw = getpwuid(id);
		if (!pw) {
			char esc[TERM_ESCAPE_BUF];

			fprintf(stderr, "buildbpf: --user '%s': no such user\n",
				term_escape(user_opt, esc, sizeof(esc)));
			return -1;
		}
		ra->uid = pw->pw_uid;
		ra->gid = pw->pw_gid;
		/* --user root: root, as asked; nothing to leave. */
		ra->drop = getuid() == 0 && ra->uid != 0;
		ra->login_env = !keep_env && getuid() == 0;
		fill_from_passwd(ra, pw);
		return 0;
	}

	ra->uid = getuid();
	ra->gid = getgid();
	sudo_uid = getenv("SUDO_UID");
	if (!keep_root && ra->uid == 0 && sudo_uid) {
		if (parse_id(sudo_uid, &id) || parse_id(getenv("SUDO_GID"), &gid)) {
			fprintf(stderr, "buildbpf: SUDO_UID/SUDO_GID are not numbers (hint: --user NAME or --keep-root)\n");
			return -1;
		}
		ra->uid = id;
		ra->gid = gid;
		ra->drop = ra->uid != 0;
	}
	pw = getpwuid(ra->uid);
	if (pw) {
		fill_from_passwd(ra, pw);
	} else {
		snprintf(ra->name, sizeof(ra->name), "%lu", (unsigned long)ra->uid);
		snprintf(ra->home, sizeof(ra->home), "/");
		snprintf(ra->shell, sizeof(ra->shell), "/bin/sh");
	}
	return 0;
}

/* Whether any capability is left in the permitted or effective set. */
static bool has_capabilities(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};
	int i;

	if (syscall(SYS_capget, &hdr, data))
		return true;
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
		if (data[i].permitted || data[i].effective || data[i].inheritable)
			return true;
	return false;
}

/* Clears every capability set; the ambient one first (it needs none). */
static int clear_capabilities(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {};

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) && errno != EINVAL)
		return -1;
	return syscall(SYS_capset, &hdr, data) ? -1 : 0;
}

static int fail(const struct run_as *ra, const char *step)
{
	char esc[TERM_ESCAPE_BUF];

	fprintf(stderr, "buildbpf: cannot become user '%s' (%s): %s (hint: --keep-root to run as root)\n",
		term_escape(ra->name, esc, sizeof(esc)), step, strerror(errno));
	return -1;
}

/* Root that stays root (--keep-root, plain root): the command is meant to be root. */
static bool stays_root(const struct run_as *ra)
{
	return !ra->drop && getuid() == 0 && geteuid() == 0;
}

/*
 * A user's buildbpf given capabilities (file capabilities, ambient ones)
 * instead of sudo: no uid to leave, the capabilities go.  The bounding set
 * stays: it grants nothing, and the build runs setuid programs (sudo, ping)
 * as it would without buildbpf.
 */
static int drop_capabilities(void)
{
	if (clear_capabilities() || prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)) {
		fprintf(stderr, "buildbpf: cannot drop its capabilities: %s\n", strerror(errno));
		return -1;
	}
	if (has_capabilities()) {
		fprintf(stderr, "buildbpf: capabilities are left after dropping them; not going on with them\n");
		return -1;
	}
	return 0;
}

int privilege__drop(const struct run_as *ra)
{
	uid_t ruid, euid, suid;
	gid_t rgid, egid, sgid;

	if (stays_root(ra))
		return 0;
	if (!ra->drop)
		return drop_capabilities();
	/* The user's own groups, none of root's; a uid with no passwd
	 * entry (SUDO_UID of a removed user) gets its primary group only. */
	if (initgroups(ra->name, ra->gid) && setgroups(1, &ra->gid))
		return fail(ra, "groups");
	if (setresgid(ra->gid, ra->gid, ra->gid))
		return fail(ra, "gid");
	if (setresuid(ra->uid, ra->uid, ra->uid))
		return fail(ra, "uid");
	if (clear_capabilities())
		return fail(ra, "capabilities");
	/* Not dumpable: the build runs as the same uid now and must not
	 * ptrace buildbpf, read its memory or take its BPF fds. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return fail(ra, "dumpable");
	if (getresuid(&ruid, &euid, &suid) || getresgid(&rgid, &egid, &sgid))
		return fail(ra, "check");
	errno = EPERM;
	if (ruid != ra->uid || euid != ra->uid || suid != ra->uid || rgid != ra->gid || egid != ra->gid ||
	    sgid != ra->gid || has_capabilities())
		return fail(ra, "check");
	/* For good: neither id nor capability brings root back. */
	if (ra->uid != 0 && (setuid(0) == 0 || seteuid(0) == 0 || setresuid(-1, 0, -1) == 0)) {
		errno = EPERM;
		return fail(ra, "root could be regained");
	}
	return 0;
}

int privilege__drop_holding_nothing(const struct run_as *ra)
{
	if (privilege__drop(ra))
		return -1;
	if (!stays_root(ra) && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return fail(ra, "dumpable");
	return 0;
}
