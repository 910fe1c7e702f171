build-cg/user/record/launch.o: user/record/launch.c \
 include/record/launch.h include/record/privilege.h \
 include/record/trace_dir.h include/util/array_grow.h
include/record/launch.h:
include/record/privilege.h:
include/record/trace_dir.h:
include/util/array_grow.h:
