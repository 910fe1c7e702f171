build-cg/user/output/output.o: user/output/output.c \
 include/output/output.h include/util/term_escape.h
include/output/output.h:
include/util/term_escape.h:
