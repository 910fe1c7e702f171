build-cg/user/record/die_of_signal.o: user/record/die_of_signal.c \
 include/record/die_of_signal.h
include/record/die_of_signal.h:
