build-cg/tests/unit/test_event_log.o: tests/unit/test_event_log.c \
 include/report/chrome_trace.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h include/log/event_log.h \
 include/model/replay.h tests/lib/integration.h
include/report/chrome_trace.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/log/event_log.h:
include/model/replay.h:
tests/lib/integration.h:
