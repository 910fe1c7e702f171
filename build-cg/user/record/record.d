build-cg/user/record/record.o: user/record/record.c \
 include/record/attach.h include/events.h include/record/capture.h \
 include/record/privilege.h include/util/cpu_list.h \
 include/log/event_log.h include/sched_level.h include/exit_status.h \
 include/record/record.h include/record/launch.h \
 include/util/term_escape.h include/version.h
include/record/attach.h:
include/events.h:
include/record/capture.h:
include/record/privilege.h:
include/util/cpu_list.h:
include/log/event_log.h:
include/sched_level.h:
include/exit_status.h:
include/record/record.h:
include/record/launch.h:
include/util/term_escape.h:
include/version.h:
