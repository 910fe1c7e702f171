build-cg/user/merge/trace_files.o: user/merge/trace_files.c \
 include/util/array_grow.h include/util/term_escape.h \
 include/merge/trace_files.h include/merge/trace_merge.h \
 include/model/model.h include/events.h include/model/trace_layout.h
include/util/array_grow.h:
include/util/term_escape.h:
include/merge/trace_files.h:
include/merge/trace_merge.h:
include/model/model.h:
include/events.h:
include/model/trace_layout.h:
