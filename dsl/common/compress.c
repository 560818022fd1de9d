/* compress.c -- compress's rows and columns, both dialects (gridops.h). */
#include "common/gridops.h"
#include "common/grid_util.h"

void cm_compress_rows(const GView *v, bool *dropr)
{
    for (size_t i = 0; i < v->h; i++)
        dropr[i] = gu_one_value(v->row[i], v->rlen[i]);
}

/* The kept cells as a byte grid, when the rows kept are of one length and
 * every kept cell is an int 0..255, as a byte grid's are; else NULL. */
static Value *compress_bytes(const GView *v, const bool *dropr, const bool *dropc, size_t nc,
                             size_t nh, size_t *cells)
{
    size_t w = SIZE_MAX, keep = 0;
    for (size_t i = 0; i < v->h; i++)
        if (!dropr[i]) {
            if (w != SIZE_MAX && v->rlen[i] != w)
                return NULL;
            w = v->rlen[i];
        }
    if (w == SIZE_MAX)
        return NULL;
    for (size_t j = 0; j < w; j++)
        keep += j >= nc || !dropc[j];
    if (!nh || !keep)
        return NULL;
    Value *g = vg_new(nh, keep);
    uint8_t *c = vg_cells(g);
    for (size_t i = 0; i < v->h; i++) {
        if (dropr[i])
            continue;
        for (size_t j = 0; j < w; j++)
            if ((j >= nc || !dropc[j]) && !vg_byte(v->row[i][j], c++)) {
                v_decref(g);
                return NULL;
            }
    }
    *cells = nh * keep;
    return g;
}

Value *cm_compress_build(const GView *v, const bool *dropr, const bool *dropc, size_t nc,
                         size_t *cells)
{
    size_t nh = 0;
    for (size_t i = 0; i < v->h; i++)
        nh += !dropr[i];
    Value *out = compress_bytes(v, dropr, dropc, nc, nh, cells);
    if (out)
        return out;
    out = v_tuple_new(nh);
    nh = 0;
    *cells = 0;
    for (size_t i = 0; i < v->h; i++) {
        if (dropr[i])
            continue;
        size_t w = v->rlen[i], keep = 0;
        for (size_t j = 0; j < w; j++)
            keep += j >= nc || !dropc[j];
        Value *row = v_tuple_new(keep);
        keep = 0;
        for (size_t j = 0; j < w; j++)
            if (j >= nc || !dropc[j])
                v_titems(row)[keep++] = v_incref(v->row[i][j]);
        v_mark_flat(row, v_titems(row), keep);
        v_titems(out)[nh++] = row;
        *cells += keep;
    }
    return out;
}

Value *cm_compress(Ctx *cx, const GView *v, size_t *cells)
{
    size_t h = v->h, m = 0;
    for (size_t i = 0; i < h; i++)      /* zip(*grid) stops at the shortest row */
        if (i == 0 || v->rlen[i] < m)
            m = v->rlen[i];
    bool *dropr = gu_alloc(cx, h, 1), *dropc = gu_alloc(cx, m, 1);
    Value **col = gu_alloc(cx, h, sizeof *col), *out = NULL;
    *cells = 0;
    if (!dropr || !dropc || !col)
        goto done;
    cm_compress_rows(v, dropr);
    for (size_t j = 0; j < m; j++) {
        for (size_t i = 0; i < h; i++)
            col[i] = v->row[i][j];
        dropc[j] = gu_one_value(col, h);
    }
    out = cm_compress_build(v, dropr, dropc, m, cells);
done:
    free(dropr);
    free(dropc);
    free(col);
    return out;
}
