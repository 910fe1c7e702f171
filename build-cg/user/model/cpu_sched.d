build-cg/user/model/cpu_sched.o: user/model/cpu_sched.c \
 include/util/array_grow.h include/model/cpu_sched.h include/events.h \
 include/model/parallelism.h include/sched_level.h
include/util/array_grow.h:
include/model/cpu_sched.h:
include/events.h:
include/model/parallelism.h:
include/sched_level.h:
