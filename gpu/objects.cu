/* objects.cu -- objects() over many grids per launch: one thread per grid
 * runs objscan.h in its own scratch, so each result has the cell order the
 * CPU path produces.  The records travel with the grid ops' input buffer
 * (kernels.cu); the offsets, tables and the output pool are kept here. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>
#include "gpu.h"
#include "objscan.h"

int gpu_stage_input(int n, const GpuGrid **d, cudaStream_t *s, char *why, size_t whylen);
void gpu_mark_broken(const char *what);

/* A warp per grid, its first lane scanning: the scan is serial and
 * data-driven, so grids sharing a warp would wait on each other at every
 * branch; grids in separate warps only share the SM, which hides their
 * memory latency behind one another. */
enum { OBJ_WARPS = 4, NTABLES = 4 };

__global__ static void k_objects(const GpuGrid *in, const uint32_t *off, int shape,
                                 const ObjTables *T, ObjScratch *scr, uint16_t *out, int n)
{
    int k = blockIdx.x * OBJ_WARPS + (threadIdx.x >> 5);
    if (k >= n || (threadIdx.x & 31))
        return;
    objscan(&in[k], shape, T, &scr[k], out + off[k]);
}

static struct { const ObjTables *host; ObjTables *dev; } tables[NTABLES];
static ObjScratch *d_scr;
static int scr_cap;
static uint32_t *d_off, *h_off;
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
    if (n > scr_cap) {
        cudaFree(d_scr);
        d_scr = NULL;
        scr_cap = 0;
        if ((e = cudaMalloc((void **)&d_scr, (size_t)n * sizeof *d_scr)) != cudaSuccess)
            return fail(e, "allocating objects scratch", why, whylen);
        scr_cap = n;
    }
    if (n > off_cap) {
        cudaFree(d_off);
        cudaFreeHost(h_off);
        d_off = h_off = NULL;
        off_cap = 0;
        if ((e = cudaMalloc((void **)&d_off, (size_t)n * 4)) != cudaSuccess ||
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
    if (e != cudaSuccess)
        return fail(e, "host->device copy", why, whylen);
    k_objects<<<(n + OBJ_WARPS - 1) / OBJ_WARPS, 32 * OBJ_WARPS, 0, s>>>(d_in, d_off, shape, dT,
                                                                       d_scr, d_out, n);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return fail(e, "kernel launch", why, whylen);
    e = cudaMemcpyAsync(h_out, d_out, words * 2, cudaMemcpyDeviceToHost, s);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(s);
    if (e != cudaSuccess) {
        gpu_mark_broken(cudaGetErrorString(e));
        snprintf(why, whylen, "objects kernel or device->host copy: %s", cudaGetErrorString(e));
        return -1;
    }
    *out = h_out;
    return 0;
}
