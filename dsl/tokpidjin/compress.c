/* compress.c -- tokpidjin downscale and compress. */
#include "prim.h"
#include "common/core_util.h"
#include "tokpidjin/grid_util.h"
#include "common/gridops.h"

/* ---- downscale and compress ------------------------------------------------ */

/* The reference reads grid[i][j] for every row i, not only the kept
 * ones (j: the kept columns, multiples of the factor below len(grid[0])). */
Value *tk_downscale(Ctx *cx, Value *const *a)
{
    GView g;
    if (vg_is(a[0]))        /* every row full */
        return ad_downscale(cx, a);
    if (!gu_view(cx, a[0], &g, true))
        return NULL;
    int64_t f = v_is_int(a[1]) ? a[1]->u.i : 0;
    uint64_t k = f < 0 ? (uint64_t)(-f) : (uint64_t)f;
    size_t need = k && g.w ? (size_t)((g.w - 1) / k * k) + 1 : 0;
    for (size_t i = 0; need && i < g.h; i++) {
        Value *r = v_titems(a[0])[i];
        if (r->type != V_TUPLE || r->u.tup.len < need) {
            gu_view_free(&g);
            return cx_raise(cx, r->type != V_TUPLE ? "TypeError" : "IndexError",
                            "bad row %zu", i);
        }
    }
    gu_view_free(&g);
    return ad_downscale(cx, a);
}

/* rows and columns (of zip(*grid)) holding one value are dropped; any
 * iterable of iterables */
Value *tk_compress(Ctx *cx, Value *const *a)
{
    GView v;
    size_t cells;
    if (!gu_rows(cx, a[0], &v))
        return NULL;
    Value *out = cm_compress(cx, &v, &cells);
    if (out && !gu_work(cx, cells + v.h)) {
        v_decref(out);
        out = NULL;
    }
    gu_view_free(&v);
    return out;
}
