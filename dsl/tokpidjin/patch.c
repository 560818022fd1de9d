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
#include "common/cells.h"

/* ---- extremes: min/max(i or j for i, j in toindices*(p)) ---------------- */

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
    return gu_len(cx, a[0], &n) ? v_int((int64_t)n) : NULL;
}

Value *tk_width_t(Ctx *cx, Value *const *a)
{
    size_t n;
    if (!v_truthy(a[0]))
        return v_int(0);
    Value *r = gu_getitem(cx, a[0], 0);
    return r && gu_len(cx, r, &n) ? v_int((int64_t)n) : NULL;
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
    return core_bool(r);
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
        !gu_len(cx, p, &n))
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
    if (!gu_len(cx, a[0], &h) || !(r = gu_getitem(cx, a[0], 0)) || !gu_len(cx, r, &w))
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
    if (!gu_len(cx, p, &n)) {
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
    if (vg_is(g))
        return tkp_charge(cx, g->u.tup.len * vg_w(g)) ? cm_asobject_bytes(cx, g, cell_tk) : NULL;
    size_t cells = 0;
    for (size_t i = 0; i < g->u.tup.len; i++) {
        Value *r = v_titems(g)[i];
        if (r->type != V_TUPLE)
            return v_incref(TKP_FSET0);
        for (size_t j = 0; j < r->u.tup.len; j++)
            if (!v_is_int(v_titems(r)[j]))
                return v_incref(TKP_FSET0);
        cells += r->u.tup.len;
    }
    if (!tkp_charge(cx, cells))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (size_t i = 0; i < g->u.tup.len; i++) {
        Value *r = v_titems(g)[i];
        for (size_t j = 0; j < r->u.tup.len; j++) {
            Value *t = v_triple_steal(v_int((int64_t)i), v_int((int64_t)j),
                                      v_incref(v_titems(r)[j]));
            core_set_put(&s, t);
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
    Value *g = a[1], *ti;
    size_t h, w;
    if (!gu_hw(cx, g, &h, &w) || !(ti = tkp_toindices(cx, a[0], TI_AUTO)))
        return NULL;
    if (!tkp_charge(cx, v_len(ti))) {
        v_decref(ti);
        return NULL;
    }
    Value **it = v_items(ti);
    PySet s;
    pyset_init(&s);
    for (size_t x = 0, n = v_len(ti); x < n; x++) {
        Value **ij = gu_unpack(cx, it[x], 2), *row, *c;
        int ok;
        if (!ij || (ok = in_range(cx, ij[0], h)) < 0 || (ok && (ok = in_range(cx, ij[1], w)) < 0))
            goto fail;
        if (!ok)
            continue;
        if (!v_is_int(ij[0]) || !v_is_int(ij[1])) {
            cx_raise(cx, "TypeError", "tuple indices must be integers or slices");
            goto fail;
        }
        if (!(row = gu_getitem(cx, g, (size_t)ij[0]->u.i)) ||
            !(c = gu_getitem(cx, row, (size_t)ij[1]->u.i)))
            goto fail;
        Value *t = v_triple_steal(v_incref(ij[0]), v_incref(ij[1]), v_incref(c));
        core_set_put(&s, t);
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
    if (!ti || !tkp_charge(cx, v_len(ti))) {
        v_decref(ti);
        return NULL;
    }
    Value **it = v_items(ti);
    PySet s;
    pyset_init(&s);
    for (size_t x = 0, n = v_len(ti); x < n; x++) {
        Value **ij = gu_unpack(cx, it[x], 2);
        if (!ij)
            goto fail;
        Value *t = v_triple_steal(v_incref(ij[0]), v_incref(ij[1]), v_incref(color));
        core_set_put(&s, t);
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
    if (!gu_iterable(cx, a[0]))
        return NULL;
    if (v_len(a[0]) == 0)
        return v_float(-INFINITY);
    if (vg_is(a[0]) && vg_w(a[0]) > 2)     /* a grid: its [0][2] */
        return v_small(vg_cells(a[0])[2]);
    Value *f = v_items(a[0])[0];
    if (f->type != V_TUPLE)
        return v_float(-INFINITY);
    Value *c = gu_getitem(cx, f, 2);
    return c ? v_incref(c) : NULL;
}

/* frozenset(obj for obj in objs if next(iter(obj))[2] == color), uncharged */
Value *tk_colorfilter(Ctx *cx, Value *const *a) { return cm_colorfilter(cx, a[0], a[1], 2, false); }

/* tuple(obj for obj in objs if obj[0][2] == color) */
Value *tk_colorfilter_t(Ctx *cx, Value *const *a)
{
    Value *objs = a[0];
    if (!gu_iterable(cx, objs))
        return NULL;
    size_t n = v_len(objs), k = 0;
    Value **it = v_items(objs), **keep = malloc((n + 1) * sizeof *keep);
    for (size_t x = 0; x < n; x++) {
        Value *f = gu_getitem(cx, it[x], 0), *c = f ? gu_getitem(cx, f, 2) : NULL;
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

Value *tk_shift(Ctx *cx, Value *const *a) { return shift(cx, a[0], a[1]); }

/* shift(p, (-uppermost*(p), -leftmost*(p))); an empty p comes back as is */
static Value *normalize(Ctx *cx, Value *p, int mode)
{
    size_t n;
    if (!gu_len(cx, p, &n))
        return NULL;
    if (n == 0)
        return v_incref(p);
    Value *u = w_extreme(cx, p, mode, 0, CMP_LT), *l = NULL, *d = NULL, *r = NULL;
    if (!u || !(l = w_extreme(cx, p, mode, 1, CMP_LT)))
        goto out;
    Value *nu = core_neg(cx, u), *nl = nu ? core_neg(cx, l) : NULL;
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

/* ---- the table ------------------------------------------------------------ */
