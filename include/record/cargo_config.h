/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cargo's build.jobs as cargo itself would find it for a command started
 * in a directory: its config files (.cargo/config, else
 * .cargo/config.toml) in that directory and each one above it, the
 * deepest first, then $CARGO_HOME's.  The recorder reads them, as the
 * user, when it launches the command, so that the audit can say where
 * cargo's -j came from (log/event_log.h, struct bbl_jobs_settings).
 *
 *   struct cargo_config c;
 *   cargo_config__find_jobs(&c, cwd, cargo_home);   c.jobs, c.file
 *   cargo_config__free(&c);
 */
#ifndef BUILDBPF_RECORD_CARGO_CONFIG_H
#define BUILDBPF_RECORD_CARGO_CONFIG_H

struct cargo_config {
	char *jobs; /* the value as written: "4", "-1", "default"; NULL: no file sets it */
	char *file; /* the file that set it */
};

/*
 * The value of build.jobs in a config file's text ([build] jobs = N,
 * build.jobs = N, build = { jobs = N }), a string's quotes taken off;
 * malloc'd, NULL when it sets none (or without memory).
 */
char *cargo_config__jobs_in(const char *text);
/* Fills c (zeroed first); cwd NULL: none looked for.  0, or -ENOMEM. */
int cargo_config__find_jobs(struct cargo_config *c, const char *cwd, const char *cargo_home);
void cargo_config__free(struct cargo_config *c);

#endif /* BUILDBPF_RECORD_CARGO_CONFIG_H */
