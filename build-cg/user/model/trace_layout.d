build-cg/user/model/trace_layout.o: user/model/trace_layout.c \
 include/model/trace_layout.h include/model/model.h include/events.h
include/model/trace_layout.h:
include/model/model.h:
include/events.h:
