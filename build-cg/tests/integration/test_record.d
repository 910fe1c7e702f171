build-cg/tests/integration/test_record.o: tests/integration/test_record.c \
 tests/lib/integration.h
tests/lib/integration.h:
