build-cg/user/model/proc_name.o: user/model/proc_name.c \
 include/model/proc_name.h include/model/model.h include/events.h \
 include/util/utf8.h
include/model/proc_name.h:
include/model/model.h:
include/events.h:
include/util/utf8.h:
