build-cg/tests/unit/test_utf8.o: tests/unit/test_utf8.c \
 include/util/utf8.h
include/util/utf8.h:
