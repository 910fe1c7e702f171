out/mix.o: src/mix.c include/demo.h include/vec.h
include/demo.h:
include/vec.h:
