/* compress.c -- tokpidjin downscale and compress. */
#include "prim.h"
#include "common/core_util.h"
#include "tokpidjin/grid_util.h"
#include "common/neighbours.h"
#include "common/cells.h"
#include "common/gridops.h"
#include "common/objwalk.h"

/* ---- downscale and compress ------------------------------------------------ */

/* The reference reads grid[i][j] for every row i, not only the kept
 * ones (j: the kept columns, multiples of the factor below len(grid[0])). */
Value *tk_downscale(Ctx *cx, Value *const *a)
{
    GView g;
    if (!gu_view(cx, a[0], &g, true))
        return NULL;
    int64_t f = v_is_int(a[1]) ? a[1]->u.i : 0;
    uint64_t k = f < 0 ? (uint64_t)(-f) : (uint64_t)f;
    size_t need = k && g.w ? (size_t)((g.w - 1) / k * k) + 1 : 0;
    for (size_t i = 0; need && i < g.h; i++) {
        Value *r = a[0]->u.tup.items[i];
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
    Value *g = a[0];
    if (!gu_iterable(cx, g))
        return NULL;
    size_t h = v_len(g), m = 0;
    Value **rows = v_items(g);
    for (size_t i = 0; i < h; i++) {
        if (!gu_iterable(cx, rows[i]))
            return NULL;
        if (i == 0 || v_len(rows[i]) < m)
            m = v_len(rows[i]);
    }
    bool *dropr = gu_alloc(cx, h, 1), *dropc = gu_alloc(cx, m, 1);
    Value **col = gu_alloc(cx, h, sizeof *col), *out = NULL;
    size_t cells = 0, nh = 0;
    if (!dropr || !dropc || !col)
        goto done;
    for (size_t i = 0; i < h; i++)
        nh += !(dropr[i] = gu_one_value(v_items(rows[i]), v_len(rows[i])));
    for (size_t j = 0; j < m; j++) {
        for (size_t i = 0; i < h; i++)
            col[i] = v_items(rows[i])[j];
        dropc[j] = gu_one_value(col, h);
    }
    out = v_tuple_new(nh);
    nh = 0;
    for (size_t i = 0; i < h; i++) {
        if (dropr[i])
            continue;
        size_t w = v_len(rows[i]), keep = 0;
        for (size_t j = 0; j < w; j++)
            keep += j >= m || !dropc[j];
        Value *row = v_tuple_new(keep);
        keep = 0;
        for (size_t j = 0; j < w; j++)
            if (j >= m || !dropc[j])
                row->u.tup.items[keep++] = v_incref(v_items(rows[i])[j]);
        out->u.tup.items[nh++] = row;
        cells += keep;
    }
    if (!gu_work(cx, cells + h)) {
        v_decref(out);
        out = NULL;
    }
done:
    free(dropr);
    free(dropc);
    free(col);
    return out;
}
