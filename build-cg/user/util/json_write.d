build-cg/user/util/json_write.o: user/util/json_write.c \
 include/util/json_write.h include/util/utf8.h
include/util/json_write.h:
include/util/utf8.h:
