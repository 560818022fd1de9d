/* backend_gpu.h -- the CUDA backend (gpu/ does the device work): which
 * ops it takes, --backend/--compare/--calibration, counters and the
 * compare table, and `arcrun calibrate`. */
#ifndef ARC_BACKEND_GPU_H
#define ARC_BACKEND_GPU_H

#include <stdio.h>
#include "backend.h"
#include "task.h"

typedef enum {
    BACKEND_CPU,      /* never the GPU (also: not set up) */
    BACKEND_AUTO,     /* the GPU past each op's measured crossover batch size */
    BACKEND_CUDA,     /* the GPU for every supported op */
    BACKEND_EMULATE,  /* testing aid: the GPU path with the kernels' work done on the host */
} BackendMode;

typedef struct {
    BackendMode mode;
    bool compare;            /* run supported batches on both, compare values */
    int verbose;
    FILE *log;               /* stderr */
    const char *calibration; /* --calibration FILE; NULL: the default path */
    int jobs;                /* host threads for packing and rebuilding big batches */
} GpuOptions;

extern Backend backend_gpu;

/* "cpu", "cuda", "auto", "emulate" -> mode; -1 if unknown. */
int backend_mode_parse(const char *s);
/* Probe the device, load the calibration file (auto), say once on the log
 * when the GPU cannot be used and that was asked for.  -1 (message
 * printed) when an explicitly named calibration file is unreadable. */
int backend_gpu_setup(const GpuOptions *o);
/* After a run: the per-op table (GPU calls, CPU instances, fallbacks and,
 * with --compare, times, speedup and equality) when `show` or compare.
 * Returns how many compared values differed. */
long backend_gpu_finish(FILE *f, bool show);
/* `arcrun calibrate`: time each op at growing batch sizes on the CPU
 * (jobs threads) and through the GPU path, write the crossovers to the
 * calibration file.  0, or -1 (message printed).  tasks: take the grids from these (inputs and outputs, repeated as needed)
 * instead of random ones; NULL for random grids.  only: a comma-separated
 * list of ops (or "all") to measure and print, writing no file; NULL: all,
 * and write the file.  -2: an unknown op (message printed). */
int backend_gpu_calibrate(const GpuOptions *o, int jobs, const TaskSet *tasks, const char *only);
/* --version's lines: whether CUDA is built in, and the device or why none. */
void backend_gpu_describe(FILE *f);

#endif
