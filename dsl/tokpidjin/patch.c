/* patch.c -- tokpidjin geometry of patches; cells are (i, j, color).
 *
 * Each body is followed as the reference writes it, duck typing included:
 * a nested DSL call is wrapped there (its exception is its default), so the
 * outer body goes on with that default; see tkp_wrap.  Frozensets are built
 * along the reference's own path (generator: ADD-ALL; set display or
 * comprehension: ADD-ALL then COPY; `|`, `-`: set operators), since that
 * decides iteration order.  The _i / _o / _f / _t variants differ only in
 * which toindices they call (TI_*) or in their guards.
 */
#include <stdatomic.h>

#include "patch_util.h"
#include "common/gridops.h"

/* ---- extremes: min/max(i or j for i, j in toindices*(p)) ---------------- */

/* k: 0 rows, 1 columns; op: CMP_LT min, CMP_GT max; nan_guard: the body
 * answers math.nan for a falsy p.  New reference or NULL raised. */
static Value *extreme(Ctx *cx, Value *p, int mode, int k, int op, bool nan_guard)
{
    if (nan_guard && !v_truthy(p))
        return TK_NAN;
    TkView v;
    if (!tkp_view(cx, p, mode, &v))
        return NULL;
    Value *best = NULL;
    for (size_t x = 0; x < v.n; x++) {
        Value **ij = tkp_loc(cx, &v, x);
        int r = ij ? (best ? tkp_beats(cx, ij[k], best, op) : 1) : -1;
        if (r < 0) {
            tkp_view_done(&v);
            return NULL;
        }
        if (r)
            best = ij[k];
    }
    if (!best)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                        op == CMP_LT ? "min" : "max");
    v_incref(best);
    tkp_view_done(&v);
    return best;
}

#define EXT(name, mode, k, op, guard)                                  \
    Value *tk_##name(Ctx *cx, Value *const *a)                  \
    {                                                                  \
        return extreme(cx, a[0], mode, k, op, guard);                  \
    }
EXT(uppermost, TI_AUTO, 0, CMP_LT, true)
EXT(uppermost_i, TI_IDX, 0, CMP_LT, true)
EXT(uppermost_o, TI_OBJ, 0, CMP_LT, true)
EXT(lowermost, TI_AUTO, 0, CMP_GT, true)
EXT(lowermost_i, TI_IDX, 0, CMP_GT, true)
EXT(lowermost_o, TI_OBJ, 0, CMP_GT, true)
EXT(leftmost, TI_AUTO, 1, CMP_LT, true)
EXT(leftmost_i, TI_IDX, 1, CMP_LT, true)
EXT(leftmost_o, TI_OBJ, 1, CMP_LT, true)
EXT(rightmost, TI_AUTO, 1, CMP_GT, true)
EXT(rightmost_i, TI_IDX, 1, CMP_GT, false)   /* no nan guard in these two */
EXT(rightmost_o, TI_OBJ, 1, CMP_GT, false)
#undef EXT

/* The wrapped extreme a body sees (Integer: 0 on error). */
static Value *w_extreme(Ctx *cx, Value *p, int mode, int k, int op)
{
    bool guard = !(k == 1 && op == CMP_GT && mode != TI_AUTO);
    return tkp_wrap(cx, extreme(cx, p, mode, k, op, guard), v_int(0));
}

/* ---- height, width, shape ----------------------------------------------- */

/* 0 if len(p) == 0 else hi - lo + 1, k: 0 height, 1 width */
static Value *extent(Ctx *cx, Value *p, int mode, int k)
{
    size_t n;
    if (!tkp_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_int(0);
    Value *hi = w_extreme(cx, p, mode, k, CMP_GT);
    if (!hi)
        return NULL;
    Value *lo = w_extreme(cx, p, mode, k, CMP_LT);
    if (!lo) {
        v_decref(hi);
        return NULL;
    }
    Value *r;
    if (v_is_int(hi) && v_is_int(lo)) {
        r = v_int(hi->u.i - lo->u.i + 1);
    } else {
        Value *d = tkp_arith(cx, hi, lo, '-');
        r = d ? tkp_arith_i(cx, d, 1, '+') : NULL;
        v_decref(d);
    }
    v_decref(hi);
    v_decref(lo);
    return r;
}

static Value *w_extent(Ctx *cx, Value *p, int mode, int k)
{
    return tkp_wrap(cx, extent(cx, p, mode, k), v_int(0));
}

#define EXTENT(name, mode, k)                                          \
    Value *tk_##name(Ctx *cx, Value *const *a)                  \
    {                                                                  \
        return extent(cx, a[0], mode, k);                              \
    }
EXTENT(height_f, TI_AUTO, 0)
EXTENT(height_i, TI_IDX, 0)
EXTENT(height_o, TI_OBJ, 0)
EXTENT(width_f, TI_AUTO, 1)
EXTENT(width_i, TI_IDX, 1)
EXTENT(width_o, TI_OBJ, 1)
#undef EXTENT

Value *tk_height_t(Ctx *cx, Value *const *a)
{
    size_t n;
    return tkp_len(cx, a[0], &n) ? v_int((int64_t)n) : NULL;
}

Value *tk_width_t(Ctx *cx, Value *const *a)
{
    size_t n;
    if (!v_truthy(a[0]))
        return v_int(0);
    Value *r = tkp_sub(cx, a[0], 0);
    return r && tkp_len(cx, r, &n) ? v_int((int64_t)n) : NULL;
}

static Value *w_grid_dim(Ctx *cx, Value *g, int k)
{
    Value *r = k ? tk_width_t(cx, &g) : tk_height_t(cx, &g);
    return tkp_wrap(cx, r, v_int(0));
}

static Value *pair_of(Value *h, Value *w)   /* steals both; NULL passes */
{
    if (!h || !w) {
        v_decref(h);
        v_decref(w);
        return NULL;
    }
    return v_pair_steal(h, w);
}

Value *tk_shape_f(Ctx *cx, Value *const *a)
{
    Value *h = w_extent(cx, a[0], TI_AUTO, 0);
    return pair_of(h, h ? w_extent(cx, a[0], TI_AUTO, 1) : NULL);
}

Value *tk_shape_t(Ctx *cx, Value *const *a)
{
    Value *h = w_grid_dim(cx, a[0], 0);
    return pair_of(h, h ? w_grid_dim(cx, a[0], 1) : NULL);
}

/* h > w of two owned numbers */
static Value *greater(Ctx *cx, Value *h, Value *w)
{
    int r = h && w ? v_richcmp(cx, h, w, CMP_GT) : -1;
    v_decref(h);
    v_decref(w);
    return r < 0 ? NULL : v_bool(r);
}

Value *tk_portrait_f(Ctx *cx, Value *const *a)
{
    Value *h = w_extent(cx, a[0], TI_AUTO, 0);
    return greater(cx, h, h ? w_extent(cx, a[0], TI_AUTO, 1) : NULL);
}

Value *tk_portrait_t(Ctx *cx, Value *const *a)
{
    Value *h = w_grid_dim(cx, a[0], 0);
    return greater(cx, h, h ? w_grid_dim(cx, a[0], 1) : NULL);
}

/* height_f(p) * width_f(p) == len(p) and height_f(p) == width_f(p) */
Value *tk_square_f(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *h = w_extent(cx, p, TI_AUTO, 0), *w = NULL, *hw = NULL, *r = NULL;
    size_t n;
    if (!h || !(w = w_extent(cx, p, TI_AUTO, 1)) || !(hw = tkp_arith(cx, h, w, '*')) ||
        !tkp_len(cx, p, &n))
        goto out;
    Value *nv = v_int((int64_t)n);
    bool eq = v_eq(hw, nv);
    v_decref(nv);
    r = v_bool(eq && v_eq(h, w));
out:
    v_decref(h);
    v_decref(w);
    v_decref(hw);
    return r;
}

Value *tk_square_t(Ctx *cx, Value *const *a)
{
    size_t h, w;
    Value *r;
    if (!tkp_len(cx, a[0], &h) || !(r = tkp_sub(cx, a[0], 0)) || !tkp_len(cx, r, &w))
        return NULL;
    return v_bool(h == w);
}

/* hline: width == len(p) and height == 1; vline: the other way round */
static Value *line(Ctx *cx, Value *p, int mode, int along)
{
    size_t n;
    Value *x = w_extent(cx, p, mode, along);
    if (!x)
        return NULL;
    if (!tkp_len(cx, p, &n)) {
        v_decref(x);
        return NULL;
    }
    bool eq = tkp_eq_int(x, (int64_t)n);
    v_decref(x);
    if (!eq)
        return v_bool(false);
    Value *y = w_extent(cx, p, mode, !along);
    if (!y)
        return NULL;
    eq = tkp_eq_int(y, 1);
    v_decref(y);
    return v_bool(eq);
}

Value *tk_hline_i(Ctx *cx, Value *const *a) { return line(cx, a[0], TI_IDX, 1); }
Value *tk_hline_o(Ctx *cx, Value *const *a) { return line(cx, a[0], TI_OBJ, 1); }
Value *tk_vline_i(Ctx *cx, Value *const *a) { return line(cx, a[0], TI_IDX, 0); }
Value *tk_vline_o(Ctx *cx, Value *const *a) { return line(cx, a[0], TI_OBJ, 0); }

/* ---- corners: tuple(map(f, zip(*toindices*(p)))) ------------------------- */

enum { OP_MIN = CMP_LT, OP_MAX = CMP_GT, OP_KEYERR = -1 };

/* op0, op1 reduce the first two columns, rest any further ones. */
static Value *zcorner(Ctx *cx, Value *p, int mode, int op0, int op1, int rest)
{
    TkView v;
    if (!tkp_view(cx, p, mode, &v))
        return NULL;
    if (v.n == 0)
        return v_incref(TKP_TUP0);
    size_t m = 2;
    if (v.w == 0)                             /* zip stops at the shortest */
        for (size_t x = 0; x < v.n; x++) {
            if (!tkp_iterable(cx, v.items[x])) {
                tkp_view_done(&v);
                return NULL;
            }
            if (x == 0 || v_len(v.items[x]) < m)
                m = v_len(v.items[x]);
        }
    Value *t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++)
        t->u.tup.items[k] = NULL;
    for (size_t k = 0; k < m; k++) {
        int op = k == 0 ? op0 : k == 1 ? op1 : rest;
        if (op == OP_KEYERR) {
            cx_raise(cx, "KeyError", "%zu", k);
            goto fail;
        }
        Value *best = NULL;
        for (size_t x = 0; x < v.n; x++) {
            Value *c = v_items(v.items[x])[k];
            int r = best ? tkp_beats(cx, c, best, op) : 1;
            if (r < 0)
                goto fail;
            if (r)
                best = c;
        }
        t->u.tup.items[k] = v_incref(best);
    }
    tkp_view_done(&v);
    return t;
fail:
    tkp_view_done(&v);
    for (size_t k = 0; k < m; k++)
        if (!t->u.tup.items[k])
            t->u.tup.items[k] = v_incref(TKP_TUP0);   /* a whole tuple to free */
    v_decref(t);
    return NULL;
}

enum { C_UL, C_UR, C_LL, C_LR };
static const int corner_ops[4][3] = {
    { OP_MIN, OP_MIN, OP_MIN }, { OP_MIN, OP_MAX, OP_KEYERR },
    { OP_MAX, OP_MIN, OP_KEYERR }, { OP_MAX, OP_MAX, OP_MAX } };

static Value *corner_of(Ctx *cx, Value *p, int mode, int which)
{
    const int *o = corner_ops[which];
    return zcorner(cx, p, mode, o[0], o[1], o[2]);
}

/* The wrapped corner a body sees (IJ: () on error). */
static Value *w_corner(Ctx *cx, Value *p, int which)
{
    return tkp_wrap(cx, corner_of(cx, p, TI_AUTO, which), TKP_TUP0);
}

#define CORNER(name, mode, which)                                      \
    Value *tk_##name(Ctx *cx, Value *const *a)                  \
    {                                                                  \
        return corner_of(cx, a[0], mode, which);                       \
    }
CORNER(ulcorner, TI_AUTO, C_UL)
CORNER(urcorner, TI_AUTO, C_UR)
CORNER(llcorner, TI_AUTO, C_LL)
CORNER(lrcorner, TI_AUTO, C_LR)
CORNER(ulcorner_i, TI_IDX, C_UL)
CORNER(urcorner_i, TI_IDX, C_UR)
CORNER(llcorner_i, TI_IDX, C_LL)
CORNER(lrcorner_i, TI_IDX, C_LR)
CORNER(ulcorner_o, TI_OBJ, C_UL)
CORNER(urcorner_o, TI_OBJ, C_UR)
CORNER(llcorner_o, TI_OBJ, C_LL)
CORNER(lrcorner_o, TI_OBJ, C_LR)
#undef CORNER

Value *tk_corner(Ctx *cx, Value *const *a)
{
    for (int k = 0; k < 4; k++)
        if (tkp_eq_int(a[1], k))
            return w_corner(cx, a[0], k);
    return w_corner(cx, a[0], C_UL);
}

/* 0 lowermost, 1 uppermost, 2 leftmost, 3 rightmost, else None */
Value *tk_col_row(Ctx *cx, Value *const *a)
{
    static const int kop[4][2] = {
        { 0, CMP_GT }, { 0, CMP_LT }, { 1, CMP_LT }, { 1, CMP_GT } };
    for (int k = 0; k < 4; k++)
        if (tkp_eq_int(a[1], k))
            return w_extreme(cx, a[0], TI_AUTO, kop[k][0], kop[k][1]);
    return v_none();
}

/* ---- toindices, objects, colours ---------------------------------------- */

Value *tk_toindices(Ctx *cx, Value *const *a) { return tkp_toindices(cx, a[0], TI_AUTO); }
Value *tk_toindices_i(Ctx *cx, Value *const *a) { return v_incref(a[0]); }
Value *tk_toindices_o(Ctx *cx, Value *const *a) { return tkp_toindices(cx, a[0], TI_OBJ); }

/* frozenset((i, j, c) for i, r in enumerate(grid) for j, c in enumerate(r)),
 * frozenset() unless a tuple of tuples of ints */
Value *tk_asobject(Ctx *cx, Value *const *a)
{
    Value *g = a[0];
    if (g->type != V_TUPLE)
        return v_incref(TKP_FSET0);
    size_t cells = 0;
    for (size_t i = 0; i < g->u.tup.len; i++) {
        Value *r = g->u.tup.items[i];
        if (r->type != V_TUPLE)
            return v_incref(TKP_FSET0);
        for (size_t j = 0; j < r->u.tup.len; j++)
            if (!v_is_int(r->u.tup.items[j]))
                return v_incref(TKP_FSET0);
        cells += r->u.tup.len;
    }
    if (!tkp_charge(cx, cells))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (size_t i = 0; i < g->u.tup.len; i++) {
        Value *r = g->u.tup.items[i];
        for (size_t j = 0; j < r->u.tup.len; j++) {
            Value *t = v_triple_steal(v_int((int64_t)i), v_int((int64_t)j),
                                      v_incref(r->u.tup.items[j]));
            pyset_add(&s, t);
            v_decref(t);
        }
    }
    return pyset_take(&s);
}

/* 0 <= v < n: 1/0, -1 raised */
static int in_range(Ctx *cx, Value *v, size_t n)
{
    if (v_is_int(v))
        return v->u.i >= 0 && (uint64_t)v->u.i < n;
    Value *z = v_int(0), *nv = v_int((int64_t)n);
    int r = v_richcmp(cx, z, v, CMP_LE);
    if (r > 0)
        r = v_richcmp(cx, v, nv, CMP_LT);
    v_decref(z);
    v_decref(nv);
    return r;
}

/* frozenset((i, j, grid[i][j]) for i, j in toindices(patch) if in bounds) */
Value *tk_toobject(Ctx *cx, Value *const *a)
{
    Value *g = a[1], *r0;
    size_t h, w;
    if (!tkp_len(cx, g, &h) || !(r0 = tkp_sub(cx, g, 0)) || !tkp_len(cx, r0, &w))
        return NULL;
    Value *ti = tkp_toindices(cx, a[0], TI_AUTO);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti);
    PySet s;
    pyset_init(&s);
    if (!tkp_charge(cx, n))
        goto fail;
    for (size_t x = 0; x < n; x++) {
        Value **ij = tkp_unpack(cx, it[x], 2), *row, *c;
        int ok;
        if (!ij || (ok = in_range(cx, ij[0], h)) < 0 || (ok && (ok = in_range(cx, ij[1], w)) < 0))
            goto fail;
        if (!ok)
            continue;
        if (!v_is_int(ij[0]) || !v_is_int(ij[1])) {
            cx_raise(cx, "TypeError", "tuple indices must be integers or slices");
            goto fail;
        }
        if (!(row = tkp_sub(cx, g, (size_t)ij[0]->u.i)) ||
            !(c = tkp_sub(cx, row, (size_t)ij[1]->u.i)))
            goto fail;
        Value *t = v_triple_steal(v_incref(ij[0]), v_incref(ij[1]), v_incref(c));
        pyset_add(&s, t);
        v_decref(t);
    }
    v_decref(ti);
    return pyset_take(&s);
fail:
    v_decref(ti);
    pyset_clear(&s);
    return NULL;
}

/* frozenset((i, j, color) for i, j in toindices*(p)) */
static Value *recolor(Ctx *cx, Value *color, Value *p, int mode)
{
    Value *ti = tkp_toindices(cx, p, mode);
    if (!ti)
        return NULL;
    size_t n = v_len(ti);
    Value **it = v_items(ti);
    PySet s;
    pyset_init(&s);
    if (!tkp_charge(cx, n))
        goto fail;
    for (size_t x = 0; x < n; x++) {
        Value **ij = tkp_unpack(cx, it[x], 2);
        if (!ij)
            goto fail;
        Value *t = v_triple_steal(v_incref(ij[0]), v_incref(ij[1]), v_incref(color));
        pyset_add(&s, t);
        v_decref(t);
    }
    v_decref(ti);
    return pyset_take(&s);
fail:
    v_decref(ti);
    pyset_clear(&s);
    return NULL;
}

Value *tk_recolor_i(Ctx *cx, Value *const *a) { return recolor(cx, a[0], a[1], TI_IDX); }
Value *tk_recolor_o(Ctx *cx, Value *const *a) { return recolor(cx, a[0], a[1], TI_OBJ); }

/* next(iter(obj), (0, 0, -inf)), then [2] if a tuple, else -inf */
Value *tk_color(Ctx *cx, Value *const *a)
{
    if (!tkp_iterable(cx, a[0]))
        return NULL;
    if (v_len(a[0]) == 0)
        return v_float(-INFINITY);
    Value *f = v_items(a[0])[0];
    if (f->type != V_TUPLE)
        return v_float(-INFINITY);
    Value *c = tkp_sub(cx, f, 2);
    return c ? v_incref(c) : NULL;
}

/* frozenset(obj for obj in objs if next(iter(obj))[2] == color) */
Value *tk_colorfilter(Ctx *cx, Value *const *a)
{
    Value *objs = a[0];
    if (!tkp_iterable(cx, objs))
        return NULL;
    size_t n = v_len(objs), k = 0;
    Value **it = v_items(objs), **keep = malloc((n + 1) * sizeof *keep);
    for (size_t x = 0; x < n; x++) {
        Value *o = it[x], *c;
        if (!tkp_iterable(cx, o))
            goto fail;
        if (v_len(o) == 0) {
            cx_raise(cx, "RuntimeError", "generator raised StopIteration");
            goto fail;
        }
        if (!(c = tkp_sub(cx, v_items(o)[0], 2)))
            goto fail;
        if (v_eq(c, a[1]))
            keep[k++] = o;
    }
    Value *r = fs_from_items(keep, k);
    free(keep);
    return r;
fail:
    free(keep);
    return NULL;
}

/* tuple(obj for obj in objs if obj[0][2] == color) */
Value *tk_colorfilter_t(Ctx *cx, Value *const *a)
{
    Value *objs = a[0];
    if (!tkp_iterable(cx, objs))
        return NULL;
    size_t n = v_len(objs), k = 0;
    Value **it = v_items(objs), **keep = malloc((n + 1) * sizeof *keep);
    for (size_t x = 0; x < n; x++) {
        Value *f = tkp_sub(cx, it[x], 0), *c = f ? tkp_sub(cx, f, 2) : NULL;
        if (!c) {
            free(keep);
            return NULL;
        }
        if (v_eq(c, a[1]))
            keep[k++] = it[x];
    }
    Value *r = v_tuple_from(keep, k);
    free(keep);
    return r;
}

/* ---- shift and normalize ------------------------------------------------- */

static Value *shift(Ctx *cx, Value *p, Value *d)
{
    if (!v_truthy(p))
        return v_incref(TKP_FSET0);
    if (d->type == V_TUPLE && d->u.tup.len == 0)
        return v_incref(p);
    Value **dd = tkp_unpack(cx, d, 2);
    if (!dd || !tkp_iterable(cx, p))
        return NULL;
    Value **it = v_items(p);
    size_t n = v_len(p);
    if (!v_is_container(it[0]))
        return cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(it[0]));
    size_t w = v_len(it[0]) == 3 ? 3 : 2;
    bool fast = v_is_int(dd[0]) && v_is_int(dd[1]);
    int64_t di = fast ? dd[0]->u.i : 0, dj = fast ? dd[1]->u.i : 0;
    if (!tkp_charge(cx, n))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < n; x++) {
        Value *e = it[x], **c, *ni, *nj, *t;
        int64_t i = 0, j = 0;
        int at = fast ? v_interned_at(e, &i, &j) : -1;
        if (w == 3 ? at >= 11 : at == 0) {
            Value *nv = v_interned_of(at, i + di, j + dj);
            if (nv) {
                pyset_add(&s, nv);
                continue;
            }
        }
        if (e->type == V_TUPLE && e->u.tup.len == w)
            c = e->u.tup.items;
        else if (!(c = tkp_unpack(cx, e, w)))
            goto fail;
        if (fast && v_is_int(c[0]) && v_is_int(c[1])) {
            ni = v_int(c[0]->u.i + di);
            nj = v_int(c[1]->u.i + dj);
        } else {
            ni = tkp_arith(cx, c[0], dd[0], '+');
            nj = ni ? tkp_arith(cx, c[1], dd[1], '+') : NULL;
            if (!nj) {
                v_decref(ni);
                goto fail;
            }
        }
        t = w == 3 ? v_triple_steal(ni, nj, v_incref(c[2])) : v_pair_steal(ni, nj);
        pyset_add(&s, t);
        v_decref(t);
    }
    return pyset_take(&s);
fail:
    pyset_clear(&s);
    return NULL;
}

Value *tk_shift(Ctx *cx, Value *const *a) { return shift(cx, a[0], a[1]); }

/* shift(p, (-uppermost*(p), -leftmost*(p))); an empty p comes back as is */
static Value *normalize(Ctx *cx, Value *p, int mode)
{
    size_t n;
    if (!tkp_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    Value *u = w_extreme(cx, p, mode, 0, CMP_LT), *l = NULL, *d = NULL, *r = NULL;
    if (!u || !(l = w_extreme(cx, p, mode, 1, CMP_LT)))
        goto out;
    Value *nu = tkp_neg(cx, u), *nl = nu ? tkp_neg(cx, l) : NULL;
    if (!nl) {
        v_decref(nu);
        goto out;
    }
    d = v_pair_steal(nu, nl);
    r = tkp_wrap(cx, shift(cx, p, d), TKP_FSET0);
out:
    v_decref(u);
    v_decref(l);
    v_decref(d);
    return r;
}

Value *tk_normalize(Ctx *cx, Value *const *a) { return normalize(cx, a[0], TI_AUTO); }
Value *tk_normalize_i(Ctx *cx, Value *const *a) { return normalize(cx, a[0], TI_IDX); }
Value *tk_normalize_o(Ctx *cx, Value *const *a) { return normalize(cx, a[0], TI_OBJ); }
Value *tk_normalize_t(Ctx *cx, Value *const *a) { return v_incref(a[0]); }

/* ---- boxes ---------------------------------------------------------------- */

static bool is_empty_patch(const Value *p)   /* p in [frozenset(), ()] */
{
    return v_is_container(p) && v_len(p) == 0;
}

/* frozenset((i, j) for i in range(si, ei + 1) for j in range(sj, ej + 1)) */
Value *tk_backdrop(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    if (!v_is_container(p) || v_len(p) == 0)
        return v_incref(TKP_FSET0);
    Value *ul = w_corner(cx, p, C_UL), *lr = ul ? w_corner(cx, p, C_LR) : NULL, *r = NULL;
    Value **s, **e;
    int64_t si, sj, ei, ej;
    if (!lr || !(s = tkp_unpack(cx, ul, 2)) || !(e = tkp_unpack(cx, lr, 2)) ||
        !tkp_int(cx, s[0], &si) || !tkp_int(cx, e[0], &ei) ||
        !tkp_int(cx, s[1], &sj) || !tkp_int(cx, e[1], &ej))
        goto out;
    uint64_t h = ei >= si ? (uint64_t)(ei - si + 1) : 0, w = ej >= sj ? (uint64_t)(ej - sj + 1) : 0;
    if ((h && w > TKP_MAX_ITEMS / h) || !tkp_charge(cx, h * w))
        goto out;
    PySet set;
    pyset_init(&set);
    for (int64_t i = si; i <= ei; i++)
        for (int64_t j = sj; j <= ej; j++) {
            Value *t = v_pair_int(i, j);
            pyset_add(&set, t);
            v_decref(t);
        }
    r = pyset_take(&set);
out:
    v_decref(ul);
    v_decref(lr);
    return r;
}

/* backdrop(p) - toindices(p) */
Value *tk_delta(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    if (!v_is_container(p) || v_len(p) == 0)
        return v_incref(TKP_FSET0);
    Value *bd = tkp_wrap(cx, tk_backdrop(cx, a), TKP_FSET0);
    Value *ti = bd ? tkp_toindices(cx, p, TI_AUTO) : NULL, *r = NULL;
    if (!ti)
        goto out;
    if (ti->type != V_FSET)
        cx_raise(cx, "TypeError", "unsupported operand type(s) for -: 'frozenset' and '%s'",
                 v_typename(ti));
    else
        r = fs_sub(bd, ti);
out:
    v_decref(bd);
    v_decref(ti);
    return r;
}

/* {(i, fixed) for i in range(lo, hi + 1)}, or (fixed, i) when col */
static void add_line(PySet *s, int64_t lo, int64_t hi, Value *fixed, bool col)
{
    for (int64_t i = lo; i <= hi; i++) {
        Value *v = v_int(i);
        Value *t = col ? v_pair_steal(v_incref(fixed), v) : v_pair_steal(v, v_incref(fixed));
        pyset_add(s, t);
        v_decref(t);
    }
}

/* a | b of two set comprehensions, into r */
static void set_or(PySet *r, const PySet *a, const PySet *b)
{
    pyset_copy_from_set(r, a);
    pyset_merge_set(r, b);
}

/* A ring's layout follows from its corners alone, and runs ask for the
 * same rings again and again (78% of test_batt's box calls).  The first
 * made for some corners (ints in the interned span: its items are then
 * arena places) is kept, immortal, and copied for the next. */
#define RING_MEMO 1024
typedef struct {
    int64_t i0, i1, j0, j1;
    Value *fs;
} RingMemo;
static _Atomic(RingMemo *) ring_memo[RING_MEMO];

static size_t ring_slot(int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    uint64_t h = (((uint64_t)i0 * 1000003u ^ (uint64_t)i1) * 1000003u ^ (uint64_t)j0) * 1000003u ^
                 (uint64_t)j1;
    return (size_t)(h * 0x9E3779B97F4A7C15u >> 54) & (RING_MEMO - 1);
}

static bool ring_memoable(Value *const *v)
{
    for (int k = 0; k < 4; k++)
        if (v[k]->type != V_INT || v[k]->u.i < V_INTERN_MIN ||
            v[k]->u.i >= V_INTERN_MIN + V_INTERN_SPAN)
            return false;
    return true;
}

static void ring_keep(int64_t i0, int64_t i1, int64_t j0, int64_t j1, const Value *r)
{
    if (!(r->flags & V_FLAG_FLAT) || r->type != V_FSET || r->u.set.len == 0)
        return;
    RingMemo *m = xmalloc_(sizeof *m), *none = NULL;
    *m = (RingMemo){.i0 = i0, .i1 = i1, .j0 = j0, .j1 = j1, .fs = fs_clone_flat(r)};
    m->fs->refs = -1;   /* immortal: only the memo holds it */
    if (!atomic_compare_exchange_strong_explicit(&ring_memo[ring_slot(i0, i1, j0, j1)], &none, m,
                                                 memory_order_release, memory_order_relaxed)) {
        v_free_pinned(m->fs);
        free(m);
    }
}

/* The four set comprehensions of box/inbox/outbox, from the unordered
 * corners (a_i, a_j), (b_i, b_j): frozenset(vlines | hlines). */
static Value *ring(Ctx *cx, Value *ai, Value *aj, Value *bi, Value *bj)
{
    Value *si = tkp_min2(cx, ai, bi, CMP_LT), *sj = si ? tkp_min2(cx, aj, bj, CMP_LT) : NULL;
    Value *ei = sj ? tkp_min2(cx, ai, bi, CMP_GT) : NULL;
    Value *ej = ei ? tkp_min2(cx, aj, bj, CMP_GT) : NULL;
    int64_t i0, i1, j0, j1;
    if (!ej || !tkp_int(cx, si, &i0) || !tkp_int(cx, ei, &i1) ||
        !tkp_int(cx, sj, &j0) || !tkp_int(cx, ej, &j1))
        return NULL;
    uint64_t h = i1 >= i0 ? (uint64_t)(i1 - i0 + 1) : 0, w = j1 >= j0 ? (uint64_t)(j1 - j0 + 1) : 0;
    if (h > TKP_MAX_ITEMS || w > TKP_MAX_ITEMS || !tkp_charge(cx, 4 * (h + w)))
        return NULL;
    Value *corners[4] = {si, sj, ei, ej};
    bool memo = ring_memoable(corners);
    if (memo) {
        RingMemo *m = atomic_load_explicit(&ring_memo[ring_slot(i0, i1, j0, j1)],
                                           memory_order_acquire);
        if (m && m->i0 == i0 && m->i1 == i1 && m->j0 == j0 && m->j1 == j1)
            return fs_clone_flat(m->fs);
    }
    PySet l1, l2, v, h1, h2, hz, all;
    pyset_init(&l1);
    pyset_init(&l2);
    pyset_init(&v);
    pyset_init(&h1);
    pyset_init(&h2);
    pyset_init(&hz);
    pyset_init(&all);
    add_line(&l1, i0, i1, sj, false);
    add_line(&l2, i0, i1, ej, false);
    set_or(&v, &l1, &l2);
    add_line(&h1, j0, j1, si, true);
    add_line(&h2, j0, j1, ei, true);
    set_or(&hz, &h1, &h2);
    set_or(&all, &v, &hz);
    Value *r = pyset_to_frozenset(&all);
    if (memo)
        ring_keep(i0, i1, j0, j1, r);
    pyset_clear(&l1);
    pyset_clear(&l2);
    pyset_clear(&v);
    pyset_clear(&h1);
    pyset_clear(&h2);
    pyset_clear(&hz);
    pyset_clear(&all);
    return r;
}

Value *tk_box(Ctx *cx, Value *const *a)
{
    Value *p = a[0];
    if (is_empty_patch(p))
        return v_incref(TKP_FSET0);
    Value *ul = w_corner(cx, p, C_UL), *lr = ul ? w_corner(cx, p, C_LR) : NULL, *r = NULL;
    Value **s, **e;
    if (lr && (s = tkp_unpack(cx, ul, 2)) && (e = tkp_unpack(cx, lr, 2)))
        r = ring(cx, s[0], s[1], e[0], e[1]);
    v_decref(ul);
    v_decref(lr);
    return r;
}

/* the ring one cell inside (d = 1) or outside (d = -1) the extremes */
static Value *in_out_box(Ctx *cx, Value *p, int64_t d)
{
    if (is_empty_patch(p))
        return v_incref(TKP_FSET0);
    static const int kop[4][2] = {
        { 0, CMP_LT }, { 1, CMP_LT }, { 0, CMP_GT }, { 1, CMP_GT } };
    Value *c[4] = { NULL, NULL, NULL, NULL }, *r = NULL;
    for (int k = 0; k < 4; k++) {
        Value *x = w_extreme(cx, p, TI_AUTO, kop[k][0], kop[k][1]);
        if (!x)
            goto out;
        c[k] = tkp_arith_i(cx, x, k < 2 ? d : -d, '+');
        v_decref(x);
        if (!c[k])
            goto out;
    }
    r = ring(cx, c[0], c[1], c[2], c[3]);
out:
    for (int k = 0; k < 4; k++)
        v_decref(c[k]);
    return r;
}

Value *tk_inbox(Ctx *cx, Value *const *a) { return in_out_box(cx, a[0], 1); }
Value *tk_outbox(Ctx *cx, Value *const *a) { return in_out_box(cx, a[0], -1); }

/* ---- lines ---------------------------------------------------------------- */

static bool is_empty_tuple(const Value *v) { return v->type == V_TUPLE && v->u.tup.len == 0; }

/* frozenset of the pairs (fi or i, fj or j) for i, j in zip(range(i0, i1, si),
 * range(j0, j1, sj)); a NULL fixed value takes the range's number */
static Value *zip_line(Ctx *cx, Value *fi, int64_t i0, int64_t i1, int64_t si,
                       Value *fj, int64_t j0, int64_t j1, int64_t sj)
{
    int64_t ni = fi ? INT64_MAX : (si > 0 ? i1 - i0 : i0 - i1);
    int64_t nj = fj ? INT64_MAX : (sj > 0 ? j1 - j0 : j0 - j1);
    int64_t n = ni < nj ? ni : nj;
    if (n < 0)
        n = 0;
    if (!tkp_charge(cx, (uint64_t)n))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (int64_t x = 0; x < n; x++) {
        Value *t = v_pair_steal(fi ? v_incref(fi) : v_int(i0 + x * si),
                                fj ? v_incref(fj) : v_int(j0 + x * sj));
        pyset_add(&s, t);
        v_decref(t);
    }
    return pyset_take(&s);
}

static Value *connect(Ctx *cx, Value *a, Value *b)
{
    if (is_empty_tuple(a) || is_empty_tuple(b))
        return v_incref(TKP_FSET0);
    Value **pa = tkp_unpack(cx, a, 2), **pb = pa ? tkp_unpack(cx, b, 2) : NULL;
    if (!pb)
        return NULL;
    Value *ai = pa[0], *aj = pa[1], *bi = pb[0], *bj = pb[1];
    Value *si = tkp_min2(cx, ai, bi, CMP_LT), *mi = si ? tkp_min2(cx, ai, bi, CMP_GT) : NULL;
    Value *sj = mi ? tkp_min2(cx, aj, bj, CMP_LT) : NULL, *mj = sj ? tkp_min2(cx, aj, bj, CMP_GT) : NULL;
    Value *ei = mj ? tkp_arith_i(cx, mi, 1, '+') : NULL, *ej = ei ? tkp_arith_i(cx, mj, 1, '+') : NULL;
    Value *r = NULL, *d1 = NULL, *d2 = NULL, *d3 = NULL;
    int64_t i0, i1, j0, j1;
    if (!ej)
        goto out;
    if (v_eq(ai, bi)) {
        if (tkp_int(cx, sj, &j0) && tkp_int(cx, ej, &j1))
            r = zip_line(cx, ai, 0, 0, 0, NULL, j0, j1, 1);
        goto out;
    }
    if (v_eq(aj, bj)) {
        if (tkp_int(cx, si, &i0) && tkp_int(cx, ei, &i1))
            r = zip_line(cx, NULL, i0, i1, 1, aj, 0, 0, 0);
        goto out;
    }
    if (!(d1 = tkp_arith(cx, bi, ai, '-')) || !(d2 = tkp_arith(cx, bj, aj, '-')))
        goto out;
    if (v_eq(d1, d2)) {
        if (tkp_int(cx, si, &i0) && tkp_int(cx, ei, &i1) &&
            tkp_int(cx, sj, &j0) && tkp_int(cx, ej, &j1))
            r = zip_line(cx, NULL, i0, i1, 1, NULL, j0, j1, 1);
        goto out;
    }
    if (!(d3 = tkp_arith(cx, aj, bj, '-')))
        goto out;
    if (v_eq(d1, d3)) {
        if (tkp_int(cx, si, &i0) && tkp_int(cx, ei, &i1) &&
            tkp_int(cx, ej, &j0) && tkp_int(cx, sj, &j1))
            r = zip_line(cx, NULL, i0, i1, 1, NULL, j0 - 1, j1 - 1, -1);
        goto out;
    }
    r = v_incref(TKP_FSET0);
out:
    v_decref(ei);
    v_decref(ej);
    v_decref(d1);
    v_decref(d2);
    v_decref(d3);
    return r;
}

Value *tk_connect(Ctx *cx, Value *const *a) { return connect(cx, a[0], a[1]); }

/* connect(start, (start[0] + 42 * direction[0], start[1] + 42 * direction[1])) */
Value *tk_shoot(Ctx *cx, Value *const *a)
{
    Value *st = a[0], *dir = a[1];
    if (is_empty_patch(st) || is_empty_patch(dir))
        return v_incref(TKP_FSET0);
    Value *end[2] = { NULL, NULL }, *r = NULL;
    for (int k = 0; k < 2; k++) {
        Value *s = tkp_sub(cx, st, (size_t)k), *d = s ? tkp_sub(cx, dir, (size_t)k) : NULL;
        Value *m = d ? tkp_arith_i(cx, d, 42, '*') : NULL;
        end[k] = m ? tkp_arith(cx, s, m, '+') : NULL;
        v_decref(m);
        if (!end[k])
            goto out;
    }
    Value *b = v_pair_steal(end[0], end[1]);
    end[0] = end[1] = NULL;
    r = tkp_wrap(cx, connect(cx, st, b), TKP_FSET0);
    v_decref(b);
out:
    v_decref(end[0]);
    v_decref(end[1]);
    return r;
}

/* frozenset((location[0], j) for j in range(30)) */
Value *tk_hfrontier(Ctx *cx, Value *const *a)
{
    if (is_empty_tuple(a[0]))
        return v_incref(TKP_FSET0);
    Value *i = tkp_sub(cx, a[0], 0);
    return i ? zip_line(cx, i, 0, 0, 0, NULL, 0, 30, 1) : NULL;
}

/* frozenset({four offsets of loc}): a set display, then a COPY */
static Value *nbrs4(Ctx *cx, Value *loc, const int off[4][2])
{
    if (loc->type != V_TUPLE || loc->u.tup.len == 0)
        return v_incref(TKP_FSET0);
    Value *li = tkp_sub(cx, loc, 0), *lj = li ? tkp_sub(cx, loc, 1) : NULL;
    if (!lj)
        return NULL;
    Value *c[4][2] = { { NULL } };
    Value *r = NULL;
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++) {
            Value *base = x ? lj : li;
            c[k][x] = off[k][x] ? tkp_arith_i(cx, base, off[k][x], '+') : v_incref(base);
            if (!c[k][x])
                goto out;
        }
    PySet s;
    pyset_init(&s);
    for (int k = 0; k < 4; k++) {
        Value *t = v_pair_steal(v_incref(c[k][0]), v_incref(c[k][1]));
        pyset_add(&s, t);
        v_decref(t);
    }
    r = pyset_to_frozenset(&s);
    pyset_clear(&s);
out:
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++)
            v_decref(c[k][x]);
    return r;
}

static const int d_off[4][2] = { { -1, 0 }, { 1, 0 }, { 0, -1 }, { 0, 1 } };
static const int i_off[4][2] = { { -1, -1 }, { -1, 1 }, { 1, -1 }, { 1, 1 } };

Value *tk_dneighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], d_off); }
Value *tk_ineighbors(Ctx *cx, Value *const *a) { return nbrs4(cx, a[0], i_off); }

/* ---- relations between patches ------------------------------------------ */

/* min(abs(ai - bi) + abs(aj - bj) ...) over toindices(a) x toindices(b);
 * oa, ob offset a's locations (gravitate's shifted copies). */
static Value *manhattan_view(Ctx *cx, const TkView *va, const TkView *vb)
{
    if (va->n == 0 || vb->n == 0)
        return cx_raise(cx, "ValueError", "min() arg is an empty sequence");
    int64_t *la, *lb = NULL;
    if (tkp_locs_int(va, &la) == 0 && tkp_locs_int(vb, &lb) == 0) {
        int64_t best = INT64_MAX;
        for (size_t x = 0; x < va->n && best; x++)
            for (size_t y = 0; y < vb->n; y++) {
                int64_t di = la[2 * x] - lb[2 * y], dj = la[2 * x + 1] - lb[2 * y + 1];
                int64_t d = (di < 0 ? -di : di) + (dj < 0 ? -dj : dj);
                if (d < best)
                    best = d;
            }
        free(la);
        free(lb);
        return v_int(best);
    }
    free(la);
    /* slow path: any unpacking error or non-int coordinate, as Python does */
    Value *best = NULL;
    for (size_t x = 0; x < va->n; x++) {
        Value **pa = tkp_loc(cx, va, x);
        if (!pa)
            goto fail;
        for (size_t y = 0; y < vb->n; y++) {
            Value **pb = tkp_loc(cx, vb, y);
            if (!pb)
                goto fail;
            Value *t1 = tkp_arith(cx, pa[0], pb[0], '-'), *a1 = t1 ? tkp_abs(cx, t1) : NULL;
            Value *t2 = a1 ? tkp_arith(cx, pa[1], pb[1], '-') : NULL;
            Value *a2 = t2 ? tkp_abs(cx, t2) : NULL, *d = a2 ? tkp_arith(cx, a1, a2, '+') : NULL;
            v_decref(t1);
            v_decref(a1);
            v_decref(t2);
            v_decref(a2);
            if (!d)
                goto fail;
            int r = best ? tkp_beats(cx, d, best, CMP_LT) : 1;
            if (r < 0) {
                v_decref(d);
                goto fail;
            }
            if (r) {
                v_decref(best);
                best = d;
            } else {
                v_decref(d);
            }
        }
    }
    return best;
fail:
    v_decref(best);
    return NULL;
}

static Value *manhattan(Ctx *cx, Value *a, Value *b)
{
    if (!v_is_container(a) || !v_is_container(b) || v_len(a) == 0 || v_len(b) == 0)
        return v_float(INFINITY);
    TkView va, vb;
    tkp_view(cx, a, TI_AUTO, &va);
    tkp_view(cx, b, TI_AUTO, &vb);
    Value *r = manhattan_view(cx, &va, &vb);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return r;
}

Value *tk_manhattan(Ctx *cx, Value *const *a) { return manhattan(cx, a[0], a[1]); }

/* manhattan(a, b) == 1, manhattan wrapped (0 on error); -1: budget */
static int adjacent(Ctx *cx, Value *a, Value *b)
{
    Value *m = tkp_wrap(cx, manhattan(cx, a, b), v_int(0));
    if (!m)
        return -1;
    bool r = tkp_eq_int(m, 1);
    v_decref(m);
    return r;
}

Value *tk_adjacent(Ctx *cx, Value *const *a)
{
    int r = adjacent(cx, a[0], a[1]);
    return r < 0 ? NULL : v_bool(r);
}

/* {k-th coordinate of toindices(a)} & {... of toindices(b)} is non-empty */
static int matching(Ctx *cx, Value *a, Value *b, int k)
{
    TkView va, vb;
    tkp_view(cx, a, TI_AUTO, &va);
    tkp_view(cx, b, TI_AUTO, &vb);
    uint64_t bits[16] = { 0 };              /* small ints -512..511 */
    bool small = true;
    PySet s;
    pyset_init(&s);
    int hit = 0;
    for (size_t x = 0; x < va.n; x++) {
        Value **l = tkp_loc(cx, &va, x);
        if (!l)
            goto fail;
        Value *c = l[k];
        if (small && v_is_int(c) && c->u.i >= -512 && c->u.i < 512) {
            uint64_t u = (uint64_t)(c->u.i + 512);
            bits[u >> 6] |= (uint64_t)1 << (u & 63);
        } else {
            small = false;
        }
        pyset_add(&s, c);
    }
    for (size_t y = 0; y < vb.n; y++) {   /* the whole comprehension runs */
        Value **l = tkp_loc(cx, &vb, y);
        if (!l)
            goto fail;
        Value *c = l[k];
        if (hit)
            continue;
        if (small && v_is_int(c)) {
            if (c->u.i >= -512 && c->u.i < 512) {
                uint64_t u = (uint64_t)(c->u.i + 512);
                hit = (bits[u >> 6] >> (u & 63)) & 1;
            }
        } else {
            hit = pyset_contains(&s, c);
        }
    }
    pyset_clear(&s);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return hit;
fail:
    pyset_clear(&s);
    tkp_view_done(&va);
    tkp_view_done(&vb);
    return -1;
}

Value *tk_hmatching(Ctx *cx, Value *const *a)
{
    int r = matching(cx, a[0], a[1], 0);
    return r < 0 ? NULL : v_bool(r);
}

Value *tk_vmatching(Ctx *cx, Value *const *a)
{
    int r = matching(cx, a[0], a[1], 1);
    return r < 0 ? NULL : v_bool(r);
}

/* (uppermost + height_f // 2, leftmost + width_f // 2); () for math.nan */
static Value *center(Ctx *cx, Value *p)
{
    Value *u = w_extreme(cx, p, TI_AUTO, 0, CMP_LT);
    if (!u)
        return NULL;
    if (u == TK_NAN)
        return v_incref(TKP_TUP0);
    Value *l = w_extreme(cx, p, TI_AUTO, 1, CMP_LT);
    if (!l || l == TK_NAN) {
        v_decref(u);
        return l ? v_incref(TKP_TUP0) : NULL;
    }
    Value *ext[2] = { w_extent(cx, p, TI_AUTO, 0), NULL }, *c[2] = { NULL, NULL }, *r = NULL;
    if (ext[0])
        ext[1] = w_extent(cx, p, TI_AUTO, 1);
    for (int k = 0; k < 2 && ext[1]; k++) {
        Value *h = tkp_arith_i(cx, ext[k], 2, '/');
        c[k] = h ? tkp_arith(cx, k ? l : u, h, '+') : NULL;
        v_decref(h);
        if (!c[k])
            goto out;
    }
    if (c[1]) {
        r = v_pair_steal(c[0], c[1]);
        c[0] = c[1] = NULL;
    }
out:
    v_decref(u);
    v_decref(l);
    v_decref(ext[0]);
    v_decref(ext[1]);
    v_decref(c[0]);
    v_decref(c[1]);
    return r;
}

Value *tk_center(Ctx *cx, Value *const *a) { return center(cx, a[0]); }

/* Fast gravitate loop: all locations (int, int) and each element shaped as
 * shift wants it, so a shifted copy has the same locations plus the offset.
 * Returns steps taken (0..42), -1 when the fast path does not apply. */
static int gravitate_fast(Ctx *cx, Value *src, Value *dst, int64_t i, int64_t j)
{
    TkView vs, vd;
    tkp_view(cx, src, TI_AUTO, &vs);
    tkp_view(cx, dst, TI_AUTO, &vd);
    int64_t *ls = NULL, *ld = NULL;
    bool ok = vs.n && vd.n && !vs.own && !vd.own &&
              !tkp_locs_int(&vs, &ls) && !tkp_locs_int(&vd, &ld);
    tkp_view_done(&vs);
    tkp_view_done(&vd);
    if (!ok) {
        free(ls);
        return -1;
    }
    int c = 0;
    for (;; c++) {
        int64_t oi = c * i, oj = c * j, best = INT64_MAX;
        for (size_t x = 0; x < vs.n && best; x++)
            for (size_t y = 0; y < vd.n; y++) {
                int64_t di = ls[2 * x] + oi - ld[2 * y], dj = ls[2 * x + 1] + oj - ld[2 * y + 1];
                int64_t d = (di < 0 ? -di : di) + (dj < 0 ? -dj : dj);
                if (d < best)
                    best = d;
            }
        if (best == 1 || c == 42)
            break;
    }
    free(ls);
    free(ld);
    return c;
}

Value *tk_gravitate(Ctx *cx, Value *const *a)
{
    Value *src = a[0], *dst = a[1];
    if (!v_truthy(dst))
        return v_incref(src);
    Value *cs = center(cx, src), *cd = NULL, *r = NULL;
    cs = tkp_wrap(cx, cs, TKP_TUP0);
    if (cs)
        cd = tkp_wrap(cx, center(cx, dst), TKP_TUP0);
    Value **ps, **pd;
    if (!cd || !(ps = tkp_unpack(cx, cs, 2)) || !(pd = tkp_unpack(cx, cd, 2)))
        goto out;
    int64_t i = 0, j = 0;
    int vm = matching(cx, src, dst, 1);
    if (vm < 0) {
        if (cx->over_budget)
            goto out;
        cx_clear(cx);
        vm = 0;
    }
    int lt = v_richcmp(cx, vm ? ps[0] : ps[1], vm ? pd[0] : pd[1], CMP_LT);
    if (lt < 0)
        goto out;
    if (vm)
        i = lt ? 1 : -1;
    else
        j = lt ? 1 : -1;
    int steps = gravitate_fast(cx, src, dst, i, j);
    if (steps < 0) {                          /* the reference's loop, literally */
        Value *cur = v_incref(src);
        steps = 0;
        for (;;) {
            int adj = adjacent(cx, cur, dst);
            if (adj < 0) {
                v_decref(cur);
                goto out;
            }
            if (adj || steps == 42)
                break;
            steps++;
            Value *d = v_pair_int(i, j);
            Value *nx = tkp_wrap(cx, shift(cx, cur, d), TKP_FSET0);
            v_decref(d);
            v_decref(cur);
            if (!(cur = nx))
                goto out;
        }
        v_decref(cur);
    }
    r = v_pair_int(steps * i, steps * j);
out:
    v_decref(cs);
    v_decref(cd);
    return r;
}

/* ---- arc-dsl bodies over tokpidjin's toindices ---------------------------
 * The bodies are arc-dsl's, but the functions they call differ here (an
 * (i, j, c) cell is no arc-dsl cell), so arc-dsl's C cannot stand in. */

/* uppermost == 0 or leftmost == 0 or lowermost == len(grid) - 1 or
 * rightmost == len(grid[0]) - 1, each extreme wrapped (0 on error) */
Value *tk_bordering(Ctx *cx, Value *const *a)
{
    Value *p = a[0], *g = a[1], *r0;
    static const int kop[4][2] = {
        { 0, CMP_LT }, { 1, CMP_LT }, { 0, CMP_GT }, { 1, CMP_GT } };
    for (int k = 0; k < 4; k++) {
        Value *x = w_extreme(cx, p, TI_AUTO, kop[k][0], kop[k][1]);
        if (!x)
            return NULL;
        size_t n = 1;
        if (k == 2 && !tkp_len(cx, g, &n))
            n = 0;
        if (k == 3 && (!(r0 = tkp_sub(cx, g, 0)) || !tkp_len(cx, r0, &n)))
            n = 0;
        if (n == 0 && cx->err) {
            v_decref(x);
            return NULL;
        }
        bool hit = tkp_eq_int(x, k < 2 ? 0 : (int64_t)n - 1);
        v_decref(x);
        if (hit)
            return v_bool(true);
    }
    return v_bool(false);
}

/* tuple(sum(column) // len(patch) for column in zip(*toindices(patch))) */
Value *tk_centerofmass(Ctx *cx, Value *const *a)
{
    Value *ti = tkp_toindices(cx, a[0], TI_AUTO), *t = NULL;
    if (!ti)
        return NULL;
    size_t n = v_len(ti), m = 0;
    Value **it = v_items(ti);
    for (size_t x = 0; x < n; x++) {
        if (!tkp_iterable(cx, it[x]))
            goto out;
        if (x == 0 || v_len(it[x]) < m)
            m = v_len(it[x]);
    }
    Value *len = v_int((int64_t)v_len(a[0]));   /* n > 0: a[0] has a len */
    t = v_tuple_new(m);
    for (size_t k = 0; k < m; k++)
        t->u.tup.items[k] = NULL;
    for (size_t k = 0; k < m; k++) {
        Value *sum = v_int(0);
        for (size_t x = 0; x < n && sum; x++) {
            Value *nx = tkp_arith(cx, sum, v_items(it[x])[k], '+');
            v_decref(sum);
            sum = nx;
        }
        Value *q = sum ? tkp_arith(cx, sum, len, '/') : NULL;
        v_decref(sum);
        if (!q) {
            for (size_t j = k; j < m; j++)
                t->u.tup.items[j] = v_incref(TKP_TUP0);
            v_decref(t);
            t = NULL;
            break;
        }
        t->u.tup.items[k] = q;
    }
    v_decref(len);
out:
    v_decref(ti);
    return t;
}

/* frozenset({ulcorner, urcorner, llcorner, lrcorner}), each wrapped */
Value *tk_corners(Ctx *cx, Value *const *a)
{
    return cm_corners(cx, a[0], w_corner);
}

/* dneighbors(loc) | ineighbors(loc) */
Value *tk_neighbors(Ctx *cx, Value *const *a)
{
    Value *d = tkp_wrap(cx, nbrs4(cx, a[0], d_off), TKP_FSET0);
    Value *i = d ? tkp_wrap(cx, nbrs4(cx, a[0], i_off), TKP_FSET0) : NULL;
    Value *r = i ? fs_or(d, i) : NULL;
    v_decref(d);
    v_decref(i);
    return r;
}

/* sign of b's centre relative to a's, from center(toindices(.)) */
Value *tk_position(Ctx *cx, Value *const *a)
{
    Value *c[2] = { NULL, NULL }, **pa, **pb, *r = NULL;
    for (int k = 0; k < 2; k++) {
        Value *ti = tkp_wrap(cx, tkp_toindices(cx, a[k], TI_AUTO), TKP_FSET0);
        c[k] = ti ? tkp_wrap(cx, center(cx, ti), TKP_TUP0) : NULL;
        v_decref(ti);
        if (!c[k])
            goto out;
    }
    if (!(pa = tkp_unpack(cx, c[0], 2)) || !(pb = tkp_unpack(cx, c[1], 2)))
        goto out;
    Value *ia = pa[0], *ja = pa[1], *ib = pb[0], *jb = pb[1];
    int lt;
    if (v_eq(ia, ib)) {
        if ((lt = v_richcmp(cx, ja, jb, CMP_LT)) >= 0)
            r = v_pair_int(0, lt ? 1 : -1);
    } else if (v_eq(ja, jb)) {
        if ((lt = v_richcmp(cx, ia, ib, CMP_LT)) >= 0)
            r = v_pair_int(lt ? 1 : -1, 0);
    } else {
        int sgn = 0, gt;
        if ((lt = v_richcmp(cx, ia, ib, CMP_LT)) < 0)
            goto out;
        if (lt)
            sgn = 1;
        else if ((gt = v_richcmp(cx, ia, ib, CMP_GT)) < 0)
            goto out;
        else if (gt)
            sgn = -1;
        if (!sgn) {
            r = v_none();                      /* falls off the end */
        } else if ((lt = v_richcmp(cx, ja, jb, CMP_LT)) >= 0) {
            r = v_pair_int(sgn, lt ? 1 : -1);
        }
    }
out:
    v_decref(c[0]);
    v_decref(c[1]);
    return r;
}

/* ---- the table ------------------------------------------------------------ */

