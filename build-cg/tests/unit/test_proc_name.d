build-cg/tests/unit/test_proc_name.o: tests/unit/test_proc_name.c \
 include/model/proc_name.h include/model/model.h include/events.h \
 include/util/utf8.h
include/model/proc_name.h:
include/model/model.h:
include/events.h:
include/util/utf8.h:
