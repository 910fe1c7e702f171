build-cg/tests/unit/test_cgroup_path.o: tests/unit/test_cgroup_path.c \
 include/record/cgroup_path.h
include/record/cgroup_path.h:
