/* nocuda.c -- the GPU interface in a build without CUDA. */
#include <stdio.h>
#include "gpu.h"

bool gpu_built(void) { return false; }

bool gpu_available(char *why, size_t whylen)
{
    snprintf(why, whylen, "built without CUDA");
    return false;
}

int gpu_selftest(char *why, size_t whylen)
{
    snprintf(why, whylen, "built without CUDA");
    return -1;
}

GpuGrid *gpu_host_input(int n, char *why, size_t whylen)
{
    (void)n;
    snprintf(why, whylen, "built without CUDA");
    return NULL;
}

int gpu_run(int op, int n, const void **out, char *why, size_t whylen)
{
    (void)op; (void)n;
    *out = NULL;
    snprintf(why, whylen, "built without CUDA");
    return -1;
}

int gpu_run_objects(int n, int shape, const ObjTables *T, GpuObjectsDone done, void *ctx,
                    double *wait_s, char *why, size_t whylen)
{
    (void)n; (void)shape; (void)T; (void)done; (void)ctx;
    *wait_s = 0;
    snprintf(why, whylen, "built without CUDA");
    return -1;
}
