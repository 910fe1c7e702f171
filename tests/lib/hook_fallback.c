// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <criterion/criterion.h>
#include <criterion/logging.h>
#include <criterion/new/assert.h>
#include "lib/bpf_census.h"
#include "lib/integration.h"
#include "lib/json_fields.h"
#include "lib/hook_fallback.h"
#include "record/kernel_btf.h"

void bb_trampoline_fill(struct bb_trampoline_fill *f, const char *func)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct kernel_btf kb;
	int id, err = 0;

	memset(f, 0, sizeof(*f));
	kernel_btf__read(&kb);
	id = kernel_btf__func_id(&kb, func);
	kernel_btf__release(&kb);
	cr_assert(lt(int, 0, id), "%s: not in the kernel's BTF (%d)", func, id);
	while (!err && f->nr < BB_TRAMP_FILL_MAX) {
		LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY, .attach_btf_id = id);
		int prog = bpf_prog_load(BPF_PROG_TYPE_TRACING, "bb_tramp_fill", "GPL", ret0, 2, &opts), link;

		cr_assert(ge(int, prog, 0), "fentry/%s does not load: %s", func, strerror(errno));
		/* The link holds the program: its fd is not needed. */
		link = bpf_link_create(prog, 0, BPF_TRACE_FENTRY, NULL);
		err = link < 0 ? errno : 0;
		close(prog);
		if (!err)
			f->link_fd[f->nr++] = link;
	}
	cr_assert(eq(int, err, E2BIG), "fentry/%s: %zu attached, then %s", func, f->nr, strerror(err));
	cr_assert(lt(sz, (size_t)0, f->nr), "fentry/%s: the kernel took none", func);
	cr_log_info("fentry/%s: the kernel took %zu programs, then E2BIG", func, f->nr);
}

void bb_trampoline_release(struct bb_trampoline_fill *f)
{
	while (f->nr)
		close(f->link_fd[--f->nr]);
}

char *bb_require_hook(const struct bb_run *r, const char *line)
{
	char *text = bb_run_plain(r, r->dir, (const char *[]){ bb_bin_path(), "--version", NULL }, false, NULL);

	if (!strstr(text, line)) {
		free(text);
		cr_skip_test("buildbpf --version does not say \"%s\" on this kernel: no fentry to fall back from", line);
	}
	return text;
}

/* How often needle occurs in text. */
static size_t occurrences(const char *text, const char *needle)
{
	size_t n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

void bb_run_with_full_trampoline(const struct bb_fallback_case *c)
{
	struct bb_bpf_census before, during, after;
	struct bb_trampoline_fill fill;
	struct json_object *summary;
	char census[1024], said[128], *text;

	snprintf(census, sizeof(census), "%s", bb_test_prog("bpf-census"));
	/* Another test's buildbpf would take a slot a run of its ends frees, and be refused. */
	bb_hold_kernel_alone();
	bb_trampoline_fill(&fill, c->func);
	bb_bpf_census_take(&run, &before);
	bb_run_in(&run,
		  (const char *[]){ "-v", "--deps=on", "-o", "t.json", "--summary-json", "s.json", "--", "sh", "-c",
				    c->script, census, c->arg1, NULL },
		  NULL);
	cr_assert(eq(int, run.status, c->status), "stderr: %s", run.err);
	/* Both fallbacks' warnings start so: one, and the one expected. */
	cr_assert(eq(sz, occurrences(run.err, "buildbpf: warning: the fentry "), 1), "stderr: %s", run.err);
	snprintf(said, sizeof(said), "buildbpf: warning: %s", c->warning);
	cr_assert(strstr(run.err, said) != NULL, "stderr: %s", run.err);
	snprintf(said, sizeof(said), "buildbpf: memory checkpoints: %s", c->mem_hook);
	cr_assert(strstr(run.err, said) != NULL, "stderr: %s", run.err);
	snprintf(said, sizeof(said), "buildbpf: file dependencies: %s, on", c->deps_hook);
	cr_assert(strstr(run.err, said) != NULL, "stderr: %s", run.err);
	summary = bb_load_summary(&run, "s.json");
	cr_assert(eq(str, (char *)json_object_get_string(need_field(summary, "mem_hook")), (char *)c->mem_hook));
	cr_assert(eq(str, (char *)json_object_get_string(need_field(summary, "deps_hook")), (char *)c->deps_hook));
	json_object_put(summary);

	text = bb_file_text(bb_path(&run, "census.txt"), NULL);
	bb_bpf_census_parse(text, &during);
	free(text);
	bb_bpf_census_check_run(&before, &during, c->want, c->unwanted);
	bb_bpf_census_take(&run, &after);
	bb_bpf_census_assert_same(&before, &after);
	bb_trampoline_release(&fill);
}
