/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a shell runs, as the step names read it: its -c script or script
 * file, and the step a "sh -c" script runs, past the cds and the prelude
 * (set -e, trap, echo) before it.  Pure.
 */
#ifndef BUILDBPF_MODEL_SHELL_STEP_H
#define BUILDBPF_MODEL_SHELL_STEP_H

#include <stdbool.h>
#include "model/model.h"
#include "model/shell_words.h"

/*
 * What a shell image runs: *script for "sh [opts] -c SCRIPT", else *file
 * for "sh [opts] FILE".  Both NULL for an interactive or stdin shell.
 */
void shell_operand(const struct exec_image *img, const char **script, const char **file);
/* The configure script a shell image runs ("bash ../pkg/configure"), or NULL. */
const char *shell_configure_script(const struct exec_image *img);
/*
 * The step a "sh -c" script runs: its first command that is not a cd or
 * a prelude.  *dir (malloc'd) follows the cds before it; *rest is where
 * that command starts in the script, or the one a name cannot follow
 * (-EINVAL), or, when there is none (0), the first prelude that shows
 * something ("echo '  CHECK x.c'"), else the script's start; *silent whether every command
 * before it was a prelude that shows nothing.  1 with cmd filled, 0 when
 * there is none, -EINVAL, -ENOMEM.
 */
int shell_script_step(const char *script, char **dir, struct shell_cmd *cmd, const char **rest, bool *silent);
/*
 * The file the first trap of a script's prelude removes: kbuild wraps each
 * line of a recipe in "set -e; trap 'rm -f mm/x.o; trap - HUP; kill -s HUP
 * $$' HUP; …" so that a signal leaves no half-made target.  Read up to that
 * trap only, so a script cut after it still names its target.  *target
 * (malloc'd) NULL when it has no such trap.  0 or -ENOMEM.
 */
int shell_trap_target(const char *script, char **target);
/*
 * Where the k-th make (from 0) that a script starts works, when the script
 * is automake's recursive rule: "list='include src . tests'; for subdir in
 * $list; do … (cd $subdir && make $local_target) …; done" runs one make
 * per listed directory, one after the other, in the shell's own one when
 * none is ".".  *subdir (malloc'd, as listed) NULL when the script is no
 * such loop, its lists differ, or k is past them.  0 or -ENOMEM.
 */
int shell_loop_subdir(const char *script, size_t k, char **subdir);

/*
 * The target of automake's recursive rule (the loop above): make put its
 * $@ in the script, "target=`echo all-recursive | sed s/-recursive//`".
 * *target (malloc'd) NULL for any other script.  0 or -ENOMEM.
 */
int shell_recursive_target(const char *script, char **target);
/*
 * A compiler probe of kbuild: scripts/Makefile.compiler's try-run ("set
 * -e; TMP=.tmp_$$/tmp; …; if (gcc … -fno-PIE -c -x c /dev/null -o
 * \"$TMP\") …; then echo \"-fno-PIE\"; …") or Kconfig's cc-option ("trap
 * \"rm -rf .tmp_$$\" EXIT; …; gcc -Werror -fno-PIE -c -x c /dev/null …"):
 * *kind "cc-option", "as-option" or "try-run", *option (malloc'd) the
 * option it probes.  Both NULL for any other script.  0 or -ENOMEM.
 */
int shell_kbuild_probe(const char *script, const char **kind, char **option);

#endif /* BUILDBPF_MODEL_SHELL_STEP_H */
