build-cg/user/record/attach_tree.o: user/record/attach_tree.c \
 include/record/attach.h include/events.h include/record/capture.h \
 include/record/privilege.h include/thread_sched.h
include/record/attach.h:
include/events.h:
include/record/capture.h:
include/record/privilege.h:
include/thread_sched.h:
