/* run_packed.c -- where a batch of packed records runs: on the device
 * (gpu.h), or, under --backend=emulate, through the kernels' arithmetic on
 * the host (ops_host.c) with the faults ARCRUN_GPU_INJECT asks for, so the
 * tests reach every path of the backend without a device. */
#include "backend_gpu_int.h"
#include "gpu_objects.h"

#include <stdlib.h>
#include <string.h>

static const char *inject;       /* "fail" or "diff" (tests) */
static GpuGrid *ebuf;            /* emulation buffers */
static void *eout;
static int ecap;

void gpu_emulation_setup(void)
{
    inject = gpu_state.o.mode == BACKEND_EMULATE ? getenv("ARCRUN_GPU_INJECT") : NULL;
}

GpuGrid *gpu_input_buffer(int n, char *why, size_t whylen)
{
    if (gpu_state.o.mode != BACKEND_EMULATE)
        return gpu_host_input(n, why, whylen);
    if (n > ecap) {
        int cap = ecap ? ecap : 1024;
        while (cap < n)
            cap *= 2;
        free(ebuf);
        free(eout);
        ebuf = malloc(sizeof(GpuGrid) * (size_t)cap);
        eout = malloc(sizeof(GpuGrid) * (size_t)cap);
        if (!ebuf || !eout) {
            free(ebuf);
            free(eout);
            ebuf = NULL;
            eout = NULL;
            ecap = 0;
            snprintf(why, whylen, "out of host memory for %d grids", n);
            return NULL;
        }
        ecap = cap;
    }
    return ebuf;
}

/* Emulation only: whether ARCRUN_GPU_INJECT asks for this fault; "fail"
 * also says why. */
static bool injected(const char *fault, char *why, size_t whylen)
{
    if (!inject || strcmp(inject, fault) != 0)
        return false;
    if (strcmp(fault, "fail") == 0)
        snprintf(why, whylen, "injected device failure (ARCRUN_GPU_INJECT=fail)");
    return true;
}

int gpu_run_packed(int op, int n, const void **out, char *why, size_t whylen)
{
    if (gpu_state.o.mode != BACKEND_EMULATE)
        return gpu_run(op, n, out, why, whylen);
    if (injected("fail", why, whylen))
        return -1;
    gpu_emulate(op, ebuf, eout, n);
    if (injected("diff", why, whylen)) {
        if (gpu_ops[op].out == GOUT_STATS)
            ((GpuStats *)eout)->count[((GpuGrid *)ebuf)->cell[0]]++;
        else if (((GpuGrid *)eout)->h)
            ((GpuGrid *)eout)->cell[0] ^= 1;
    }
    *out = eout;
    return 0;
}

/* The objects ops (objscan.h): on the device, chunk by chunk, each
 * chunk's values rebuilt while the device runs the next; emulated, in one
 * piece at worst-case offsets. */
typedef struct {
    int op;
    const GpuGrid *recs;
    Value **res;
    int built;                  /* res[0..built) hold values */
    double rebuild_s;
} ObjRun;

static void objects_done(void *ctx, int lo, int hi, const uint16_t *out, const uint32_t *off)
{
    ObjRun *r = ctx;
    double t0 = now_s();
    gpu_unpack_batch(r->op, r->recs + lo, out, off, hi - lo, r->res + lo);
    r->built = hi;
    r->rebuild_s += now_s() - t0;
}

int gpu_run_objects_batch(int op, const GpuGrid *recs, int n, Value **res, char *why,
                          size_t whylen)
{
    ObjRun r = {.op = op, .recs = recs, .res = res};
    double t0 = now_s(), wait_s = 0;
    int rc;
    if (gpu_state.o.mode != BACKEND_EMULATE) {
        rc = gpu_run_objects(n, gobj_shape(op), gobj_tables(op), objects_done, &r, &wait_s, why,
                             whylen);
    } else if (injected("fail", why, whylen)) {
        rc = -1;
    } else {
        uint32_t *off = xmalloc_(sizeof *off * (size_t)n);
        size_t words = 0;
        for (int k = 0; k < n; k++) {
            off[k] = (uint32_t)words;
            words += objscan_out_words(recs[k].h, recs[k].w);
        }
        uint16_t *buf = xmalloc_(words * sizeof *buf);
        gpu_emulate_objects(n, gobj_shape(op), gobj_tables(op), recs, off, buf);
        if (injected("diff", why, whylen))
            buf[0] = 0;             /* the first grid has no objects */
        wait_s = now_s() - t0;
        objects_done(&r, 0, n, buf, off);
        free(buf);
        free(off);
        rc = 0;
    }
    if (rc != 0)                    /* the whole batch goes to the CPU */
        for (int k = 0; k < r.built; k++) {
            v_decref(res[k]);
            res[k] = NULL;
        }
    gpu_phase.device = wait_s;
    gpu_phase.rebuild = r.rebuild_s;
    return rc;
}
