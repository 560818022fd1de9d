/* backend_gpu.c -- the CUDA backend: grid ops batched into packed
 * records, validated on the host, one transfer each way per batch, the
 * CPU for whatever the device cannot or should not take -- every such
 * decision logged (DESIGN §7).  Always compiled: without CUDA, or without
 * a device, gpu/ says why and every batch stays on the CPU. */
#include "config.h"
#include "backend_gpu.h"
#include "exec.h"
#include "gpu.h"
#include "gpu_objects.h"
#include "workpool.h"
#include "ops_cell.h"
#include "prim.h"
#include "pyset.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdatomic.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* Each primitive's GPU op, from the gpu column of its table row. */
#define GOP_NONE (-1)
static const signed char gop_of_prim[PRIM_COUNT] = {
#define AD(name, arity, ret, gpu, shape) [PRIM_AD_##name] = GOP_##gpu,
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) [PRIM_TK_##name] = GOP_##gpu,
#include "tokpidjin/list.h"
#undef TK
};

/* auto without a calibration file: what an H100 measured (docs/gpu.md):
 * the cheap grid ops never paid; the objects ops were 2.8-4x at 16384
 * grids, some under AUTO_MARGIN at 4096. */
enum { DEFAULT_CROSSOVER_OBJECTS = 16384 };

typedef struct {
    long batches, dev_calls;     /* ran on the device (or its emulation) */
    long cpu_calls;              /* instances the device could not take */
    long fallback_calls;         /* instances moved to the CPU by a device error */
    double dev_s;                /* validation + packing + transfers + kernel + unpacking */
    long cmp_batches, cmp_calls, equal, differ;
    double cmp_cpu_s, cmp_dev_s;
} OpCounters;

static struct {
    GpuOptions o;
    bool usable;                 /* a device (or emulation) is there, or may be (!probed) */
    bool probed;                 /* auto looks for the device at its first GPU-sized batch */
    atomic_int lazy;             /* auto's look: LAZY_NONE, LAZY_LOOKING, LAZY_DONE */
    bool lazy_ok;                /* its answer, read after LAZY_DONE */
    pthread_t prober;
    bool prober_started;
    char why[200];
    int crossover[GOP_COUNT];    /* auto: smallest batch for the GPU; 0 = never */
    const char *inject;          /* emulate only: "fail" or "diff" (tests) */
    signed char op_of_prim[PRIM_COUNT];
    OpCounters ctr[GOP_COUNT];
    struct { int op; char reason[160]; } seen[128];
    int nseen;
    GpuGrid *ebuf;               /* emulation buffers */
    void *eout;
    int ecap;
} G = {.o = {.mode = BACKEND_CPU}};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Where the last batch's time went (-v, calibrate): host packing, the
 * device (copies and kernel), host rebuilding of values. */
static double ph_pack, ph_device, ph_rebuild;

static const char *mode_name(void)
{
    return G.o.mode == BACKEND_EMULATE ? "emulate" : "cuda";
}

int backend_mode_parse(const char *s)
{
    static const char *const names[] = {"cpu", "auto", "cuda", "emulate"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0)
            return i;
    return -1;
}

static double now_s(void)
{
    return (double)now_ns() * 1e-9;
}

/* Each (op, reason) is said once.  Chunk threads ask gpu_supports at
 * once, outside `lock` (which run_batch holds when it notes), hence a lock
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
    bool loud = always || G.o.verbose || G.o.compare || G.o.mode != BACKEND_AUTO;
    if (!seen && loud && G.o.log)
        fprintf(G.o.log, "arcrun: %s: %s -> cpu: %s (said once per op and reason)\n",
                mode_name(), gpu_ops[op].name, msg);
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

/* A parameter as the record carries it, or why it cannot be carried. */
static const char *param_byte(int kind, const Value *v, uint8_t *out)
{
    switch (kind) {
    case PA_FACTOR:
        if (!v_is_int(v) || v->u.i < 1 || v->u.i > GPU_SIDE)
            return "factor is not an int from 1 to 30";
        *out = (uint8_t)v->u.i;
        return NULL;
    case PA_COLOR:
        if (v->type != V_INT || v->u.i < 0 || v->u.i > 9)
            return "colour argument is not an int from 0 to 9";
        *out = (uint8_t)v->u.i;
        return NULL;
    case PA_MATCH:
        if (!v_is_int(v))
            return "colour argument is not an int";
        *out = v->u.i >= 0 && v->u.i <= 9 ? (uint8_t)v->u.i : GPU_NOCOLOR;
        return NULL;
    default:
        *out = 0;
        return NULL;
    }
}

/* Arguments validated call by call, not once per batch. */
static bool per_call(int kind)
{
    return kind == PA_PATCH || kind == PA_OBJECT || kind == PA_GRID2 || kind == PA_START ||
           kind == PA_DIMS;
}

static bool int_pair(const Value *v)
{
    return v->type == V_TUPLE && v->u.tup.len == 2 && v->u.tup.items[0]->type == V_INT &&
           v->u.tup.items[1]->type == V_INT;
}

/* A patch or an object into the cells' high nibble.  toindices decides
 * cells or indices by the first item; mixed sets, bools and tuple patches
 * stay on the CPU.  Iteration order: paint's last write wins, as there. */
static const char *plane_patch(int kind, const Value *v, GpuGrid *rec)
{
    if (v->type != V_FSET)
        return "patch is not a frozenset";
    size_t n = v->u.set.len;
    Value *const *it = v->u.set.items;
    bool cells = kind == PA_OBJECT ||
                 (n && it[0]->type == V_TUPLE && it[0]->u.tup.len == 2 &&
                  it[0]->u.tup.items[1]->type == V_TUPLE);
    for (size_t k = 0; k < n; k++) {
        const Value *loc = it[k], *col = NULL;
        if (cells) {
            if (loc->type != V_TUPLE || loc->u.tup.len != 2)
                return "patch item is not a (value, (i, j)) pair";
            col = loc->u.tup.items[0];
            loc = loc->u.tup.items[1];
            if (kind == PA_OBJECT && (col->type != V_INT || col->u.i < 0 || col->u.i > 9))
                return "object colour is not an int from 0 to 9";
        }
        if (!int_pair(loc))
            return "patch location is not a pair of ints";
        int64_t i = loc->u.tup.items[0]->u.i, j = loc->u.tup.items[1]->u.i;
        if (i < 0 || i >= rec->h || j < 0 || j >= rec->w)
            continue;
        uint8_t *c = &rec->cell[i * GPU_SIDE + j];
        *c = (uint8_t)(GPU_COLOR(*c) | (kind == PA_OBJECT ? col->u.i + 1 : 1) << 4);
    }
    return NULL;
}

/* cellwise's second grid: read where the first has cells, as CPython does. */
static const char *plane_grid(const Value *b, GpuGrid *rec)
{
    if (b->type != V_TUPLE || b->u.tup.len < rec->h)
        return "second grid is not a tuple as tall as the first";
    for (int i = 0; i < rec->h; i++) {
        const Value *r = b->u.tup.items[i];
        if (r->type != V_TUPLE || r->u.tup.len < rec->w)
            return "second grid's row is not a tuple as wide as the first";
        for (int j = 0; j < rec->w; j++) {
            const Value *c = r->u.tup.items[j];
            if (c->type != V_INT || c->u.i < 0 || c->u.i > 9)
                return "a cell of the second grid is not an int from 0 to 9";
            rec->cell[i * GPU_SIDE + j] |= (uint8_t)(c->u.i << 4);
        }
    }
    return NULL;
}

/* crop's grid[i:i + h] rows, r[j:j + w] of each, with i, j, h, w >= 0
 * (negative ones slice from the end: the CPU's), as the first row and
 * column and the counts the slices keep. */
static const char *pack_crop(const Value *start, const Value *dims, GpuGrid *rec)
{
    if (!int_pair(start) || !int_pair(dims))
        return "crop's start or dims is not a pair of ints";
    int64_t s[2] = {start->u.tup.items[0]->u.i, start->u.tup.items[1]->u.i};
    int64_t d[2] = {dims->u.tup.items[0]->u.i, dims->u.tup.items[1]->u.i};
    if (s[0] < 0 || s[1] < 0 || d[0] < 0 || d[1] < 0)
        return "crop's start or dims is negative";
    int64_t n[2] = {rec->h, rec->w}, first[2], count[2];
    for (int k = 0; k < 2; k++) {
        first[k] = s[k] < n[k] ? s[k] : n[k];
        int64_t end = d[k] < n[k] - first[k] ? first[k] + d[k] : n[k];
        count[k] = end - first[k];
    }
    rec->p0 = (uint8_t)first[0];
    rec->p1 = (uint8_t)first[1];
    rec->p2 = (uint8_t)count[0];
    rec->p3 = (uint8_t)count[1];
    return NULL;
}

/* Validate one call and pack it into rec; NULL, or why it stays on the CPU. */
static const char *pack_one(int op, const Value *g, Value *const *params, GpuGrid *rec)
{
    const char *bad = gpu_pack_grid(g, rec);
    if (bad)
        return bad;
    if (gop_is_objects(op))
        return gobj_pack(op, params, rec);
    if (op == GOP_CROP)
        return pack_crop(params[0], params[1], rec);
    /* underfill's background, read before the patch fills the high nibbles */
    uint8_t bg = op == GOP_UNDERFILL ? (uint8_t)gpu_packed_mostcolor(rec) : 0;
    for (int k = 0; k + 1 < gpu_ops[op].arity; k++) {
        int kind = gpu_ops[op].param[k];
        const char *bad = kind == PA_GRID2 ? plane_grid(params[k], rec)
                          : kind == PA_PATCH || kind == PA_OBJECT
                              ? plane_patch(kind, params[k], rec)
                              : param_byte(kind, params[k], k ? &rec->p1 : &rec->p0);
        if (bad)
            return bad;
    }
    if (op == GOP_UNDERFILL)
        rec->p1 = bg;
    int oh, ow;
    gop_shape(op, rec, &oh, &ow);
    if (oh > GPU_SIDE || ow > GPU_SIDE)
        return "output larger than 30x30";
    return NULL;
}

/* ---- results back into values ------------------------------------------- */

static Value *unpack_grid(const GpuGrid *o)
{
    Value *t = v_tuple_new(o->h);
    for (int i = 0; i < o->h; i++) {
        Value *row = v_tuple_new(o->w);
        for (int j = 0; j < o->w; j++)
            row->u.tup.items[j] = v_int(o->cell[i * GPU_SIDE + j]);
        t->u.tup.items[i] = row;
    }
    return t;
}

/* The colours present, in order of first appearance (row-major): all that
 * CPython's set order of these small ints depends on. */
static int colours_in_order(const GpuStats *s, int order[10])
{
    int n = 0;
    for (int c = 0; c < 10; c++)
        if (s->count[c]) {
            int k = n++;
            while (k > 0 && s->first[order[k - 1]] > s->first[c]) {
                order[k] = order[k - 1];
                k--;
            }
            order[k] = c;
        }
    return n;
}

static void set_of(PySet *set, const int *order, int n)
{
    pyset_init(set);
    for (int k = 0; k < n; k++) {
        Value *v = v_int(order[k]);
        pyset_add(set, v);
        v_decref(v);
    }
}

static Value *unpack_stats(int op, const GpuStats *s, uint8_t p0)
{
    int order[10], n = colours_in_order(s, order);
    switch (op) {
    case GOP_NUMCOLORS:
        return v_int(n);
    case GOP_COLORCOUNT:
        return v_int(p0 == GPU_NOCOLOR ? 0 : s->count[p0]);
    case GOP_PALETTE: {
        /* frozenset({setcomp}): the set, then a COPY of it */
        PySet set;
        set_of(&set, order, n);
        Value *r = pyset_to_frozenset(&set);
        pyset_clear(&set);
        return r;
    }
    default: {
        /* max/min(set(values), key=values.count): the first extreme in slot order */
        PySet set;
        set_of(&set, order, n);
        int best = -1;
        for (uint32_t slot = 0; slot <= set.mask; slot++) {
            Value *k = set.table[slot].key;
            if (!k || k == PYSET_DUMMY)
                continue;
            int c = (int)k->u.i;
            if (best < 0 || (op == GOP_MOSTCOLOR ? s->count[c] > s->count[best]
                                                 : s->count[c] < s->count[best]))
                best = c;
        }
        pyset_clear(&set);
        return v_int(best);
    }
    }
}

static Value *unpack_one(int op, const void *out, int k, const GpuGrid *rec)
{
    if (gpu_ops[op].out == GOUT_STATS)
        return unpack_stats(op, (const GpuStats *)out + k, rec->p0);
    return unpack_grid((const GpuGrid *)out + k);
}

/* ---- host work of big batches, over the --jobs threads ------------------ */

typedef PoolFn RangeFn;

/* fn over [0, n) in chunks; small batches stay on this thread, where
 * handing out work would cost more than it saves. */
static void par_range(int n, RangeFn fn, void *ctx)
{
    enum { MIN_PER_THREAD = 128 };
    int threads = G.o.jobs;
    if (threads > n / MIN_PER_THREAD)
        threads = n / MIN_PER_THREAD;
    pool_for(threads, n, 64, fn, ctx);
}

typedef struct {
    int op;
    Instance **inst;
    GpuGrid *recs;
    const char **bad;
} PackJob;

static void pack_range(void *ctx, int lo, int hi)
{
    PackJob *j = ctx;
    for (int i = lo; i < hi; i++) {
        Instance *in = j->inst[i];
        const IrStmt *s = &in->prog->stmts[in->pc];
        Value *argv[IR_MAX_ARGS];
        for (int k = 0; k < s->nargs; k++)
            argv[k] = operand_value(in, &s->args[k]);
        j->bad[i] = pack_one(j->op, argv[0], argv + 1, &j->recs[i]);
    }
}

typedef struct {
    int op;
    const GpuGrid *recs;
    const void *out;
    const uint32_t *off;
    Value **res;
} UnpackJob;

static void unpack_range(void *ctx, int lo, int hi)
{
    UnpackJob *j = ctx;
    for (int k = lo; k < hi; k++)
        j->res[k] = gop_is_objects(j->op)
                        ? gobj_value(j->op, &j->recs[k], (const uint16_t *)j->out + j->off[k])
                        : unpack_one(j->op, j->out, k, &j->recs[k]);
}

/* ---- the device, or its emulation ---------------------------------------- */

static GpuGrid *input_buffer(int n, char *why, size_t whylen)
{
    if (G.o.mode != BACKEND_EMULATE)
        return gpu_host_input(n, why, whylen);
    if (n > G.ecap) {
        int cap = G.ecap ? G.ecap : 1024;
        while (cap < n)
            cap *= 2;
        free(G.ebuf);
        free(G.eout);
        G.ebuf = malloc(sizeof(GpuGrid) * (size_t)cap);
        G.eout = malloc(sizeof(GpuGrid) * (size_t)cap);
        if (!G.ebuf || !G.eout) {
            free(G.ebuf);
            free(G.eout);
            G.ebuf = NULL;
            G.eout = NULL;
            G.ecap = 0;
            snprintf(why, whylen, "out of host memory for %d grids", n);
            return NULL;
        }
        G.ecap = cap;
    }
    return G.ebuf;
}

/* Emulation only: whether ARCRUN_GPU_INJECT asks for this fault; "fail"
 * also says why. */
static bool injected(const char *fault, char *why, size_t whylen)
{
    if (!G.inject || strcmp(G.inject, fault) != 0)
        return false;
    if (strcmp(fault, "fail") == 0)
        snprintf(why, whylen, "injected device failure (ARCRUN_GPU_INJECT=fail)");
    return true;
}

static int run_packed(int op, int n, const void **out, char *why, size_t whylen)
{
    if (G.o.mode != BACKEND_EMULATE)
        return gpu_run(op, n, out, why, whylen);
    if (injected("fail", why, whylen))
        return -1;
    gpu_emulate(op, G.ebuf, G.eout, n);
    if (injected("diff", why, whylen)) {
        if (gpu_ops[op].out == GOUT_STATS)
            ((GpuStats *)G.eout)->count[((GpuGrid *)G.ebuf)->cell[0]]++;
        else if (((GpuGrid *)G.eout)->h)
            ((GpuGrid *)G.eout)->cell[0] ^= 1;
    }
    *out = G.eout;
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
    UnpackJob j = {.op = r->op, .recs = r->recs + lo, .out = out, .off = off, .res = r->res + lo};
    par_range(hi - lo, unpack_range, &j);
    r->built = hi;
    r->rebuild_s += now_s() - t0;
}

static int run_objects(int op, const GpuGrid *recs, int n, Value **res, char *why, size_t whylen)
{
    ObjRun r = {.op = op, .recs = recs, .res = res};
    double t0 = now_s(), wait_s = 0;
    int rc;
    if (G.o.mode != BACKEND_EMULATE) {
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
    ph_device = wait_s;
    ph_rebuild = r.rebuild_s;
    return rc;
}

/* ---- the backend ----------------------------------------------------------- */

/* auto: CUDA's start costs a fraction of a second, so a run none of whose
 * batches reaches a crossover never pays it, and one that does starts it on
 * a thread of its own: batches go on running on the CPU until the device
 * is ready, so auto never waits for it. */
enum { LAZY_NONE, LAZY_LOOKING, LAZY_DONE };

static void *prober_main(void *unused)
{
    (void)unused;
    char why[sizeof G.why];
    bool ok = gpu_available(why, sizeof why);
    if (ok && !gpu_host_input(1024, why, sizeof why))   /* pinned buffers: the first batch's cost */
        ok = false;
    pthread_mutex_lock(&lock);
    G.lazy_ok = ok;
    memcpy(G.why, why, sizeof why);
    if (G.o.verbose)
        fprintf(G.o.log, "arcrun: GPU: %s\n", ok ? why : "none");
    pthread_mutex_unlock(&lock);
    atomic_store_explicit(&G.lazy, LAZY_DONE, memory_order_release);
    return NULL;
}

static bool probe(void)
{
    int state = atomic_load_explicit(&G.lazy, memory_order_acquire);
    if (state == LAZY_DONE)
        return G.lazy_ok;
    if (state == LAZY_NONE) {
        int none = LAZY_NONE;
        if (atomic_compare_exchange_strong(&G.lazy, &none, LAZY_LOOKING)) {
            G.prober_started = pthread_create(&G.prober, NULL, prober_main, NULL) == 0;
            if (!G.prober_started)
                prober_main(NULL);  /* no thread: look now */
        }
    }
    return false;
}

/* The prober, if started, has finished; auto's answer is the backend's. */
static void probe_join(void)
{
    int state = atomic_load_explicit(&G.lazy, memory_order_acquire);
    if (state == LAZY_NONE)
        return;
    if (G.prober_started)
        pthread_join(G.prober, NULL);
    G.prober_started = false;
    G.usable = G.lazy_ok;
    G.probed = true;
    atomic_store(&G.lazy, LAZY_NONE);
}

static bool gpu_supports(const Backend *be, const OpKey *key, int batch_size)
{
    (void)be;
    if (G.o.mode == BACKEND_CPU || !G.usable)
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
            bad = per_call(gpu_ops[op].param[k - 1])
                      ? NULL
                      : param_byte(gpu_ops[op].param[k - 1], key->fixed[k], &b);
        if (bad) {
            note(op, false, "%s", bad);
            return false;
        }
    }
    if (G.o.mode == BACKEND_AUTO && !G.o.compare)
        return G.crossover[op] > 0 && batch_size >= G.crossover[op] && probe();
    return true;
}

/* The cells a result holds: what the CPU charges against the work budget. */
static uint64_t result_work(const Value *r)
{
    uint64_t n = 1;
    if (r->type == V_TUPLE)
        for (size_t i = 0; i < r->u.tup.len; i++)
            n += r->u.tup.items[i]->type == V_TUPLE ? r->u.tup.items[i]->u.tup.len : 1;
    return n;
}

static bool same_value(const Value *a, const Value *b)
{
    if (!a || !b)
        return a == b;
    if (!v_eq(a, b))
        return false;
    char *ra = v_repr_str(a), *rb = v_repr_str(b);
    bool same = strcmp(ra, rb) == 0;
    free(ra);
    free(rb);
    return same;
}

static void log_difference(int op, Instance *in, const Value *cpu, const Value *dev)
{
    char *rc = cpu ? v_repr_str(cpu) : strdup(in->cx.errmsg);
    char *rd = dev ? v_repr_str(dev) : strdup("(nothing)");
    fprintf(G.o.log, "arcrun: compare: %s DIFFERS on task %s sample %d:\n  cpu:  %.300s\n  %s: %.300s\n",
            gpu_ops[op].name, in->task ? in->task->id : "?", in->sample, rc, mode_name(), rd);
    free(rc);
    free(rd);
}

static void gpu_run_batch(const Backend *be, Batch *b)
{
    (void)be;
    int op = op_of(b->key.callee);
    Instance **dev = xmalloc_(sizeof(Instance *) * (size_t)b->n * 2);
    Instance **cpu = dev + b->n;
    Value **res = xmalloc_(sizeof(Value *) * (size_t)b->n);
    int ndev = 0, ncpu = 0, nfell = 0;
    double t_dev = 0, t_cpu = 0;
    char why[200];

    pthread_mutex_lock(&lock);
    OpCounters *oc = &G.ctr[op];
    double t0 = now_s();
    GpuGrid *recs = input_buffer(b->n, why, sizeof why);
    if (!recs) {
        note(op, true, "%s", why);
        for (int i = 0; i < b->n; i++)
            cpu[ncpu++] = b->inst[i];
        nfell = b->n;
    } else {
        const char **bad = xmalloc_(sizeof *bad * (size_t)b->n);
        PackJob j = {.op = op, .inst = b->inst, .recs = recs, .bad = bad};
        par_range(b->n, pack_range, &j);
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
        ph_pack = now_s() - t0;
    }
    if (ndev) {
        const void *out = NULL;
        double t1 = now_s();
        if (gop_is_objects(op) ? run_objects(op, recs, ndev, res, why, sizeof why) != 0
                               : run_packed(op, ndev, &out, why, sizeof why) != 0) {
            note(op, true, "device error, batch run on the CPU: %s", why);
            for (int k = 0; k < ndev; k++)
                cpu[ncpu++] = dev[k];
            nfell += ndev;
            ndev = 0;
        } else if (!gop_is_objects(op)) {
            double t2 = now_s();
            ph_device = t2 - t1;
            UnpackJob j = {.op = op, .recs = recs, .out = out, .res = res};
            par_range(ndev, unpack_range, &j);
            ph_rebuild = now_s() - t2;
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
    if (ndev && G.o.compare) {
        oc->cmp_batches++;
        oc->cmp_calls += ndev;
        oc->cmp_dev_s += t_dev;
        for (int k = 0; k < ndev; k++) {
            double c0 = now_s();
            Value *r = cpu_call(dev[k]);
            t_cpu += now_s() - c0;
            if (same_value(r, res[k])) {
                oc->equal++;
            } else {
                if (oc->differ++ < 3)
                    log_difference(op, dev[k], r, res[k]);
            }
            v_decref(res[k]);
            instance_complete(dev[k], r);   /* the CPU's value is the result */
        }
        oc->cmp_cpu_s += t_cpu;
    } else {
        for (int k = 0; k < ndev; k++) {
            Instance *in = dev[k];
            Value *r = res[k];
            in->cx.deadline_ns = 0;    /* device calls are not timed one by one */
            uint64_t work = gop_is_objects(op) ? 16 * (uint64_t)recs[k].h * recs[k].w : result_work(r);
            if (!cx_charge(&in->cx, work)) {
                v_decref(r);
                r = NULL;
            }
            instance_complete(in, r);
        }
    }
    if (G.o.verbose && G.o.log) {
        fprintf(G.o.log, "  %s: %s x%d: %d on the %s, %d on the cpu, %.3f ms incl. packing and transfers",
                mode_name(), gpu_ops[op].name, b->n, ndev,
                G.o.mode == BACKEND_EMULATE ? "host emulation" : "device", ncpu, t_dev * 1e3);
        if (ndev)
            fprintf(G.o.log, " (pack %.3f, device %.3f, rebuild %.3f)", ph_pack * 1e3,
                    ph_device * 1e3, ph_rebuild * 1e3);
        if (ndev && G.o.compare)
            fprintf(G.o.log, "; cpu %.3f ms", t_cpu * 1e3);
        fputc('\n', G.o.log);
    }
    pthread_mutex_unlock(&lock);

    if (ncpu) {
        Batch cb = {.key = b->key, .n = ncpu, .inst = cpu};
        backend_cpu.run_batch(&backend_cpu, &cb);
    }
    free(res);
    free(dev);
}

static int gpu_smallest_batch(const Backend *be)
{
    return backend_gpu_smallest_batch();
}

Backend backend_gpu = {
    .name = "cuda",
    .supports_op = gpu_supports,
    .run_batch = gpu_run_batch,
    .smallest_batch = gpu_smallest_batch,
};

/* --version's lines about the CUDA build and the device. */
void backend_gpu_describe(FILE *f)
{
    char why[160];
    if (gpu_built()) {
#ifdef ARC_NVCC_VERSION
        fprintf(f, "CUDA backend: built in (nvcc %s)\n", ARC_NVCC_VERSION);
#else
        fprintf(f, "CUDA backend: built in\n");
#endif
        bool ok = gpu_available(why, sizeof why);
        fprintf(f, "CUDA device: %s\n", ok ? why : "none");
        if (!ok)
            fprintf(f, "  (%s; everything runs on the CPU)\n", why);
    } else {
        fprintf(f, "CUDA backend: not built (configure found no nvcc); CPU only\n");
    }
}

/* ---- calibration file ------------------------------------------------------ */

const char *backend_gpu_default_calibration(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(buf, len, "%s/arcrun/calibration.json", xdg);
    else
        snprintf(buf, len, "%s/.cache/arcrun/calibration.json", home && *home ? home : ".");
    return buf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    for (size_t k; s && (k = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            }
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

/* 0 loaded, 1 no such file, -1 malformed (why says). */
static int load_calibration(const char *path, char *why, size_t whylen)
{
    char *text = slurp(path);
    if (!text) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? 1 : -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *ops = root ? cJSON_GetObjectItemCaseSensitive(root, "ops") : NULL;
    if (!cJSON_IsObject(ops) ||
        !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "arcrun_calibration"))) {
        snprintf(why, whylen, "%s: not an arcrun calibration file (see docs/gpu.md)", path);
        cJSON_Delete(root);
        return -1;
    }
    for (int op = 0; op < GOP_COUNT; op++) {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(ops, gpu_ops[op].name);
        cJSON *x = e ? cJSON_GetObjectItemCaseSensitive(e, "crossover") : NULL;
        if (cJSON_IsNumber(x) && x->valuedouble >= 1)
            G.crossover[op] = x->valuedouble > 1e9 ? 1000000000 : (int)x->valuedouble;
        else if (cJSON_IsNull(x))
            G.crossover[op] = 0;          /* measured: the GPU never pays */
    }
    cJSON_Delete(root);
    return 0;
}

int backend_gpu_setup(const GpuOptions *o)
{
    G.o = *o;
    FILE *say = o->log;      /* NULL: calibrate reports for itself */
    if (!G.o.log)
        G.o.log = stderr;
    map_prims();
    for (int op = 0; op < GOP_COUNT; op++)
        G.crossover[op] = gop_is_objects(op) ? DEFAULT_CROSSOVER_OBJECTS : 0;
    G.inject = o->mode == BACKEND_EMULATE ? getenv("ARCRUN_GPU_INJECT") : NULL;
    backend_gpu.name = mode_name();
    if (o->mode == BACKEND_CPU)
        return 0;
    char buf[1024], why[1200];
    const char *path = o->calibration ? o->calibration
                                      : backend_gpu_default_calibration(buf, sizeof buf);
    int crc = 1;
    if (o->mode == BACKEND_AUTO) {
        /* a named file must be good even when there is no device to use it */
        crc = load_calibration(path, why, sizeof why);
        if (crc < 0 || (crc > 0 && o->calibration)) {
            fprintf(G.o.log, "arcrun: calibration file %s\n", why);
            if (o->calibration)
                return -1;
        }
    }
    G.probed = true;
    if (o->mode == BACKEND_EMULATE) {
        G.usable = true;
        snprintf(G.why, sizeof G.why, "host emulation of the kernels (testing aid)");
    } else if (o->mode == BACKEND_AUTO && !o->compare && !o->verbose) {
        G.usable = true;
        G.probed = false;
    } else {
        G.usable = gpu_available(G.why, sizeof G.why);
    }
    if (!G.usable) {
        if (say && (o->mode == BACKEND_CUDA || o->compare || o->verbose))
            fprintf(say, "arcrun: no GPU: %s; everything runs on the CPU%s\n", G.why,
                    o->compare ? " (nothing to compare)" : "");
        return 0;
    }
    if (o->mode == BACKEND_AUTO) {
        if (o->verbose)
            fprintf(G.o.log, "arcrun: GPU: %s; auto backend, crossovers %s %s%s\n", G.why,
                    crc == 0 ? "from" : "default (no calibration file at", path,
                    crc == 0 ? "" : ")");
    } else if (o->verbose) {
        fprintf(G.o.log, "arcrun: GPU: %s; every supported op goes to it\n", G.why);
    }
    return 0;
}

int backend_gpu_smallest_batch(void)
{
    if (G.o.mode == BACKEND_CPU || !G.usable)
        return 0;
    if (G.o.mode != BACKEND_AUTO || G.o.compare)
        return 1;
    int least = 0;
    for (int op = 0; op < GOP_COUNT; op++)
        if (G.crossover[op] > 0 && (!least || G.crossover[op] < least))
            least = G.crossover[op];
    return least;
}

/* ---- the table after a run -------------------------------------------------- */

long backend_gpu_finish(FILE *f, bool show)
{
    probe_join();
    long differ = 0, any = 0;
    for (int op = 0; op < GOP_COUNT; op++) {
        const OpCounters *c = &G.ctr[op];
        differ += c->differ;
        any += c->dev_calls + c->cpu_calls + c->fallback_calls;
    }
    if (!(show || G.o.compare) || G.o.mode == BACKEND_CPU)
        return differ;
    if (!G.usable)
        return differ;      /* setup said why, once */
    if (!any) {
        fprintf(f, "%s: no call of a GPU-able op in this run\n", mode_name());
        return differ;
    }
    fprintf(f, "%s (%s): calls per op\n", mode_name(), G.why);
    fprintf(f, "%-11s %8s %7s %7s %8s", "op", "gpu", "batches", "cpu", "fellback");
    if (G.o.compare)
        fprintf(f, " %10s %10s %10s %8s %8s %7s", "mean batch", "cpu ms", "gpu ms", "speedup",
                "equal", "differ");
    fputc('\n', f);
    for (int op = 0; op < GOP_COUNT; op++) {
        const OpCounters *c = &G.ctr[op];
        if (!c->dev_calls && !c->cpu_calls && !c->fallback_calls)
            continue;
        fprintf(f, "%-11s %8ld %7ld %7ld %8ld", gpu_ops[op].name, c->dev_calls, c->batches,
                c->cpu_calls, c->fallback_calls);
        if (G.o.compare && c->cmp_batches)
            fprintf(f, " %10.1f %10.3f %10.3f %7.2fx %8ld %7ld",
                    (double)c->cmp_calls / (double)c->cmp_batches, c->cmp_cpu_s * 1e3,
                    c->cmp_dev_s * 1e3, c->cmp_dev_s > 0 ? c->cmp_cpu_s / c->cmp_dev_s : 0.0,
                    c->equal, c->differ);
        fputc('\n', f);
    }
    if (G.o.compare)
        fprintf(f, "compare: %s; gpu ms = validation, packing, transfers, kernel, unpacking%s\n",
                differ ? "VALUES DIFFER" : "all values equal (v_eq and repr)",
                G.o.mode == BACKEND_EMULATE ? " (host emulation: not a GPU time)" : "");
    return differ;
}

/* ---- arcrun calibrate --------------------------------------------------------- */

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
            r->u.tup.items[j] = v_int(rnd(ncol));
        g->u.tup.items[i] = r;
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
        if (pack_one(c->op, c->grids[k], c->params, &c->recs[k]))
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
    GpuGrid *recs = input_buffer(n, why, whylen);
    if (!recs)
        return -1;
    CalPack cp = {.op = op, .grids = grids, .params = params, .recs = recs};
    atomic_init(&cp.rejected, 0);
    par_range(n, cal_pack_range, &cp);
    ph_pack = now_s() - t0;
    if (atomic_load(&cp.rejected)) {
        snprintf(why, whylen, "calibration grid rejected");
        return -1;
    }
    if (gop_is_objects(op)) {
        Value **res = xmalloc_(sizeof *res * (size_t)n);
        int rc = run_objects(op, recs, n, res, why, whylen);
        double t = now_s() - t0;
        free_results(res, rc ? 0 : n);
        return rc ? -1 : t;
    }
    const void *out;
    double t1 = now_s();
    if (run_packed(op, n, &out, why, whylen) != 0)
        return -1;
    double t2 = now_s();
    ph_device = t2 - t1;
    Value **res = xmalloc_(sizeof *res * (size_t)n);
    UnpackJob j = {.op = op, .recs = recs, .out = out, .res = res};
    par_range(n, unpack_range, &j);
    double t3 = now_s();
    ph_rebuild = t3 - t2;
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
        if ((gop_is_objects(op) || prim_table[p].dialect == DIALECT_ARCDSL) && G.op_of_prim[p] == op)
            prim = p;
    CalCpu c = {.fn = prim_value(prim), .dialect = prim_table[prim].dialect,
                .arity = gpu_ops[op].arity, .grids = grids, .params = params,
                .res = xmalloc_(sizeof(Value *) * (size_t)n)};
    double t0 = now_s();
    par_range(n, cal_cpu_range, &c);
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
        task_open(k);            /* closed by taskset_free */
        for (int s = 0; s < task_nsamples(k); s++) {
            const Sample *sm = task_sample(k, s);
            Value *two[2] = {sm->input, sm->output};
            for (int q = 0; q < 2; q++)
                if (two[q] && (int)two[q]->u.tup.len <= maxside &&
                    (int)two[q]->u.tup.items[0]->u.tup.len <= maxside)
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
    if (!G.usable) {
        fprintf(stderr, "arcrun calibrate: %s: nothing to calibrate\n", G.why);
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
            cells[k]->u.tup.items[0] = v_int(3);
            cells[k]->u.tup.items[1] = v_incref(locs[k]);
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
                row->u.tup.items[j] = v_int(0);
            cal_zeros->u.tup.items[i] = row;
        }
    }
    cJSON *root = cJSON_CreateObject(), *ops = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "arcrun_calibration", 1);
    cJSON_AddStringToObject(root, "backend", mode_name());
    cJSON_AddStringToObject(root, "device", G.why);
    cJSON_AddNumberToObject(root, "jobs", jobs);
    cJSON_AddStringToObject(root, "cpu_time", "measured on jobs threads");
    char src[96];
    snprintf(src, sizeof src, nbig ? "%d task grids, repeated" : "random", nbig);
    cJSON_AddStringToObject(root, "grids", src);
    int rc = 0;
    fprintf(stderr, "%-11s %8s %12s %12s  %8s %8s %8s  (%s; cpu: %d threads; grids: %s)\n",
            "op", "batch", "cpu ms", "gpu ms", "pack", "device", "rebuild", G.why, jobs, src);
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
        cJSON *e = cJSON_CreateObject(), *js = cJSON_CreateArray(), *jc = cJSON_CreateArray(),
              *jg = cJSON_CreateArray();
        int crossover = 0;
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
                    bp = ph_pack;
                    bd = ph_device;
                    br = ph_rebuild;
                }
            }
            if (rc)
                break;
            fprintf(stderr, "%-11s %8d %12.3f %12.3f  %8.3f %8.3f %8.3f\n", gpu_ops[op].name,
                    sizes[s], best_c * 1e3, best_g * 1e3, bp * 1e3, bd * 1e3, br * 1e3);
            cJSON_AddItemToArray(js, cJSON_CreateNumber(sizes[s]));
            cJSON_AddItemToArray(jc, cJSON_CreateNumber(best_c));
            cJSON_AddItemToArray(jg, cJSON_CreateNumber(best_g));
            bool wins = best_g * AUTO_MARGIN <= best_c;
            if (!crossover && wins)
                crossover = sizes[s];
            else if (crossover && !wins)
                crossover = 0;        /* not a clean crossover: only past the last win */
        }
        if (crossover)
            cJSON_AddNumberToObject(e, "crossover", crossover);
        else
            cJSON_AddNullToObject(e, "crossover");
        cJSON_AddItemToObject(e, "sizes", js);
        cJSON_AddItemToObject(e, "cpu_seconds", jc);
        cJSON_AddItemToObject(e, "gpu_seconds", jg);
        cJSON_AddItemToObject(ops, gpu_ops[op].name, e);
    }
    cJSON_AddItemToObject(root, "ops", ops);
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
        /* create the directories of the default path */
        char dir[1024];
        snprintf(dir, sizeof dir, "%s", path);
        for (char *p = dir + 1; *p; p++)
            if (*p == '/') {
                *p = 0;
                mkdir(dir, 0777);
                *p = '/';
            }
        char *text = cJSON_Print(root);
        FILE *f = fopen(path, "w");
        bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
        if (f && fclose(f) != 0)
            ok = false;
        if (!ok) {
            fprintf(stderr, "arcrun calibrate: cannot write %s: %s\n", path, strerror(errno));
            rc = -1;
        } else {
            fprintf(stderr, "arcrun calibrate: wrote %s\n", path);
        }
        free(text);
    }
    cJSON_Delete(root);
    return rc;
}
