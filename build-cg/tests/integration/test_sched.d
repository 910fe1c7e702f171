build-cg/tests/integration/test_sched.o: tests/integration/test_sched.c \
 tests/lib/integration.h tests/lib/json_fields.h
tests/lib/integration.h:
tests/lib/json_fields.h:
