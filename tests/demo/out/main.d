out/main.o: src/main.c out/config.h include/demo.h include/vec.h
out/config.h:
include/demo.h:
include/vec.h:
