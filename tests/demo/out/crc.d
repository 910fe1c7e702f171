out/crc.o: src/crc.c include/demo.h include/vec.h
include/demo.h:
include/vec.h:
