build-cg/user/report/summary.o: user/report/summary.c \
 include/report/summary.h include/model/model.h include/events.h \
 include/util/term_escape.h
include/report/summary.h:
include/model/model.h:
include/events.h:
include/util/term_escape.h:
