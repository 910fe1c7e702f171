build-cg/user/report/audit_json.o: user/report/audit_json.c \
 include/report/audit_json.h include/report/audit.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h include/util/json_write.h \
 include/model/proc_name.h
include/report/audit_json.h:
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/util/json_write.h:
include/model/proc_name.h:
