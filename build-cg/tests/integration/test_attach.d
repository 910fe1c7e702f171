build-cg/tests/integration/test_attach.o: tests/integration/test_attach.c \
 tests/lib/integration.h include/record/cgroup_path.h
tests/lib/integration.h:
include/record/cgroup_path.h:
