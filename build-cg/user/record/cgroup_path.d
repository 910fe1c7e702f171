build-cg/user/record/cgroup_path.o: user/record/cgroup_path.c \
 include/record/cgroup_path.h
include/record/cgroup_path.h:
