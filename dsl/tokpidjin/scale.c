/* scale.c -- tokpidjin upscale of grids and patches. */
#include "prim.h"
#include "common/core_util.h"
#include "tokpidjin/grid_util.h"
#include "common/neighbours.h"
#include "common/cells.h"
#include "common/gridops.h"
#include "common/objwalk.h"

/* ---- scaling ------------------------------------------------------------- */

/* upscale_t: each value repeated f times, each such row f times; h * f
 * charged more than arc-dsl's upscale, and no row marked flat */
Value *tk_upscale_t(Ctx *cx, Value *const *a)
{
    return cm_upscale(cx, a[0], a[1], CM_UP_H | CM_UP_V | CM_UP_ROWS);
}

/* shift(patch, (di, dj)) on a non-empty patch: frozenset of the moved
 * elements in patch order (cells when the first has 3 items). */
static Value *shift_fs(Ctx *cx, Value *patch, int64_t di, int64_t dj)
{
    size_t n = v_len(patch), l0;
    Value **it = v_items(patch);
    if (!gu_len(cx, it[0], &l0) || !gu_work(cx, n))
        return NULL;
    size_t k = l0 == 3 ? 3 : 2;
    Value **buf = gu_alloc(cx, n, sizeof *buf), *out = NULL;
    size_t m = 0;
    if (!buf)
        return NULL;
    for (; m < n; m++) {
        Value **e = tk_unpack(cx, it[m], k);
        int64_t i, j;
        if (!e || !tk_coord(cx, e[0], &i) || !tk_coord(cx, e[1], &j) ||
            !core_coord_add(cx, i, di, &i) || !core_coord_add(cx, j, dj, &j))
            goto done;
        buf[m] = k == 3 ? cell_tk(i, j, e[2]) : v_pair_int(i, j);
    }
    out = fs_from_items(buf, n);
done:
    for (size_t x = 0; x < m; x++)
        v_decref(buf[x]);
    free(buf);
    return out;
}

/* An inner shift call: frozenset() on error. */
static Value *shift_inner(Ctx *cx, Value *patch, int64_t di, int64_t dj)
{
    if (!v_truthy(patch))
        return v_incref(&v_empty_fset_);
    if (!v_is_container(patch)) {       /* a truthy non-container: no iter() */
        return v_incref(&v_empty_fset_);
    }
    Value *r = shift_fs(cx, patch, di, dj);
    if (!r && tk_catch(cx))
        r = v_incref(&v_empty_fset_);
    return r;
}

Value *tk_upscale_f(Ctx *cx, Value *const *a)
{
    Value *obj = a[0];
    size_t n;
    int64_t di, dj, f;
    if (!gu_len(cx, obj, &n))
        return NULL;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value *ul = tk_patch_corner(cx, obj, false);
    if (!ul)
        return NULL;
    Value **u = tk_unpack(cx, ul, 2);
    bool ok = u && tk_coord(cx, u[0], &di) && tk_coord(cx, u[1], &dj);
    v_decref(ul);
    if (!ok)
        return NULL;
    Value *normed = shift_inner(cx, obj, -di, -dj), *out = NULL, *o2 = NULL;
    if (!normed)
        return NULL;
    size_t m = v_len(normed);
    PySet o;
    pyset_init(&o);
    if (m > 0 && !gu_int(cx, a[1], &f))
        goto done;
    if (m > 0 && f > 0) {
        uint64_t made = cx_mul(cx_mul(m, (uint64_t)f), (uint64_t)f);
        if (!core_fits(cx, made) || !gu_work(cx, made))
            goto done;
    }
    for (size_t x = 0; x < m; x++) {
        Value **e = tk_unpack(cx, v_items(normed)[x], 3);
        int64_t i, j;
        if (!e || !tk_coord(cx, e[0], &i) || !tk_coord(cx, e[1], &j))
            goto done;
        for (int64_t io = 0; io < f; io++)
            for (int64_t jo = 0; jo < f; jo++) {
                Value *c = cell_tk(i * f + io, j * f + jo, e[2]);
                pyset_add(&o, c);
                v_decref(c);
            }
    }
    o2 = pyset_to_frozenset(&o);
    out = shift_inner(cx, o2, di, dj);
done:
    v_decref(o2);
    pyset_clear(&o);
    v_decref(normed);
    return out;
}
