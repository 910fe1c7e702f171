build-cg/user/report/audit_report.o: user/report/audit_report.c \
 include/report/audit_report.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h include/model/proc_name.h \
 include/report/summary.h include/util/term_escape.h
include/report/audit_report.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/model/proc_name.h:
include/report/summary.h:
include/util/term_escape.h:
