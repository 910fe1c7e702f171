build-cg/user/util/utf8.o: user/util/utf8.c include/util/utf8.h
include/util/utf8.h:
