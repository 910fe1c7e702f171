// SPDX-License-Identifier: GPL-2.0
/*
 * Writes a synthetic recording of a large build for the conversion
 * benchmark (bench/convert.sh): about PROCS processes shaped like a make
 * build (tests/lib/big_build.h), on CPUS CPUs, recorded at a scheduler
 * level, with or without file dependencies.  With --shape, a build of
 * PROCS jobs shaped like one that once cost the analysis more than its size
 * (tests/lib/build_shapes.h): --seed gives the kernel shape's compiles
 * times of their own (without it, every compile of a kind takes the same),
 * --memory adds memory records; --cpus, --sched and --deps do not apply.
 * Prints the records written.
 *
 *   gen-log OUT.bbl PROCS [--cpus N] [--sched off|summary|full] [--deps] [--seed N]
 *   gen-log OUT.bbl JOBS --shape long_beside_j1|long_beside_j2|...|cargo_pipeline|kernel [--seed N] [--memory]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/big_build.h"
#include "lib/build_shapes.h"

static int usage(void)
{
	int s;

	fprintf(stderr, "usage: gen-log OUT.bbl PROCS [--cpus N] [--sched off|summary|full] [--deps] [--seed N]\n"
			"       gen-log OUT.bbl JOBS --shape NAME [--seed N] [--memory], NAME one of:");
	for (s = 0; s < SHAPE_NR; s++)
		fprintf(stderr, " %s", build_shape__name(s));
	fputc('\n', stderr);
	return 2;
}

int main(int argc, char **argv)
{
	struct big_build b = { .cpus = 8, .sched = SCHED_SUMMARY, .seed = 1 };
	enum build_shape shape = SHAPE_NR;
	struct build_shape_opts shape_opts = {};
	__u64 records;
	int fd, err, i;

	if (argc < 3)
		return usage();
	b.procs = strtoul(argv[2], NULL, 10);
	for (i = 3; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--shape")) {
			shape = build_shape__lookup(argv[++i]);
			if (shape == SHAPE_NR)
				return usage();
		} else if (!strcmp(argv[i], "--deps"))
			b.deps = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--cpus"))
			b.cpus = strtoul(argv[++i], NULL, 10);
		else if (!strcmp(argv[i], "--memory"))
			shape_opts.memory = true;
		else if (i + 1 < argc && !strcmp(argv[i], "--seed"))
			b.seed = shape_opts.seed = strtoull(argv[++i], NULL, 10);
		else if (i + 1 < argc && !strcmp(argv[i], "--sched")) {
			i++;
			b.sched = !strcmp(argv[i], "off") ? SCHED_OFF : !strcmp(argv[i], "full") ? SCHED_FULL : SCHED_SUMMARY;
			if (b.sched == SCHED_SUMMARY && strcmp(argv[i], "summary"))
				return usage();
		} else
			return usage();
	}
	if (!b.procs)
		return usage();
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	err = shape < SHAPE_NR ? build_shape__write(shape, b.procs, &shape_opts, fd, &records)
			       : big_build__write(&b, fd, &records);
	close(fd);
	if (err) {
		fprintf(stderr, "gen-log: %s\n", err == -EINVAL ? "CPUS out of range" : strerror(-err));
		return 1;
	}
	printf("%llu\n", (unsigned long long)records);
	return 0;
}
