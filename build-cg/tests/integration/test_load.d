build-cg/tests/integration/test_load.o: tests/integration/test_load.c \
 tests/lib/integration.h tests/lib/json_fields.h
tests/lib/integration.h:
tests/lib/json_fields.h:
