/* counts.h -- set(items) walked in its slot order, each distinct item with
 * items.count(e): most/least common in both dialects (counts.c).  Their
 * charges and type checks stay with each dialect: arc-dsl pays n after
 * counting, tokpidjin n before and n*k/64 past 64 distinct items. */
#ifndef ARC_COUNTS_H
#define ARC_COUNTS_H

#include "value.h"
#include "pyset.h"

typedef struct {
    PySet s;
    Value *const *items;
    size_t n;
    uint32_t slot;
    uint32_t *counts;    /* per slot, counted in one pass: NULL for few keys */
} CountWalk;

/* set(items) built as ADD-ALL does; cm_count_end releases it */
void cm_count_begin(CountWalk *w, Value *const *items, size_t n);
/* the next distinct item (borrowed) and its count (identity or ==);
 * false past the last slot */
bool cm_count_next(CountWalk *w, Value **key, size_t *cnt);
void cm_count_end(CountWalk *w);

/* max/min(set(items), key=items.count): the first extreme in slot order,
 * borrowed; NULL when n == 0.  *k: the distinct items. */
Value *cm_count_extreme(Value *const *items, size_t n, bool most, size_t *k);

#endif
