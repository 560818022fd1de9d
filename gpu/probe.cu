/* probe.cu -- device discovery, and a self-test that sends rot90 through
 * the batch path (kernels.cu): the buffers, launch and kernel every GPU
 * batch uses, checked against rot90 done here on the host. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"

extern "C" bool gpu_built(void) { return true; }

extern "C" bool gpu_available(char *why, size_t whylen)
{
    static int state = -1;   /* -1 unknown, 0 none, 1 ok */
    static char reason[128];
    if (state < 0) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess) {
            snprintf(reason, sizeof reason, "no CUDA device visible (%s)", cudaGetErrorString(e));
            state = 0;
        } else if (count == 0) {
            snprintf(reason, sizeof reason, "no CUDA device visible");
            state = 0;
        } else {
            cudaDeviceProp p;
            cudaGetDeviceProperties(&p, 0);
            snprintf(reason, sizeof reason, "%s (sm_%d%d, %d device%s)", p.name,
                     p.major, p.minor, count, count == 1 ? "" : "s");
            state = 1;
        }
    }
    snprintf(why, whylen, "%s", reason);
    return state == 1;
}

extern "C" int gpu_selftest(char *why, size_t whylen)
{
    if (!gpu_available(why, whylen))
        return -1;
    enum { N = 3 };
    static const int dims[2 * N] = {2, 3, 30, 30, 1, 1};
    GpuGrid *in = gpu_host_input(N, why, whylen);
    if (!in)
        return -1;
    for (int g = 0; g < N; g++) {
        memset(&in[g], 0, sizeof in[g]);
        in[g].h = (uint8_t)dims[2 * g];
        in[g].w = (uint8_t)dims[2 * g + 1];
        for (int c = 0; c < GPU_CELLS; c++)
            in[g].cell[c] = (uint8_t)((c * 7 + g) % 10);
    }
    const void *res;
    if (gpu_run(GOP_ROT90, N, &res, why, whylen) != 0)
        return -1;
    /* rot90 of an h x w grid is w x h with out[i][j] = in[h-1-j][i]; the
     * input records are still in the host buffer */
    const GpuGrid *out = (const GpuGrid *)res;
    int ok = 1;
    for (int g = 0; g < N && ok == 1; g++) {
        int h = in[g].h, w = in[g].w;
        if (out[g].h != w || out[g].w != h)
            ok = 0;
        for (int i = 0; i < w && ok == 1; i++)
            for (int j = 0; j < h; j++)
                if (out[g].cell[i * GPU_SIDE + j] != in[g].cell[(h - 1 - j) * GPU_SIDE + i])
                    ok = 0;
    }
    snprintf(why, whylen, ok ? "rot90 kernel ran on %d grids, equal to the host" :
             "rot90 kernel ran on %d grids, DIFFERENT from the host", N);
    return ok;
}
