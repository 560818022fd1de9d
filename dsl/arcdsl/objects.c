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
#include "common/grid_util.h"
#include "common/cells.h"
#include "common/objwalk.h"

/* ---- objects ------------------------------------------------------------ */

/* (c, (i, j)), a new reference; near-grid cells are interned (value.c) */
static Value *cell(int64_t i, int64_t j, Value *c)
{
    return v_pair_steal(v_incref(c), v_pair_int(i, j));
}

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
    if (!gu_view_or_size(cx, grid, &g, &rows))
        return NULL;
    if (!rows) {
        /* a row that is not a tuple: CPython touches rows only through
         * asindices(grid)'s locations, none when len(grid[0]) is 0 */
        if (g.w == 0)
            return fs_from_items(NULL, 0);
        gu_view(cx, grid, &g, true);   /* raises again */
        return NULL;
    }
    gu_view_free(&g);
    /* asindices(grid)'s charge, then the walk's own */
    if (!gu_work(cx, g.h * g.w))
        return NULL;
    return objwalk(cx, grid, univalued, diagonal, bg, false, cell);
}

/* ---- partitions --------------------------------------------------------- */

Value *ad_partition(Ctx *cx, Value *const *a)
{
    Value *pal = ad_palette(cx, a);
    if (!pal)
        return NULL;
    Value *r = cm_partition(cx, a[0], pal, false, cell);
    v_decref(pal);
    return r;
}

Value *ad_fgpartition(Ctx *cx, Value *const *a)
{
    Value *pal = ad_palette(cx, a);
    if (!pal)
        return NULL;
    Value *bg = gu_extreme_color(cx, a[0], true);
    if (!bg) {
        v_decref(pal);
        return NULL;
    }
    Value *bgset = fs_from_items(&bg, 1);
    Value *colors = fs_sub(pal, bgset);
    v_decref(bgset);
    v_decref(pal);
    Value *r = cm_partition(cx, a[0], colors, false, cell);
    v_decref(colors);
    return r;
}

/* ---- frontiers ---------------------------------------------------------- */

Value *ad_frontiers(Ctx *cx, Value *const *a) { return cm_frontiers(cx, a[0], cell); }

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
    if (!gu_locs(cx, obj, &l, n))
        return false;
    if (*n == 0)
        return true;
    GBox b = gu_box(l, *n);
    free(l);
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

/* When the normalised cells c (all inside oh x ow) fill that box with one
 * colour: prefix sums S[i][j] (rows of w + 1) of the grid cells gi holding
 * it, so a window's count is four loads.  NULL (nothing raised) otherwise,
 * or with MemoryError raised. */
static uint32_t *solid_sums(Ctx *cx, const int64_t *gi, int64_t h, int64_t w, const GCell *c,
                            size_t n, int64_t oh, int64_t ow)
{
    if (n == 0 || n != (size_t)(oh * ow) || n < 4)
        return NULL;
    int64_t v = c[0].c->u.i;
    uint8_t *seen = gu_alloc(cx, n, 1);
    if (!seen)
        return NULL;
    size_t covered = 0;
    for (size_t k = 0; k < n && c[k].c->u.i == v; k++) {
        uint8_t *s = &seen[c[k].i * ow + c[k].j];
        covered += !*s;
        *s = 1;
    }
    free(seen);
    if (covered != n)       /* another colour, or a tuple repeating a cell */
        return NULL;
    uint32_t *S = gu_alloc(cx, (size_t)((h + 1) * (w + 1)), sizeof *S);
    if (!S)
        return NULL;
    for (int64_t i = 0; i < h; i++)
        for (int64_t j = 0; j < w; j++)
            S[(i + 1) * (w + 1) + j + 1] = S[i * (w + 1) + j + 1] + S[(i + 1) * (w + 1) + j] -
                                           S[i * (w + 1) + j] + (gi[i * w + j] == v);
    return S;
}

Value *ad_occurrences(Ctx *cx, Value *const *a)
{
    Value *grid = a[0], *obj = a[1], *out = NULL;
    GCell *c = NULL;
    size_t n;
    bool isobj;
    int64_t oh, ow, nh, nw;
    GView g;
    if (!normalized(cx, obj, &c, &n, &isobj, &nh, &nw))
        return NULL;
    /* CPython reads `h, w = len(grid), len(grid[0])`, and other rows only
     * where the loop reaches them: rows that are not iterable go ragged */
    bool rows;
    if (!gu_view_or_size(cx, grid, &g, &rows)) {
        free(c);
        return NULL;
    }
    int64_t *gi = NULL, *off = NULL, *col = NULL;
    PySet occs;
    pyset_init(&occs);
    if (!gu_shape(cx, obj, &oh, &ow))
        goto done;
    int64_t h = (int64_t)g.h, w = (int64_t)g.w, h2 = h - oh + 1, w2 = w - ow + 1;
    if (h2 > 0 && w2 > 0 && !gu_work(cx, (uint64_t)(h2 * w2)))
        goto done;
    if (n > 0 && !isobj) {     /* locations: the loop can't unpack them */
        if (h2 > 0 && w2 > 0) {
            cx_raise(cx, "TypeError", "cannot unpack non-iterable int object");
            goto done;
        }
        n = 0;
        h2 = 0;
    }
    /* ints everywhere: compare on a flat copy of the grid */
    bool full = rows && gu_view_full(grid, &g), flat = full;
    for (size_t k = 0; flat && k < n; k++)
        flat = v_is_int(c[k].c);
    if (flat && (gi = gu_alloc(cx, g.h * g.w, sizeof *gi)))
        for (size_t i = 0; flat && i < g.h; i++)
            for (size_t j = 0; flat && j < g.w; j++) {
                flat = v_is_int(g.row[i][j]);
                gi[i * g.w + j] = flat ? g.row[i][j]->u.i : 0;
            }
    if (!flat) {
        free(gi);
        gi = NULL;
    } else if (!gi) {
        goto done;
    }
    /* ints everywhere: a normalised cell at (ci, cj) lies inside the grid
     * for every (i, j) tried, so each test is one load at a fixed offset.
     * Not when shape() measured obj as a grid (a tuple of cells): its
     * cells may then reach past (oh, ow), and the bounds tests stay. */
    for (size_t k = 0; gi && k < n; k++)
        if (c[k].i < 0 || c[k].i >= oh || c[k].j < 0 || c[k].j >= ow) {
            free(gi);
            gi = NULL;
        }
    if (gi) {
        if (!(off = gu_alloc(cx, 2 * n, sizeof *off)))
            goto done;
        col = off + n;
        for (size_t k = 0; k < n; k++) {
            off[k] = c[k].i * w + c[k].j;
            col[k] = c[k].c->u.i;
        }
    }
    /* a ragged grid: which cell CPython tests first decides whether a
     * short row raises, so the cells go in shift(normed)'s order */
    if (!full && n > 0) {
        Value **cells = malloc(n * sizeof *cells);
        for (size_t k = 0; k < n; k++)
            cells[k] = v_pair_steal(v_incref(c[k].c), v_pair_int(c[k].i, c[k].j));
        out = gu_occurrences_ragged(cx, grid, cells, n, h2, w2, h, w, false, &occs);
        free(cells);
        goto done;
    }
    /* a solid oh x ow block of one colour (canvas(...) as an object, as
     * a64e4611 searches for 81 sizes): a window matches when it counts
     * oh * ow cells of that colour, read off prefix sums */
    uint32_t *sums = gi ? solid_sums(cx, gi, h, w, c, n, oh, ow) : NULL;
    if (cx->err)
        goto done;
    for (int64_t i = 0; i < h2; i++)
        for (int64_t j = 0; j < w2; j++) {
            bool ok = true;
            if (sums) {
                const uint32_t *top = sums + i * (w + 1) + j, *bot = top + oh * (w + 1);
                ok = bot[ow] - top[ow] - bot[0] + top[0] == (uint32_t)n;
            } else if (gi) {
                const int64_t *at = gi + i * w + j;
                for (size_t k = 0; ok && k < n; k++)
                    ok = at[off[k]] == col[k];
            } else {
                for (size_t k = 0; ok && k < n; k++) {
                    int64_t y = c[k].i + i, x = c[k].j + j;
                    if (y < 0 || y >= h || x < 0 || x >= w) {
                        ok = false;
                    } else {
                        Value *v = gu_at(cx, grid, (size_t)y, (size_t)x);
                        if (!v)
                            goto done;
                        ok = gu_eq(v, c[k].c);
                    }
                }
            }
            if (ok) {
                Value *pair = v_pair_int(i, j);
                pyset_add(&occs, pair);
                v_decref(pair);
            }
        }
    out = pyset_to_frozenset(&occs);
    free(sums);
done:
    pyset_clear(&occs);
    free(gi);
    free(off);
    free(c);
    gu_view_free(&g);
    return out;
}

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
        return NULL;
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
