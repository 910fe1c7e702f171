build-cg/tests/integration/test_cpu_time.o: \
 tests/integration/test_cpu_time.c tests/lib/integration.h
tests/lib/integration.h:
