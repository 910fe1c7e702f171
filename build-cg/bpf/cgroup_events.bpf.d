build-cg/bpf/cgroup_events.bpf.o: bpf/cgroup_events.bpf.c \
  vmlinux/vmlinux.h bpf/maps.bpf.h include/events.h \
  include/thread_sched.h bpf/emit.bpf.h bpf/thread_exit.bpf.h \
  bpf/ns_pid.bpf.h bpf/cgroup_filter.bpf.h

vmlinux/vmlinux.h:

bpf/maps.bpf.h:

include/events.h:

include/thread_sched.h:

bpf/emit.bpf.h:

bpf/thread_exit.bpf.h:

bpf/ns_pid.bpf.h:

bpf/cgroup_filter.bpf.h:
