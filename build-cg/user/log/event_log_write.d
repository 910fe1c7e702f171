build-cg/user/log/event_log_write.o: user/log/event_log_write.c \
 include/log/event_log.h include/sched_level.h include/util/json_write.h
include/log/event_log.h:
include/sched_level.h:
include/util/json_write.h:
