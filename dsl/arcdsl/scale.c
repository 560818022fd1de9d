/* scale.c -- arc-dsl upscale and downscale. */
#include "prim.h"
#include "common/core_util.h"
#include "arcdsl/grid_util.h"
#include "common/gridops.h"

/* ---- scaling ------------------------------------------------------------ */

/* hupscale/vupscale/upscale on tuples: cm_upscale (common/upscale.c) */
Value *ad_hupscale(Ctx *cx, Value *const *a) { return cm_upscale(cx, a[0], a[1], CM_UP_H | CM_UP_FLAT); }
Value *ad_vupscale(Ctx *cx, Value *const *a) { return cm_upscale(cx, a[0], a[1], CM_UP_V | CM_UP_FLAT); }

/* gu_locs refused obj: the error CPython's first lines raise,
 * `di_inv, dj_inv = ulcorner(element)` (ulcorner's own, or the
 * unpacking's), `di, dj = (-di_inv, -dj_inv)` and `shift(element, (di,
 * dj))`, else gu_locs' again.  Always NULL. */
static Value *corner_error(Ctx *cx, Value *obj)
{
    if (!cx_give_way(cx))
        return NULL;
    Value *uc = ad_ulcorner(cx, &obj);
    bool ok = uc && v_unpack_check(cx, uc, 2);
    Value *di = ok ? core_neg(cx, v_items(uc)[0]) : NULL, *dj = di ? core_neg(cx, v_items(uc)[1]) : NULL;
    v_decref(uc);
    Value *off = dj ? v_pair_steal(di, dj) : (v_decref(di), NULL), *args[2] = {obj, off};
    Value *moved = off ? ad_shift(cx, args) : NULL;
    v_decref(off);
    v_decref(moved);
    GLoc *l;
    size_t n;
    if (moved && gu_locs(cx, obj, &l, &n))
        abort();                /* it refused obj a moment ago */
    return NULL;
}

/* upscale of an object: normalise (a rebuilt frozenset), blow each cell up
 * into a set, copy it, shift it back (another rebuilt frozenset). */
static Value *upscale_obj(Ctx *cx, Value *obj, Value *factor)
{
    GLoc *l;
    size_t n;
    int64_t f;
    if (!gu_locs(cx, obj, &l, &n))
        return corner_error(cx, obj);
    if (n == 0)
        return v_incref(&v_empty_fset_);
    GBox b = gu_box(l, n);
    free(l);
    if (!gu_box_fits(cx, &b))
        return NULL;
    if (!gu_is_object(cx, obj))
        return cx_raise(cx, "TypeError", "cannot unpack non-iterable int object");
    GCell *c;
    if (!gu_cells(cx, obj, &c, &n))
        return NULL;
    Value **items = gu_alloc(cx, n, sizeof *items);
    if (!items) {
        free(c);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        items[k] = v_pair_steal(v_incref(c[k].c), v_pair_int(c[k].i - b.i0, c[k].j - b.j0));
    }
    free(c);
    Value *normed = fs_take_items(items, n, false);
    if (!gu_int(cx, factor, &f)) {
        v_decref(normed);
        return NULL;
    }
    size_t k = f > 0 ? (size_t)f : 0;
    uint64_t made = cx_mul(cx_mul(n, k), k);
    if (!core_fits(cx, made) || !gu_work(cx, cx_mul(2, made))) {
        v_decref(normed);
        return NULL;
    }
    PySet s;
    pyset_init(&s);
    gu_cells(cx, normed, &c, &n);
    for (size_t x = 0; x < n; x++)
        for (size_t io = 0; io < k; io++)
            for (size_t jo = 0; jo < k; jo++) {
                Value *cell = v_pair_steal(v_incref(c[x].c),
                                           v_pair_int(c[x].i * f + (int64_t)io,
                                                      c[x].j * f + (int64_t)jo));
                pyset_add(&s, cell);
                v_decref(cell);
            }
    free(c);
    v_decref(normed);
    Value *big = pyset_to_frozenset(&s);
    pyset_clear(&s);
    n = v_len(big);
    if (n == 0)
        return big;
    items = gu_alloc(cx, n, sizeof *items);
    if (!items || !gu_cells(cx, big, &c, &n)) {
        free(items);
        v_decref(big);
        return NULL;
    }
    for (size_t x = 0; x < n; x++) {
        items[x] = v_pair_steal(v_incref(c[x].c), v_pair_int(c[x].i + b.i0, c[x].j + b.j0));
    }
    free(c);
    v_decref(big);
    return fs_take_items(items, n, false);
}

Value *ad_upscale(Ctx *cx, Value *const *a)
{
    if (a[0]->type == V_TUPLE)
        return cm_upscale(cx, a[0], a[1], CM_UP_H | CM_UP_V | CM_UP_FLAT);
    return upscale_obj(cx, a[0], a[1]);
}

/* grid[i * k][j * k] */
static Value *downscale_at(Ctx *cx, Value *const *a, size_t i, size_t j, const void *arg)
{
    uint64_t k = *(const uint64_t *)arg;
    Value *e = gu_at(cx, a[0], i * k, j * k);
    return e ? v_incref(e) : NULL;
}

Value *ad_downscale(Ctx *cx, Value *const *a)
{
    GView g;
    int64_t f;
    size_t h0, w0;
    /* len(grid), len(grid[0]), then `0 % factor` before any row is read
     * (the second loop's, where the rows are empty) */
    if (!gu_hw(cx, a[0], &h0, &w0) || !core_int_operand(cx, "%", a[1]) || !gu_int(cx, a[1], &f))
        return NULL;
    if (f == 0)
        return cx_raise(cx, "ZeroDivisionError", "integer modulo by zero");
    uint64_t k = f < 0 ? (uint64_t)(-f) : (uint64_t)f;
    if (w0 == 0) {       /* no column: no row is read, each kept one is () */
        size_t n = (h0 + k - 1) / k;
        if (!gu_work(cx, h0))
            return NULL;
        Value *t = v_tuple_new(n);
        for (size_t i = 0; i < n; i++)
            v_titems(t)[i] = v_incref(&v_empty_tuple_);
        return t;
    }
    if (!gu_view_hw(cx, a[0], &g)) {
        /* a row that is no tuple: grid[i][j] raises where the loops,
         * which read every row's kept columns, first reach it */
        if (!cx_give_way(cx))
            return NULL;
        for (size_t i = 0; i < h0; i++)
            for (size_t j = 0; j < w0; j += k)
                if (!gu_at(cx, a[0], i, j))
                    return NULL;
        if (gu_view_hw(cx, a[0], &g))
            abort();            /* it refused the grid a moment ago */
        return NULL;
    }
    size_t h = g.h, w = g.w;
    bool rect = gu_view_full(a[0], &g);
    gu_view_free(&g);
    /* CPython reads the kept columns of every row, dropped rows included:
     * a short row raises even where the result would not show it */
    for (size_t i = 0; !rect && i < h; i++)
        for (size_t j = 0; j < w; j += k)
            if (!gu_at(cx, a[0], i, j))
                return NULL;
    return gu_build(cx, (h + k - 1) / k, (w + k - 1) / k, downscale_at, a, &k);
}
