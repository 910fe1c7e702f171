build-cg/tests/unit/test_lanes.o: tests/unit/test_lanes.c \
 include/model/lanes.h include/model/model.h include/events.h \
 tests/lib/seeded_random.h
include/model/lanes.h:
include/model/model.h:
include/events.h:
tests/lib/seeded_random.h:
