/* calibrate.c -- `arcrun calibrate`: each op timed at growing batch sizes
 * on the CPU (--jobs threads) and through the GPU path, from validation to
 * rebuilt values; the crossovers go to the calibration file. */
#include "backend_gpu_int.h"
#include "prim.h"
#include "pyset.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* auto takes the GPU only where calibrate saw it this many times faster:
 * each side is timed alone there, while in a run the executor's other
 * threads keep the cores busy during a GPU batch.  On the H100, tokpidjin
 * o_g_t calibrated 1.3-1.5x at 256-1024 grids, yet test_batt under auto
 * (batches of about 250) was 7-13% slower end to end than on the CPU. */
#define AUTO_MARGIN 2.0

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static int rnd(int n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (int)(rng_state % (uint64_t)n);
}

static Value *random_grid(int maxside)
{
    int h = 1 + rnd(maxside), w = 1 + rnd(maxside), ncol = 1 + rnd(10);
    Value *g = v_tuple_new((size_t)h);
    for (int i = 0; i < h; i++) {
        Value *r = v_tuple_new((size_t)w);
        for (int j = 0; j < w; j++)
            v_titems(r)[j] = v_int(rnd(ncol));
        v_titems(g)[i] = r;
    }
    return g;
}

typedef struct {
    int op;
    Value **grids;
    Value *const *params;
    GpuGrid *recs;
    atomic_int rejected;
} CalPack;

static void cal_pack_range(void *ctx, int lo, int hi)
{
    CalPack *c = ctx;
    for (int k = lo; k < hi; k++)
        if (gpu_pack_call(c->op, c->grids[k], c->params, &c->recs[k]))
            atomic_store(&c->rejected, 1);
}

/* Results are freed after the clock stops, on both paths alike: the
 * executor frees them later, wherever. */
static void free_results(Value **res, int n)
{
    for (int k = 0; k < n; k++)
        v_decref(res[k]);
    free(res);
}

/* One timed GPU-path batch over n grids: validation to rebuilt values. */
static double time_device(int op, Value **grids, Value *const *params, int n, char *why, size_t whylen)
{
    double t0 = now_s();
    GpuGrid *recs = gpu_input_buffer(n, why, whylen);
    if (!recs)
        return -1;
    CalPack cp = {.op = op, .grids = grids, .params = params, .recs = recs};
    atomic_init(&cp.rejected, 0);
    gpu_par_range(n, cal_pack_range, &cp);
    gpu_phase.pack = now_s() - t0;
    if (atomic_load(&cp.rejected)) {
        snprintf(why, whylen, "calibration grid rejected");
        return -1;
    }
    if (gop_is_objects(op)) {
        Value **res = xmalloc_(sizeof *res * (size_t)n);
        int rc = gpu_run_objects_batch(op, recs, n, res, why, whylen);
        double t = now_s() - t0;
        free_results(res, rc ? 0 : n);
        return rc ? -1 : t;
    }
    const void *out;
    double t1 = now_s();
    if (gpu_run_packed(op, n, &out, why, whylen) != 0)
        return -1;
    double t2 = now_s();
    gpu_phase.device = t2 - t1;
    Value **res = xmalloc_(sizeof *res * (size_t)n);
    gpu_unpack_batch(op, recs, out, NULL, n, res);
    double t3 = now_s();
    gpu_phase.rebuild = t3 - t2;
    free_results(res, n);
    return t3 - t0;
}

typedef struct {
    Value *fn;
    int dialect, arity;
    Value **grids;
    Value *const *params;
    Value **res;
} CalCpu;

static void cal_cpu_range(void *ctx, int lo, int hi)
{
    CalCpu *c = ctx;
    Ctx cx;
    ctx_init(&cx, c->dialect);
    for (int k = lo; k < hi; k++) {
        Value *argv[4] = {c->grids[k], c->params[0], c->params[1], c->params[2]};
        c->res[k] = v_call(&cx, c->fn, c->arity, argv);
        cx_clear(&cx);
    }
}

/* The CPU's time for the batch on the --jobs threads, as the CPU backend
 * would spread it. */
static double time_cpu(int op, Value **grids, Value *const *params, int n)
{
    int prim = -1;
    for (int p = 0; p < PRIM_COUNT && prim < 0; p++)
        if ((gop_is_objects(op) || prim_table[p].dialect == DIALECT_ARCDSL) && gpu_op_of_prim(p) == op)
            prim = p;
    CalCpu c = {.fn = prim_value(prim), .dialect = prim_table[prim].dialect,
                .arity = gpu_ops[op].arity, .grids = grids, .params = params,
                .res = xmalloc_(sizeof(Value *) * (size_t)n)};
    double t0 = now_s();
    gpu_par_range(n, cal_cpu_range, &c);
    double t = now_s() - t0;
    free_results(c.res, n);
    return t;
}

/* Whether name is one of the comma-separated names in list. */
static bool name_in_list(const char *name, const char *list)
{
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *e = strchr(p, ',');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (e ? 1 : 0);
    }
    return false;
}

/* The grids of ts (inputs, then outputs, task by task) whose sides are at
 * most maxside; n of them. */
static Value **task_grids(const TaskSet *ts, int maxside, int *n)
{
    int cap = 0;
    for (int t = 0; t < ts->ntasks; t++)
        cap += 2 * (ts->tasks[t].ntrain + ts->tasks[t].ntest);
    Value **g = xmalloc_(sizeof *g * (size_t)(cap ? cap : 1));
    *n = 0;
    for (int t = 0; t < ts->ntasks; t++) {
        const Task *k = &ts->tasks[t];
        task_open(k);            /* its values live until taskset_free */
        for (int s = 0; s < task_nsamples(k); s++) {
            const Sample *sm = task_sample(k, s);
            Value *two[2] = {sm->input, sm->output};
            for (int q = 0; q < 2; q++)
                if (two[q] && (int)two[q]->u.tup.len <= maxside &&
                    (int)v_titems(two[q])[0]->u.tup.len <= maxside)
                    g[(*n)++] = two[q];
        }
    }
    return g;
}

int backend_gpu_calibrate(const GpuOptions *o, int jobs, const TaskSet *tasks, const char *only)
{
    GpuOptions co = *o;
    if (co.mode != BACKEND_EMULATE)
        co.mode = BACKEND_CUDA;
    co.compare = false;
    co.verbose = 0;
    co.log = NULL;
    co.jobs = jobs;
    for (const char *p = only; p && *p && strcmp(only, "all") != 0;) {
        size_t len = strcspn(p, ",");
        int known = 0;
        for (int op = 0; op < GOP_COUNT && !known; op++)
            known = strlen(gpu_ops[op].name) == len && strncmp(p, gpu_ops[op].name, len) == 0;
        if (!known) {
            fprintf(stderr, "arcrun calibrate: --ops: unknown op '%.*s'; the ops are", (int)len, p);
            for (int op = 0; op < GOP_COUNT; op++)
                fprintf(stderr, " %s", gpu_ops[op].name);
            fputs(" (or all)\n", stderr);
            return -2;
        }
        p += len + (p[len] == ',');
    }
    backend_gpu_setup(&co);
    if (!gpu_state.usable) {
        fprintf(stderr, "arcrun calibrate: %s: nothing to calibrate\n", gpu_state.why);
        return -1;
    }
    /* the file's sizes; --ops (bench/gpu.sh) also measures 65,536 grids,
     * four chunks of the objects pipeline */
    static const int sizes[] = {64, 256, 1024, 4096, 16384, 65536};
    enum { NSIZES = sizeof sizes / sizeof sizes[0], NMAX = 65536 };
    int nsizes = only ? NSIZES : NSIZES - 1;
    Value **big = xmalloc_(sizeof(Value *) * NMAX), **small = xmalloc_(sizeof(Value *) * NMAX);
    int nbig = 0, nsmall = 0;
    Value **rbig = tasks ? task_grids(tasks, GPU_SIDE, &nbig) : NULL;
    Value **rsmall = tasks ? task_grids(tasks, GPU_SIDE / 2, &nsmall) : NULL;
    for (int k = 0; k < NMAX; k++) {   /* task grids are shared: their decref is a no-op */
        big[k] = nbig ? rbig[k % nbig] : random_grid(GPU_SIDE);
        small[k] = nsmall ? rsmall[k % nsmall] : random_grid(GPU_SIDE / 2);   /* upscale by 2 stays within 30x30 */
    }
    free(rbig);
    free(rsmall);
    Value *two = v_int(2), *one = v_int(1), *zero = v_int(0), *five = v_int(5);
    Value *cal_patch, *cal_object, *cal_zeros = v_tuple_new(GPU_SIDE);
    Value *cal_start = v_pair_int(1, 2), *cal_dims = v_pair_int(8, 12);
    {   /* a diagonal and a row, as indices and as cells of colour 3 */
        Value *locs[2 * GPU_SIDE], *cells[2 * GPU_SIDE];
        for (int k = 0; k < 2 * GPU_SIDE; k++) {
            locs[k] = v_pair_int(k < GPU_SIDE ? k : 1, k % GPU_SIDE);
            cells[k] = v_tuple_new(2);
            v_titems(cells[k])[0] = v_int(3);
            v_titems(cells[k])[1] = v_incref(locs[k]);
        }
        cal_patch = fs_from_items(locs, 2 * GPU_SIDE);
        cal_object = fs_from_items(cells, 2 * GPU_SIDE);
        for (int k = 0; k < 2 * GPU_SIDE; k++) {
            v_decref(locs[k]);
            v_decref(cells[k]);
        }
        for (int i = 0; i < GPU_SIDE; i++) {
            Value *row = v_tuple_new(GPU_SIDE);
            for (int j = 0; j < GPU_SIDE; j++)
                v_titems(row)[j] = v_int(0);
            v_titems(cal_zeros)[i] = row;
        }
    }
    char src[96];
    snprintf(src, sizeof src, nbig ? "%d task grids, repeated" : "random", nbig);
    cJSON *root = gpu_calfile_new(gpu_mode_name(), gpu_state.why, jobs, src);
    int rc = 0;
    fprintf(stderr, "%-11s %8s %12s %12s  %8s %8s %8s  (%s; cpu: %d threads; grids: %s)\n",
            "op", "batch", "cpu ms", "gpu ms", "pack", "device", "rebuild", gpu_state.why, jobs,
            src);
    for (int op = 0; op < GOP_COUNT && rc == 0; op++) {
        if (only && strcmp(only, "all") != 0 && !name_in_list(gpu_ops[op].name, only))
            continue;
        Value *params[3] = {zero, zero, zero};
        switch (op) {
        case GOP_OBJECTS: case GOP_TK_OBJECTS: case GOP_TK_OBJECTS_T:   /* (T, F, T) */
            params[0] = &v_True_; params[1] = &v_False_; params[2] = &v_True_; break;
        case GOP_TK_O_G: case GOP_TK_O_G_T: params[0] = five; break;
        case GOP_UPSCALE: case GOP_HUPSCALE: case GOP_VUPSCALE: case GOP_DOWNSCALE:
            params[0] = two; break;
        case GOP_REPLACE: params[0] = zero; params[1] = five; break;
        case GOP_SWITCH: params[0] = one; params[1] = two; break;
        case GOP_FILL: case GOP_UNDERFILL: params[0] = five; params[1] = cal_patch; break;
        case GOP_PAINT: params[0] = cal_object; break;
        case GOP_CROP: params[0] = cal_start; params[1] = cal_dims; break;
        case GOP_CELLWISE: params[0] = cal_zeros; params[1] = five; break;
        default: break;
        }
        bool up = op == GOP_UPSCALE || op == GOP_HUPSCALE || op == GOP_VUPSCALE;
        Value **grids = up ? small : big;
        double cpu_s[NSIZES], gpu_s[NSIZES];
        int crossover = 0, measured = 0;
        char why[200];
        if (time_device(op, grids, params, sizes[0], why, sizeof why) < 0) {   /* warm-up */
            fprintf(stderr, "arcrun calibrate: %s: %s\n", gpu_ops[op].name, why);
            rc = -1;
        }
        for (int s = 0; s < nsizes && rc == 0; s++) {
            double best_c = 1e30, best_g = 1e30, bp = 0, bd = 0, br = 0;
            for (int rep = 0; rep < 3; rep++) {
                double c = time_cpu(op, grids, params, sizes[s]);
                double g = time_device(op, grids, params, sizes[s], why, sizeof why);
                if (g < 0) {
                    fprintf(stderr, "arcrun calibrate: %s: %s\n", gpu_ops[op].name, why);
                    rc = -1;
                    break;
                }
                best_c = c < best_c ? c : best_c;
                if (g < best_g) {
                    best_g = g;
                    bp = gpu_phase.pack;
                    bd = gpu_phase.device;
                    br = gpu_phase.rebuild;
                }
            }
            if (rc)
                break;
            fprintf(stderr, "%-11s %8d %12.3f %12.3f  %8.3f %8.3f %8.3f\n", gpu_ops[op].name,
                    sizes[s], best_c * 1e3, best_g * 1e3, bp * 1e3, bd * 1e3, br * 1e3);
            cpu_s[measured] = best_c;
            gpu_s[measured++] = best_g;
            bool wins = best_g * AUTO_MARGIN <= best_c;
            if (!crossover && wins)
                crossover = sizes[s];
            else if (crossover && !wins)
                crossover = 0;        /* not a clean crossover: only past the last win */
        }
        gpu_calfile_add_op(root, gpu_ops[op].name, crossover, sizes, cpu_s, gpu_s, measured);
    }
    for (int k = 0; k < NMAX; k++) {
        v_decref(big[k]);
        v_decref(small[k]);
    }
    free(big);
    free(small);
    v_decref(cal_patch);
    v_decref(cal_object);
    v_decref(cal_zeros);
    v_decref(cal_start);
    v_decref(cal_dims);
    if (rc == 0 && only) {
        fprintf(stderr, "arcrun calibrate: --ops: measured only %s, no file written\n", only);
    } else if (rc == 0) {
        char buf[1024];
        const char *path = o->calibration ? o->calibration
                                          : backend_gpu_default_calibration(buf, sizeof buf);
        if (gpu_calfile_write(path, root) != 0) {
            fprintf(stderr, "arcrun calibrate: cannot write %s: %s\n", path, strerror(errno));
            rc = -1;
        } else {
            fprintf(stderr, "arcrun calibrate: wrote %s\n", path);
        }
    }
    cJSON_Delete(root);
    return rc;
}
