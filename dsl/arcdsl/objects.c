/* objects.c -- arc-dsl primitives that cut a grid into objects: objects,
 * partition, fgpartition, frontiers, occurrences, hperiod, vperiod.
 *
 * The returned frozensets iterate as CPython's do, so objects() replays the
 * reference's set operations one for one (obj.add, neighborhood |= {...},
 * neighborhood - occupied, frozenset(obj)) in dsl/common/objwalk.c, shared
 * with tokpidjin; the tiny neighbour frozensets are never built: their
 * iteration order is computed from the hashes (common/neighbours.c).
 */
#include "prim.h"
#include "common/colours.h"
#include "common/cells.h"
#include "common/objwalk.h"

/* ---- objects ------------------------------------------------------------ */

Value *ad_objects(Ctx *cx, Value *const *a)
{
    Value *grid = a[0];
    bool univalued = v_truthy(a[1]), diagonal = v_truthy(a[2]);
    Value *bg = V_NONE_;
    /* asindices' charge and the walk's, ahead of mostcolor and the walk */
    if (!gu_work_ahead(cx, 17 * gu_grid_cells(grid)))
        return NULL;
    if (v_truthy(a[3]) && !(bg = gu_extreme_color(cx, grid, true)))
        return NULL;
    GView g;
    bool rows;
    if (!gu_view_or_size(cx, grid, &g, &rows))   /* a byte grid is sized only */
        return NULL;
    if (!rows) {
        /* a row that is not a tuple: CPython touches rows only through
         * asindices(grid)'s locations, none when len(grid[0]) is 0 */
        if (g.w == 0)
            return fs_from_items(NULL, 0);
        /* grid[i][j] on it: not subscriptable.  Which row the walk reaches
         * first follows its order; the first in row order is taken */
        for (size_t i = 0; i < g.h; i++)
            if (!gu_at(cx, grid, i, 0))
                return NULL;
        gu_view(cx, grid, &g, true);   /* raises again */
        return NULL;
    }
    gu_view_free(&g);
    /* asindices(grid)'s charge, then the walk's own */
    if (!gu_work(cx, g.h * g.w))
        return NULL;
    return objwalk(cx, grid, univalued, diagonal, bg, false, cell_ad);
}

/* ---- partitions --------------------------------------------------------- */

Value *ad_partition(Ctx *cx, Value *const *a)
{
    Value *pal = ad_palette(cx, a);
    if (!pal)
        return NULL;
    Value *r = cm_partition(cx, a[0], pal, false, cell_ad);
    v_decref(pal);
    return r;
}

Value *ad_fgpartition(Ctx *cx, Value *const *a)
{
    Value *pal = ad_palette(cx, a);
    Value *colors = pal ? cm_fg_colors(pal, gu_extreme_color(cx, a[0], true)) : NULL;
    if (!colors)
        return NULL;
    Value *r = cm_partition(cx, a[0], colors, false, cell_ad);
    v_decref(colors);
    return r;
}

/* ---- frontiers ---------------------------------------------------------- */

Value *ad_frontiers(Ctx *cx, Value *const *a) { return cm_frontiers(cx, a[0], cell_ad); }

/* ---- normalised objects ------------------------------------------------- */

/* normalize(obj) as cells: *n = 0 for an empty obj; *isobj false when it
 * holds locations (cells then unset). */
static bool normalized(Ctx *cx, Value *obj, GCell **cells, size_t *n, bool *isobj,
                       int64_t *h, int64_t *w)
{
    GLoc *l;
    *cells = NULL;
    *h = *w = 0;
    *isobj = true;
    /* an unbuilt object: its cells' keys, in no order (none is read) */
    int any = ao_cells(cx, obj, cells, n, false);
    if (any < 0)
        return false;
    if (any && *n != v_len(obj)) {
        free(*cells);
        *cells = NULL;
    } else if (any) {
        if (cm_cells_normalize(*cells, *n, h, w))
            return true;
        free(*cells);
        *cells = NULL;
        return core_overflow(cx), false;
    }
    if (!gu_locs(cx, obj, &l, n))
        return false;
    if (*n == 0)
        return true;
    GBox b = gu_box(l, *n);
    free(l);
    if (!gu_box_fits(cx, &b))
        return false;
    *h = b.i1 - b.i0 + 1;
    *w = b.j1 - b.j0 + 1;
    int o = gu_is_object(cx, obj);
    if (o < 0)
        return false;
    if (!(*isobj = o))
        return true;
    if (!gu_cells(cx, obj, cells, n))
        return false;
    for (size_t k = 0; k < *n; k++) {
        (*cells)[k].i -= b.i0;
        (*cells)[k].j -= b.j0;
    }
    return true;
}

/* An object normalized() cannot read: the error of CPython's first line,
 * `normed = normalize(obj)` (toindices' unpacks, then uppermost's and
 * leftmost's over its result), where normalize raises; else
 * normalized()'s own again.  NULL. */
static Value *normalize_error(Ctx *cx, Value *obj)
{
    if (!cx_give_way(cx))
        return NULL;
    Value *r = ad_normalize(cx, &obj);
    if (!r)
        return NULL;
    v_decref(r);
    GCell *c = NULL;
    size_t n;
    bool isobj;
    int64_t h, w;
    if (normalized(cx, obj, &c, &n, &isobj, &h, &w))     /* cannot: it failed before */
        free(c);
    return NULL;
}

/* rearc: re-arc's version, which tries every (i, j) of the grid.  Three
 * cases tell them apart: an empty object (arc-dsl's shape (0, 0) also tries
 * row h and column w), locations, which fail to unpack in re-arc's loop
 * whenever the grid has a cell, and rows that raise when read. */
static Value *occurrences(Ctx *cx, Value *const *a, bool rearc)
{
    Value *grid = a[0], *obj = a[1];
    GCell *c = NULL;
    size_t n;
    bool isobj;
    int64_t oh, ow, nh, nw;
    GView g;
    if (!normalized(cx, obj, &c, &n, &isobj, &nh, &nw))
        return normalize_error(cx, obj);
    /* CPython reads `h, w = len(grid), len(grid[0])`, and other rows only
     * where the loop reaches them: rows that are not iterable go ragged */
    bool rows;
    if (!gu_view_or_size(cx, grid, &g, &rows)) {
        free(c);
        return NULL;
    }
    if (!gu_shape(cx, obj, &oh, &ow))
        return cm_occurrences_drop(c, &g);
    int64_t h2 = (int64_t)g.h - oh + 1, w2 = (int64_t)g.w - ow + 1;
    /* re-arc tries every (i, j): where obj does not fit, its cells before
     * the first outside the grid are still read, which raises on rows
     * that are short or not tuples */
    if (rearc && (n == 0 || !(rows && gu_view_full(grid, &g))))
        h2 = (int64_t)g.h, w2 = (int64_t)g.w;
    if (h2 > 0 && w2 > 0 && !gu_work(cx, (uint64_t)(h2 * w2)))
        return cm_occurrences_drop(c, &g);
    if (n > 0 && !isobj) {     /* locations: the loop can't unpack them */
        if (rearc ? g.h > 0 && g.w > 0 : h2 > 0 && w2 > 0) {
            cx_raise(cx, "TypeError", "cannot unpack non-iterable int object");
            return cm_occurrences_drop(c, &g);
        }
        n = 0;
        h2 = 0;
    }
    return cm_occurrences(cx, grid, &g, rows, c, n, oh, ow, h2, w2, cell_ad);
}

Value *ad_occurrences(Ctx *cx, Value *const *a) { return occurrences(cx, a, false); }
Value *ra_occurrences(Ctx *cx, Value *const *a) { return occurrences(cx, a, true); }

/* ---- periods ------------------------------------------------------------ */

/* Smallest p < extent whose shift by p along the axis (cells pushed past 0
 * dropped) stays inside the object; the extent if none (common/period.c). */
static Value *period(Ctx *cx, Value *obj, bool horiz)
{
    GCell *c;
    size_t n;
    bool isobj;
    int64_t h, w;
    if (!normalized(cx, obj, &c, &n, &isobj, &h, &w))
        return normalize_error(cx, obj);
    int64_t ext = horiz ? w : h;
    if (n > 0 && !isobj && ext > 1)
        return cx_raise(cx, "TypeError", "cannot unpack non-iterable int object");
    if (n == 0 || !isobj) {
        free(c);
        return v_int(ext);
    }
    return cm_period(cx, c, n, ext, horiz);
}

Value *ad_hperiod(Ctx *cx, Value *const *a) { return period(cx, a[0], true); }
Value *ad_vperiod(Ctx *cx, Value *const *a) { return period(cx, a[0], false); }
