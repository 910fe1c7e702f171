build-cg/user/model/parallelism.o: user/model/parallelism.c \
 include/util/array_grow.h include/model/parallelism.h
include/util/array_grow.h:
include/model/parallelism.h:
