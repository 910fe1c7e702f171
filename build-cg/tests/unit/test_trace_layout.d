build-cg/tests/unit/test_trace_layout.o: tests/unit/test_trace_layout.c \
 tests/lib/json_fields.h tests/lib/seeded_random.h tests/lib/synth.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h tests/lib/written_trace.h \
 include/report/chrome_trace.h include/report/audit.h \
 include/merge/trace_merge.h include/model/trace_layout.h \
 include/model/lanes.h
tests/lib/json_fields.h:
tests/lib/seeded_random.h:
tests/lib/synth.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
tests/lib/written_trace.h:
include/report/chrome_trace.h:
include/report/audit.h:
include/merge/trace_merge.h:
include/model/trace_layout.h:
include/model/lanes.h:
