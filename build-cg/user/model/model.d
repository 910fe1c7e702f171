build-cg/user/model/model.o: user/model/model.c include/util/array_grow.h \
 include/model/model.h include/events.h
include/util/array_grow.h:
include/model/model.h:
include/events.h:
