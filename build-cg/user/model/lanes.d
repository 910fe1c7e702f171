build-cg/user/model/lanes.o: user/model/lanes.c include/model/lanes.h \
 include/model/model.h include/events.h
include/model/lanes.h:
include/model/model.h:
include/events.h:
