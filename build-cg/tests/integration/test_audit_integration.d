build-cg/tests/integration/test_audit_integration.o: \
 tests/integration/test_audit_integration.c tests/lib/integration.h \
 tests/lib/json_fields.h
tests/lib/integration.h:
tests/lib/json_fields.h:
