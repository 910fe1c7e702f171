build-cg/tests/unit/test_attach.o: tests/unit/test_attach.c \
 include/model/model.h include/events.h include/record/attach.h \
 include/record/capture.h include/record/privilege.h \
 include/thread_sched.h tests/lib/synth.h include/model/cpu_sched.h \
 include/model/parallelism.h include/sched_level.h
include/model/model.h:
include/events.h:
include/record/attach.h:
include/record/capture.h:
include/record/privilege.h:
include/thread_sched.h:
tests/lib/synth.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
