build-cg/user/output/run_outputs.o: user/output/run_outputs.c \
 include/output/run_outputs.h include/model/replay.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/log/event_log.h include/model/model.h \
 include/model/trace_layout.h include/output/output.h \
 include/report/audit.h include/report/chrome_trace.h \
 include/report/audit_json.h include/report/svg.h \
 include/util/term_escape.h
include/output/run_outputs.h:
include/model/replay.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/log/event_log.h:
include/model/model.h:
include/model/trace_layout.h:
include/output/output.h:
include/report/audit.h:
include/report/chrome_trace.h:
include/report/audit_json.h:
include/report/svg.h:
include/util/term_escape.h:
