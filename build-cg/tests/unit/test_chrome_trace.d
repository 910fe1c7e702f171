build-cg/tests/unit/test_chrome_trace.o: tests/unit/test_chrome_trace.c \
 include/report/chrome_trace.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h include/model/proc_name.h \
 include/util/utf8.h tests/lib/json_fields.h tests/lib/seeded_random.h \
 tests/lib/trace_rules.h
include/report/chrome_trace.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/model/proc_name.h:
include/util/utf8.h:
tests/lib/json_fields.h:
tests/lib/seeded_random.h:
tests/lib/trace_rules.h:
