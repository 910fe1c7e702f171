build-cg/user/util/term_escape.o: user/util/term_escape.c \
 include/util/term_escape.h
include/util/term_escape.h:
