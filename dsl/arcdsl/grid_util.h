/* grid_util.h -- helpers the arc-dsl grid files share (grid.c, scale.c,
 * join.c). */
#ifndef ARC_ARCDSL_GRID_UTIL_H
#define ARC_ARCDSL_GRID_UTIL_H

#include "prim.h"
#include "common/grid_util.h"
#include "fsdistinct.h"

/* tuple(r[s1:s1+d1] for r in grid[s0:s0+d0]); s1/d1 are read only when
 * some row is selected (have1 false: reading them raises IndexError). */
static inline Value *crop4(Ctx *cx, Value *grid, int64_t s0, int64_t d0,
                    bool have1, int64_t s1, int64_t d1)
{
    if (grid->type != V_TUPLE)
        return cx_raise(cx, "TypeError", "'%s' object is not subscriptable",
                        v_typename(grid));
    int64_t a0 = s0, b0 = s0 + d0;
    gu_slice_bounds(grid->u.tup.len, &a0, &b0);
    size_t h = (size_t)(b0 - a0);
    if (h == 0)
        return v_incref(&v_empty_tuple_);
    if (!have1)
        return cx_raise(cx, "IndexError", "tuple index out of range");
    if (vg_is(grid)) {
        int64_t a1 = s1, b1 = s1 + d1;
        gu_slice_bounds(vg_w(grid), &a1, &b1);
        if (b1 > a1) {
            if (!gu_work(cx, h * (size_t)(b1 - a1)))
                return NULL;
            return gu_bytes_window(grid, (size_t)a0, h, (size_t)a1, (size_t)(b1 - a1));
        }
    }
    Value *out = v_tuple_new(h);
    size_t cells = 0;
    for (size_t i = 0; i < h; i++) {
        Value *r = gu_slice(cx, v_titems(grid)[a0 + (int64_t)i], s1, s1 + d1);
        if (!r) {
            v_tuple_abandon(out, i);
            return NULL;
        }
        cells += r->u.tup.len;
        v_titems(out)[i] = r;
    }
    if (!gu_work(cx, cells)) {
        v_decref(out);
        return NULL;
    }
    return out;
}

/* Rows of a grid that the reference slices (grid[::-1]) and zips; zip
 * iterates them in the order it gets them (reversed: grid[::-1]'s), and
 * the first that is no container raises. */
static inline bool zip_view(Ctx *cx, Value *g, GView *v, bool reversed)
{
    if (g->type != V_TUPLE) {
        cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(g));
        return false;
    }
    for (size_t k = 0, h = vg_is(g) ? 0 : g->u.tup.len; k < h; k++) {
        const Value *r = v_titems(g)[reversed ? h - 1 - k : k];
        if (!v_is_container(r)) {
            cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(r));
            return false;
        }
    }
    if (!gu_view(cx, g, v, false))
        return false;
    v->w = v->h ? v->rlen[0] : 0;      /* zip stops at the shortest row */
    for (size_t i = 1; i < v->h; i++)
        if (v->rlen[i] < v->w)
            v->w = v->rlen[i];
    return true;
}

/* frozenset of owned pairs, built in order; the pairs are released.
 * distinct: no two are equal (the caller made them so), and they are
 * laid out directly (fs_from_distinct). */
static inline Value *fs_take_items(Value **items, size_t n, bool distinct)
{
    Value *r = distinct ? fs_from_distinct(items, n) : fs_from_items(items, n);
    for (size_t k = 0; k < n; k++)
        v_decref(items[k]);
    free(items);
    return r;
}

#endif
