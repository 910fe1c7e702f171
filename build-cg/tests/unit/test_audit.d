build-cg/tests/unit/test_audit.o: tests/unit/test_audit.c \
 include/report/audit.h include/model/cpu_sched.h include/events.h \
 include/model/parallelism.h include/sched_level.h include/model/model.h \
 include/report/audit_json.h include/report/audit_report.h \
 include/model/lanes.h include/model/proc_name.h include/report/svg.h \
 tests/lib/synth.h
include/report/audit.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
include/report/audit_json.h:
include/report/audit_report.h:
include/model/lanes.h:
include/model/proc_name.h:
include/report/svg.h:
tests/lib/synth.h:
