build-cg/user/merge/trace_merge.o: user/merge/trace_merge.c \
 include/util/array_grow.h include/util/json_write.h \
 include/merge/trace_merge.h include/model/model.h include/events.h \
 include/model/trace_layout.h include/util/utf8.h
include/util/array_grow.h:
include/util/json_write.h:
include/merge/trace_merge.h:
include/model/model.h:
include/events.h:
include/model/trace_layout.h:
include/util/utf8.h:
