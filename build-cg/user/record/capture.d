build-cg/user/record/capture.o: user/record/capture.c \
 include/record/capture.h include/events.h include/thread_sched.h \
 include/util/array_grow.h build-cg/buildbpf.skel.h
include/record/capture.h:
include/events.h:
include/thread_sched.h:
include/util/array_grow.h:
build-cg/buildbpf.skel.h:
