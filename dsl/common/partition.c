/* partition.c -- partition/fgpartition's walk, for both dialects' cells,
 * and asobject's of a byte grid.  Each cell is built once, however many
 * colours' sets it lands in. */
#include "common/cells.h"
#include "fsdistinct.h"
#include "fskeys.h"
#include "fsrecipe.h"

/* Whether the dialect's cells are arc-dsl's (c, (i, j)), which a key set
 * can hold (fskeys.h); tokpidjin's (i, j, c) are not. */
static bool arcdsl_cells(ObjCell cell)
{
    Value *probe = cell(0, 0, v_small(0));
    bool ours = fs_arena_key(probe) == (int64_t)FS_KEY_TABLE + v_intern_index(0, 0);
    v_decref(probe);
    return ours;
}

Value *cm_asobject_bytes(Ctx *cx, const Value *g, ObjCell cell)
{
    size_t h = 0, w = 0;
    const uint8_t *b = gu_bytes(g, &h, &w);
    const size_t n = h * w, wd = w;
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value **buf = gu_alloc_raw(cx, n, sizeof *buf);
    if (!buf)
        return NULL;
    for (size_t k = 0; k < n; k++)
        buf[k] = cell((int64_t)(k / wd), (int64_t)(k % wd), v_small(b[k]));
    /* distinct cells: kept as keys where they are interned */
    Value *r = n >= FS_KEYS_MERGE_MIN && arcdsl_cells(cell) ? fs_from_interned(buf, n) : NULL;
    if (!r)
        r = fs_from_distinct(buf, n);
    for (size_t k = 0; k < n; k++)
        v_decref(buf[k]);
    free(buf);
    return r;
}

/* A byte grid's cells of colour c (0..9) as arc-dsl's, in row-major
 * order: their keys, k[] of room h * w; their number. */
static size_t colour_keys(const uint8_t *b, size_t h, size_t w, int64_t c, uint32_t *k)
{
    size_t n = 0;
    uint32_t base = (uint32_t)(c + 1) * FS_KEY_TABLE;
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < w; j++)
            if (b[i * w + j] == c)
                k[n++] = base + (uint32_t)v_intern_index((int64_t)i, (int64_t)j);
    return n;
}

/* partition's sets of a byte grid in the span, for arc-dsl's cells and
 * colours 0..9: each kept as its keys, as fs_from_interned would keep it
 * (FS_KEYS_MERGE_MIN cells or more), without making the cells; NULL
 * where that does not apply (the walk below makes them). */
static Value *partition_keys(Ctx *cx, const uint8_t *b, size_t h, size_t w, Value *colors,
                             bool per_color, ObjCell cell)
{
    size_t nc = v_len(colors), total = h * w;
    if (h > V_INTERN_SPAN + V_INTERN_MIN || w > V_INTERN_SPAN + V_INTERN_MIN || nc > 10 ||
        !arcdsl_cells(cell))
        return NULL;
    int64_t cs[10];
    for (size_t c = 0; c < nc; c++)
        if (!v_small_of(v_items(colors)[c], &cs[c]) || cs[c] < 0 || cs[c] > 9)
            return NULL;
    Value **parts = gu_alloc(cx, nc, sizeof *parts);
    uint32_t *k = parts ? gu_alloc(cx, total, sizeof *k) : NULL;
    Value *out = NULL;
    size_t made = 0;
    if (!k || !gu_work(cx, total * (per_color ? nc : 1) + nc))
        goto done;
    for (; made < nc; made++) {
        size_t n = colour_keys(b, h, w, cs[made], k);
        if (n >= FS_KEYS_MERGE_MIN) {
            parts[made] = fs_keys_of(k, n);
            continue;
        }
        Value **buf = gu_alloc(cx, n ? n : 1, sizeof *buf);
        if (!buf)
            goto done;
        for (size_t x = 0, q = 0; x < total && q < n; x++)
            if (b[x] == cs[made])
                buf[q++] = cell((int64_t)(x / w), (int64_t)(x % w), v_small(cs[made]));
        parts[made] = fs_from_items(buf, n);
        for (size_t q = 0; q < n; q++)
            v_decref(buf[q]);
        free(buf);
    }
    out = fs_from_items(parts, nc);
done:
    for (size_t c = 0; c < made; c++)
        v_decref(parts[c]);
    free(parts);
    free(k);
    return out;
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
    if (b) {
        Value *keyed = partition_keys(cx, b, bh, bw, colors, per_color, cell);
        if (keyed || cx->err)
            return keyed;
    }
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
        /* distinct cells: kept as keys where they are interned, laid out
         * only when read in order (size, colour and box read none) */
        Value *keys = fs_keys_may(buf, n) ? fs_from_interned(buf, n) : NULL;
        parts[c] = keys ? keys : fs_from_items(buf, n);
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
