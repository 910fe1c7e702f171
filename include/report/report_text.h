/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Text for the report a person reads on a terminal: names escaped and cut,
 * seconds and counts written one way, and lines wrapped to REPORT_WIDTH
 * columns.  Shared by the audit's answers and its verbose detail.
 *
 *   struct report_line l;
 *   FILE *f = report_line__begin(&l, out);
 *   fprintf(f, "CPU by program: ...");
 *   report_line__end(&l);     prints "buildbpf: ..." wrapped
 */
#ifndef BUILDBPF_REPORT_TEXT_H
#define BUILDBPF_REPORT_TEXT_H

#include <stdio.h>
#include <linux/types.h>
#include "model/model.h"

/* Columns of a wrapped line, "buildbpf: " included. */
#define REPORT_WIDTH 100
/* Names in the report are cut to this many bytes. */
#define REPORT_NAME_MAX 40

/* A display name, escaped (control and non-ASCII bytes as \xNN, its ellipsis as "..."), cut at max bytes. */
void report_put_name(FILE *out, const char *name, size_t max);
/* A path, its leading directories cut to fit max bytes ("…/deps/libx.rmeta"), as report_put_name(). */
void report_put_path(FILE *out, const char *path, size_t max);
/* The display name of model->procs[idx]; "?" for an index out of range. */
void report_put_proc(FILE *out, const struct model *m, long idx);
/* "0.53 s"; "<0.01 s" for a time that is not 0 but rounds to it. */
void report_put_sec(FILE *out, __u64 ns);
/* "42 %" of whole; "<1 %" for a share that is not 0 but rounds to it. */
void report_put_share(FILE *out, __u64 part, __u64 whole);
/* 1138 as "1,138". */
void report_put_count(FILE *out, size_t n);

/* What a list of the longest critical-path steps says of the rest: unlisted, of all. */
#define REPORT_NOT_LISTED(unlisted, all) "%zu shorter step%s of the %zu not listed", (unlisted), \
	(unlisted) == 1 ? "" : "s", (all)

/* Bytes in a REPORT_SIZE_LEN buffer. */
#define REPORT_SIZE_LEN 32
/*
 * "512 B", "12 KiB", "3.2 MiB", "12.0 GiB": every size a report shows, in
 * powers of 1024 and labelled so.  Returns buf.
 */
const char *report_size(char buf[REPORT_SIZE_LEN], __u64 bytes);
/* report_size() written to out. */
void report_put_size(FILE *out, __u64 bytes);

struct report_line {
	FILE *out;
	FILE *mem; /* NULL without memory: the text went to out unwrapped */
	char *text;
	size_t len;
};

/* Starts a line; write its text (no newline) to the FILE returned. */
FILE *report_line__begin(struct report_line *l, FILE *out);
/*
 * Prints it after "buildbpf: ", wrapped at REPORT_WIDTH: after a ", " where
 * one fits, else at a space; continuation lines are indented two more
 * columns than the line's own leading spaces.
 */
void report_line__end(struct report_line *l);

#endif /* BUILDBPF_REPORT_TEXT_H */
