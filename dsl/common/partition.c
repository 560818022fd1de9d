/* partition.c -- partition/fgpartition's walk, for both dialects' cells,
 * and asobject's of a byte grid.  Each cell is built once, however many
 * colours' sets it lands in. */
#include "common/cells.h"
#include "fsdistinct.h"

Value *cm_asobject_bytes(Ctx *cx, const Value *g, ObjCell cell)
{
    size_t h = 0, w = 0;
    const uint8_t *b = gu_bytes(g, &h, &w);
    Value **buf = gu_alloc_raw(cx, h * w, sizeof *buf);
    if (!buf)
        return NULL;
    for (size_t k = 0; k < h * w; k++)
        buf[k] = cell((int64_t)(k / w), (int64_t)(k % w), v_small(b[k]));
    Value *r = fs_from_distinct(buf, h * w);
    for (size_t k = 0; k < h * w; k++)
        v_decref(buf[k]);
    free(buf);
    return r;
}

Value *cm_partition(Ctx *cx, Value *grid, Value *colors, bool per_color, ObjCell cell)
{
    /* no colour: CPython's generator never reads the grid (which may then
     * be anything empty, frozenset() included) */
    if (v_len(colors) == 0)
        return fs_from_items(NULL, 0);
    GView g;
    size_t bh = 0, bw = 0, total = 0;
    const uint8_t *b = gu_bytes(grid, &bh, &bw);   /* a byte grid is read as it is */
    if (b)
        gu_view_clear(&g), total = bh * bw;
    else if (!gu_rows(cx, grid, &g))   /* enumerate(grid): any iterable of rows */
        return NULL;
    for (size_t i = 0; i < g.h; i++)
        total += g.rlen[i];
    size_t nc = v_len(colors);
    Value **parts = gu_alloc(cx, nc, sizeof *parts);
    Value **cells = gu_alloc(cx, total, sizeof *cells);
    Value **buf = gu_alloc(cx, total, sizeof *buf);
    Value *out = NULL;
    if (!parts || !cells || !buf || !gu_work(cx, total * (per_color ? nc : 1) + nc))
        goto done;
    for (size_t c = 0; c < nc; c++) {
        Value *col = v_items(colors)[c];
        size_t n = 0, k = 0;
        for (; b && k < total; k++) {
            Value *x = v_small(b[k]);
            if (!gu_eq(x, col))
                continue;
            if (!cells[k])
                cells[k] = cell((int64_t)(k / bw), (int64_t)(k % bw), x);
            buf[n++] = cells[k];
        }
        for (size_t i = 0; i < g.h; i++)
            for (size_t j = 0; j < g.rlen[i]; j++, k++) {
                if (!gu_eq(g.row[i][j], col))
                    continue;
                if (!cells[k])
                    cells[k] = cell((int64_t)i, (int64_t)j, g.row[i][j]);
                buf[n++] = cells[k];
            }
        parts[c] = fs_from_items(buf, n);
    }
    out = fs_from_items(parts, nc);
    for (size_t c = 0; c < nc; c++)
        v_decref(parts[c]);
done:
    if (cells)
        for (size_t k = 0; k < total; k++)
            v_decref(cells[k]);
    free(parts);
    free(cells);
    free(buf);
    gu_view_free(&g);
    return out;
}
