/* gpu.h -- the device side (probe.cu, kernels.cu, objects.cu) as the host
 * files of gpu/ call it.  Without CUDA (gpu/nocuda.c) the same calls exist
 * and report "not built". */
#ifndef ARC_GPU_H
#define ARC_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "ops.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Whether the CUDA backend was compiled in. */
bool gpu_built(void);
/* Probe for a device; false with a reason in why (e.g. "no CUDA device
 * visible") when none can be used.  Cached after the first call. */
bool gpu_available(char *why, size_t whylen);
/* rot90 of a few grids through gpu_run (the kernel the backend uses),
 * compared with the host's; 1 equal, 0 different, -1 could not run (why
 * says). */
int gpu_selftest(char *why, size_t whylen);

/* The batch path (kernels.cu).  Callers serialise: one batch at a time.
 * gpu_host_input: the pinned input buffer, room for n records (grown when
 * needed, reused across batches); NULL with why when it cannot be had.
 * gpu_run: one host->device copy of the n records, one kernel launch, one
 * device->host copy; *out points at n result records (GpuGrid or GpuStats,
 * valid until the next call).  0, or -1 with why on any CUDA error (the
 * caller then runs the batch on the CPU). */
GpuGrid *gpu_host_input(int n, char *why, size_t whylen);
int gpu_run(int op, int n, const void **out, char *why, size_t whylen);

/* The objects ops (objscan.h): the n records already in gpu_host_input's
 * buffer (p0 flags, p1 background); T is the dialect's tables, uploaded
 * once per distinct pointer.  The batch runs in chunks; as each finishes,
 * done(ctx, lo, hi, out, off) gets grids lo..hi-1, grid k's output at
 * out + off[k - lo] (valid during the call), while the device goes on with
 * the next chunk.  *wait_s: time spent waiting for the device.  0, or -1
 * with why (chunks already handed over stay handed over). */
typedef struct ObjTables ObjTables;
typedef void (*GpuObjectsDone)(void *ctx, int lo, int hi, const uint16_t *out,
                               const uint32_t *off);
int gpu_run_objects(int n, int shape, const ObjTables *T, GpuObjectsDone done, void *ctx,
                    double *wait_s, char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
