/* upscale.c -- hupscale, vupscale and upscale of a grid, both dialects
 * (gridops.h).  tokpidjin's upscale_t charges h * f more than arc-dsl's
 * and leaves its rows unmarked (a flat row is cached by value), so both
 * are the caller's. */
#include "common/gridops.h"
#include "common/grid_util.h"
#include "common/core_util.h"

/* Each item of row repeated f times (f <= 0: none). */
static Value *hscale_row(Value *r, int64_t f, bool mark)
{
    size_t n = v_len(r), k = f > 0 ? (size_t)f : 0;
    Value *nr = v_tuple_new(n * k);
    for (size_t j = 0; j < n; j++)
        for (size_t x = 0; x < k; x++)
            v_titems(nr)[j * k + x] = v_incref(v_items(r)[j]);
    if (mark)
        v_mark_flat_known(nr, r->type == V_TUPLE && (r->flags & V_FLAG_FLAT));
    return nr;
}

/* made * times + rows: the factor is a program's int (rows is cx_mul's,
 * and two held sizes cannot wrap) */
static uint64_t up_work(uint64_t made, uint64_t times, uint64_t rows)
{
    return cx_mul(made, times) + rows;
}

Value *cm_upscale(Ctx *cx, Value *g, Value *factor, int how)
{
    bool hs = how & CM_UP_H, vs = how & CM_UP_V;
    int64_t f;
    size_t bh, bw;
    const uint8_t *b = gu_bytes(g, &bh, &bw);
    if (b) {
        if (!gu_int(cx, factor, &f))
            return NULL;
        size_t k = f > 0 ? (size_t)f : 0, fh = vs ? k : 1, fw = hs ? k : 1;
        if (k == 0)
            goto rows;      /* empty rows, or none: no byte grid */
        if (!core_fits(cx, cx_mul(cx_mul(bh, fh), cx_mul(bw, fw))) ||
            !gu_work(cx, up_work(hs ? cx_mul(bh * bw, k) : bh, vs ? k : 1,
                                 how & CM_UP_ROWS ? cx_mul(bh, k) : 0)))
            return NULL;
        return gu_bytes_scaled(g, fh, fw);
    }
rows:
    if (!gu_iterable(cx, g))
        return NULL;
    size_t h = v_len(g), cells = 0;
    bool have_f = false;
    f = 0;
    for (size_t i = 0; i < h; i++) {
        Value *r = v_items(g)[i];
        if (hs && !gu_iterable(cx, r))
            return NULL;
        if (hs)
            cells += v_len(r);
        /* range(factor) runs at a row's first value (horizontal) and after
         * each row (vertical): its error comes at the first row that gets
         * there, before a later row fails to iterate */
        if (!have_f && (vs || v_len(r) > 0)) {
            if (!gu_int(cx, factor, &f))
                return NULL;
            have_f = true;
        }
    }
    size_t k = f > 0 ? (size_t)f : 0;
    /* the rows made and the longest row, before either is allocated */
    if (!core_fits(cx, vs ? cx_mul(h, k) : h) || (hs && !core_fits(cx, cx_mul(cells, k))) ||
        !gu_work(cx, up_work(hs ? cx_mul(cells, k) : h, vs ? k : 1,
                             how & CM_UP_ROWS ? cx_mul(h, k) : 0)))
        return NULL;
    Value *out = v_tuple_new(vs ? h * k : h);
    for (size_t i = 0; i < h; i++) {
        Value *r = v_items(g)[i];
        Value *nr = hs ? hscale_row(r, f, how & CM_UP_FLAT) : v_incref(r);
        if (!vs) {
            v_titems(out)[i] = nr;
            continue;
        }
        for (size_t x = 0; x < k; x++)
            v_titems(out)[i * k + x] = v_incref(nr);
        v_decref(nr);
    }
    return out;
}
