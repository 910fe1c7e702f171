build-cg/tests/lib/integration.o: tests/lib/integration.c \
 tests/lib/integration.h tests/lib/json_fields.h tests/lib/trace_rules.h
tests/lib/integration.h:
tests/lib/json_fields.h:
tests/lib/trace_rules.h:
