build-cg/user/record/trace_dir.o: user/record/trace_dir.c \
 include/record/trace_dir.h include/util/term_escape.h
include/record/trace_dir.h:
include/util/term_escape.h:
