/* connect.c -- connect's line on places of any kind, both dialects
 * (gridops.h). */
#include "pyset.h"
#include "common/gridops.h"
#include "common/binop.h"

/* len(range(a, b, step)) for step 1 or -1; past int64, as good as endless */
static int64_t span(int64_t a, int64_t b, int64_t step)
{
    int64_t n;
    if (step > 0 ? __builtin_sub_overflow(b, a, &n) : __builtin_sub_overflow(a, b, &n))
        return INT64_MAX;
    return n < 0 ? 0 : n;
}

Value *cm_zip_line(Ctx *cx, Value *fi, int64_t i0, int64_t i1, int64_t si,
                       Value *fj, int64_t j0, int64_t j1, int64_t sj, CmChargeFn charge)
{
    int64_t ni = fi ? INT64_MAX : span(i0, i1, si), nj = fj ? INT64_MAX : span(j0, j1, sj);
    int64_t n = ni < nj ? ni : nj;
    if (!charge(cx, (uint64_t)n))
        return NULL;
    PySet s;
    pyset_init(&s);
    for (int64_t x = 0; x < n; x++) {
        Value *t = v_pair_steal(fi ? v_incref(fi) : v_int(i0 + x * si),
                                fj ? v_incref(fj) : v_int(j0 + x * sj));
        core_set_put(&s, t);
    }
    return pyset_take(&s);
}

Value *cm_connect_any(Ctx *cx, Value *ai, Value *aj, Value *bi, Value *bj, CmChargeFn charge)
{
    Value *r = NULL, *ei = NULL, *ej = NULL, *d1 = NULL, *d2 = NULL, *d3 = NULL;
    Value *si = core_minmax2(cx, ai, bi, CMP_LT), *mi = si ? core_minmax2(cx, ai, bi, CMP_GT) : NULL;
    ei = mi ? cm_binop_int(cx, CORE_ADD, mi, 1) : NULL;
    Value *sj = ei ? core_minmax2(cx, aj, bj, CMP_LT) : NULL, *mj = sj ? core_minmax2(cx, aj, bj, CMP_GT) : NULL;
    ej = mj ? cm_binop_int(cx, CORE_ADD, mj, 1) : NULL;
    int64_t i0, i1, j0, j1;
    if (!ej)
        goto out;
    if (v_eq(ai, bi)) {
        if (gu_int(cx, sj, &j0) && gu_int(cx, ej, &j1))
            r = cm_zip_line(cx, ai, 0, 0, 0, NULL, j0, j1, 1, charge);
        goto out;
    }
    if (v_eq(aj, bj)) {
        if (gu_int(cx, si, &i0) && gu_int(cx, ei, &i1))
            r = cm_zip_line(cx, NULL, i0, i1, 1, aj, 0, 0, 0, charge);
        goto out;
    }
    if (!(d1 = cm_binop(cx, CORE_SUB, bi, ai, false)) || !(d2 = cm_binop(cx, CORE_SUB, bj, aj, false)))
        goto out;
    if (v_eq(d1, d2)) {
        if (gu_int(cx, si, &i0) && gu_int(cx, ei, &i1) &&
            gu_int(cx, sj, &j0) && gu_int(cx, ej, &j1))
            r = cm_zip_line(cx, NULL, i0, i1, 1, NULL, j0, j1, 1, charge);
        goto out;
    }
    if (!(d3 = cm_binop(cx, CORE_SUB, aj, bj, false)))
        goto out;
    if (v_eq(d1, d3)) {
        /* range(ej - 1, sj - 1, -1): ej and sj are ints here, or range
         * refuses them as it would refuse ej - 1 */
        if (gu_int(cx, si, &i0) && gu_int(cx, ei, &i1) &&
            gu_int(cx, ej, &j0) && gu_int(cx, sj, &j1))
            r = cm_zip_line(cx, NULL, i0, i1, 1, NULL, j0 - 1, j1 - 1, -1, charge);
        goto out;
    }
    r = v_incref(&v_empty_fset_);
out:
    v_decref(ei);
    v_decref(ej);
    v_decref(d1);
    v_decref(d2);
    v_decref(d3);
    return r;
}
