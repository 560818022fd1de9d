/* recolor.c -- replace and switch of both dialects: one cell map. */
#include "common/grid_util.h"
#include "common/gridops.h"

#include <string.h>

/* `in` and dict lookup (same) test identity first; arc-dsl's != does not */
static inline bool eqv(bool same, const Value *a, const Value *b)
{
    return same ? gu_same(a, b) : gu_eq(a, b);
}

Value *cm_map_cells(Ctx *cx, Value *g, Value *x, Value *y, bool sw, bool same)
{
    size_t cells;
    if (!gu_row_cells(cx, g, &cells))
        return NULL;
    size_t h = v_len(g);
    if (!gu_work(cx, cells))
        return NULL;
    bool xy = sw && eqv(same, x, y);
    size_t bh, bw;
    const uint8_t *b = gu_bytes(g, &bh, &bw);
    if (b) {            /* bytes to bytes, while every image is one */
        /* a cell's image follows from its byte alone: each byte's is
         * worked out once (IMG_UNSEEN until then, IMG_NONE if no byte) */
        enum { IMG_UNSEEN = -1, IMG_NONE = -2 };
        int16_t img[256];
        memset(img, 0xff, sizeof img);
        Value *out = vg_new(bh, bw);
        uint8_t *o = vg_cells(out);
        size_t k = 0;
        for (; k < bh * bw; k++) {
            int m = img[b[k]];
            if (m == IMG_UNSEEN) {
                Value *v = v_small(b[k]), *e = v;
                uint8_t e_byte;
                if (eqv(same, v, x))
                    e = xy ? x : y;
                else if (sw && eqv(same, v, y))
                    e = x;
                m = img[b[k]] = vg_byte(e, &e_byte) ? e_byte : IMG_NONE;
            }
            if (m == IMG_NONE)
                break;
            o[k] = (uint8_t)m;
        }
        if (k == bh * bw)
            return out;
        v_decref(out);
    }
    bool flat = v_rows_flat(g) && v_in_arena(x) && v_in_arena(y);
    Value *out = v_tuple_new(h);
    for (size_t i = 0; i < h; i++) {
        Value *r = v_items(g)[i];
        size_t w = v_len(r);
        Value *nr = v_tuple_new(w);
        for (size_t j = 0; j < w; j++) {
            Value *v = v_items(r)[j], *e = v;
            if (eqv(same, v, x))
                e = xy ? x : y;            /* {x: y, y: x}[v] */
            else if (sw && eqv(same, v, y))
                e = x;
            v_titems(nr)[j] = v_incref(e);
        }
        v_mark_flat_known(nr, flat);
        v_titems(out)[i] = nr;
    }
    return out;
}
