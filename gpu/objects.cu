/* objects.cu -- objects() over many grids per launch, in objscan.h's three
 * phases: a warp labels each grid's components, then warps walk the
 * objects of all grids side by side (one object each, taken from a shared
 * counter), then a warp per grid builds frozenset(objs).  A walk is serial
 * and data-driven, so only a warp's first lane works: objects sharing a
 * warp would wait on each other at every branch, while objects in separate
 * warps only share the SM, which hides their memory latency.
 * A batch goes in chunks through two slots, each with its stream: while
 * the device works on one chunk, the host rebuilds the values of the one
 * before; each chunk copies back only the words its grids filled.
 * The records sit in the grid ops' input buffer (kernels.cu); the
 * offsets, tables, scratch and the output pools are kept here. */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpu.h"
#include "objscan.h"

int gpu_input_buffers(int n, const GpuGrid **h, const GpuGrid **d, char *why, size_t whylen);
void gpu_mark_broken(const char *what);

enum { WARPS = 4, NTABLES = 4, SCAN_THREADS = 1024 };
/* ARCRUN_GPU_PROFILE: events around the copy in, the four kernels and the
 * copy out of every chunk, their times on stderr (for measuring) */
enum { PROF_EVENTS = 7 };
static const char *const prof_stage[PROF_EVENTS - 1] = {"h2d", "label", "scan", "walk", "objs", "d2h"};

__global__ static void k_label(const GpuGrid *in, const ObjTables *T, ObjGrid *G, int n)
{
    int k = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (k < n && !(threadIdx.x & 31))
        objscan_label(&in[k], T, &G[k]);
}

/* One block, over a chunk's n grids: base[g] = objects of grids 0..g-1 and
 * off[g] = output words of grids 0..g-1 (objscan_words), with base[n] and
 * off[n] the totals; the output is packed by what was found. */
__global__ static void k_scan(const ObjGrid *G, uint32_t *base, uint32_t *off, int n)
{
    __shared__ uint32_t po[SCAN_THREADS], pw[SCAN_THREADS];
    int t = threadIdx.x, per = (n + SCAN_THREADS - 1) / SCAN_THREADS;
    int lo = t * per, hi = lo + per < n ? lo + per : n;
    uint32_t so = 0, sw = 0;
    for (int g = lo; g < hi; g++) {
        so += G[g].nobj;
        sw += (uint32_t)objscan_words(G[g].nobj, G[g].before[G[g].nobj]);
    }
    po[t] = so;
    pw[t] = sw;
    __syncthreads();
    for (int d = 1; d < SCAN_THREADS; d <<= 1) {   /* inclusive scans of the parts */
        uint32_t vo = t >= d ? po[t - d] : 0, vw = t >= d ? pw[t - d] : 0;
        __syncthreads();
        po[t] += vo;
        pw[t] += vw;
        __syncthreads();
    }
    uint32_t ro = t ? po[t - 1] : 0, rw = t ? pw[t - 1] : 0;
    for (int g = lo; g < hi; g++) {
        base[g] = ro;
        off[g] = rw;
        ro += G[g].nobj;
        rw += (uint32_t)objscan_words(G[g].nobj, G[g].before[G[g].nobj]);
    }
    if (t == SCAN_THREADS - 1) {
        base[n] = po[t];
        off[n] = pw[t];
    }
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

/* A chunk of the batch in flight: its own stream and buffers, so that the
 * device works on one chunk while the host rebuilds the values of the one
 * before (the kernels of two chunks may also overlap). */
typedef struct {
    cudaStream_t stream;
    cudaEvent_t sized;          /* the offsets have reached h_off */
    ObjGrid *d_grid;
    ObjWalk *d_walk;
    unsigned *d_next;
    uint32_t *d_off, *d_base, *h_off;
    uint16_t *d_out, *h_out;
    int grids;                  /* capacity of d_grid, d_off, d_base, h_off */
    size_t words;               /* capacity of d_out, h_out */
    int lo, n;                  /* the chunk it holds */
    cudaEvent_t ev[PROF_EVENTS];  /* ARCRUN_GPU_PROFILE: between the stages */
} Slot;

enum { SLOTS = 2, CHUNK = 16384 };   /* smaller chunks lost more to syncs than overlap won (H100) */

static struct { const ObjTables *host; ObjTables *dev; } tables[NTABLES];
static Slot slots[SLOTS];
static int walk_blocks;         /* persistent blocks of WARPS walkers */

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

/* Grids per chunk: ARCRUN_GPU_CHUNK when set (for measuring), else CHUNK. */
static int chunk_size(void)
{
    static int chunk;
    if (!chunk) {
        const char *e = getenv("ARCRUN_GPU_CHUNK");
        long v = e ? strtol(e, NULL, 10) : 0;
        chunk = v >= 64 && v <= (1 << 20) ? (int)v : CHUNK;
    }
    return chunk;
}

static int profiling(void)
{
    static int on = -1;
    if (on < 0)
        on = getenv("ARCRUN_GPU_PROFILE") != NULL;
    return on;
}

static void prof_mark(Slot *S, int k)
{
    if (profiling() && S->ev[0])
        cudaEventRecord(S->ev[k], S->stream);
}

static void prof_report(Slot *S)
{
    if (!profiling() || !S->ev[0])
        return;
    fprintf(stderr, "arcrun: gpu profile: %d grids, %u words out:", S->n, S->h_off[S->n]);
    for (int k = 0; k + 1 < PROF_EVENTS; k++) {
        float ms = 0;
        cudaEventElapsedTime(&ms, S->ev[k], S->ev[k + 1]);
        fprintf(stderr, " %s %.3f", prof_stage[k], ms);
    }
    fprintf(stderr, " ms\n");
}

static int reserve(Slot *S, int n, size_t words, char *why, size_t whylen)
{
    cudaError_t e;
    if (!walk_blocks) {
        /* as many walkers as can be resident at once */
        int dev, sms, per_sm = 0;
        if ((e = cudaGetDevice(&dev)) != cudaSuccess ||
            (e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) != cudaSuccess ||
            (e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_walk, 32 * WARPS, 0)) !=
                cudaSuccess)
            return fail(e, "sizing the objects walkers", why, whylen);
        walk_blocks = sms * (per_sm > 0 ? per_sm : 1);
    }
    if (!S->stream) {
        if ((e = cudaStreamCreateWithFlags(&S->stream, cudaStreamNonBlocking)) != cudaSuccess) {
            S->stream = 0;
            return fail(e, "creating an objects stream", why, whylen);
        }
        if ((e = cudaEventCreateWithFlags(&S->sized, cudaEventDisableTiming)) != cudaSuccess) {
            S->sized = 0;
            return fail(e, "creating an objects event", why, whylen);
        }
        for (int k = 0; profiling() && k < PROF_EVENTS; k++)
            if (cudaEventCreate(&S->ev[k]) != cudaSuccess) {
                S->ev[0] = 0;
                cudaGetLastError();
                break;
            }
    }
    if (!S->d_walk &&
        ((e = cudaMalloc((void **)&S->d_walk, (size_t)walk_blocks * WARPS * sizeof *S->d_walk)) !=
             cudaSuccess ||
         (e = cudaMalloc((void **)&S->d_next, 2 * sizeof *S->d_next)) != cudaSuccess)) {
        cudaFree(S->d_walk);
        S->d_walk = NULL;
        return fail(e, "allocating the objects walkers", why, whylen);
    }
    if (n > S->grids) {
        cudaFree(S->d_grid);
        cudaFree(S->d_off);
        cudaFree(S->d_base);
        cudaFreeHost(S->h_off);
        S->d_grid = NULL;
        S->d_off = S->d_base = S->h_off = NULL;
        S->grids = 0;
        if ((e = cudaMalloc((void **)&S->d_grid, (size_t)n * sizeof *S->d_grid)) != cudaSuccess ||
            (e = cudaMalloc((void **)&S->d_off, (size_t)(n + 1) * 4)) != cudaSuccess ||
            (e = cudaMalloc((void **)&S->d_base, (size_t)(n + 1) * 4)) != cudaSuccess ||
            (e = cudaMallocHost((void **)&S->h_off, (size_t)(n + 1) * 4)) != cudaSuccess)
            return fail(e, "allocating objects scratch", why, whylen);
        S->grids = n;
    }
    if (words > S->words) {
        cudaFree(S->d_out);
        cudaFreeHost(S->h_out);
        S->d_out = S->h_out = NULL;
        S->words = 0;
        size_t want = words + words / 2;
        if ((e = cudaMalloc((void **)&S->d_out, want * 2)) != cudaSuccess ||
            (e = cudaMallocHost((void **)&S->h_out, want * 2)) != cudaSuccess)
            return fail(e, "allocating the objects output", why, whylen);
        S->words = want;
    }
    return 0;
}

/* Queue a chunk: its records in, the kernels, its offsets out (S->sized). */
static int launch(Slot *S, const GpuGrid *h_in, const GpuGrid *d_in, int shape,
                  const ObjTables *dT, char *why, size_t whylen)
{
    int n = S->n;
    prof_mark(S, 0);
    cudaError_t e = cudaMemcpyAsync((void *)d_in, h_in, (size_t)n * sizeof *h_in,
                                    cudaMemcpyHostToDevice, S->stream);
    if (e == cudaSuccess)
        e = cudaMemsetAsync(S->d_next, 0, 2 * sizeof *S->d_next, S->stream);
    if (e != cudaSuccess)
        return fail(e, "host->device copy", why, whylen);
    prof_mark(S, 1);
    k_label<<<(n + WARPS - 1) / WARPS, 32 * WARPS, 0, S->stream>>>(d_in, dT, S->d_grid, n);
    prof_mark(S, 2);
    k_scan<<<1, SCAN_THREADS, 0, S->stream>>>(S->d_grid, S->d_base, S->d_off, n);
    prof_mark(S, 3);
    if ((e = cudaMemcpyAsync(S->h_off, S->d_off, (size_t)(n + 1) * 4, cudaMemcpyDeviceToHost,
                             S->stream)) != cudaSuccess ||
        (e = cudaEventRecord(S->sized, S->stream)) != cudaSuccess)
        return fail(e, "device->host copy of the offsets", why, whylen);
    k_walk<<<walk_blocks, 32 * WARPS, 0, S->stream>>>(d_in, S->d_off, shape, dT, S->d_grid,
                                                      S->d_base, n, S->d_walk, S->d_next,
                                                      S->d_out);
    prof_mark(S, 4);
    k_objs<<<walk_blocks, 32 * WARPS, 0, S->stream>>>(d_in, S->d_off, shape, dT, S->d_grid, n,
                                                      S->d_walk, S->d_next + 1, S->d_out);
    prof_mark(S, 5);
    if ((e = cudaGetLastError()) != cudaSuccess)
        return fail(e, "kernel launch", why, whylen);
    return 0;
}

/* Wait for a chunk and copy back the words its grids filled. */
static int collect(Slot *S, char *why, size_t whylen)
{
    cudaError_t e = cudaEventSynchronize(S->sized);
    if (e == cudaSuccess)
        e = cudaMemcpyAsync(S->h_out, S->d_out, (size_t)S->h_off[S->n] * 2, cudaMemcpyDeviceToHost,
                            S->stream);
    prof_mark(S, 6);
    if (e == cudaSuccess)
        e = cudaStreamSynchronize(S->stream);
    if (e == cudaSuccess)
        prof_report(S);
    if (e != cudaSuccess) {
        gpu_mark_broken(cudaGetErrorString(e));
        snprintf(why, whylen, "objects kernels or device->host copy: %s", cudaGetErrorString(e));
        return -1;
    }
    return 0;
}

extern "C" int gpu_run_objects(int n, int shape, const ObjTables *T, GpuObjectsDone done,
                               void *ctx, double *wait_s, char *why, size_t whylen)
{
    *wait_s = 0;
    const ObjTables *dT = device_tables(T, why, whylen);
    const GpuGrid *h_in, *d_in;
    if (!dT || gpu_input_buffers(n, &h_in, &d_in, why, whylen))
        return -1;
    int chunk = chunk_size(), nchunks = (n + chunk - 1) / chunk;
    int most[SLOTS] = {0};
    size_t words[SLOTS] = {0};  /* a slot's output room: its chunks' worst case */
    for (int c = 0; c < nchunks; c++) {
        int lo = c * chunk, hi = lo + chunk < n ? lo + chunk : n;
        size_t w = 0;
        for (int k = lo; k < hi; k++)
            w += objscan_out_words(h_in[k].h, h_in[k].w);
        most[c % SLOTS] = hi - lo > most[c % SLOTS] ? hi - lo : most[c % SLOTS];
        words[c % SLOTS] = w > words[c % SLOTS] ? w : words[c % SLOTS];
    }
    for (int c = 0; c < nchunks && c < SLOTS; c++)
        if (reserve(&slots[c], most[c], words[c], why, whylen))
            return -1;
    for (int c = 0; c <= nchunks; c++) {
        if (c < nchunks) {      /* queue chunk c; its slot's last chunk was handed over */
            Slot *S = &slots[c % SLOTS];
            S->lo = c * chunk;
            S->n = S->lo + chunk < n ? chunk : n - S->lo;
            if (launch(S, h_in + S->lo, d_in + S->lo, shape, dT, why, whylen))
                goto failed;
        }
        if (c > 0) {            /* meanwhile, chunk c - 1 */
            Slot *S = &slots[(c - 1) % SLOTS];
            struct timespec t0, t1;
            clock_gettime(CLOCK_MONOTONIC, &t0);
            int rc = collect(S, why, whylen);
            clock_gettime(CLOCK_MONOTONIC, &t1);
            *wait_s += (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
            if (rc)
                goto failed;
            done(ctx, S->lo, S->lo + S->n, S->h_out, S->h_off);
        }
    }
    return 0;
failed:
    /* nothing may still read the input buffer the caller refills next */
    for (int k = 0; k < SLOTS; k++)
        if (slots[k].stream)
            cudaStreamSynchronize(slots[k].stream);
    return -1;
}
