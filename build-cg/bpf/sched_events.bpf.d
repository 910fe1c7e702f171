build-cg/bpf/sched_events.bpf.o: bpf/sched_events.bpf.c vmlinux/vmlinux.h \
  bpf/maps.bpf.h include/events.h include/thread_sched.h bpf/emit.bpf.h \
  bpf/thread_exit.bpf.h

vmlinux/vmlinux.h:

bpf/maps.bpf.h:

include/events.h:

include/thread_sched.h:

bpf/emit.bpf.h:

bpf/thread_exit.bpf.h:
