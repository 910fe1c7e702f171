build-cg/user/record/privilege.o: user/record/privilege.c \
 include/record/privilege.h include/util/term_escape.h
include/record/privilege.h:
include/util/term_escape.h:
