/* objects.c -- tokpidjin primitives that cut a grid into objects:
 * partition, frontiers, occurrences, periods, objects (the shared pieces
 * are in dsl/common). */
#include "prim.h"
#include "common/core_util.h"
#include "tokpidjin/grid_util.h"
#include "common/cells.h"
#include "common/objwalk.h"

/* ---- partitions ---------------------------------------------------------- */

/* palette_t(grid) as an inner call: frozenset() on error */
static Value *palette_inner(Ctx *cx, Value *grid)
{
    Value *r = colors_set(cx, grid, true, false);
    if (!r && tk_catch(cx))
        r = v_incref(&v_empty_fset_);
    return r;
}

Value *tk_partition(Ctx *cx, Value *const *a)
{
    Value *pal = palette_inner(cx, a[0]);
    if (!pal)
        return NULL;
    Value *r = v_len(pal) ? cm_partition(cx, a[0], pal, true, cell_tk) : v_incref(&v_empty_fset_);
    v_decref(pal);
    return r;
}

/* palette_t(grid) - {mostcolor_t(grid)} */
Value *tk_fgpartition(Ctx *cx, Value *const *a)
{
    Value *pal = palette_inner(cx, a[0]);
    Value *colors = pal ? cm_fg_colors(pal, tk_mostcolor_inner(cx, a[0])) : NULL;
    if (!colors)
        return NULL;
    Value *r = v_len(colors) ? cm_partition(cx, a[0], colors, true, cell_tk) : v_incref(&v_empty_fset_);
    v_decref(colors);
    return r;
}

/* ---- frontiers ----------------------------------------------------------- */

Value *tk_frontiers(Ctx *cx, Value *const *a) { return cm_frontiers(cx, a[0], cell_tk); }

/* ---- int cells ----------------------------------------------------------- */


/* An element of an object as an int cell (it must unpack as 3). */
static bool cell3_of(Ctx *cx, Value *e, GCell *c)
{
    Value **f = tk_unpack(cx, e, 3);
    if (!f || !tk_coord(cx, f[0], &c->i) || !tk_coord(cx, f[1], &c->j))
        return false;
    c->c = f[2];
    return true;
}

static bool tcells(Ctx *cx, Value *obj, GCell **out, size_t *n)
{
    return gu_cells_with(cx, obj, out, n, cell3_of);
}

/* Every element of the (non-empty) patch is a pair of numbers. */
static bool num_pairs(Value *obj)
{
    for (size_t k = 0, n = v_len(obj); k < n; k++) {
        Value *e = v_items(obj)[k];
        if (!v_is_container(e) || v_len(e) != 2 || !core_is_num(v_items(e)[0]) ||
            !core_is_num(v_items(e)[1]))
            return false;
    }
    return true;
}

/* The span hi - lo + 1 of int coordinates on an axis, held at INT64_MAX
 * past 64 bits (its caller only tests it against 1); false if some is
 * not an int. */
static bool pair_span(Value *obj, int axis, int64_t *ext)
{
    int64_t lo = 0, hi = 0;
    for (size_t k = 0, n = v_len(obj); k < n; k++) {
        Value *v = v_items(v_items(obj)[k])[axis];
        if (!v_is_int(v))
            return false;
        if (k == 0 || v->u.i < lo) lo = v->u.i;
        if (k == 0 || v->u.i > hi) hi = v->u.i;
    }
    *ext = gu_span_fits(lo, hi) ? hi - lo + 1 : INT64_MAX;
    return true;
}

/* ---- occurrences --------------------------------------------------------- */

Value *tk_occurrences(Ctx *cx, Value *const *a)
{
    Value *grid = a[0], *obj = a[1];
    GCell *c = NULL;
    size_t n = 0;
    int64_t oh, ow;
    bool pairs = false;
    /* normed = normalize(obj): int cells, or pairs (the loop's unpack
     * fails on them), else frozenset() from the wrapper */
    if (v_is_container(obj) && v_len(obj) > 0 && !tcells(cx, obj, &c, &n)) {
        if (!tk_catch(cx))
            return NULL;
        pairs = num_pairs(obj);
    }
    if (!cm_cells_normalize(c, n, &oh, &ow)) {
        free(c);
        return core_overflow(cx);
    }
    oh = extent(cx, obj, 0);
    ow = extent(cx, obj, 1);
    GView g;
    /* CPython reads `h, w = len(grid), len(grid[0])`, and other rows only
     * where the loop reaches them */
    bool rows;
    if (!gu_view_or_size(cx, grid, &g, &rows)) {
        free(c);
        return NULL;
    }
    int64_t h2 = (int64_t)g.h - oh + 1, w2 = (int64_t)g.w - ow + 1;
    if (h2 > 0 && w2 > 0 && pairs) {
        cx_raise(cx, "ValueError", "not enough values to unpack (expected 3, got 2)");
        return cm_occurrences_drop(c, &g);
    }
    if (h2 > 0 && w2 > 0 && !gu_work(cx, (uint64_t)(h2 * w2) * (n ? n : 1)))
        return cm_occurrences_drop(c, &g);
    return cm_occurrences(cx, grid, &g, rows, c, n, oh, ow, h2, w2, cell_tk);
}

/* ---- periods ------------------------------------------------------------- */

/* The smallest p in 1..extent-1 whose shift by -p along the axis (cells
 * pushed below 0 dropped) stays inside the normalised object; the
 * extent when none. */
static Value *period(Ctx *cx, Value *obj, bool horiz)
{
    GCell *c;
    size_t n;
    int64_t h, w;
    if (!v_is_container(obj) || v_len(obj) == 0)
        return v_int(0);
    if (!tcells(cx, obj, &c, &n)) {
        int64_t ext;
        if (!tk_catch(cx))
            return NULL;
        if (!num_pairs(obj))          /* normalize gave frozenset() */
            return v_int(0);
        if (!pair_span(obj, horiz ? 1 : 0, &ext))
            return cx_raise(cx, "TypeError", "'float' object cannot be interpreted as an integer");
        if (ext > 1)                  /* the loop unpacks pairs as 3 */
            return cx_raise(cx, "ValueError", "not enough values to unpack (expected 3, got 2)");
        return v_int(ext);
    }
    if (!cm_cells_normalize(c, n, &h, &w)) {
        free(c);
        return core_overflow(cx);
    }
    return cm_period(cx, c, n, horiz ? w : h, horiz);
}

Value *tk_hperiod(Ctx *cx, Value *const *a) { return period(cx, a[0], true); }
Value *tk_vperiod(Ctx *cx, Value *const *a) { return period(cx, a[0], false); }

/* ---- objects --------------------------------------------------------------
 * The walk is shared with arc-dsl's big grids (dsl/objwalk.c); the empty
 * grid and the background are this dialect's. */

static Value *objects(Ctx *cx, Value *grid, bool univalued, bool diagonal, bool without_bg,
                      bool as_tuple)
{
    if (grid->type == V_TUPLE && grid->u.tup.len == 0)
        return v_incref(as_tuple ? &v_empty_tuple_ : &v_empty_fset_);
    Value *bg = V_NONE_;
    if (!gu_work_ahead(cx, 16 * gu_grid_cells(grid)))   /* the walk's charge, ahead */
        return NULL;
    if (without_bg && !(bg = tk_mostcolor_inner(cx, grid)))
        return NULL;
    return objwalk(cx, grid, univalued, diagonal, bg, as_tuple, cell_tk);
}

Value *tk_objects(Ctx *cx, Value *const *a)
{
    return objects(cx, a[0], v_truthy(a[1]), v_truthy(a[2]), v_truthy(a[3]), false);
}

Value *tk_objects_t(Ctx *cx, Value *const *a)
{
    return objects(cx, a[0], v_truthy(a[1]), v_truthy(a[2]), v_truthy(a[3]), true);
}

/* o_g(grid, R): objects(grid, R & 4, R & 2, R & 1) for R in 0..7, the
 * inner call wrapped; None for any other R. */
static Value *o_g(Ctx *cx, Value *const *a, bool as_tuple)
{
    int t = selector(a[1]);
    if (t < 0 || t > 7)
        return v_none();
    Value *r = objects(cx, a[0], t & 4, t & 2, t & 1, as_tuple);
    if (!r && tk_catch(cx))
        r = v_incref(as_tuple ? &v_empty_tuple_ : &v_empty_fset_);
    return r;
}

Value *tk_o_g(Ctx *cx, Value *const *a) { return o_g(cx, a, false); }
Value *tk_o_g_t(Ctx *cx, Value *const *a) { return o_g(cx, a, true); }
