build-cg/user/record/attach.o: user/record/attach.c \
 include/record/attach.h include/events.h include/record/capture.h \
 include/record/privilege.h include/record/cgroup_path.h \
 include/thread_sched.h include/util/array_grow.h \
 include/util/term_escape.h
include/record/attach.h:
include/events.h:
include/record/capture.h:
include/record/privilege.h:
include/record/cgroup_path.h:
include/thread_sched.h:
include/util/array_grow.h:
include/util/term_escape.h:
