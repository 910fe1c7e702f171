build-cg/tests/lib/json_fields.o: tests/lib/json_fields.c \
 tests/lib/json_fields.h
tests/lib/json_fields.h:
