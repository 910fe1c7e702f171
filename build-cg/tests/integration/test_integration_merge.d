build-cg/tests/integration/test_integration_merge.o: \
 tests/integration/test_integration_merge.c tests/lib/integration.h \
 tests/lib/json_fields.h
tests/lib/integration.h:
tests/lib/json_fields.h:
