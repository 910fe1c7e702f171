build-cg/user/log/event_log_read.o: user/log/event_log_read.c \
 include/util/cpu_list.h include/util/error_text.h \
 include/log/event_log.h include/sched_level.h
include/util/cpu_list.h:
include/util/error_text.h:
include/log/event_log.h:
include/sched_level.h:
