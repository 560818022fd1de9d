/* gpu.h -- what the rest of arcrun knows about the CUDA backend.  Without
 * CUDA (gpu/nocuda.c) the same calls exist and report "not built". */
#ifndef ARC_GPU_H
#define ARC_GPU_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether the CUDA backend was compiled in. */
bool gpu_built(void);
/* Probe for a device; false with a reason in why (e.g. "no CUDA device
 * visible") when none can be used.  Cached after the first call. */
bool gpu_available(char *why, size_t whylen);
/* Run the self-test kernel (batched rot90 of a few grids) and compare with
 * the host result; 1 equal, 0 different, -1 could not run (why says). */
int gpu_selftest(char *why, size_t whylen);

#ifdef __cplusplus
}
#endif
#endif
