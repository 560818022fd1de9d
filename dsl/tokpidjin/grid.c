/* tokpidjin primitives: grid group (cells are (i, j, color)).
 *
 * Grids, mirrors, colours, painting and scaling, and the object finders
 * (objects/o_g and friends, partitions, frontiers, occurrences, periods).
 * Where a body calls another DSL function, that inner call carries the
 * safe wrapper: its error becomes its default and the body goes on
 * (tokpidjin/grid_util.h).  Frozensets are built along the reference's
 * construction path so they iterate as CPython's do; objects() replays
 * its set operations on location numbers (ISet, below).
 *
 * Coordinates are ints in every program seen; a float or other coordinate
 * where the reference would do arithmetic raises TypeError here.
 */

#include "prim.h"
#include "common/core_util.h"
#include "common/binop.h"
#include "tokpidjin/grid_util.h"
#include "common/gridops.h"
#include "common/mgrid.h"
#include "common/cells.h"
#include "common/anyorder.h"
#include "fskeys.h"
#include "common/rings.h"
#include "common/mshift.h"

static Value tk_neginf_ = {.refs = -1, .type = V_FLOAT, .u.f = -INFINITY};

/* ---- plain grid reshaping ------------------------------------------------ */

/* piece[::-1]; the dialect charges nothing */
Value *tk_hmirror_t(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (g->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(g));
    return cm_rows_reversed(cx, g, false);
}

/* tuple(row[::-1] for row in grid): any iterable of tuples; no charge */
Value *tk_vmirror_t(Ctx *cx, Value *const *a)
{
    if (!gu_iterable(cx, a[0]))
        return NULL;
    return cm_flip_rows(cx, a[0], false, false);
}

/* tuple(zip(*grid)): any iterable of iterables, cut to the shortest */
Value *tk_dmirror_t(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (vg_is(g))
        return cm_turn_bytes(cx, g, GU_TRANSPOSE);
    GView v;
    if (!cm_zip_rows(cx, g, &v))
        return NULL;
    Value *out = cm_turn_view(&v, GU_TRANSPOSE, v_rows_flat(g));
    gu_view_free(&v);
    return out;
}

Value *tk_cmirror_t(Ctx *cx, Value *const *a)
{
    if (a[0]->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable",
                        v_typename(a[0]));
    return ad_cmirror(cx, a);
}

/* ---- patch mirrors ------------------------------------------------------- */

enum { MIR_H, MIR_V, MIR_D };
enum { FORM_ANY, FORM_PAIRS, FORM_CELLS };   /* _f, _i, _o */

/* a + b (sign 1) or a - b (sign -1) on ints and floats; new reference */
static Value *arith(Ctx *cx, Value *a, Value *b, int sign)
{
    if (v_is_int(a) && v_is_int(b))
        return cm_binop(cx, sign > 0 ? CORE_ADD : CORE_SUB, a, b, false);
    if (core_is_num(a) && core_is_num(b)) {
        double x = a->type == V_FLOAT ? a->u.f : (double)a->u.i;
        double y = b->type == V_FLOAT ? b->u.f : (double)b->u.i;
        return v_float(sign > 0 ? x + y : x - y);
    }
    return cx_raise(cx, "TypeError", "unsupported operand type(s) for %c: '%s' and '%s'",
                    sign > 0 ? '+' : '-', v_typename(a), v_typename(b));
}

/* (x, y) or (x, y, c), stealing x and y */
static Value *make_elem(Value *x, Value *y, Value *c)
{
    if (c && v_is_int(x) && v_is_int(y) && x->type == V_INT && y->type == V_INT) {
        Value *t = cell_tk(x->u.i, y->u.i, c);
        v_decref(x);
        v_decref(y);
        return t;
    }
    if (!c)
        return v_pair_steal(x, y);
    Value *t = v_tuple_new(3);
    v_titems(t)[0] = x;
    v_titems(t)[1] = y;
    v_titems(t)[2] = v_incref(c);
    return t;
}

/* frozenset(mirrored element for element in patch): the body shared by
 * [hvd]mirror_[fio]. */
static Value *mirror(Ctx *cx, Value *patch, int kind, int form)
{
    if (kind == MIR_V && form == FORM_ANY && patch->type == V_FSET && v_len(patch) == 0)
        return v_incref(patch);
    Value *ul = tk_patch_corner(cx, patch, false), *lr = NULL, *d = NULL, *ua = NULL, *ub = NULL;
    if (!ul)
        return NULL;
    if (kind == MIR_D) {
        Value **u = tk_unpack(cx, ul, 2);
        if (!u) {
            v_decref(ul);
            return NULL;
        }
        ua = u[0];
        ub = u[1];
    } else {
        size_t k = kind == MIR_H ? 0 : 1;
        if (!(lr = tk_patch_corner(cx, patch, true)))
            goto fail;
        if (v_len(ul) <= k || v_len(lr) <= k) {
            cx_raise(cx, "IndexError", "tuple index out of range");
            goto fail;
        }
        if (!(d = arith(cx, v_items(ul)[k], v_items(lr)[k], 1)))
            goto fail;
    }
    if (!gu_iterable(cx, patch))
        goto fail;
    size_t n = v_len(patch);
    Value **it = v_items(patch);
    if (n == 0) {
        cx_raise(cx, "StopIteration", "%s", "");
        goto fail;
    }
    size_t k = form == FORM_PAIRS ? 2 : 3;
    if (form == FORM_ANY) {
        size_t l0;
        if (!gu_len(cx, it[0], &l0))
            goto fail;
        k = l0 == 3 ? 3 : 2;
    }
    Value **buf = gu_work(cx, n) ? gu_alloc(cx, n, sizeof *buf) : NULL;
    if (!buf)
        goto fail;
    Value *out = NULL;
    size_t m = 0;
    for (; m < n; m++) {
        Value **e = tk_unpack(cx, it[m], k), *x = NULL, *y = NULL, *t;
        if (!e)
            break;
        switch (kind) {
        case MIR_H:
            x = arith(cx, d, e[0], -1);
            y = v_incref(e[1]);
            break;
        case MIR_V:
            x = v_incref(e[0]);
            y = arith(cx, d, e[1], -1);
            break;
        default:
            if ((t = arith(cx, e[1], ub, -1))) {
                x = arith(cx, t, ua, 1);
                v_decref(t);
            }
            if (x && (t = arith(cx, e[0], ua, -1))) {
                y = arith(cx, t, ub, 1);
                v_decref(t);
            }
            break;
        }
        if (!x || !y) {
            v_decref(x);
            v_decref(y);
            break;
        }
        buf[m] = make_elem(x, y, k == 3 ? e[2] : NULL);
    }
    if (m == n)
        out = fs_from_items(buf, n);
    for (size_t x = 0; x < m; x++)
        v_decref(buf[x]);
    free(buf);
    v_decref(ul);
    v_decref(lr);
    v_decref(d);
    return out;
fail:
    v_decref(ul);
    v_decref(lr);
    v_decref(d);
    return NULL;
}

/* An inner [hvd]mirror_f call: frozenset() on error. */
static Value *mirror_inner(Ctx *cx, Value *patch, int kind)
{
    Value *r = mirror(cx, patch, kind, FORM_ANY);
    if (!r && tk_catch(cx))
        r = v_incref(&v_empty_fset_);
    return r;
}

/* vmirror_f(dmirror_f(vmirror_f(patch))), each call wrapped */
static Value *cmirror(Ctx *cx, Value *patch)
{
    Value *x = mirror_inner(cx, patch, MIR_V), *y, *z;
    if (!x)
        return NULL;
    y = mirror_inner(cx, x, MIR_D);
    v_decref(x);
    if (!y)
        return NULL;
    z = mirror_inner(cx, y, MIR_V);
    v_decref(y);
    return z;
}

#define MIRROR_PRIMS(K, k)                                                        \
    Value *tk_##k##mirror_f(Ctx *cx, Value *const *a) { return mirror(cx, a[0], K, FORM_ANY); } \
    Value *tk_##k##mirror_i(Ctx *cx, Value *const *a) { return mirror(cx, a[0], K, FORM_PAIRS); } \
    Value *tk_##k##mirror_o(Ctx *cx, Value *const *a) { return mirror(cx, a[0], K, FORM_CELLS); }
MIRROR_PRIMS(MIR_H, h)
MIRROR_PRIMS(MIR_V, v)
MIRROR_PRIMS(MIR_D, d)

Value *tk_cmirror_f(Ctx *cx, Value *const *a) { return cmirror(cx, a[0]); }

/* A wrapped inner call: its default on error. */
static Value *inner(Ctx *cx, PrimFn fn, Value *const *a, Value *dflt)
{
    Value *r = fn(cx, a);
    if (!r && tk_catch(cx))
        r = v_incref(dflt);
    return r;
}

Value *tk_mir_rot_t(Ctx *cx, Value *const *a)
{
    static const PrimFn fns[7] = {tk_hmirror_t, tk_dmirror_t, tk_vmirror_t, tk_cmirror_t,
                                  ad_rot90, ad_rot180, ad_rot270};
    int t = selector(a[1]);
    if (t < 0 || t > 6)
        return v_incref(a[0]);
    return inner(cx, fns[t], a, &v_empty_tuple_);
}

Value *tk_mir_rot_f(Ctx *cx, Value *const *a)
{
    static const int kinds[3] = {MIR_H, MIR_D, MIR_V};
    int t = selector(a[1]);
    if (t < 0 || t > 3)
        return v_incref(a[0]);
    if (t == 3)
        return cmirror(cx, a[0]);
    return mirror_inner(cx, a[0], kinds[t]);
}

/* ---- cells and slices ---------------------------------------------------- */

/* index(grid, (i, j)) as an inner call of cellwise, int i, j >= 0:
 * -inf outside, 0 (the default) on error.  Borrowed. */
static Value *index_inner(const Value *g, bool gok, size_t h, size_t w, size_t i, size_t j)
{
    if (!gok)
        return v_int(0);
    if (i >= h || j >= w)
        return &tk_neginf_;
    if (vg_is(g))
        return vg_at(g, i, j);
    Value *r = v_titems(g)[i];
    if (r->type != V_TUPLE || j >= r->u.tup.len)
        return v_int(0);
    return v_titems(r)[j];
}

/* `h, w = len(g), len(g[0])` succeeds */
static bool grid_hw(const Value *g, size_t *h, size_t *w)
{
    if (gu_bytes(g, h, w))
        return true;
    if (g->type != V_TUPLE || g->u.tup.len == 0 || !tk_has_len(v_titems(g)[0]))
        return false;
    *h = g->u.tup.len;
    *w = v_len(v_titems(g)[0]);
    return true;
}

typedef struct {
    bool ok;
    size_t h, w;
} BShape;

/* a[0][i][j] where it equals b's cell (index_inner), else a[2] */
static Value *cellwise_at(Ctx *cx, Value *const *a, size_t i, size_t j, const void *arg)
{
    const BShape *b = arg;
    Value *x = gu_at(cx, a[0], i, j);
    if (!x)
        return NULL;
    Value *y = index_inner(a[1], b->ok, b->h, b->w, i, j);
    return v_incref(gu_eq(x, y) ? x : a[2]);
}

Value *tk_cellwise(Ctx *cx, Value *const *a)
{
    GView g;
    BShape b = {false, 0, 0};
    if (!gu_view_hw(cx, a[0], &g))
        return NULL;
    gu_view_free(&g);
    b.ok = grid_hw(a[1], &b.h, &b.w);
    return gu_build(cx, g.h, g.w, cellwise_at, a, &b);
}

/* Python `0 <= v < n`: 1 true, 0 false, -1 raised */
static int in_range(Ctx *cx, const Value *v, size_t n)
{
    if (v_is_int(v))
        return v->u.i >= 0 && (uint64_t)v->u.i < n;
    if (v->type == V_FLOAT)
        return v->u.f >= 0 && v->u.f < (double)n;
    cx_raise(cx, "TypeError", "'<=' not supported between instances of 'int' and '%s'",
             v_typename(v));
    return -1;
}

Value *tk_index(Ctx *cx, Value *const *a)
{
    Value *g = a[0], *loc = a[1];
    if (loc->type == V_TUPLE && loc->u.tup.len == 0)
        return v_float(-INFINITY);
    Value **ij = tk_unpack(cx, loc, 2);
    size_t h, w;
    if (!ij || !gu_hw(cx, g, &h, &w))
        return NULL;
    int ri = in_range(cx, ij[0], h), rj = ri > 0 ? in_range(cx, ij[1], w) : 0;
    if (ri < 0 || rj < 0)
        return NULL;
    if (!ri || !rj)
        return v_float(-INFINITY);
    if (loc->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'frozenset' object is not subscriptable");
    int64_t i, j;
    if (!gu_int(cx, ij[0], &i) || !gu_int(cx, ij[1], &j))
        return NULL;
    return v_incref(gu_at(cx, g, (size_t)i, (size_t)j));
}

/* crop: the slice when start and dims fit the grid, else (); never raises */
static Value *crop(Ctx *cx, Value *g, Value *start, Value *dims)
{
    size_t h, w;
    int64_t s0, s1, d0, d1;
    if (!grid_hw(g, &h, &w) || start->type != V_TUPLE || dims->type != V_TUPLE ||
        start->u.tup.len < 2 || dims->u.tup.len < 2)
        return v_tuple_new(0);
    Value **s = v_titems(start), **d = v_titems(dims);
    if (!v_is_int(s[0]) || !v_is_int(s[1]) || !v_is_int(d[0]) || !v_is_int(d[1]))
        return v_tuple_new(0);
    s0 = s[0]->u.i; s1 = s[1]->u.i; d0 = d[0]->u.i; d1 = d[1]->u.i;
    int64_t H = (int64_t)h, W = (int64_t)w;
    if (!(s0 >= 0 && s0 < H && s1 >= 0 && s1 < W && d0 <= H - s0 && d1 <= W - s1))
        return v_tuple_new(0);
    int64_t a0 = s0, b0 = s0 + d0;
    gu_slice_bounds(h, &a0, &b0);
    if (vg_is(g) && b0 > a0) {
        int64_t a1 = s1, b1 = s1 + d1;
        gu_slice_bounds(w, &a1, &b1);
        if (b1 > a1) {
            if (!gu_work(cx, (uint64_t)(b0 - a0) * (d1 > 0 ? (uint64_t)d1 : 1)))
                return NULL;
            return gu_bytes_window(g, (size_t)a0, (size_t)(b0 - a0), (size_t)a1, (size_t)(b1 - a1));
        }
    }
    for (int64_t i = a0; i < b0; i++)
        if (v_titems(g)[i]->type != V_TUPLE)
            return v_tuple_new(0);
    if (!gu_work(cx, (uint64_t)(b0 - a0) * (d1 > 0 ? (uint64_t)d1 : 1)))
        return NULL;
    Value *out = v_tuple_new((size_t)(b0 - a0));
    for (int64_t i = a0; i < b0; i++)
        v_titems(out)[i - a0] = gu_slice(cx, v_titems(g)[i], s1, s1 + d1);
    return out;
}

Value *tk_crop(Ctx *cx, Value *const *a) { return crop(cx, a[0], a[1], a[2]); }

Value *tk_subgrid(Ctx *cx, Value *const *a)
{
    Value *patch = a[0];
    if (v_is_container(patch) && v_len(patch) == 0)
        return v_tuple_new(0);
    Value *ul = tk_patch_corner(cx, patch, false);
    if (!ul)
        return NULL;
    int64_t h = extent(cx, patch, 0), w = extent(cx, patch, 1);
    if (cx->err) {
        v_decref(ul);
        return NULL;
    }
    Value *dims = v_pair_int(h, w);
    Value *r = crop(cx, a[1], ul, dims);
    v_decref(dims);
    v_decref(ul);
    return r;
}

/* ---- painting ------------------------------------------------------------ */

/* grid_filled[i][j] = v where 0 <= i < h and 0 <= j < w (and, under,
 * the cell holds bg); false on error. */
static bool put(Ctx *cx, MGrid *m, Value *vi, Value *vj, Value *v, const Value *bg)
{
    int ri = in_range(cx, vi, m->h), rj = ri > 0 ? in_range(cx, vj, m->w) : 0;
    if (ri < 0 || rj < 0)
        return false;
    return !ri || !rj || gu_mgrid_put(cx, m, vi, vj, v, bg);
}

/* put() for an (i, j) known to be ints */
static inline bool put_ij(Ctx *cx, MGrid *m, int64_t i, int64_t j, Value *v, const Value *bg)
{
    return !gu_mgrid_in(m, i, j) || gu_mgrid_put_ij(cx, m, i, j, v, bg);
}

/* A patch all of interned places, or all of interned cells: what
 * toindices makes of it is then read off each item's address (no pairs
 * array, no unpacking).  Any other patch goes tk_patch_indices' way. */
static bool interned_patch(const Value *patch)
{
    if (!v_is_container(patch) || v_len(patch) == 0)
        return false;
    Value **it = v_items(patch);
    int64_t i, j;
    bool cells = v_interned_at(it[0], &i, &j) >= 11;
    for (size_t k = 0, n = v_len(patch); k < n; k++) {
        int at = v_interned_at(it[k], &i, &j);
        if (cells ? at < 11 : at != 0)
            return false;
    }
    return true;
}

static bool fill_patch(Ctx *cx, MGrid *m, Value *patch, Value *color, const Value *bg)
{
    Value **ij = NULL;
    size_t n;
    bool ok = true;
    if (cm_shifts_of(patch))
        return gu_work(cx, v_len(patch)) && cm_shifts_put(cx, m, patch, color, bg, &ok) && ok;
    GLoc *l;
    /* a set of places kept as keys, or shifted rings: its places in no
     * order, as toindices gives it back (tokpidjin's toindices of 2-tuples
     * is the set itself) */
    int got = cm_rings_shifted(patch) || fs_keys_places(patch) ? ao_locs(cx, patch, &l, &n) : 0;
    if (got) {
        ok = got > 0 && gu_work(cx, n);
        for (size_t k = 0; ok && k < n; k++)
            ok = put_ij(cx, m, l[k].i, l[k].j, color, bg);
        free(l);
        return ok;
    }
    if (interned_patch(patch)) {
        Value **it = v_items(patch);
        n = v_len(patch);
        ok = gu_work(cx, n);
        for (size_t k = 0; ok && k < n; k++) {
            int64_t i = 0, j = 0;
            v_interned_at(it[k], &i, &j);
            ok = put_ij(cx, m, i, j, color, bg);
        }
    } else {
        ok = tk_patch_indices(cx, patch, &ij, &n) && gu_work(cx, n);
        for (size_t k = 0; ok && k < n; k++)
            ok = put(cx, m, ij[2 * k], ij[2 * k + 1], color, bg);
    }
    free(ij);
    return ok;
}

static bool paint_obj(Ctx *cx, MGrid *m, Value *obj, Value *unused, const Value *bg)
{
    (void)unused;
    if (!gu_iterable(cx, obj) || !gu_work(cx, v_len(obj)))
        return false;
    bool ok;
    if (cm_shifts_put(cx, m, obj, NULL, bg, &ok))
        return ok;
    for (size_t k = 0, n = v_len(obj); k < n; k++) {
        int64_t i, j;
        int at = v_interned_at(v_items(obj)[k], &i, &j);
        if (at >= 11) {
            if (!put_ij(cx, m, i, j, v_small(at - 11), bg))
                return false;
            continue;
        }
        Value **e = tk_unpack(cx, v_items(obj)[k], 3);
        if (!e || !put(cx, m, e[0], e[1], e[2], bg))
            return false;
    }
    return true;
}

static Value *do_fill(Ctx *cx, Value *grid, Value *color, Value *patch, bool under)
{
    return gu_paint(cx, grid, under, tk_mostcolor_inner, fill_patch, patch, color);
}

static Value *do_paint(Ctx *cx, Value *grid, Value *obj, bool under)
{
    return gu_paint(cx, grid, under, tk_mostcolor_inner, paint_obj, obj, NULL);
}

Value *tk_fill(Ctx *cx, Value *const *a) { return do_fill(cx, a[0], a[1], a[2], false); }
Value *tk_underfill(Ctx *cx, Value *const *a) { return do_fill(cx, a[0], a[1], a[2], true); }
Value *tk_paint(Ctx *cx, Value *const *a) { return do_paint(cx, a[0], a[1], false); }
Value *tk_underpaint(Ctx *cx, Value *const *a) { return do_paint(cx, a[0], a[1], true); }

/* fill(grid, mostcolor_t(grid), toindices(patch)), fill wrapped too */
Value *tk_cover(Ctx *cx, Value *const *a)
{
    Value *bg = tk_mostcolor_inner(cx, a[0]);
    if (!bg)
        return NULL;
    return do_fill(cx, a[0], bg, a[1], false);
}

/* ---- colours ------------------------------------------------------------- */

static Value *extreme(Ctx *cx, Value *e, bool rows, bool most)
{
    GColors k;
    if (!tk_colors(cx, e, rows, &k))
        return NULL;
    Value *r = v_incref(tk_extreme(&k, most));
    gu_colors_free(&k);
    return r;
}

Value *tk_mostcolor_t(Ctx *cx, Value *const *a) { return extreme(cx, a[0], true, true); }
Value *tk_mostcolor_f(Ctx *cx, Value *const *a) { return extreme(cx, a[0], false, true); }
Value *tk_leastcolor_t(Ctx *cx, Value *const *a) { return extreme(cx, a[0], true, false); }
Value *tk_leastcolor_f(Ctx *cx, Value *const *a) { return extreme(cx, a[0], false, false); }

Value *tk_palette_t(Ctx *cx, Value *const *a) { return colors_set(cx, a[0], true, false); }
Value *tk_palette_f(Ctx *cx, Value *const *a) { return colors_set(cx, a[0], false, false); }
Value *tk_p_g(Ctx *cx, Value *const *a) { return colors_set(cx, a[0], true, true); }
Value *tk_p_o(Ctx *cx, Value *const *a) { return colors_set(cx, a[0], false, true); }

/* len(palette_x(e)) with palette_x wrapped: 0 on error */
static Value *numcolors(Ctx *cx, Value *e, bool rows)
{
    GColors k;
    if (!tk_colors(cx, e, rows, &k))
        return tk_catch(cx) ? v_int(0) : NULL;
    size_t n = k.n;
    gu_colors_free(&k);
    return v_int((int64_t)n);
}

Value *tk_numcolors_t(Ctx *cx, Value *const *a) { return numcolors(cx, a[0], true); }
Value *tk_numcolors_f(Ctx *cx, Value *const *a) { return numcolors(cx, a[0], false); }

/* sum(row.count(color) for row in grid) */
Value *tk_colorcount_t(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (!gu_iterable(cx, g))
        return NULL;
    int64_t n = 0;
    for (size_t i = 0, h = v_len(g); i < h; i++) {
        Value *r = v_items(g)[i];
        if (r->type != V_TUPLE)
            return cx_raise(cx, "AttributeError", "'%s' object has no attribute 'count'",
                            v_typename(r));
        for (size_t j = 0; j < r->u.tup.len; j++)
            n += gu_same(v_titems(r)[j], a[1]);
    }
    return v_int(n);
}

/* sum(c == color for _, _, c in obj) */
Value *tk_colorcount_f(Ctx *cx, Value *const *a)
{
    if (!gu_iterable(cx, a[0]))
        return NULL;
    int64_t n = 0;
    for (size_t x = 0, len = v_len(a[0]); x < len; x++) {
        Value **e = tk_unpack(cx, v_items(a[0])[x], 3);
        if (!e)
            return NULL;
        n += gu_eq(e[2], a[1]);
    }
    return v_int(n);
}

/* Counter(colours).most_common()[rank][0] when rank is in range, else
 * `none` (the body's own out-of-range value). */
static Value *color_rank(Ctx *cx, Value *e, Value *rank, bool rows, Value *none)
{
    GColors k;
    if (!tk_colors(cx, e, rows, &k))
        return NULL;
    int64_t n = (int64_t)k.n, r;
    Value *out = NULL;
    if (rank->type == V_FLOAT) {
        double f = rank->u.f;
        if (f >= -(double)n && f < (double)n)
            cx_raise(cx, "TypeError", "tuple indices must be integers or slices, not float");
        else
            out = v_incref(none);
        goto done;
    }
    if (!v_is_int(rank)) {
        cx_raise(cx, "TypeError", "'<=' not supported between instances of 'int' and '%s'",
                 v_typename(rank));
        goto done;
    }
    r = rank->u.i;
    if (r < -n || r >= n) {
        out = v_incref(none);
        goto done;
    }
    if (r < 0)
        r += n;
    /* sorted(by count, reverse=True) is stable: ties keep first-seen order */
    size_t *ord = gu_alloc(cx, k.n, sizeof *ord);
    if (!ord)
        goto done;
    for (size_t x = 0; x < k.n; x++) {
        size_t y = x;
        for (; y > 0 && k.cnt[ord[y - 1]] < k.cnt[x]; y--)
            ord[y] = ord[y - 1];
        ord[y] = x;
    }
    out = v_incref(k.v[ord[r]]);
    free(ord);
done:
    gu_colors_free(&k);
    return out;
}

Value *tk_get_color_rank_t(Ctx *cx, Value *const *a)
{
    return color_rank(cx, a[0], a[1], true, &v_empty_tuple_);
}

Value *tk_get_color_rank_f(Ctx *cx, Value *const *a)
{
    return color_rank(cx, a[0], a[1], false, &v_empty_fset_);
}

/* tuple(tuple(v if v not in [a, b] else {a: b, b: a}[v] for v in r) for r in grid) */
Value *tk_switch(Ctx *cx, Value *const *a)
{
    return cm_map_cells(cx, a[0], a[1], a[2], true, true);
}

/* ---- the table ----------------------------------------------------------- */
