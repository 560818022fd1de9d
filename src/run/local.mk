# src/run: the executor, the backend interface and registry, the CPU
# backend, the call cache, the shape rule, threads.  Sees core, dsl, front
# and itself; other backends reach it only through backend.h.
noinst_LIBRARIES += src/run/librun.a
src_run_librun_a_CPPFLAGS = $(RUN_CPPFLAGS)
src_run_librun_a_SOURCES = \
	src/run/backend.h src/run/backends.c src/run/backend_cpu.c \
	src/run/exec.h src/run/exec.c src/run/inline.h src/run/inline.c src/run/waves.c src/run/instance.c src/run/exec_stats.c \
	src/run/callcache.h src/run/callcache.c src/run/byname.h src/run/byname.c \
	src/run/shape.h src/run/shape.c \
	src/run/workpool.h src/run/workpool.c src/run/fanout.h src/run/fanout.c \
	src/run/team.h src/run/team.c
