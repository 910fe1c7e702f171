build-cg/tests/integration/test_viewer.o: tests/integration/test_viewer.c \
 tests/lib/integration.h
tests/lib/integration.h:
