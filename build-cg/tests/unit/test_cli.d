build-cg/tests/unit/test_cli.o: tests/unit/test_cli.c include/cli/cli.h \
 include/sched_level.h include/events.h include/version.h
include/cli/cli.h:
include/sched_level.h:
include/events.h:
include/version.h:
