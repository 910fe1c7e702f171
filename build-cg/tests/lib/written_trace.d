build-cg/tests/lib/written_trace.o: tests/lib/written_trace.c \
 tests/lib/trace_rules.h tests/lib/written_trace.h include/model/model.h \
 include/events.h include/report/chrome_trace.h include/report/audit.h \
 include/model/cpu_sched.h include/model/parallelism.h \
 include/sched_level.h
tests/lib/trace_rules.h:
tests/lib/written_trace.h:
include/model/model.h:
include/events.h:
include/report/chrome_trace.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
