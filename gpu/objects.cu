/* objects.cu -- objects() over many grids per launch, in objscan.h's three
 * phases: a warp labels each grid's components, then warps walk the
 * objects of all grids side by side (one object each, taken from a shared
 * counter), then a warp per grid builds frozenset(objs).  A walk is serial
 * and data-driven, so only a warp's first lane works: objects sharing a
 * warp would wait on each other at every branch, while objects in separate
 * warps only share the SM, which hides their memory latency.
 * The records travel with the grid ops' input buffer (kernels.cu); the
 * offsets, tables, scratch and the output pool are kept here. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"
#include "objscan.h"

int gpu_stage_input(int n, const GpuGrid **d, cudaStream_t *s, char *why, size_t whylen);
void gpu_mark_broken(const char *what);

enum { WARPS = 4, NTABLES = 4, SCAN_THREADS = 1024 };

__global__ static void k_label(const GpuGrid *in, const ObjTables *T, ObjGrid *G, int n)
{
    int k = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (k < n && !(threadIdx.x & 31))
        objscan_label(&in[k], T, &G[k]);
}

/* base[g] = objects of grids 0..g-1, base[n] all of them; one block. */
__global__ static void k_scan(const ObjGrid *G, uint32_t *base, int n)
{
    __shared__ uint32_t part[SCAN_THREADS];
    int t = threadIdx.x, per = (n + SCAN_THREADS - 1) / SCAN_THREADS;
    int lo = t * per, hi = lo + per < n ? lo + per : n;
    uint32_t sum = 0;
    for (int g = lo; g < hi; g++)
        sum += G[g].nobj;
    part[t] = sum;
    __syncthreads();
    for (int d = 1; d < SCAN_THREADS; d <<= 1) {   /* inclusive scan of the parts */
        uint32_t v = t >= d ? part[t - d] : 0;
        __syncthreads();
        part[t] += v;
        __syncthreads();
    }
    uint32_t run = t ? part[t - 1] : 0;
    for (int g = lo; g < hi; g++) {
        base[g] = run;
        run += G[g].nobj;
    }
    if (t == SCAN_THREADS - 1)
        base[n] = part[t];
}

__global__ static void k_walk(const GpuGrid *in, const uint32_t *off, int shape, const ObjTables *T,
                              ObjGrid *G, const uint32_t *base, int n, ObjWalk *scr,
                              unsigned *next, uint16_t *out)
{
    if (threadIdx.x & 31)
        return;
    ObjWalk *s = &scr[blockIdx.x * WARPS + (threadIdx.x >> 5)];
    uint32_t total = base[n];
    for (uint32_t t = atomicAdd(next, 1u); t < total; t = atomicAdd(next, 1u)) {
        int lo = 0, hi = n;              /* the grid g with base[g] <= t < base[g + 1] */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            if (base[mid] <= t)
                lo = mid;
            else
                hi = mid;
        }
        objscan_walk(&in[lo], shape, T, &G[lo], (int)(t - base[lo]), s, out + off[lo]);
    }
}

__global__ static void k_objs(const GpuGrid *in, const uint32_t *off, int shape, const ObjTables *T,
                              const ObjGrid *G, int n, ObjWalk *scr, unsigned *next, uint16_t *out)
{
    if (threadIdx.x & 31)
        return;
    ObjWalk *s = &scr[blockIdx.x * WARPS + (threadIdx.x >> 5)];
    for (unsigned g = atomicAdd(next, 1u); g < (unsigned)n; g = atomicAdd(next, 1u))
        objscan_objs(&in[g], shape, T, &G[g], s, out + off[g]);
}

static struct { const ObjTables *host; ObjTables *dev; } tables[NTABLES];
static ObjGrid *d_grid;
static int grid_cap;
static ObjWalk *d_walk;
static int walk_blocks;          /* persistent blocks of WARPS walkers */
static uint32_t *d_off, *h_off, *d_base;
static unsigned *d_next;
static int off_cap;
static uint16_t *d_out, *h_out;
static size_t out_cap;

static int fail(cudaError_t e, const char *what, char *why, size_t whylen)
{
    snprintf(why, whylen, "%s: %s", what, cudaGetErrorString(e));
    cudaGetLastError();         /* allocation failures are not sticky */
    return -1;
}

static const ObjTables *device_tables(const ObjTables *T, char *why, size_t whylen)
{
    for (int k = 0; k < NTABLES; k++)
        if (tables[k].host == T)
            return tables[k].dev;
    for (int k = 0; k < NTABLES; k++)
        if (!tables[k].host) {
            cudaError_t e = cudaMalloc((void **)&tables[k].dev, sizeof *T);
            if (e == cudaSuccess)
                e = cudaMemcpy(tables[k].dev, T, sizeof *T, cudaMemcpyHostToDevice);
            if (e != cudaSuccess) {
                cudaFree(tables[k].dev);
                tables[k].dev = NULL;
                fail(e, "uploading the objects tables", why, whylen);
                return NULL;
            }
            tables[k].host = T;
            return tables[k].dev;
        }
    snprintf(why, whylen, "more than %d objects tables", NTABLES);
    return NULL;
}

static int reserve(int n, size_t words, char *why, size_t whylen)
{
    cudaError_t e;
    if (!d_walk) {
        /* as many walkers as can be resident at once */
        int dev, sms, per_sm = 0;
        if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
            (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_walk, 32 * WARPS, 0)) !=
                cudaSuccess)
            return fail(e, "sizing the objects walkers", why, whylen);
        walk_blocks = sms * (per_sm > 0 ? per_sm : 1);
        if ((e = cudaMalloc((void **)&d_walk, (size_t)walk_blocks * WARPS * sizeof *d_walk)) !=
                cudaSuccess ||
            (e = cudaMalloc((void **)&d_next, 2 * sizeof *d_next)) != cudaSuccess) {
            cudaFree(d_walk);
            d_walk = NULL;
            return fail(e, "allocating the objects walkers", why, whylen);
        }
    }
    if (n > grid_cap) {
        cudaFree(d_grid);
        d_grid = NULL;
        grid_cap = 0;
        if ((e = cudaMalloc((void **)&d_grid, (size_t)n * sizeof *d_grid)) != cudaSuccess)
            return fail(e, "allocating objects scratch", why, whylen);
        grid_cap = n;
    }
    if (n > off_cap) {
        cudaFree(d_off);
        cudaFree(d_base);
        cudaFreeHost(h_off);
        d_off = h_off = d_base = NULL;
        off_cap = 0;
        if ((e = cudaMalloc((void **)&d_off, (size_t)n * 4)) != cudaSuccess ||
            (e = cudaMalloc((void **)&d_base, (size_t)(n + 1) * 4)) != cudaSuccess ||
            (e = cudaMallocHost((void **)&h_off, (size_t)n * 4)) != cudaSuccess)
            return fail(e, "allocating objects offsets", why, whylen);
        off_cap = n;
    }
    if (words > out_cap) {
        cudaFree(d_out);
        cudaFreeHost(h_out);
        d_out = h_out = NULL;
        out_cap = 0;
        size_t want = words + words / 2;
        if ((e = cudaMalloc((void **)&d_out, want * 2)) != cudaSuccess ||
            (e = cudaMallocHost((void **)&h_out, want * 2)) != cudaSuccess)
            return fail(e, "allocating the objects output", why, whylen);
        out_cap = want;
    }
    return 0;
}

extern "C" int gpu_run_objects(int n, int shape, const ObjTables *T, const uint32_t *off,
                               size_t words, const uint16_t **out, char *why, size_t whylen)
{
    *out = NULL;
    const GpuGrid *d_in;
    cudaStream_t s;
    const ObjTables *dT = device_tables(T, why, whylen);
    if (!dT || reserve(n, words, why, whylen) || gpu_stage_input(n, &d_in, &s, why, whylen))
        return -1;
    memcpy(h_off, off, (size_t)n * 4);
    cudaError_t e = cudaMemcpyAsync(d_off, h_off, (size_t)n * 4, cudaMemcpyHostToDevice, s);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(d_next, 0, 2 * sizeof *d_next, s);
    if (e != cudaSuccess)
        return fail(e, "host->device copy", why, whylen);
    int grid_blocks = (n + WARPS - 1) / WARPS;
    k_label<<<grid_blocks, 32 * WARPS, 0, s>>>(d_in, dT, d_grid, n);
    k_scan<<<1, SCAN_THREADS, 0, s>>>(d_grid, d_base, n);
    k_walk<<<walk_blocks, 32 * WARPS, 0, s>>>(d_in, d_off, shape, dT, d_grid, d_base, n, d_walk,
                                              d_next, d_out);
    k_objs<<<walk_blocks, 32 * WARPS, 0, s>>>(d_in, d_off, shape, dT, d_grid, n, d_walk, d_next + 1,
                                              d_out);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return fail(e, "kernel launch", why, whylen);
    e = cudaMemcpyAsync(h_out, d_out, words * 2, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        gpu_mark_broken(cudaGetErrorString(e));
        snprintf(why, whylen, "objects kernels or device->host copy: %s", cudaGetErrorString(e));
        return -1;
    }
    *out = h_out;
    return 0;
}
