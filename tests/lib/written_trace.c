// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include "json_fields.h"
#include "trace_rules.h"
#include "written_trace.h"

struct json_object *written_trace(const struct model *m, const struct trace_meta *meta)
{
	int fd = memfd_create("trace", MFD_CLOEXEC);
	struct json_object *trace;
	char *buf;
	off_t len;

	cr_assert(ge(int, fd, 0));
	cr_assert(eq(int, chrome_trace__write(m, meta, fd), 0));
	len = lseek(fd, 0, SEEK_END);
	buf = calloc(1, len + 1);
	cr_assert_not_null(buf);
	cr_assert(eq(int, (int)pread(fd, buf, len, 0), (int)len));
	close(fd);
	check_trace_text(buf, len);
	trace = parse_trace_text(buf, len);
	free(buf);
	check_trace_rules(trace);
	return trace;
}

struct json_object *written_trace_proc_slice(struct json_object *trace, long long pid)
{
	struct json_object *events = trace_events(trace);
	size_t i;

	for (i = 0; i < json_object_array_length(events); i++) {
		struct json_object *ev = json_object_array_get_idx(events, i);

		if (str_field_is(ev, "ph", "X") && str_field_is(ev, "cat", "process") &&
		    int_field(need_field(ev, "args"), "pid") == pid)
			return ev;
	}
	return NULL;
}
