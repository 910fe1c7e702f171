build-cg/user/report/svg.o: user/report/svg.c include/model/proc_name.h \
 include/model/model.h include/events.h include/model/trace_layout.h \
 include/report/svg.h include/report/audit.h include/model/cpu_sched.h \
 include/model/parallelism.h include/sched_level.h include/util/utf8.h
include/model/proc_name.h:
include/model/model.h:
include/events.h:
include/model/trace_layout.h:
include/report/svg.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
include/util/utf8.h:
