build-cg/user/model/replay.o: user/model/replay.c include/util/cpu_list.h \
 include/util/error_text.h include/model/lanes.h include/model/model.h \
 include/events.h include/model/replay.h include/model/cpu_sched.h \
 include/model/parallelism.h include/sched_level.h \
 include/log/event_log.h include/model/trace_layout.h
include/util/cpu_list.h:
include/util/error_text.h:
include/model/lanes.h:
include/model/model.h:
include/events.h:
include/model/replay.h:
include/model/cpu_sched.h:
include/model/parallelism.h:
include/sched_level.h:
include/log/event_log.h:
include/model/trace_layout.h:
