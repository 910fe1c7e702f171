build-cg/user/report/chrome_trace.o: user/report/chrome_trace.c \
 include/report/audit_json.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h \
 include/report/chrome_trace.h include/util/json_write.h \
 include/model/proc_name.h include/model/trace_layout.h \
 include/merge/trace_merge.h include/util/utf8.h include/version.h
include/report/audit_json.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/report/chrome_trace.h:
include/util/json_write.h:
include/model/proc_name.h:
include/model/trace_layout.h:
include/merge/trace_merge.h:
include/util/utf8.h:
include/version.h:
