build-cg/tests/lib/synth.o: tests/lib/synth.c tests/lib/synth.h \
 include/model/cpu_sched.h include/events.h include/model/parallelism.h \
 include/sched_level.h include/model/model.h
tests/lib/synth.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
include/model/model.h:
