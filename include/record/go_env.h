/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GOFLAGS from go's own env file, the one `go env -w GOFLAGS=-p=1` writes:
 * $GOENV (none when "off"), else $XDG_CONFIG_HOME/go/env (an absolute
 * one), else $HOME/.config/go/env, as the go command finds it for the
 * user it runs as.  The recorder reads it, as the user, when it launches
 * the command, beside cargo's config (record/cargo_config.h), so that the
 * audit can say where go's -p came from (log/event_log.h, struct
 * bbl_jobs_settings).  go itself takes $GOFLAGS before the file: that
 * choice is the job count's (model/tool_jobs.h).
 *
 *   struct go_env g;
 *   go_env__find_goflags(&g, goenv, xdg_config_home, home);   g.goflags, g.file
 *   go_env__free(&g);
 */
#ifndef BUILDBPF_RECORD_GO_ENV_H
#define BUILDBPF_RECORD_GO_ENV_H

struct go_env {
	char *goflags; /* the value as written: "-p=1 -mod=mod"; NULL: the file sets none */
	char *file;    /* the file that set it */
};

/*
 * The value of name in an env file's text, as go reads it: lines
 * NAME=VALUE, the value to the line's end, the last line naming it
 * winning; a line not starting with A-Z (a comment) or without '=' is
 * skipped.  malloc'd, NULL when none sets it (or without memory).
 */
char *go_env__value_in(const char *text, const char *name);
/* Fills g (each argument NULL when unset); without memory g is left empty, the setting unknown. */
void go_env__find_goflags(struct go_env *g, const char *goenv, const char *xdg_config_home, const char *home);
void go_env__free(struct go_env *g);

#endif /* BUILDBPF_RECORD_GO_ENV_H */
