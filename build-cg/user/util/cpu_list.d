build-cg/user/util/cpu_list.o: user/util/cpu_list.c \
 include/util/cpu_list.h
include/util/cpu_list.h:
