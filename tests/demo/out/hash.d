out/hash.o: src/hash.c out/config.h include/demo.h include/vec.h
out/config.h:
include/demo.h:
include/vec.h:
