// SPDX-License-Identifier: GPL-2.0
/* Per-process I/O from synthetic I/O records (model/io.h), and how the audit shows it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "model/hidden.h"
#include "model/io.h"
#include "model/lanes.h"
#include "model/model.h"
#include "audit/audit.h"
#include "report/audit_json.h"
#include "report/audit_report.h"
#include "report/markdown_report.h"
#include "report/summary.h"
#include "lib/synth.h"
#include "lib/with_slots.h"

#define MS 1000000ull
#define BOTH (BB_IO_SYSCALLS | BB_IO_STORAGE)

static const struct bb_io_acct dd_write = {
	.rchar = 52428800, .wchar = 52428800, .syscr = 60, .syscw = 50, .write_bytes = 52428800,
};

/* root 100 runs child pid from 1 ms to end_ms, ending with an I/O record then its exit (same time). */
static void child(struct model *m, __u32 pid, const char *path, __u64 end_ms, const struct bb_io_acct *io,
		  __u32 flags)
{
	synth_fork(m, 1 * MS, 100, pid, pid, false);
	synth_exec(m, 1 * MS, pid, 100, path, (const char *[]){ path, NULL });
	if (io)
		synth_proc_io(m, end_ms * MS, pid, io, flags);
	synth_exit_acct(m, end_ms * MS, pid, 0, 0, 0, 0, 1000);
}

Test(io, a_processs_record_gives_its_figures)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	child(m, 101, "/bin/dd", 5, &dd_write, BOTH);
	cr_assert(eq(int, model__finish(m, 6 * MS), 0));
	p = synth_proc_of(m, 101);
	cr_assert(p->io_seen);
	cr_assert(eq(u32, p->io_flags, BOTH));
	cr_assert(eq(u64, p->io.write_bytes, 52428800));
	cr_assert(eq(u64, p->io.wchar, 52428800));
	cr_assert(eq(u64, p->io.syscw, 50));
	cr_assert(eq(u64, p->io.read_bytes, 0));
	cr_assert(eq(sz, m->stats.io_records, 1));
	cr_assert(eq(sz, m->stats.orphan_events, 0));
	/* The root had no record: no figures, which is not 0. */
	cr_assert(not(synth_proc_of(m, 100)->io_seen));
	model__free(m);
}

/* Should the exit come first at the same time, the record still finds the process that ended then. */
Test(io, a_record_after_its_exit_finds_the_process)
{
	struct model *m = model__new(100, 0);
	const struct proc_instance *p;

	synth_fork(m, 1 * MS, 100, 101, 101, false);
	synth_exit_acct(m, 5 * MS, 101, 0, 0, 0, 0, 1000);
	synth_proc_io(m, 5 * MS, 101, &dd_write, BOTH);
	/* pid 101 reused later: a record of the new one goes to the new one. */
	synth_fork(m, 7 * MS, 100, 101, 101, false);
	synth_proc_io(m, 8 * MS, 101, &(struct bb_io_acct){ .rchar = 7 }, BOTH);
	synth_exit_acct(m, 8 * MS, 101, 0, 0, 0, 0, 1000);
	cr_assert(eq(int, model__finish(m, 9 * MS), 0));
	cr_assert(eq(sz, m->nr_procs, 3));
	p = synth_proc_of(m, 101);
	cr_assert(p->io_seen);
	cr_assert(eq(u64, p->io.write_bytes, 52428800));
	cr_assert(eq(u64, m->procs[2].io.rchar, 7));
	cr_assert(eq(u64, m->procs[2].io.write_bytes, 0));
	cr_assert(eq(sz, m->stats.orphan_events, 0));
	model__free(m);
}

Test(io, a_short_record_is_refused)
{
	struct model *m = model__new(100, 0);
	struct bb_proc_io_event e = { .hdr = { .ts_ns = 1, .type = BB_EV_PROC_IO, .pid = 100, .tgid = 100 } };

	cr_assert(eq(int, model__add_event(m, &e, sizeof(e) - 1), -EINVAL));
	cr_assert(eq(sz, m->stats.malformed, 1));
	cr_assert(eq(int, model__add_event(m, &e, sizeof(e)), 0));
	cr_assert(eq(sz, m->stats.io_records, 1));
	model__free(m);
}

/* Sums count only processes with figures, and say which figures the kernel counted. */
Test(io, totals_sum_the_processes_with_figures)
{
	struct model *m = model__new(100, 0);
	struct io_totals t;

	child(m, 101, "/bin/dd", 5, &dd_write, BOTH);
	child(m, 102, "/bin/dd", 6, &(struct bb_io_acct){ .rchar = 100, .syscr = 2, .read_bytes = 4096 }, BOTH);
	child(m, 103, "/bin/cat", 7, NULL, 0); /* its record lost */
	cr_assert(eq(int, model__finish(m, 8 * MS), 0));
	io__build_totals(m, &t);
	cr_assert(eq(sz, t.nr_procs, 2));
	cr_assert(eq(u32, t.flags, BOTH));
	cr_assert(eq(u64, t.io.write_bytes, 52428800));
	cr_assert(eq(u64, t.io.read_bytes, 4096));
	cr_assert(eq(u64, t.io.rchar, 52428900));
	cr_assert(eq(u64, t.io.syscr, 62));
	cr_assert(eq(u64, t.io.syscw, 50));
	model__free(m);
}

struct io_build {
	struct model *m;
	struct audit a;
};

/* make (root 100) ran cc1 twice, as, a small sh and a cat whose record was lost. */
static void io_build(struct io_build *b, __u32 flags)
{
	struct audit_input in = { .nr_cpus = 2 };

	b->m = model__new(100, 0);
	synth_exec(b->m, 0, 100, 1, "/usr/bin/make", (const char *[]){ "make", NULL });
	child(b->m, 101, "/usr/lib/gcc/cc1", 5, &(struct bb_io_acct){ .wchar = 3 << 20, .write_bytes = 3 << 20 }, flags);
	child(b->m, 102, "/usr/lib/gcc/cc1", 6, &(struct bb_io_acct){ .wchar = 1 << 20, .write_bytes = 1 << 20 }, flags);
	child(b->m, 103, "/usr/bin/as", 7, &(struct bb_io_acct){ .wchar = 2 << 20, .write_bytes = 2 << 20 }, flags);
	child(b->m, 104, "/bin/cat", 7, NULL, 0);
	child(b->m, 105, "/bin/sh", 7, &(struct bb_io_acct){ .wchar = 12 << 10, .write_bytes = 12 << 10 }, flags);
	synth_exit_acct(b->m, 8 * MS, 100, 0, 0, 0, 0, 1000);
	cr_assert(eq(int, model__finish(b->m, 8 * MS), 0));
	lanes__assign_model(b->m);
	in.cmd_argv = b->m->procs[b->m->root].execs[0].argv;
	in.cmd_argc = b->m->procs[b->m->root].execs[0].argc;
	cr_assert(eq(int, with_slots__audit(&b->a, b->m, NULL, &in), 0));
}

static void io_build_free(struct io_build *b)
{
	audit__free(&b->a);
	model__free(b->m);
}

/* The audit as printed on stderr; malloc'd. */
static char *audit_text(const struct io_build *b, bool verbose)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	cr_assert(not(eq(ptr, f, NULL)));
	audit_report__print(f, &b->a, b->m, verbose);
	fclose(f);
	return text;
}

static const struct audit_program *program(const struct audit *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr_programs; i++)
		if (!strcmp(a->programs[i].name, name))
			return &a->programs[i];
	cr_assert(false, "no program %s", name);
	return NULL;
}

Test(io, the_audit_ranks_writers_and_sums_programs)
{
	struct io_build b;
	char *text;

	io_build(&b, BOTH);
	cr_assert(eq(sz, b.a.io.nr_procs, 4));
	cr_assert(eq(u64, b.a.io.io.write_bytes, (6 << 20) + (12 << 10)));
	cr_assert(eq(sz, b.a.top_write.nr, 4));
	cr_assert(eq(u32, b.m->procs[b.a.top_write.items[0].proc].pid, 101));
	cr_assert(eq(u32, b.m->procs[b.a.top_write.items[1].proc].pid, 103));
	cr_assert(eq(u32, b.m->procs[b.a.top_write.items[2].proc].pid, 102));
	cr_assert(eq(u64, program(&b.a, "cc1")->io.io.write_bytes, 4 << 20));
	cr_assert(eq(sz, program(&b.a, "cc1")->io.nr_procs, 2));
	cr_assert(eq(sz, program(&b.a, "cat")->io.nr_procs, 0));

	text = audit_text(&b, true); /* the I/O and the programs are -v's */
	cr_assert(strstr(text, "I/O of 4 processes: storage read 0 B, written 6.0 MiB (0 B of it cancelled)") != NULL,
		  "%s", text);
	cr_assert(strstr(text, "most written to storage: cc1 3.0 MiB, as 2.0 MiB, cc1 1.0 MiB, sh 12 KiB") != NULL, "%s",
		  text);
	cr_assert(strstr(text, "written by program: cc1 4.0 MiB in 2 processes, as 2.0 MiB in 1, sh 12 KiB in 1") != NULL,
		  "%s", text);
	/* No process used CPU time: no list, so no comma after the colon. */
	cr_assert(strstr(text, "CPU by program: none of the 6 processes used CPU time\n") != NULL, "%s", text);
	cr_assert(eq(ptr, strstr(text, ":,"), NULL), "%s", text);
	free(text);
	io_build_free(&b);
}

/* The terminal and the Markdown report show a size with one label and one value: 6 MiB + 12 KiB is "6.0 MiB". */
Test(io, stderr_and_markdown_label_a_size_alike)
{
	struct io_build b;
	char *text, *md = NULL;
	size_t len;
	FILE *f = open_memstream(&md, &len);

	io_build(&b, BOTH);
	cr_assert(not(eq(ptr, f, NULL)));
	cr_assert(eq(int, markdown_report__write(f, &b.a, b.m), 0));
	fclose(f);
	text = audit_text(&b, true);
	cr_assert(strstr(text, "written 6.0 MiB") != NULL, "%s", text);
	cr_assert(strstr(md, "| written to storage | 6.0 MiB |") != NULL, "%s", md);
	cr_assert(strstr(md, "| cc1 | 101 | 3.0 MiB |") != NULL, "%s", md);
	free(text);
	free(md);
	io_build_free(&b);
}

static struct json_object *field(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	cr_assert(json_object_object_get_ex(o, key, &v), "no %s", key);
	return v;
}

/* A kernel without CONFIG_TASK_IO_ACCOUNTING: storage figures missing, not 0. */
Test(io, figures_the_kernel_did_not_count_are_null)
{
	struct json_object *o, *io, *progs;
	struct io_build b;
	char *text;

	io_build(&b, BB_IO_SYSCALLS);
	cr_assert(eq(sz, b.a.top_write.nr, 0));
	o = audit_json__new(&b.a, b.m);
	cr_assert(not(eq(ptr, o, NULL)));
	io = field(o, "io");
	cr_assert(eq(int, json_object_get_int(field(io, "processes")), 4));
	cr_assert(eq(int, json_object_get_type(field(io, "write_bytes")), json_type_null));
	cr_assert(eq(int, json_object_get_type(field(io, "read_bytes")), json_type_null));
	cr_assert(eq(i64, json_object_get_int64(field(io, "wchar")), (6 << 20) + (12 << 10)));
	progs = field(io, "programs");
	cr_assert(eq(sz, json_object_array_length(progs), 3), "cc1, as and sh; make and cat have no figures");
	cr_assert(eq(int, json_object_get_type(field(json_object_array_get_idx(progs, 0), "write_bytes")),
		     json_type_null));
	json_object_put(o);

	text = audit_text(&b, true);
	cr_assert(strstr(text, "storage not counted by this kernel") != NULL, "%s", text);
	cr_assert(strstr(text, "most written to storage") == NULL, "%s", text);
	free(text);
	io_build_free(&b);
}

/*
 * A process the kernel hid from the user (a setuid helper, an undumpable
 * one) comes with an empty I/O record: no figures, which is not 0; why it
 * was hidden is kept and counted, and the summary says it.
 */
Test(io, a_hidden_processs_record_gives_no_figures)
{
	const struct bb_io_acct none = {};
	struct summary_info info = { .cmd_argv = (char *[]){ "make", NULL }, .cmd_argc = 1, .exit_status = 0 };
	struct model *m = model__new(100, 0);
	struct hidden_counts c;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	child(m, 101, "/bin/dd", 5, &dd_write, BOTH);
	synth_fork(m, 1 * MS, 100, 102, 102, false);
	synth_exec(m, 1 * MS, 102, 100, "/usr/bin/sudo", (const char *[]){ "sudo", "cat", NULL });
	synth_proc_io(m, 5 * MS, 102, &none, BB_IO_HIDDEN);
	synth_exit_hidden(m, 5 * MS, 102, BB_HIDDEN_CREDS | BB_HIDDEN_NOT_DUMPABLE);
	synth_fork(m, 1 * MS, 100, 103, 103, false);
	synth_exec(m, 1 * MS, 103, 100, "/usr/bin/ssh-agent", (const char *[]){ "ssh-agent", NULL });
	synth_exit_hidden(m, 5 * MS, 103, BB_HIDDEN_NOT_DUMPABLE);
	cr_assert(eq(int, model__finish(m, 6 * MS), 0));

	cr_assert(synth_proc_of(m, 101)->io_seen);
	cr_assert(eq(u32, synth_proc_of(m, 101)->hidden, 0));
	cr_assert(not(synth_proc_of(m, 102)->io_seen));
	cr_assert(eq(str, (char *)hidden__why(synth_proc_of(m, 102)->hidden), "setuid or setgid, not dumpable"));
	cr_assert(eq(str, (char *)hidden__why(synth_proc_of(m, 103)->hidden), "not dumpable"));
	hidden__count(m, &c);
	cr_assert(eq(sz, c.procs, 2));
	cr_assert(eq(sz, c.creds, 1));
	cr_assert(eq(sz, c.not_dumpable, 2));

	out = open_memstream(&text, &len);
	cr_assert_not_null(out);
	summary__print(out, m, &info);
	fclose(out);
	cr_assert_not_null(strstr(text, "buildbpf: 2 processes hidden (1 setuid or setgid, 2 not dumpable): "), "%s",
			   text);
	free(text);
	model__free(m);
}
