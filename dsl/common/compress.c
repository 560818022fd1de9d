/* compress.c -- compress's rows and columns, both dialects (gridops.h). */
#include "common/gridops.h"
#include "common/grid_util.h"

Value *cm_compress(Ctx *cx, const GView *v, size_t *cells)
{
    size_t h = v->h, m = 0, nh = 0;
    for (size_t i = 0; i < h; i++)      /* zip(*grid) stops at the shortest row */
        if (i == 0 || v->rlen[i] < m)
            m = v->rlen[i];
    bool *dropr = gu_alloc(cx, h, 1), *dropc = gu_alloc(cx, m, 1);
    Value **col = gu_alloc(cx, h, sizeof *col), *out = NULL;
    *cells = 0;
    if (!dropr || !dropc || !col)
        goto done;
    for (size_t i = 0; i < h; i++)
        nh += !(dropr[i] = gu_one_value(v->row[i], v->rlen[i]));
    for (size_t j = 0; j < m; j++) {
        for (size_t i = 0; i < h; i++)
            col[i] = v->row[i][j];
        dropc[j] = gu_one_value(col, h);
    }
    out = v_tuple_new(nh);
    nh = 0;
    for (size_t i = 0; i < h; i++) {
        if (dropr[i])
            continue;
        size_t w = v->rlen[i], keep = 0;
        for (size_t j = 0; j < w; j++)
            keep += j >= m || !dropc[j];
        Value *row = v_tuple_new(keep);
        keep = 0;
        for (size_t j = 0; j < w; j++)
            if (j >= m || !dropc[j])
                v_titems(row)[keep++] = v_incref(v->row[i][j]);
        v_mark_flat(row, v_titems(row), keep);
        v_titems(out)[nh++] = row;
        *cells += keep;
    }
done:
    free(dropr);
    free(dropc);
    free(col);
    return out;
}
