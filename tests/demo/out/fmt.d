out/fmt.o: src/fmt.c out/config.h include/demo.h include/vec.h
out/config.h:
include/demo.h:
include/vec.h:
