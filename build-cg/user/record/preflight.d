build-cg/user/record/preflight.o: user/record/preflight.c \
 include/record/kernel_reqs.h include/record/preflight.h
include/record/kernel_reqs.h:
include/record/preflight.h:
