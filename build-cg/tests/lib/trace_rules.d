build-cg/tests/lib/trace_rules.o: tests/lib/trace_rules.c \
 include/util/utf8.h tests/lib/json_fields.h tests/lib/trace_rules.h
include/util/utf8.h:
tests/lib/json_fields.h:
tests/lib/trace_rules.h:
