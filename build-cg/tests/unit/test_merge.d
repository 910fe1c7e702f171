build-cg/tests/unit/test_merge.o: tests/unit/test_merge.c \
 tests/lib/written_trace.h include/model/model.h include/events.h \
 include/report/chrome_trace.h include/report/audit.h \
 include/model/cpu_sched.h include/model/parallelism.h \
 include/sched_level.h include/merge/trace_files.h \
 include/merge/trace_merge.h include/model/trace_layout.h \
 include/record/trace_dir.h
tests/lib/written_trace.h:
include/model/model.h:
include/events.h:
include/report/chrome_trace.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
include/merge/trace_files.h:
include/merge/trace_merge.h:
include/model/trace_layout.h:
include/record/trace_dir.h:
