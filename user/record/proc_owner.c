// SPDX-License-Identifier: GPL-2.0
/* Whose a running process is: include/record/proc_owner.h. */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>
#include "record/proc_owner.h"
#include "events.h"

int proc_owner__read(pid_t pid, struct proc_owner *o)
{
	char path[64], line[256];
	unsigned long r, e, s;
	struct stat st;
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (found < 2 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %lu %lu %lu", &r, &e, &s) == 3) {
			o->uids[0] = r;
			o->uids[1] = e;
			o->uids[2] = s;
			found++;
		} else if (sscanf(line, "Gid: %lu %lu %lu", &r, &e, &s) == 3) {
			o->gids[0] = r;
			o->gids[1] = e;
			o->gids[2] = s;
			found++;
		}
	}
	fclose(f);
	if (found != 2)
		return -ENODATA;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (stat(path, &st))
		return -errno;
	o->proc_uid = st.st_uid;
	return 0;
}

__u32 proc_owner__hidden(const struct proc_owner *o, const struct run_as *ra)
{
	size_t i;

	if (ra->uid == 0)
		return 0;
	for (i = 0; i < 3; i++)
		if (o->uids[i] != ra->uid || o->gids[i] != ra->gid)
			return BB_HIDDEN_CREDS;
	return o->proc_uid != ra->uid ? BB_HIDDEN_NOT_DUMPABLE : 0;
}
