build-cg/user/main.o: user/main.c include/cli/cli.h include/sched_level.h \
 include/exit_status.h include/log/event_log.h \
 include/merge/trace_files.h include/merge/trace_merge.h \
 include/model/model.h include/events.h include/model/trace_layout.h \
 include/model/replay.h include/model/cpu_sched.h \
 include/model/parallelism.h include/output/output.h \
 include/output/run_outputs.h include/report/audit.h \
 include/report/chrome_trace.h include/record/attach.h \
 include/record/capture.h include/record/privilege.h \
 include/record/die_of_signal.h include/record/launch.h \
 include/record/preflight.h include/record/record.h \
 include/record/trace_dir.h include/report/run_report.h \
 include/util/term_escape.h
include/cli/cli.h:
include/sched_level.h:
include/exit_status.h:
include/log/event_log.h:
include/merge/trace_files.h:
include/merge/trace_merge.h:
include/model/model.h:
include/events.h:
include/model/trace_layout.h:
include/model/replay.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/output/output.h:
include/output/run_outputs.h:
include/report/audit.h:
include/report/chrome_trace.h:
include/record/attach.h:
include/record/capture.h:
include/record/privilege.h:
include/record/die_of_signal.h:
include/record/launch.h:
include/record/preflight.h:
include/record/record.h:
include/record/trace_dir.h:
include/report/run_report.h:
include/util/term_escape.h:
