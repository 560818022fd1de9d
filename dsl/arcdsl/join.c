/* join.c -- arc-dsl grids joined and split: concatenation, splits, halves,
 * compress. */
#include "prim.h"
#include "common/core_util.h"
#include "arcdsl/grid_util.h"
#include "common/gridops.h"
#include "common/binop.h"

/* ---- joining and splitting ---------------------------------------------- */

/* x + y for the operands the concatenations meet: tuples, ints, floats. */
static Value *plus(Ctx *cx, Value *x, Value *y)
{
    if (x->type == V_TUPLE && y->type == V_TUPLE)
        return core_concat(cx, x, y, true, false);
    int64_t r;
    if (v_is_int(x) && v_is_int(y))
        return core_coord_add(cx, x->u.i, y->u.i, &r) ? v_int(r) : NULL;
    if (x->type == V_TUPLE)
        return cx_raise(cx, "TypeError", "can only concatenate tuple (not \"%s\") to tuple",
                        v_typename(y));
    return cm_binop_other(cx, CORE_ADD, x, y, false);     /* numbers: tokpidjin's nan */
}

/* hconcat/vconcat of two byte grids whose rows (or widths) line up: a
 * byte grid; NULL (nothing done) otherwise. */
static Value *concat_bytes(const Value *x, const Value *y, bool horiz)
{
    size_t h1, w1, h2, w2;
    const uint8_t *b1 = gu_bytes(x, &h1, &w1), *b2 = b1 ? gu_bytes(y, &h2, &w2) : NULL;
    if (!b2 || (horiz ? false : w1 != w2))
        return NULL;
    if (horiz) {
        size_t h = h1 < h2 ? h1 : h2;
        Value *out = vg_new(h, w1 + w2);
        uint8_t *o = vg_cells(out);
        for (size_t i = 0; i < h; i++) {
            memcpy(o + i * (w1 + w2), b1 + i * w1, w1);
            memcpy(o + i * (w1 + w2) + w1, b2 + i * w2, w2);
        }
        return out;
    }
    Value *out = vg_new(h1 + h2, w1);
    memcpy(vg_cells(out), b1, h1 * w1);
    memcpy(vg_cells(out) + h1 * w1, b2, h2 * w2);
    return out;
}

Value *ad_hconcat(Ctx *cx, Value *const *a)
{
    Value *b = concat_bytes(a[0], a[1], true);
    if (b) {
        if (!gu_work(cx, b->u.tup.len * vg_w(b))) {
            v_decref(b);
            return NULL;
        }
        return b;
    }
    if (!gu_iterable(cx, a[0]) || !gu_iterable(cx, a[1]))
        return NULL;
    size_t n = v_len(a[0]) < v_len(a[1]) ? v_len(a[0]) : v_len(a[1]);
    Value *out = v_tuple_new(n);
    size_t cells = 0;
    for (size_t i = 0; i < n; i++) {
        Value *r = plus(cx, v_items(a[0])[i], v_items(a[1])[i]);
        if (!r) {
            v_tuple_abandon(out, i);
            return NULL;
        }
        cells += r->type == V_TUPLE ? r->u.tup.len : 1;
        v_titems(out)[i] = r;
    }
    if (!gu_work(cx, cells)) {
        v_decref(out);
        return NULL;
    }
    return out;
}

Value *ad_vconcat(Ctx *cx, Value *const *a)
{
    Value *r = concat_bytes(a[0], a[1], false);
    if (!r)
        r = plus(cx, a[0], a[1]);
    if (r && r->type == V_TUPLE && !gu_work(cx, r->u.tup.len)) {
        v_decref(r);
        return NULL;
    }
    return r;
}

/* ulcorner(patch) as crop reads it: up to two leading coordinates. */
static bool ulcorner2(Ctx *cx, Value *patch, int64_t ul[2], size_t *len)
{
    size_t n;
    *len = 0;
    if (!gu_len(cx, patch, &n))
        return false;
    if (n == 0)
        return true;
    GBox kept;
    if (gu_kept_box(patch, &kept)) {
        ul[0] = kept.i0;
        ul[1] = kept.j0;
        *len = 2;
        return true;
    }
    int obj = gu_is_object(cx, patch);
    if (obj < 0)
        return false;
    Value **it = v_items(patch), **own = NULL, *c;
    bool pairs = obj;
    for (size_t k = 0; pairs && k < n; k++) {
        Value **cl = it[k]->type == V_TUPLE && it[k]->u.tup.len == 2 ? v_titems(it[k]) : NULL;
        pairs = cl && cl[1]->type == V_TUPLE && cl[1]->u.tup.len == 2;
    }
    if (pairs) {
        GLoc *l;
        if (!gu_locs(cx, patch, &l, &n))
            return false;
        GBox b = gu_box(l, n);
        free(l);
        ul[0] = b.i0;
        ul[1] = b.j0;
        *len = 2;
        return true;
    }
    if (obj) {                  /* toindices' `value, index`, then zip as below */
        if (!(own = gu_alloc(cx, n, sizeof *own)))
            return false;
        for (size_t k = 0; k < n; k++)
            if (!gu_unpack2(cx, it[k], &c, &own[k]))
                return free(own), false;
        it = own;
    }
    size_t m;                   /* zip(*patch)'s width */
    bool ok = gu_zip_width(cx, it, n, &m);
    *len = m < 2 ? m : 2;
    for (size_t c = 0; ok && c < *len; c++)
        for (size_t k = 0; ok && k < n; k++) {
            int64_t x;
            ok = gu_int(cx, v_items(it[k])[c], &x);
            if (ok && (k == 0 || x < ul[c]))
                ul[c] = x;
        }
    free(own);
    return ok;
}

/* crop(grid, ulcorner(patch), shape(patch)) on whatever the corner and
 * the shape are: for places that are not ints, CPython's errors */
static Value *subgrid_any(Ctx *cx, Value *const *a)
{
    Value *ul = ad_ulcorner(cx, a), *sh = ul ? ad_shape(cx, a) : NULL;
    Value *args[3] = {a[1], ul, sh}, *r = sh ? ad_crop(cx, args) : NULL;
    v_decref(ul);
    v_decref(sh);
    return r;
}

Value *ad_subgrid(Ctx *cx, Value *const *a)
{
    int64_t ul[2] = {0, 0}, h, w;
    size_t len;
    if (!ulcorner2(cx, a[0], ul, &len) || !gu_shape(cx, a[0], &h, &w)) {
        if (!cx_give_way(cx))
            return NULL;
        return subgrid_any(cx, a);
    }
    if (len == 0)
        return cx_raise(cx, "IndexError", "tuple index out of range");
    return crop4(cx, a[1], ul[0], h, len == 2, ul[1], w);
}

static Value *split(Ctx *cx, Value *g, Value *vn, bool horiz)
{
    size_t h, w0;
    int64_t n = 0;
    if (!gu_len(cx, g, &h))
        return NULL;
    if (!horiz) {          /* len(grid) // n comes before grid[0] */
        if (!core_int_operand(cx, "//", vn) || !gu_int(cx, vn, &n))
            return NULL;
        if (n == 0)
            return cx_raise(cx, "ZeroDivisionError", "integer division or modulo by zero");
    }
    if (!gu_width(cx, g, &w0))
        return NULL;
    if (horiz) {
        if (!core_int_operand(cx, "//", vn) || !gu_int(cx, vn, &n))
            return NULL;
        if (n == 0)
            return cx_raise(cx, "ZeroDivisionError", "integer division or modulo by zero");
    }
    if (n < 0)
        return v_incref(&v_empty_tuple_);
    size_t len = horiz ? w0 : h, part = len / (size_t)n;
    int64_t off = len % (size_t)n != 0;
    /* each piece charges its own cells: past the budget, stopped before
     * the tuple is allocated */
    if (!core_fits(cx, (uint64_t)n) || !gu_work_ahead(cx, (uint64_t)n))
        return NULL;
    Value *out = v_tuple_new((size_t)n);
    for (int64_t i = 0; i < n; i++) {
        int64_t s = (int64_t)part * i + i * off;
        Value *piece = horiz ? crop4(cx, g, 0, (int64_t)h, true, s, (int64_t)part)
                             : crop4(cx, g, s, (int64_t)part, true, 0, (int64_t)w0);
        if (!piece) {
            v_tuple_abandon(out, (size_t)i);
            return NULL;
        }
        v_titems(out)[i] = piece;
    }
    return out;
}

Value *ad_hsplit(Ctx *cx, Value *const *a) { return split(cx, a[0], a[1], true); }
Value *ad_vsplit(Ctx *cx, Value *const *a) { return split(cx, a[0], a[1], false); }

/* lefthalf/righthalf: rot270(top/bottomhalf(rot90(g))), which keeps the
 * first/last m//2 of the first m columns (m the shortest row), or is ()
 * when that is no column at all. */
static Value *half_cols(Ctx *cx, Value *g, bool right)
{
    if (vg_is(g)) {
        size_t h = g->u.tup.len, k = vg_w(g) / 2;
        if (k == 0)
            return v_incref(&v_empty_tuple_);
        if (!gu_work(cx, h * k))
            return NULL;
        return gu_bytes_window(g, 0, h, right ? vg_w(g) - k : 0, k);
    }
    GView v;
    if (!zip_view(cx, g, &v, true))        /* rot90's zip(*grid[::-1]) */
        return NULL;
    size_t m = v.w, k = m / 2, s = right ? m - k : 0, h = v.h;
    if (h == 0 || k == 0) {
        gu_view_free(&v);
        return v_incref(&v_empty_tuple_);
    }
    if (!gu_work(cx, h * k)) {
        gu_view_free(&v);
        return NULL;
    }
    Value *out = v_tuple_new(h);
    for (size_t i = 0; i < h; i++)
        v_titems(out)[i] = v_tuple_from(v.row[i] + s, k);
    gu_view_free(&v);
    return out;
}

Value *ad_lefthalf(Ctx *cx, Value *const *a) { return half_cols(cx, a[0], false); }
Value *ad_righthalf(Ctx *cx, Value *const *a) { return half_cols(cx, a[0], true); }

/* compress of a grid that is not a tuple (a frozenset): CPython enumerates
 * it for the rows and takes the columns from dmirror(grid), which mirrors
 * a frozenset as a patch */
static Value *compress_any(Ctx *cx, Value *grid)
{
    GView v;
    if (!gu_rows(cx, grid, &v))
        return NULL;
    Value *dm = ad_dmirror(cx, &grid), *out = NULL;
    size_t nc = dm ? v_len(dm) : 0, cells;
    bool *dropr = gu_alloc(cx, v.h, 1), *dropc = gu_alloc(cx, nc, 1);
    if (!dm || !dropr || !dropc)
        goto done;
    cm_compress_rows(&v, dropr);
    for (size_t j = 0; j < nc; j++) {
        Value *c = v_items(dm)[j];
        if (!gu_iterable(cx, c))
            goto done;
        dropc[j] = gu_one_value(v_items(c), v_len(c));
    }
    out = cm_compress_build(&v, dropr, dropc, nc, &cells);     /* cells: this path charges none */
done:
    v_decref(dm);
    free(dropr);
    free(dropc);
    gu_view_free(&v);
    return out;
}

Value *ad_compress(Ctx *cx, Value *const *a)
{
    GView v;
    size_t cells;
    if (a[0]->type != V_TUPLE)
        return compress_any(cx, a[0]);
    if (!zip_view(cx, a[0], &v, false))    /* set(r) for each row, in order */
        return NULL;
    Value *out = cm_compress(cx, &v, &cells);
    if (out && !gu_work(cx, cells)) {
        v_decref(out);
        out = NULL;
    }
    gu_view_free(&v);
    return out;
}
