# src/core: values, repr, CPython hashes, set tables and sort, memory,
# exceptions, the task set as the run holds it.  Sees only itself.
noinst_LIBRARIES += src/core/libcore.a
src_core_libcore_a_CPPFLAGS = $(CORE_CPPFLAGS)
src_core_libcore_a_SOURCES = \
	src/core/value.h src/core/value.c src/core/ctx.c src/core/compare.c src/core/repr.c src/core/utf8.h src/core/pyhash.c \
	src/core/vmem.h src/core/vmem.c src/core/pyprobe.h src/core/pyset.h src/core/pyset.c src/core/fsblock.h src/core/fsblock.c \
	src/core/fsdistinct.h src/core/fsdistinct.c src/core/fsrecipe.h src/core/fsrecipe.c \
	src/core/fastdiv.h src/core/fsproduct.h src/core/fsproduct.c src/core/fsderived.h src/core/fsderived.c \
	src/core/fsline.h src/core/fsline.c src/core/fsrect.h src/core/fsrect.c src/core/fskeys.h src/core/fskeys.c src/core/fsfar.h src/core/fsfar.c \
	src/core/pysort.h src/core/pysort.c src/core/pyexc.h src/core/pyexc.c \
	src/core/task.h src/core/task.c src/core/fnv.h \
	src/core/callmemo.h src/core/callmemo.c \
	src/core/vgrid.h src/core/vgrid.c src/core/tuprecipe.h src/core/tuprecipe.c
