build-cg/tests/unit/test_cpu_sched.o: tests/unit/test_cpu_sched.c \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h tests/lib/synth.h include/model/model.h
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
tests/lib/synth.h:
include/model/model.h:
