build-cg/tests/unit/test_cpu_list.o: tests/unit/test_cpu_list.c \
 include/util/cpu_list.h
include/util/cpu_list.h:
