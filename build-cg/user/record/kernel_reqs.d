build-cg/user/record/kernel_reqs.o: user/record/kernel_reqs.c \
 include/record/kernel_reqs.h
include/record/kernel_reqs.h:
