build-cg/tests/unit/test_kernel_reqs.o: tests/unit/test_kernel_reqs.c \
 include/record/kernel_reqs.h
include/record/kernel_reqs.h:
