/* cells.h -- the pieces of objects.c's group both dialects share, written
 * once over the dialect's cell: (c, (i, j)) in arc-dsl, (i, j, c) in
 * tokpidjin.  Each takes the cell as an ObjCell. */
#ifndef ARC_CELLS_H
#define ARC_CELLS_H

#include "value.h"
#include "pyset.h"
#include "common/grid_util.h"

/* The dialect's cell of colour c at (i, j): a new reference. */
typedef Value *(*ObjCell)(int64_t i, int64_t j, Value *c);

/* The two dialects' cells; near-grid ones are interned (value.c). */
Value *cm_cell_ad_made(int64_t i, int64_t j, Value *c);
Value *cm_cell_tk_made(int64_t i, int64_t j, Value *c);
/* The interned cell when its tile is made, else the call that makes one:
 * the common case keeps no registers (objects' walks call these through
 * ObjCell for every cell). */
static inline Value *cell_ad(int64_t i, int64_t j, Value *c)
{
    Value *r = v_interned_made(v_colour_table(c, 1), i, j);
    return r ? r : cm_cell_ad_made(i, j, c);
}
static inline Value *cell_tk(int64_t i, int64_t j, Value *c)
{
    Value *r = v_interned_made(v_colour_table(c, 11), i, j);
    return r ? r : cm_cell_tk_made(i, j, c);
}

/* asobject of a byte grid: its h * w cells in row-major order, distinct,
 * laid out at once (partition.c); the caller charges them first. */
Value *cm_asobject_bytes(Ctx *cx, const Value *g, ObjCell cell);

/* frozenset(frozenset(cells of colour c, row-major) for c in colors)
 * (partition.c); per_color charges the grid once per colour. */
Value *cm_partition(Ctx *cx, Value *grid, Value *colors, bool per_color, ObjCell cell);

/* fgpartition's colours, palette - {bg}, taking pal's reference; NULL
 * when bg is (raised). */
static inline Value *cm_fg_colors(Value *pal, Value *bg)
{
    if (!bg) {
        v_decref(pal);
        return NULL;
    }
    Value *bgset = fs_from_items(&bg, 1), *colors = fs_sub(pal, bgset);
    v_decref(bgset);
    v_decref(pal);
    return colors;
}

/* frontiers(grid): the rows and columns of one value (frontiers.c). */
Value *cm_frontiers(Ctx *cx, Value *grid, ObjCell cell);

/* occurrences(grid, obj) from obj's n normalised cells c (an oh x ow
 * box) over the view g of grid (rows: gu_view_or_size's): the (i, j) of
 * h2 x w2 where shift(c, (i, j)) lies in grid.  Frees c and g; the work
 * is the caller's to charge. */
Value *cm_occurrences(Ctx *cx, const Value *grid, GView *g, bool rows, GCell *c, size_t n,
                      int64_t oh, int64_t ow, int64_t h2, int64_t w2, ObjCell cell);

/* What a thread keeps from its occurrences calls, released (prim_thread_done). */
void cm_occurrences_thread_done(void);
/* What cm_occurrences would have freed, freed; NULL to return. */
static inline Value *cm_occurrences_drop(GCell *c, GView *g)
{
    free(c);
    gu_view_free(g);
    return NULL;
}

/* normalize() on n cells in place: moved so that the box starts at
 * (0, 0); *h, *w its extent (0 for none).  false, nothing moved, where a
 * side passes 64 bits. */
static inline bool cm_cells_normalize(GCell *c, size_t n, int64_t *h, int64_t *w)
{
    *h = *w = 0;
    if (n == 0)
        return true;
    int64_t i0 = c[0].i, j0 = c[0].j, i1 = c[0].i, j1 = c[0].j;
    for (size_t k = 1; k < n; k++) {
        if (c[k].i < i0) i0 = c[k].i;
        if (c[k].i > i1) i1 = c[k].i;
        if (c[k].j < j0) j0 = c[k].j;
        if (c[k].j > j1) j1 = c[k].j;
    }
    if (!gu_span_fits(i0, i1) || !gu_span_fits(j0, j1))
        return false;
    for (size_t k = 0; k < n; k++) {
        c[k].i -= i0;
        c[k].j -= j0;
    }
    *h = i1 - i0 + 1;
    *w = j1 - j0 + 1;
    return true;
}

/* hperiod/vperiod of the n normalised cells c, whose extent along the
 * axis is ext (period.c); frees c. */
Value *cm_period(Ctx *cx, GCell *c, size_t n, int64_t ext, bool horiz);

#endif
