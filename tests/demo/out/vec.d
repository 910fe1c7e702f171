out/vec.o: src/vec.c include/vec.h
include/vec.h:
