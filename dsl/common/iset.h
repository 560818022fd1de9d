/* iset.h -- CPython's set tables simulated on small int keys, for the
 * objects walk (objwalk.c): a key is a location number, its hash the
 * location's (i, j) pair's, kept by the caller in H[key]. */
#ifndef ARC_COMMON_ISET_H
#define ARC_COMMON_ISET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pyprobe.h"
#include "value.h"

/* The location sets objects() builds (occupied, cands, neighborhood and the
 * per-cell setcomps) hold (i, j) pairs of one grid, so they are simulated
 * here on location numbers with the pairs' hashes: the same probing,
 * growth, merge and difference rules as pyset.c (cpython-set-order.md §2-4),
 * without allocating a tuple per key.  Equal keys are equal numbers. */

#define ISET_INLINE 32

typedef struct {
    uint32_t mask, fill, used;
    int32_t *t;                 /* slot -> key; -1 empty, -2 dummy */
    int32_t inl[ISET_INLINE];   /* tables up to 32 slots live here */
} ISet;

static inline void is_init(ISet *s)
{
    s->mask = 7;
    s->fill = s->used = 0;
    s->t = s->inl;
    for (int k = 0; k < 8; k++)
        s->inl[k] = -1;
}

static inline void is_free(ISet *s)
{
    if (s->t != s->inl)
        free(s->t);
    s->t = s->inl;
}

static inline void is_insert_clean(int32_t *t, size_t mask, const uint64_t *H, int32_t k)
{
    PY_PROBE(size_t, mask, H[k], {
        if (t[j] == -1) {
            t[j] = k;
            return;
        }
    });
}

static inline void is_resize(ISet *s, const uint64_t *H, size_t minused)
{
    size_t newsize = py_set_size(minused), oldmask = s->mask;
    if (newsize == 8 && oldmask == 7 && s->fill == s->used)
        return;                 /* CPython keeps its smalltable as is */
    int32_t saved[ISET_INLINE], *old = s->t, *nt;
    bool old_inline = old == s->inl;
    if (old_inline) {
        memcpy(saved, s->inl, (oldmask + 1) * sizeof *saved);
        old = saved;
    }
    nt = newsize <= ISET_INLINE ? s->inl : xmalloc_(newsize * sizeof *nt);
    memset(nt, 0xff, newsize * sizeof *nt);
    for (size_t i = 0; i <= oldmask; i++)
        if (old[i] >= 0)
            is_insert_clean(nt, newsize - 1, H, old[i]);
    s->t = nt;
    s->mask = (uint32_t)(newsize - 1);
    s->fill = s->used;
    if (!old_inline)
        free(old);
}

PY_SET_SLOT_FN(is_slot, int32_t, size_t)

static inline void is_add(ISet *s, const uint64_t *H, int32_t k)
{
    PY_SET_ADD(s, size_t, is_slot, H[k], k, is_resize(s, H, PY_SET_GROW((size_t)s->used)));
}

/* MERGE(d, src) (§3) */
static inline void is_merge(ISet *d, const ISet *src, const uint64_t *H)
{
    size_t n = src->used;
    if (n == 0)
        return;
    if (PY_SET_FULL(d->fill + n, d->mask))
        is_resize(d, H, (d->used + n) * 2);
    if (d->fill == 0 && d->mask == src->mask && src->fill == src->used) {
        memcpy(d->t, src->t, (d->mask + 1) * sizeof *d->t);
        d->fill = d->used = (uint32_t)n;
    } else if (d->fill == 0) {
        for (size_t i = 0; i <= src->mask; i++)
            if (src->t[i] >= 0)
                is_insert_clean(d->t, d->mask, H, src->t[i]);
        d->fill = d->used = (uint32_t)n;
    } else {
        for (size_t i = 0; i <= src->mask; i++)
            if (src->t[i] >= 0)
                is_add(d, H, src->t[i]);
    }
}

/* `occupied`: only its members and their number decide what `a -
 * occupied` is (below), not its table, so it is a bitmap. */
typedef struct {
    uint64_t *bits;
    size_t used;
} Occ;

static inline bool occ_has(const Occ *o, int32_t k)
{
    return o->bits[k >> 6] >> (k & 63) & 1;
}

static inline void occ_add(Occ *o, int32_t k)
{
    uint64_t m = (uint64_t)1 << (k & 63);
    o->used += !(o->bits[k >> 6] & m);
    o->bits[k >> 6] |= m;
}

/* r = a - b (§4); r fresh.  When CPython copies a and discards b's keys,
 * each dummy lands where that key sits in the copy, whatever order b's
 * keys come in; otherwise it walks a and asks b.  Either way b's table
 * layout never shows. */
static inline void is_sub(ISet *r, const ISet *a, const Occ *b, const uint64_t *H, int32_t *keep)
{
    is_init(r);
    if (a->used == 0)
        return;
    if ((a->used >> 2) > b->used) {
        is_merge(r, a, H);
        for (size_t i = 0; i <= r->mask; i++)
            if (r->t[i] >= 0 && occ_has(b, r->t[i])) {
                r->t[i] = -2;
                r->used--;
            }
        if (r->fill - r->used > r->mask / 4)
            is_resize(r, H, PY_SET_GROW((size_t)r->used));
    } else {
        /* the survivors in slot order, gathered without branches (which
         * keys are empty, taken or new is data, unpredictable) */
        size_t m = 0;
        for (size_t i = 0; i <= a->mask; i++) {
            int32_t k = a->t[i], at = k < 0 ? 0 : k;
            keep[m] = k;
            m += (k >= 0) & !occ_has(b, at);
        }
        for (size_t q = 0; q < m; q++)
            is_add(r, H, keep[q]);
    }
}

#endif
