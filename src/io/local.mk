# src/io: reading tasks, writing results (the output formats, JSON values,
# --stats).  Sees the layers below it (core, dsl, front, run) and itself.
noinst_LIBRARIES += src/io/libio.a
src_io_libio_a_CPPFLAGS = $(IO_CPPFLAGS)
src_io_libio_a_CFLAGS = $(AM_CFLAGS) $(PNG_CFLAGS)
src_io_libio_a_SOURCES = \
	src/io/taskread.h src/io/taskread_int.h src/io/taskread.c src/io/tasktree.c src/io/taskscan.h src/io/taskscan.c src/io/taskjson.h src/io/taskjson.c \
	src/io/jsonout.h src/io/jsonout.c src/io/sha256.h src/io/sha256.c src/io/linebuf.h src/io/linebuf.c src/io/stats.h src/io/stats.c \
	src/io/format.h src/io/format_text.c src/io/format_jsonl.c src/io/format_pairs.c \
	src/io/submission.h src/io/submission.c src/io/pngout.h src/io/pngout.c src/io/spool.h src/io/spool.c
