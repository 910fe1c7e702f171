build-cg/user/report/run_report.o: user/report/run_report.c \
 include/report/audit_report.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h include/report/run_report.h \
 include/merge/trace_merge.h include/model/trace_layout.h \
 include/model/replay.h include/log/event_log.h include/report/summary.h
include/report/audit_report.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/report/run_report.h:
include/merge/trace_merge.h:
include/model/trace_layout.h:
include/model/replay.h:
include/log/event_log.h:
include/report/summary.h:
