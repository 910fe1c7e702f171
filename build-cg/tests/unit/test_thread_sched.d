build-cg/tests/unit/test_thread_sched.o: tests/unit/test_thread_sched.c \
 include/events.h include/thread_sched.h tests/lib/seeded_random.h
include/events.h:
include/thread_sched.h:
tests/lib/seeded_random.h:
