/* compress.c -- tokpidjin downscale and compress. */
#include "prim.h"
#include "common/core_util.h"
#include "tokpidjin/grid_util.h"
#include "common/gridops.h"

/* ---- downscale and compress ------------------------------------------------ */

/* The reference's downscale is arc-dsl's, line for line. */
Value *tk_downscale(Ctx *cx, Value *const *a) { return ad_downscale(cx, a); }

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
