build-cg/tests/lib/seeded_random.o: tests/lib/seeded_random.c \
 tests/lib/seeded_random.h
tests/lib/seeded_random.h:
