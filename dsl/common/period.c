/* period.c -- hperiod/vperiod's search, for both dialects once each has
 * normalised its object into cells (GCell). */
#include "common/cells.h"

#include <string.h>

static int cell_cmp(const void *x, const void *y)
{
    const GCell *p = x, *q = y;
    if (p->i != q->i)
        return p->i < q->i ? -1 : 1;
    return p->j < q->j ? -1 : p->j > q->j;
}

/* the cell of colour c at (i, j) among the sorted cells (set membership:
 * identity or ==) */
static bool has_cell(const GCell *s, size_t n, Value *c, int64_t i, int64_t j)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s[mid].i < i || (s[mid].i == i && s[mid].j < j))
            lo = mid + 1;
        else
            hi = mid;
    }
    for (; lo < n && s[lo].i == i && s[lo].j == j; lo++)
        if (gu_same(s[lo].c, c))
            return true;
    return false;
}

/* Colours 0..9 as bits of a place's mask, over the box of the cells (all
 * at i, j >= 0); false where a colour is not a plain small int or the box
 * is large (the sorted search then decides). */
#define DENSE_MAX 4096
static bool dense_masks(const GCell *c, size_t n, uint16_t *m, int64_t *w)
{
    int64_t h = 0;
    *w = 0;
    for (size_t k = 0; k < n; k++) {
        if (c[k].c->type != V_INT || c[k].c->u.i < 0 || c[k].c->u.i > 9)
            return false;
        h = c[k].i >= h ? c[k].i + 1 : h;
        *w = c[k].j >= *w ? c[k].j + 1 : *w;
    }
    if (h * *w > DENSE_MAX)
        return false;
    memset(m, 0, (size_t)(h * *w) * sizeof *m);
    for (size_t k = 0; k < n; k++)
        m[c[k].i * *w + c[k].j] |= (uint16_t)(1u << c[k].c->u.i);
    return true;
}

Value *cm_period(Ctx *cx, GCell *c, size_t n, int64_t ext, bool horiz)
{
    int64_t p = 1, w;
    if (!gu_work(cx, cx_mul(n, (uint64_t)ext))) {
        free(c);
        return NULL;
    }
    uint16_t m[DENSE_MAX];
    if (dense_masks(c, n, m, &w)) {
        for (; p < ext; p++) {
            int64_t di = horiz ? 0 : p, dj = horiz ? p : 0;
            size_t k = 0;
            for (; k < n; k++) {
                int64_t i = c[k].i - di, j = c[k].j - dj;
                if (i >= 0 && j >= 0 && !(m[i * w + j] >> c[k].c->u.i & 1))
                    break;
            }
            if (k == n)
                break;
        }
        free(c);
        return v_int(p);
    }
    qsort(c, n, sizeof *c, cell_cmp);
    for (; p < ext; p++) {
        bool sub = true;
        for (size_t k = 0; sub && k < n; k++) {
            int64_t i = c[k].i - (horiz ? 0 : p), j = c[k].j - (horiz ? p : 0);
            if (i >= 0 && j >= 0)
                sub = has_cell(c, n, c[k].c, i, j);
        }
        if (sub)
            break;
    }
    free(c);
    return v_int(p);
}
