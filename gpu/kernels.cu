/* kernels.cu -- the grid ops as CUDA kernels, and the batch launch: one
 * host->device copy of the packed records, one launch, one device->host
 * copy, on one stream, through pinned buffers reused across batches.
 * The per-cell arithmetic is ops_cell.h, shared with the host emulation.
 * Records were validated on the host (dims 1..30, cells 0..9, output
 * within 30x30), so no kernel checks bounds it cannot exceed. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"
#include "ops_cell.h"

enum { THREADS = 128 };

/* Stage one record in shared memory, a word at a time. */
__device__ static void load_grid(GpuGrid *dst, const GpuGrid *src)
{
    const unsigned *s = (const unsigned *)src;
    unsigned *d = (unsigned *)dst;
    for (int k = threadIdx.x; k < (int)(sizeof(GpuGrid) / 4); k += blockDim.x)
        d[k] = s[k];
    __syncthreads();
}

/* One block per record, one thread per output cell. */
__global__ static void k_grid(int op, const GpuGrid *in, GpuGrid *out, int n)
{
    __shared__ __align__(16) GpuGrid g;   /* load_grid copies words */
    if ((int)blockIdx.x >= n)
        return;
    load_grid(&g, &in[blockIdx.x]);
    GpuGrid *o = &out[blockIdx.x];
    int oh, ow;
    gop_shape(op, &g, &oh, &ow);
    if (threadIdx.x == 0) {
        o->h = (uint8_t)oh;
        o->w = (uint8_t)ow;
        o->p0 = o->p1 = 0;
    }
    for (int c = threadIdx.x; c < oh * ow; c += blockDim.x) {
        int i = c / ow, j = c % ow;
        o->cell[i * GPU_SIDE + j] = (uint8_t)gop_cell(op, &g, i, j);
    }
}

__global__ static void k_compress(const GpuGrid *in, GpuGrid *out, int n)
{
    __shared__ __align__(16) GpuGrid g;   /* load_grid copies words */
    __shared__ unsigned char keep_r[GPU_SIDE], keep_c[GPU_SIDE];
    __shared__ int rows[GPU_SIDE], cols[GPU_SIDE], nr, nc;
    if ((int)blockIdx.x >= n)
        return;
    load_grid(&g, &in[blockIdx.x]);
    int t = threadIdx.x;
    if (t < g.h)
        keep_r[t] = !gop_row_uniform(&g, t);
    if (t >= GPU_SIDE && t - GPU_SIDE < g.w)
        keep_c[t - GPU_SIDE] = !gop_col_uniform(&g, t - GPU_SIDE);
    __syncthreads();
    if (t == 0) {
        nr = nc = 0;
        for (int i = 0; i < g.h; i++)
            if (keep_r[i])
                rows[nr++] = i;
        for (int j = 0; j < g.w; j++)
            if (keep_c[j])
                cols[nc++] = j;
    }
    __syncthreads();
    GpuGrid *o = &out[blockIdx.x];
    if (t == 0) {
        o->h = (uint8_t)nr;
        o->w = (uint8_t)(nr ? nc : 0);
        o->p0 = o->p1 = 0;
    }
    for (int c = t; c < nr * nc; c += blockDim.x) {
        int i = c / nc, j = c % nc;
        o->cell[i * GPU_SIDE + j] = g.cell[rows[i] * GPU_SIDE + cols[j]];
    }
}

/* Per colour: how many cells, and the row-major index of the first. */
__global__ static void k_stats(const GpuGrid *in, GpuStats *out, int n)
{
    __shared__ __align__(16) GpuGrid g;   /* load_grid copies words */
    __shared__ unsigned cnt[10], first[10];
    if ((int)blockIdx.x >= n)
        return;
    if (threadIdx.x < 10) {
        cnt[threadIdx.x] = 0;
        first[threadIdx.x] = GPU_NOFIRST;
    }
    load_grid(&g, &in[blockIdx.x]);   /* its barrier also orders the init */
    for (int c = threadIdx.x; c < g.h * g.w; c += blockDim.x) {
        int v = g.cell[(c / g.w) * GPU_SIDE + c % g.w];
        atomicAdd(&cnt[v], 1u);
        atomicMin(&first[v], (unsigned)c);
    }
    __syncthreads();
    if (threadIdx.x < 10) {
        out[blockIdx.x].count[threadIdx.x] = (uint16_t)cnt[threadIdx.x];
        out[blockIdx.x].first[threadIdx.x] = (uint16_t)first[threadIdx.x];
    }
}

/* ---- host side ---------------------------------------------------------- */

static GpuGrid *h_in, *d_in;
static void *h_out, *d_out;
static int cap;                 /* records each buffer holds */
static cudaStream_t stream;
static char broken[200];        /* set after an error that may leave the context unusable */

static int fail(cudaError_t e, const char *what, char *why, size_t whylen)
{
    snprintf(why, whylen, "%s: %s", what, cudaGetErrorString(e));
    return -1;
}

static void release(void)
{
    cudaFreeHost(h_in);
    cudaFreeHost(h_out);
    cudaFree(d_in);
    cudaFree(d_out);
    h_in = d_in = NULL;
    h_out = d_out = NULL;
    cap = 0;
}

static int reserve(int n, char *why, size_t whylen)
{
    if (n <= cap)
        return 0;
    int want = cap ? cap : 1024;
    while (want < n)
        want = want > (1 << 29) ? n : 2 * want;
    release();
    size_t bytes = (size_t)want * sizeof(GpuGrid);
    cudaError_t e;
    if ((e = cudaMallocHost((void **)&h_in, bytes)) != cudaSuccess ||
        (e = cudaMallocHost(&h_out, bytes)) != cudaSuccess ||
        (e = cudaMalloc((void **)&d_in, bytes)) != cudaSuccess ||
        (e = cudaMalloc(&d_out, bytes)) != cudaSuccess) {
        char what[96];
        snprintf(what, sizeof what, "allocating buffers for %d grids (%zu bytes each)", want, bytes);
        release();
        cudaGetLastError();     /* allocation failures are not sticky */
        return fail(e, what, why, whylen);
    }
    cap = want;
    return 0;
}

extern "C" GpuGrid *gpu_host_input(int n, char *why, size_t whylen)
{
    if (!gpu_available(why, whylen))
        return NULL;
    if (broken[0]) {
        snprintf(why, whylen, "device unusable after an earlier error (%s)", broken);
        return NULL;
    }
    if (!stream) {
        cudaError_t e = cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
        if (e != cudaSuccess) {
            stream = 0;
            fail(e, "cudaStreamCreate", why, whylen);
            return NULL;
        }
    }
    return reserve(n < 1 ? 1 : n, why, whylen) ? NULL : h_in;
}

/* The records of gpu_host_input, on the host and where they go on the
 * device, for objects.cu, which copies them chunk by chunk. */
int gpu_input_buffers(int n, const GpuGrid **h, const GpuGrid **d, char *why, size_t whylen)
{
    if (broken[0]) {
        snprintf(why, whylen, "device unusable after an earlier error (%s)", broken);
        return -1;
    }
    if (n < 1 || n > cap) {
        snprintf(why, whylen, "bad batch (%d grids, %d buffered)", n, cap);
        return -1;
    }
    *h = h_in;
    *d = d_in;
    return 0;
}

/* After an error that may leave the context unusable. */
void gpu_mark_broken(const char *what)
{
    snprintf(broken, sizeof broken, "%s", what);
}

extern "C" int gpu_run(int op, int n, const void **out, char *why, size_t whylen)
{
    *out = NULL;
    if (broken[0]) {
        snprintf(why, whylen, "device unusable after an earlier error (%s)", broken);
        return -1;
    }
    if (op < 0 || op >= GOP_COUNT || gop_is_objects(op) || n < 1 || n > cap || !stream) {
        snprintf(why, whylen, "bad batch (op %d, %d grids, %d buffered)", op, n, cap);
        return -1;
    }
    cudaError_t e = cudaMemcpyAsync(d_in, h_in, (size_t)n * sizeof(GpuGrid),
                                    cudaMemcpyHostToDevice, stream);
    if (e != cudaSuccess)
        return fail(e, "host->device copy", why, whylen);
    if (gop_is_stats(op))
        k_stats<<<n, THREADS, 0, stream>>>(d_in, (GpuStats *)d_out, n);
    else if (op == GOP_COMPRESS)
        k_compress<<<n, 2 * GPU_SIDE > THREADS ? 2 * GPU_SIDE : THREADS, 0, stream>>>(d_in, (GpuGrid *)d_out, n);
    else
        k_grid<<<n, THREADS, 0, stream>>>(op, d_in, (GpuGrid *)d_out, n);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return fail(e, "kernel launch", why, whylen);
    e = cudaMemcpyAsync(h_out, d_out, (size_t)n * gpu_out_size(op), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(stream);
    if (e != cudaSuccess) {
        snprintf(broken, sizeof broken, "%s", cudaGetErrorString(e));
        return fail(e, "kernel or device->host copy", why, whylen);
    }
    *out = h_out;
    return 0;
}
