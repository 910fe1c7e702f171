out/words.o: src/words.c include/demo.h include/vec.h
include/demo.h:
include/vec.h:
