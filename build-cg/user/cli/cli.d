build-cg/user/cli/cli.o: user/cli/cli.c include/cli/cli.h \
 include/sched_level.h include/merge/trace_merge.h include/model/model.h \
 include/events.h include/model/trace_layout.h include/version.h \
 build-cg/build_info.h include/util/term_escape.h
include/cli/cli.h:
include/sched_level.h:
include/merge/trace_merge.h:
include/model/model.h:
include/events.h:
include/model/trace_layout.h:
include/version.h:
build-cg/build_info.h:
include/util/term_escape.h:
