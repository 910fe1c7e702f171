build-cg/tests/integration/test_faults.o: tests/integration/test_faults.c \
 tests/lib/integration.h tests/lib/json_fields.h
tests/lib/integration.h:
tests/lib/json_fields.h:
