/* period.c -- hperiod/vperiod's search, for both dialects once each has
 * normalised its object into cells (GCell). */
#include "common/cells.h"

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

Value *cm_period(Ctx *cx, GCell *c, size_t n, int64_t ext, bool horiz)
{
    int64_t p = 1;
    if (!gu_work(cx, n * (uint64_t)ext)) {
        free(c);
        return NULL;
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
