/* probe.cu -- device discovery and the first kernel: batched rot90 over
 * padded 30x30 grids, one transfer each way per batch (DESIGN §7). */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"

#define GRID_MAX 30
#define CELLS (GRID_MAX * GRID_MAX)

/* One block per grid, one thread per output cell.  rot90 of an h x w
 * grid is w x h with out[i][j] = in[h-1-j][i]. */
__global__ static void rot90_kernel(const unsigned char *in, const int *dims,
                                    unsigned char *out, int n)
{
    int g = blockIdx.x;
    if (g >= n)
        return;
    int h = dims[2 * g], w = dims[2 * g + 1];
    for (int c = threadIdx.x; c < h * w; c += blockDim.x) {
        int i = c / h, j = c % h;          /* output is w rows of h */
        out[g * CELLS + i * GRID_MAX + j] = in[g * CELLS + (h - 1 - j) * GRID_MAX + i];
    }
}

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
    unsigned char *h_in, *h_out;
    cudaMallocHost((void **)&h_in, N * CELLS);
    cudaMallocHost((void **)&h_out, N * CELLS);
    for (int g = 0; g < N; g++)
        for (int c = 0; c < CELLS; c++)
            h_in[g * CELLS + c] = (unsigned char)((c * 7 + g) % 10);
    unsigned char *d_in = NULL, *d_out = NULL;
    int *d_dims = NULL;
    int ok = -1;
    if (cudaMalloc((void **)&d_in, N * CELLS) != cudaSuccess ||
        cudaMalloc((void **)&d_out, N * CELLS) != cudaSuccess ||
        cudaMalloc((void **)&d_dims, sizeof dims) != cudaSuccess) {
        snprintf(why, whylen, "cudaMalloc failed");
        goto out;
    }
    cudaMemcpy(d_in, h_in, N * CELLS, cudaMemcpyHostToDevice);
    cudaMemcpy(d_dims, dims, sizeof dims, cudaMemcpyHostToDevice);
    rot90_kernel<<<N, 128>>>(d_in, d_dims, d_out, N);
    if (cudaMemcpy(h_out, d_out, N * CELLS, cudaMemcpyDeviceToHost) != cudaSuccess) {
        snprintf(why, whylen, "kernel failed: %s", cudaGetErrorString(cudaGetLastError()));
        goto out;
    }
    ok = 1;
    for (int g = 0; g < N && ok == 1; g++) {
        int h = dims[2 * g], w = dims[2 * g + 1];
        for (int i = 0; i < w; i++)
            for (int j = 0; j < h; j++)
                if (h_out[g * CELLS + i * GRID_MAX + j] != h_in[g * CELLS + (h - 1 - j) * GRID_MAX + i])
                    ok = 0;
    }
    snprintf(why, whylen, ok ? "rot90 kernel ran on %d grids, equal to the host" :
             "rot90 kernel ran on %d grids, DIFFERENT from the host", N);
out:
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_dims);
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    return ok;
}
