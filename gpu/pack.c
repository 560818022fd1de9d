/* pack.c -- a batch's calls into packed records, validated on the host,
 * and the result records back into the values the CPU would return; the
 * host work of big batches spread over the --jobs threads. */
#include "backend_gpu_int.h"
#include "gpu_objects.h"
#include "ops_cell.h"
#include "pyset.h"
#include "vgrid.h"

#include <string.h>

/* fn over [0, n) in chunks; small batches stay on this thread, where
 * handing out work would cost more than it saves. */
void gpu_par_range(int n, PoolFn fn, void *ctx)
{
    enum { MIN_PER_THREAD = 128 };
    int threads = gpu_state.o.jobs;
    if (threads > n / MIN_PER_THREAD)
        threads = n / MIN_PER_THREAD;
    pool_for(threads, n, 64, fn, ctx);
}

const char *gpu_param_byte(int kind, const Value *v, uint8_t *out)
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

bool gpu_param_per_call(int kind)
{
    return kind == PA_PATCH || kind == PA_OBJECT || kind == PA_GRID2 || kind == PA_START ||
           kind == PA_DIMS;
}

static bool int_pair(const Value *v)
{
    return v->type == V_TUPLE && v->u.tup.len == 2 && v_titems(v)[0]->type == V_INT &&
           v_titems(v)[1]->type == V_INT;
}

/* A patch or an object into the cells' high nibble.  toindices decides
 * cells or indices by the first item; mixed sets, bools and tuple patches
 * stay on the CPU.  Iteration order: paint's last write wins, as there. */
static const char *plane_patch(int kind, const Value *v, GpuGrid *rec)
{
    if (v->type != V_FSET)
        return "patch is not a frozenset";
    size_t n = v->u.set.len;
    Value *const *it = v_items(v);
    bool cells = kind == PA_OBJECT ||
                 (n && it[0]->type == V_TUPLE && it[0]->u.tup.len == 2 &&
                  v_titems(it[0])[1]->type == V_TUPLE);
    for (size_t k = 0; k < n; k++) {
        const Value *loc = it[k], *col = NULL;
        if (cells) {
            if (loc->type != V_TUPLE || loc->u.tup.len != 2)
                return "patch item is not a (value, (i, j)) pair";
            col = v_titems(loc)[0];
            loc = v_titems(loc)[1];
            if (kind == PA_OBJECT && (col->type != V_INT || col->u.i < 0 || col->u.i > 9))
                return "object colour is not an int from 0 to 9";
        }
        if (!int_pair(loc))
            return "patch location is not a pair of ints";
        int64_t i = v_titems(loc)[0]->u.i, j = v_titems(loc)[1]->u.i;
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
    if (vg_is(b)) {
        size_t bw = vg_w(b);
        if (bw < rec->w)
            return "second grid's row is not a tuple as wide as the first";
        for (int i = 0; i < rec->h; i++)
            for (int j = 0; j < rec->w; j++) {
                uint8_t c = vg_cells(b)[(size_t)i * bw + (size_t)j];
                if (c > 9)
                    return "a cell of the second grid is not an int from 0 to 9";
                rec->cell[i * GPU_SIDE + j] |= (uint8_t)(c << 4);
            }
        return NULL;
    }
    for (int i = 0; i < rec->h; i++) {
        const Value *r = v_titems(b)[i];
        if (r->type != V_TUPLE || r->u.tup.len < rec->w)
            return "second grid's row is not a tuple as wide as the first";
        for (int j = 0; j < rec->w; j++) {
            const Value *c = v_titems(r)[j];
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
    int64_t s[2] = {v_titems(start)[0]->u.i, v_titems(start)[1]->u.i};
    int64_t d[2] = {v_titems(dims)[0]->u.i, v_titems(dims)[1]->u.i};
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

const char *gpu_pack_call(int op, const Value *g, Value *const *params, GpuGrid *rec)
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
                              : gpu_param_byte(kind, params[k], k ? &rec->p1 : &rec->p0);
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
    if (o->h && o->w) {     /* as the CPU makes it: a byte grid */
        Value *g = vg_new(o->h, o->w);
        for (int i = 0; i < o->h; i++)
            memcpy(vg_cells(g) + (size_t)i * o->w, o->cell + i * GPU_SIDE, o->w);
        return g;
    }
    Value *t = v_tuple_new(o->h);
    for (int i = 0; i < o->h; i++) {
        Value *row = v_tuple_new(o->w);
        for (int j = 0; j < o->w; j++)
            v_titems(row)[j] = v_int(o->cell[i * GPU_SIDE + j]);
        v_titems(t)[i] = row;
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

/* ---- whole batches, over the --jobs threads ------------------------------ */

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
        j->bad[i] = gpu_pack_call(j->op, argv[0], argv + 1, &j->recs[i]);
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

void gpu_pack_batch(int op, Instance **inst, int n, GpuGrid *recs, const char **bad)
{
    PackJob j = {.op = op, .inst = inst, .recs = recs, .bad = bad};
    gpu_par_range(n, pack_range, &j);
}

void gpu_unpack_batch(int op, const GpuGrid *recs, const void *out, const uint32_t *off, int n,
                      Value **res)
{
    UnpackJob j = {.op = op, .recs = recs, .out = out, .off = off, .res = res};
    gpu_par_range(n, unpack_range, &j);
}
