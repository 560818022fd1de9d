/* counts.c -- the walk of set(items) with items.count(e) (counts.h). */
#include <stdlib.h>
#include "common/counts.h"

/* Past this many distinct items, each item is looked up once for its
 * slot, instead of compared with every distinct item (CPython's count: n
 * times k); below, the comparisons are mostly identities, cheaper than a
 * lookup. */
enum { COUNT_BY_SLOT = 16 };

void cm_count_begin(CountWalk *w, Value *const *items, size_t n)
{
    pyset_init(&w->s);
    pyset_add_all(&w->s, items, n);
    w->items = items;
    w->n = n;
    w->slot = 0;
    w->counts = w->s.used > COUNT_BY_SLOT ? calloc((size_t)w->s.mask + 1, sizeof *w->counts) : NULL;
    /* an item equals one key only: the set's equality is count's */
    for (size_t j = 0; w->counts && j < n; j++) {
        int64_t slot = pyset_slot(&w->s, items[j]);    /* found: every item went in */
        if (slot >= 0)
            w->counts[slot]++;
    }
}

bool cm_count_next(CountWalk *w, Value **key, size_t *cnt)
{
    for (; w->slot <= w->s.mask; w->slot++) {
        Value *k = w->s.table[w->slot].key;
        if (!k || k == PYSET_DUMMY)
            continue;
        size_t c = 0;
        if (w->counts)
            c = w->counts[w->slot];
        for (size_t j = 0; !w->counts && j < w->n; j++)
            c += w->items[j] == k || v_eq(w->items[j], k);
        w->slot++;
        *key = k;
        *cnt = c;
        return true;
    }
    return false;
}

void cm_count_end(CountWalk *w)
{
    pyset_clear(&w->s);
    free(w->counts);
}

Value *cm_count_extreme(Value *const *items, size_t n, bool most, size_t *k)
{
    CountWalk w;
    cm_count_begin(&w, items, n);
    Value *best = NULL, *key;
    size_t bestn = 0, cnt;
    *k = 0;
    while (cm_count_next(&w, &key, &cnt)) {
        if (!best || (most ? cnt > bestn : cnt < bestn)) {
            best = key;
            bestn = cnt;
        }
        ++*k;
    }
    cm_count_end(&w);
    return best;
}
