# gpu: the whole CUDA backend.  Host side (C, always built: without CUDA
# it says why and keeps every batch on the CPU) sees core, dsl, front and
# run, its files sharing backend_gpu_int.h; kernels (nvcc) see gpu/ and
# core (pyprobe.h).  The rest of the program includes gpu/backend_gpu.h and
# nothing else from here.
noinst_LIBRARIES += gpu/libgpu.a
gpu_libgpu_a_CPPFLAGS = $(GPU_CPPFLAGS)
gpu_libgpu_a_SOURCES = \
	gpu/backend_gpu.h gpu/backend_gpu_int.h gpu/backend_gpu.c gpu/device.c \
	gpu/gather.c gpu/pack.c gpu/run_packed.c gpu/compare.c gpu/table.c gpu/calfile.c gpu/calibrate.c \
	gpu/gpu_objects.h gpu/gpu_objects.c \
	gpu/gpu.h gpu/ops.h gpu/ops_cell.h gpu/objscan.h gpu/ops_host.c

NVCC_COMPILE = $(NVCC) $(NVCCFLAGS) $(CUDA_ARCH) -I$(top_srcdir)/gpu -I$(top_srcdir)/src/core
if HAVE_CUDA
GPU_OBJS = gpu/probe.o gpu/kernels.o gpu/objects.o
gpu/probe.o: $(top_srcdir)/gpu/probe.cu $(top_srcdir)/gpu/gpu.h $(top_srcdir)/gpu/ops.h
	$(AM_V_GEN)$(MKDIR_P) gpu && $(NVCC_COMPILE) -c -o $@ $(top_srcdir)/gpu/probe.cu
gpu/kernels.o: $(top_srcdir)/gpu/kernels.cu $(top_srcdir)/gpu/gpu.h $(top_srcdir)/gpu/ops.h \
		$(top_srcdir)/gpu/ops_cell.h
	$(AM_V_GEN)$(MKDIR_P) gpu && $(NVCC_COMPILE) -c -o $@ $(top_srcdir)/gpu/kernels.cu
gpu/objects.o: $(top_srcdir)/gpu/objects.cu $(top_srcdir)/gpu/gpu.h $(top_srcdir)/gpu/ops.h \
		$(top_srcdir)/gpu/objscan.h $(top_srcdir)/src/core/pyprobe.h
	$(AM_V_GEN)$(MKDIR_P) gpu && $(NVCC_COMPILE) -c -o $@ $(top_srcdir)/gpu/objects.cu
CLEANFILES += $(GPU_OBJS)
else
GPU_OBJS = gpu/nocuda.$(OBJEXT)
endif
EXTRA_DIST += gpu/probe.cu gpu/kernels.cu gpu/objects.cu gpu/nocuda.c

gpu/nocuda.$(OBJEXT): $(top_srcdir)/gpu/nocuda.c $(top_srcdir)/gpu/gpu.h $(top_srcdir)/gpu/ops.h
	$(AM_V_CC)$(MKDIR_P) gpu && \
	$(CC) $(DEFS) $(GPU_CPPFLAGS) $(CPPFLAGS) $(AM_CFLAGS) $(CFLAGS) -c -o $@ $(top_srcdir)/gpu/nocuda.c
CLEANFILES += gpu/nocuda.$(OBJEXT)
