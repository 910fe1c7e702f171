// SPDX-License-Identifier: GPL-2.0
/*
 * Reads a trace back for the shell checks (tests/valgrind_check.sh), which
 * have no JSON parser of their own:
 *
 *   trace-check TRACE
 *
 * Fails (exit 1, one line on stderr) unless TRACE is a JSON object with a
 * traceEvents array and the otherData counts, and holds one process slice
 * per process counted.  Prints
 *
 *   processes=N events=N lost=N wall_us=N
 *
 * (events: process and scheduler records received), then one line per
 * process slice: "proc", its exit status and its argv, tab-separated.
 */
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>

static struct json_object *member(struct json_object *obj, const char *key, enum json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(obj, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int fail(const char *path, const char *what)
{
	fprintf(stderr, "trace-check: %s: %s\n", path, what);
	return 1;
}

int main(int argc, char **argv)
{
	struct json_object *trace, *events, *other, *sched, *sched_rec, *records, *processes, *lost, *wall;
	long long sched_records = 0, slices = 0;
	size_t i, k;

	if (argc != 2) {
		fprintf(stderr, "usage: trace-check TRACE\n");
		return 2;
	}
	trace = json_object_from_file(argv[1]);
	if (!trace)
		return fail(argv[1], json_util_get_last_err());
	if (!json_object_is_type(trace, json_type_object) || !(events = member(trace, "traceEvents", json_type_array)))
		return fail(argv[1], "not an object with a traceEvents array");
	if (!(other = member(trace, "otherData", json_type_object)) ||
	    !(processes = member(other, "processes", json_type_int)) ||
	    !(records = member(other, "records", json_type_int)) ||
	    !(lost = member(other, "lost_events", json_type_int)) ||
	    !(wall = member(other, "duration_us", json_type_int)))
		return fail(argv[1], "otherData lacks processes, records, lost_events or duration_us");
	/* "sched" is null with --sched=off. */
	if ((sched = member(other, "sched", json_type_object)) &&
	    (sched_rec = member(sched, "records", json_type_int)))
		sched_records = json_object_get_int64(sched_rec);
	printf("processes=%lld events=%lld lost=%lld wall_us=%lld\n", (long long)json_object_get_int64(processes),
	       (long long)json_object_get_int64(records) + sched_records, (long long)json_object_get_int64(lost),
	       (long long)json_object_get_int64(wall));

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i), *ph, *cat, *args, *status, *av;

		if (!(ph = member(ev, "ph", json_type_string)) || strcmp(json_object_get_string(ph), "X") ||
		    !(cat = member(ev, "cat", json_type_string)) || strcmp(json_object_get_string(cat), "process"))
			continue;
		slices++;
		args = member(ev, "args", json_type_object);
		status = args ? member(args, "exit_status", json_type_string) : NULL;
		printf("proc\t%s\t", status ? json_object_get_string(status) : "-");
		av = args ? member(args, "argv", json_type_array) : NULL;
		for (k = 0; av && k < json_object_array_length(av); k++)
			printf("%s%s", k ? " " : "", json_object_get_string(json_object_array_get_idx(av, k)));
		putchar('\n');
	}
	if (slices != json_object_get_int64(processes))
		return fail(argv[1], "the process slices do not match otherData.processes");
	json_object_put(trace);
	return fflush(stdout) ? 1 : 0;
}
