/* backend_gpu.c -- the CUDA backend: grid ops batched into packed
 * records, validated on the host, one transfer each way per batch, the
 * CPU for whatever the device cannot or should not take -- every such
 * decision logged (DESIGN §7).  Always compiled: without CUDA, or without
 * a device, gpu/ says why and every batch stays on the CPU.  This file:
 * setup, which calls the device takes, and a batch from packing to
 * results; the other host files of gpu/ share backend_gpu_int.h. */
#include "backend_gpu_int.h"
#include "gpu_objects.h"
#include "prim.h"
#include "vgrid.h"

#include <stdlib.h>
#include <string.h>

/* Each primitive's GPU op, from the gpu column of its table row. */
#define GOP_NONE (-1)
static const signed char gop_of_prim[PRIM_COUNT] = {
#define AD(name, arity, ret, gpu, shape) [PRIM_AD_##name] = GOP_##gpu,
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) [PRIM_TK_##name] = GOP_##gpu,
#include "tokpidjin/list.h"
#undef TK
#define RA(name, arity, ret, gpu, shape) [PRIM_RA_##name] = GOP_##gpu,
#include "rearc/list.h"
#undef RA
};

/* auto without a calibration file: what an H100 measured (docs/gpu.md):
 * the cheap grid ops never paid; the objects ops were 2.8-4x at 16384
 * grids, some under AUTO_MARGIN (calibrate.c) at 4096. */
enum { DEFAULT_CROSSOVER_OBJECTS = 16384 };

GpuState gpu_state = {.o = {.mode = BACKEND_CPU}};
pthread_mutex_t gpu_lock = PTHREAD_MUTEX_INITIALIZER;
GpuPhases gpu_phase;

/* What this file alone keeps: each primitive's op, and the notes said. */
static struct {
    signed char op_of_prim[PRIM_COUNT];
    struct { int op; char reason[160]; } seen[128];
    int nseen;
} G;

const char *gpu_mode_name(void)
{
    return gpu_state.o.mode == BACKEND_EMULATE ? "emulate" : "cuda";
}

int backend_mode_parse(const char *s)
{
    static const char *const names[] = {"cpu", "auto", "cuda", "emulate"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

/* Each (op, reason) is said once.  Chunk threads ask gpu_supports at
 * once, outside gpu_lock (which run_batch holds when it notes), hence a lock
 * of its own. */
static pthread_mutex_t note_lock = PTHREAD_MUTEX_INITIALIZER;

static void note(int op, bool always, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note(int op, bool always, const char *fmt, ...)
{
    char msg[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    pthread_mutex_lock(&note_lock);
    bool seen = false;
    for (int i = 0; i < G.nseen && !seen; i++)
        seen = G.seen[i].op == op && strcmp(G.seen[i].reason, msg) == 0;
    if (!seen && G.nseen < (int)(sizeof G.seen / sizeof G.seen[0])) {
        G.seen[G.nseen].op = op;
        snprintf(G.seen[G.nseen].reason, sizeof G.seen[0].reason, "%s", msg);
        G.nseen++;
    }
    bool loud = always || gpu_state.o.verbose || gpu_state.o.compare ||
                gpu_state.o.mode != BACKEND_AUTO;
    if (!seen && loud && gpu_state.o.log)
        fprintf(gpu_state.o.log, "arcrun: %s: %s -> cpu: %s (said once per op and reason)\n",
                gpu_mode_name(), gpu_ops[op].name, msg);
    pthread_mutex_unlock(&note_lock);
}

/* ---- which calls the device takes -------------------------------------- */

static void map_prims(void)
{
    for (int p = 0; p < PRIM_COUNT; p++)
        G.op_of_prim[p] = gop_of_prim[p];
}

static int op_of(const Value *callee)
{
    if (!callee || callee->type != V_FUNC || callee->refs >= 0 || callee->u.fn.prim < 0 ||
        callee->u.fn.prim >= PRIM_COUNT || callee != prim_value(callee->u.fn.prim))
        return -1;
    return G.op_of_prim[callee->u.fn.prim];
}

int gpu_op_of_prim(int prim)
{
    return G.op_of_prim[prim];
}

/* ---- the backend ----------------------------------------------------------- */

static bool gpu_supports(const Backend *be, const OpKey *key, int batch_size)
{
    (void)be;
    if (gpu_state.o.mode == BACKEND_CPU || !gpu_state.usable)
        return false;
    int op = op_of(key->callee);
    if (op < 0 || key->nargs != gpu_ops[op].arity)
        return false;
    if (key->fixed[0] && key->fixed[0]->type == V_FUNC)
        return false;
    for (int k = 1; k < key->nargs; k++) {
        uint8_t b;
        const char *bad;
        if (!key->fixed[k])
            continue;
        if (gop_is_objects(op))   /* four arguments: past param[] */
            bad = gobj_param_ok(op, k, key->fixed[k]);
        else
            bad = gpu_param_per_call(gpu_ops[op].param[k - 1])
                      ? NULL
                      : gpu_param_byte(gpu_ops[op].param[k - 1], key->fixed[k], &b);
        if (bad) {
            note(op, false, "%s", bad);
            return false;
        }
    }
    if (gpu_state.o.mode == BACKEND_AUTO && !gpu_state.o.compare)
        return gpu_state.crossover[op] > 0 && batch_size >= gpu_state.crossover[op] &&
               gpu_lazy_probe();
    return true;
}

/* The cells a result holds: what the CPU charges against the work budget. */
static uint64_t result_work(const Value *r)
{
    uint64_t n = 1;
    if (vg_is(r))
        return n + r->u.tup.len * vg_w(r);
    if (r->type == V_TUPLE)
        for (size_t i = 0; i < r->u.tup.len; i++)
            n += v_titems(r)[i]->type == V_TUPLE ? v_titems(r)[i]->u.tup.len : 1;
    return n;
}

void gpu_run_now(int op, Batch *b)
{
    Instance **dev = xmalloc_(sizeof(Instance *) * (size_t)b->n * 2);
    Instance **cpu = dev + b->n;
    Value **res = xmalloc_(sizeof(Value *) * (size_t)b->n);
    int ndev = 0, ncpu = 0, nfell = 0;
    double t_dev = 0, t_cpu = 0;
    char why[200];

    pthread_mutex_lock(&gpu_lock);
    OpCounters *oc = &gpu_state.ctr[op];
    double t0 = now_s();
    GpuGrid *recs = gpu_input_buffer(b->n, why, sizeof why);
    if (!recs) {
        note(op, true, "%s", why);
        for (int i = 0; i < b->n; i++)
            cpu[ncpu++] = b->inst[i];
        nfell = b->n;
    } else {
        const char **bad = xmalloc_(sizeof *bad * (size_t)b->n);
        gpu_pack_batch(op, b->inst, b->n, recs, bad);
        for (int i = 0; i < b->n; i++) {     /* the records of the CPU's calls drop out */
            if (bad[i]) {
                note(op, false, "%s", bad[i]);
                cpu[ncpu++] = b->inst[i];
                continue;
            }
            if (ndev != i)
                recs[ndev] = recs[i];
            dev[ndev++] = b->inst[i];
        }
        free(bad);
        gpu_phase.pack = now_s() - t0;
    }
    if (ndev) {
        const void *out = NULL;
        double t1 = now_s();
        if (gop_is_objects(op) ? gpu_run_objects_batch(op, recs, ndev, res, why, sizeof why) != 0
                               : gpu_run_packed(op, ndev, &out, why, sizeof why) != 0) {
            note(op, true, "device error, batch run on the CPU: %s", why);
            for (int k = 0; k < ndev; k++)
                cpu[ncpu++] = dev[k];
            nfell += ndev;
            ndev = 0;
        } else if (!gop_is_objects(op)) {
            double t2 = now_s();
            gpu_phase.device = t2 - t1;
            gpu_unpack_batch(op, recs, out, NULL, ndev, res);
            gpu_phase.rebuild = now_s() - t2;
        }
    }
    t_dev = now_s() - t0;
    if (ndev) {
        oc->batches++;
        oc->dev_calls += ndev;
        oc->dev_s += t_dev;
    }
    oc->cpu_calls += ncpu - nfell;
    oc->fallback_calls += nfell;
    if (ndev && gpu_state.o.compare) {
        t_cpu = gpu_compare_batch(op, dev, res, ndev, t_dev, oc);
    } else {
        for (int k = 0; k < ndev; k++) {
            Instance *in = dev[k];
            Value *r = res[k];
            in->cx.deadline_ns = 0;    /* device calls are not timed one by one */
            cx_arm(&in->cx);
            uint64_t work = gop_is_objects(op) ? 16 * (uint64_t)recs[k].h * recs[k].w : result_work(r);
            if (!cx_charge(&in->cx, work)) {
                v_decref(r);
                r = NULL;
            }
            instance_complete(in, r);
        }
    }
    if (gpu_state.o.verbose && gpu_state.o.log) {
        fprintf(gpu_state.o.log, "  %s: %s x%d: %d on the %s, %d on the cpu, %.3f ms incl. packing and transfers",
                gpu_mode_name(), gpu_ops[op].name, b->n, ndev,
                gpu_state.o.mode == BACKEND_EMULATE ? "host emulation" : "device", ncpu,
                t_dev * 1e3);
        if (ndev)
            fprintf(gpu_state.o.log, " (pack %.3f, device %.3f, rebuild %.3f)",
                    gpu_phase.pack * 1e3, gpu_phase.device * 1e3, gpu_phase.rebuild * 1e3);
        if (ndev && gpu_state.o.compare)
            fprintf(gpu_state.o.log, "; cpu %.3f ms", t_cpu * 1e3);
        fputc('\n', gpu_state.o.log);
    }
    pthread_mutex_unlock(&gpu_lock);

    if (ncpu) {
        Batch cb = {.key = b->key, .n = ncpu, .inst = cpu};
        backend_cpu.run_batch(&backend_cpu, &cb);
    }
    free(res);
    free(dev);
}

static void gpu_run_batch(const Backend *be, Batch *b)
{
    (void)be;
    int op = op_of(b->key.callee);
    if (gpu_gather_on())
        gpu_gather_submit(op, b);
    else
        gpu_run_now(op, b);
}

static int gpu_smallest_batch(const Backend *be)
{
    (void)be;
    return backend_gpu_smallest_batch();
}

/* Gathering where every batch goes to the device (cuda, emulate,
 * --compare).  Not under auto: on an H100 its gathered batches stayed far
 * under the objects ops' crossover on every workload measured, and the
 * extra workers and the device's start made it slower than the CPU
 * (docs/gpu.md, "Gathering"). */
static int gpu_workers_per_thread(const Backend *be, int jobs)
{
    (void)be;
    if (backend_gpu_smallest_batch() != 1) {
        gpu_gather_turns(0);    /* an earlier run's gathering ends here */
        return 1;
    }
    gpu_gather_turns(jobs);
    return gpu_gather_factor();
}

static void gpu_worker_yield(const Backend *be)
{
    (void)be;
    gpu_gather_worker_yield();
}

static double gpu_device_seconds(const Backend *be)
{
    (void)be;
    double s = 0;
    for (int op = 0; op < GOP_COUNT; op++)
        s += gpu_state.ctr[op].dev_s;
    return s;
}

static void gpu_worker_begin(const Backend *be)
{
    (void)be;
    gpu_gather_worker_begin();
}

static void gpu_worker_end(const Backend *be)
{
    (void)be;
    gpu_gather_worker_end();
}

Backend backend_gpu = {
    .name = "cuda",
    .supports_op = gpu_supports,
    .run_batch = gpu_run_batch,
    .smallest_batch = gpu_smallest_batch,
    .workers_per_thread = gpu_workers_per_thread,
    .worker_begin = gpu_worker_begin,
    .worker_end = gpu_worker_end,
    .worker_yield = gpu_worker_yield,
    .device_seconds = gpu_device_seconds,
};

int backend_gpu_setup(const GpuOptions *o)
{
    gpu_lazy_join();        /* a run before this one (the Python extension) may still look */
    gpu_state.o = *o;
    FILE *say = o->log;      /* NULL: calibrate reports for itself */
    if (!gpu_state.o.log)
        gpu_state.o.log = stderr;
    map_prims();
    gpu_gather_setup();
    for (int op = 0; op < GOP_COUNT; op++)
        gpu_state.crossover[op] = gop_is_objects(op) ? DEFAULT_CROSSOVER_OBJECTS : 0;
    gpu_emulation_setup();
    backend_gpu.name = gpu_mode_name();
    if (o->mode == BACKEND_CPU)
        return 0;
    char buf[1024], why[1200];
    const char *path = o->calibration ? o->calibration
                                      : backend_gpu_default_calibration(buf, sizeof buf);
    int crc = 1;
    if (o->mode == BACKEND_AUTO) {
        /* a named file must be good even when there is no device to use it */
        crc = gpu_calfile_load(path, gpu_state.crossover, why, sizeof why);
        if (crc < 0 || (crc > 0 && o->calibration)) {
            fprintf(gpu_state.o.log, "arcrun: calibration file %s\n", why);
            if (o->calibration)
                return -1;
        }
    }
    gpu_state.probed = true;
    if (o->mode == BACKEND_EMULATE) {
        gpu_state.usable = true;
        snprintf(gpu_state.why, sizeof gpu_state.why,
                 "host emulation of the kernels (testing aid)");
    } else if (o->mode == BACKEND_AUTO && !o->compare && !o->verbose) {
        gpu_state.usable = true;
        gpu_state.probed = false;
    } else {
        gpu_state.usable = gpu_available(gpu_state.why, sizeof gpu_state.why);
    }
    if (!gpu_state.usable) {
        if (say && (o->mode == BACKEND_CUDA || o->compare || o->verbose))
            fprintf(say, "arcrun: no GPU: %s; everything runs on the CPU%s\n", gpu_state.why,
                    o->compare ? " (nothing to compare)" : "");
        return 0;
    }
    if (o->mode == BACKEND_AUTO) {
        if (o->verbose)
            fprintf(gpu_state.o.log, "arcrun: GPU: %s; auto backend, crossovers %s %s%s\n",
                    gpu_state.why, crc == 0 ? "from" : "default (no calibration file at",
                    path, crc == 0 ? "" : ")");
    } else if (o->verbose) {
        fprintf(gpu_state.o.log, "arcrun: GPU: %s; every supported op goes to it\n", gpu_state.why);
    }
    return 0;
}

int backend_gpu_smallest_batch(void)
{
    if (gpu_state.o.mode == BACKEND_CPU || !gpu_state.usable)
        return 0;
    if (gpu_state.o.mode != BACKEND_AUTO || gpu_state.o.compare)
        return 1;
    int least = 0;
    for (int op = 0; op < GOP_COUNT; op++)
        if (gpu_state.crossover[op] > 0 && (!least || gpu_state.crossover[op] < least))
            least = gpu_state.crossover[op];
    return least;
}

