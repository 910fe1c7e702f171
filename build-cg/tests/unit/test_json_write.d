build-cg/tests/unit/test_json_write.o: tests/unit/test_json_write.c \
 include/util/json_write.h
include/util/json_write.h:
