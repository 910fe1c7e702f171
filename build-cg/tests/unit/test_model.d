build-cg/tests/unit/test_model.o: tests/unit/test_model.c \
 include/model/model.h include/events.h tests/lib/synth.h \
 include/model/cpu_sched.h include/model/parallelism.h \
 include/sched_level.h
include/model/model.h:
include/events.h:
tests/lib/synth.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
