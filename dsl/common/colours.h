/* colours.h -- the colours of a grid: distinct values with their counts in
 * first-occurrence order, and most/least of them as the reference picks
 * (both dialects, and the GPU's host side). */
#ifndef ARC_COMMON_COLOURS_H
#define ARC_COMMON_COLOURS_H

#include "common/grid_util.h"
#include "fsrecipe.h"
#include "common/anyorder.h"

/* Distinct values in first-occurrence order with their counts.  Adding
 * them to a set in that order gives the same table as adding every value
 * (a repeated add changes nothing when nothing is ever deleted). */
#define GCOLORS_INLINE 16   /* values held in the struct: every ARC palette */

typedef struct {
    Value **v;        /* distinct values, borrowed: v_in, or allocated past it */
    size_t *cnt;
    size_t n, cap;
    int32_t small[64];   /* int value -> index + 1, while only ints seen */
    bool slow;           /* a non-int was seen: search linearly */
    Value *v_in[GCOLORS_INLINE];
    size_t cnt_in[GCOLORS_INLINE];
} GColors;

static inline void gu_colors_free(GColors *k)
{
    if (k->v != k->v_in) {
        free(k->v);
        free(k->cnt);
    }
}

/* A colour not seen before, or not a small int (gu_colors_add). */
static __attribute__((noinline)) bool gu_colors_add_new(Ctx *cx, GColors *k, Value *v)
{
    bool isint = v_is_int(v);
    if (!isint)
        k->slow = true;
    if (isint && !k->slow && v->u.i >= 0 && v->u.i < 64) {
        int32_t ix = k->small[v->u.i];
        if (ix) {
            k->cnt[ix - 1]++;
            return true;
        }
    } else {
        for (size_t x = 0; x < k->n; x++)
            if (gu_same(k->v[x], v)) {
                k->cnt[x]++;
                return true;
            }
    }
    if (k->n == k->cap && !k->cap) {
        k->v = k->v_in;
        k->cnt = k->cnt_in;
        k->cap = GCOLORS_INLINE;
    } else if (k->n == k->cap) {
        size_t cap = 2 * k->cap;
        bool in = k->v == k->v_in;
        Value **nv = in ? malloc(cap * sizeof *nv) : realloc(k->v, cap * sizeof *nv);
        if (nv) {
            if (in)
                memcpy(nv, k->v_in, k->n * sizeof *nv);
            k->v = nv;
        }
        size_t *nc = !nv ? NULL : in ? malloc(cap * sizeof *nc) : realloc(k->cnt, cap * sizeof *nc);
        if (!nc) {
            if (nv && in) {     /* back to the struct's own, as it was */
                free(nv);
                k->v = k->v_in;
            }
            cx_raise(cx, "MemoryError", "out of memory");
            return false;
        }
        if (in)
            memcpy(nc, k->cnt_in, k->n * sizeof *nc);
        k->cnt = nc;
        k->cap = cap;
    }
    if (isint && !k->slow && v->u.i >= 0 && v->u.i < 64)
        k->small[v->u.i] = (int32_t)k->n + 1;
    k->v[k->n] = v;
    k->cnt[k->n++] = 1;
    return true;
}

/* Count v: inline for a colour seen before, told by its address (no
 * load); a grid's cells are nearly all such. */
static inline bool gu_colors_add(Ctx *cx, GColors *k, Value *v)
{
    int64_t x;
    if (!k->slow && v_small_of(v, &x) && x >= 0 && x < 64 && k->small[x]) {
        k->cnt[k->small[x] - 1]++;
        return true;
    }
    return gu_colors_add_new(cx, k, v);
}

/* The colours of an unbuilt set of arc-dsl cells, from its keys in no
 * order, where no order can show: sets of colours 0..9 lay out by value,
 * except c and c + 8 in a table of eight, which only a set of four or
 * fewer keeps; or where only their number is read (counted).  False
 * (nothing collected, nothing raised) otherwise. */
static inline bool gu_colors_any(Ctx *cx, const Value *element, GColors *k, bool counted)
{
    GCell *c;
    size_t n, cnt[10] = {0};
    int any = ao_cells(cx, element, &c, &n, false);
    if (any <= 0)
        return any < 0;
    bool ok = n == v_len(element);      /* no repeats: the counts are the cells' */
    for (size_t x = 0; ok && x < n; x++) {
        int64_t v;
        ok = v_small_of(c[x].c, &v) && v >= 0 && v < 10;
        if (ok)
            cnt[v]++;
    }
    free(c);
    if (!ok || (!counted && ((cnt[0] && cnt[8]) || (cnt[1] && cnt[9]))))
        return false;
    for (int v = 0; v < 10; v++)
        if (cnt[v]) {
            if (!gu_colors_add(cx, k, v_small(v)))
                return true;
            k->cnt[k->n - 1] = cnt[v];
        }
    return true;
}

/* A grid's colours where every row is a tuple of small ints 0..15 (told
 * by address): counted in place, then listed in first-occurrence order.
 * 1 done, 0 not such a grid (k as it was), -1 MemoryError raised. */
static inline int gu_colors_rows(Ctx *cx, const Value *grid, GColors *k)
{
    size_t cnt[16] = {0};
    uint8_t order[16];
    int no = 0;
    size_t bh, bw;
    const uint8_t *b = gu_bytes(grid, &bh, &bw);
    if (b) {
        /* bytes: counted four bins at a time, then the colours present
         * put in first-occurrence order by where each is first found */
        size_t n = bh * bw, k = 0;
        uint8_t any = 0;
        for (size_t x = 0; x < n; x++)
            any |= b[x];
        if (any >= 16)
            return 0;
        uint32_t h[4][16] = {{0}};
        for (; k + 4 <= n; k += 4) {
            h[0][b[k]]++;
            h[1][b[k + 1]]++;
            h[2][b[k + 2]]++;
            h[3][b[k + 3]]++;
        }
        for (; k < n; k++)
            h[0][b[k]]++;
        size_t first[16];
        for (int c = 0; c < 16; c++) {
            cnt[c] = (size_t)h[0][c] + h[1][c] + h[2][c] + h[3][c];
            if (!cnt[c])
                continue;
            first[c] = (size_t)((const uint8_t *)memchr(b, c, n) - b);
            int at = no++;
            while (at > 0 && first[order[at - 1]] > first[c]) {
                order[at] = order[at - 1];
                at--;
            }
            order[at] = (uint8_t)c;
        }
    }
    for (size_t i = 0; !b && i < grid->u.tup.len; i++) {
        const Value *r = v_titems(grid)[i];
        if (r->type != V_TUPLE)
            return 0;
        Value *const *it = v_titems(r);
        for (size_t j = 0, n = r->u.tup.len; j < n; j++) {
            int64_t x;
            if (!v_small_of(it[j], &x) || (uint64_t)x >= 16)
                return 0;
            if (!cnt[x]++)
                order[no++] = (uint8_t)x;
        }
    }
    for (int o = 0; o < no; o++) {
        if (!gu_colors_add(cx, k, v_small(order[o])))
            return -1;
        k->cnt[k->n - 1] = cnt[order[o]];
    }
    return 1;
}

/* The values the reference's mostcolor/palette collect: a tuple yields
 * every item of every row, anything else `v for v, _ in element`; in
 * first-occurrence order unless only their number is read (counted). */
static inline bool gu_colors_of(Ctx *cx, const Value *element, GColors *k, bool counted)
{
    memset(k, 0, sizeof *k);
    if (element->type == V_TUPLE) {
        int done = gu_colors_rows(cx, element, k);
        if (done)
            return done > 0 ? true : (gu_colors_free(k), false);
        for (size_t i = 0; i < element->u.tup.len; i++) {
            Value *r = v_titems(element)[i];
            if (!gu_iterable(cx, r))
                goto fail;
            Value **it = v_items(r);
            for (size_t j = 0, n = v_len(r); j < n; j++)
                if (!gu_colors_add(cx, k, it[j]))
                    goto fail;
        }
        return true;
    }
    if (!gu_iterable(cx, element))
        return false;
    Value *one = fs_same_at(element, 0);     /* one colour, whatever the order */
    if (one) {
        if (!gu_colors_add(cx, k, one))
            goto fail;
        k->cnt[0] = v_len(element);
        return true;
    }
    if (gu_colors_any(cx, element, k, counted)) {
        if (cx->err)
            goto fail;
        return true;
    }
    Value **it = v_items(element);
    for (size_t x = 0, n = v_len(element); x < n; x++) {
        Value *c, *rest;
        int64_t i, j;
        int at = v_interned_at(it[x], &i, &j);   /* a cell's colour from its address */
        if (at >= 1 && at <= 10)
            c = v_small(at - 1);
        else if (!gu_unpack2(cx, it[x], &c, &rest))
            goto fail;
        if (!gu_colors_add(cx, k, c))
            goto fail;
    }
    return true;
fail:
    gu_colors_free(k);
    return false;
}

static inline bool gu_colors(Ctx *cx, const Value *element, GColors *k)
{
    return gu_colors_of(cx, element, k, false);
}

/* max/min(set(values), key=values.count) over k->n > 0 collected colours:
 * the first extreme in set order.  Borrowed. */
static inline Value *gu_colors_pick(const GColors *k, bool most)
{
    Value *best = k->v[0];
    if (k->n == 1)
        return best;
    PySet s;
    pyset_init(&s);
    for (size_t x = 0; x < k->n; x++)
        pyset_add(&s, k->v[x]);
    size_t bc = 0;
    bool have = false;
    for (size_t slot = 0; slot <= s.mask; slot++) {
        Value *key = s.table[slot].key;
        if (!key || key == PYSET_DUMMY)
            continue;
        size_t x = 0;
        while (k->v[x] != key)
            x++;
        if (!have || (most ? k->cnt[x] > bc : k->cnt[x] < bc)) {
            best = key;
            bc = k->cnt[x];
            have = true;
        }
    }
    pyset_clear(&s);
    return best;
}

/* mostcolor/leastcolor(element); ValueError when it has no values */
static inline Value *gu_extreme_color(Ctx *cx, const Value *element, bool most)
{
    GColors k;
    if (!gu_colors(cx, element, &k))
        return NULL;
    if (k.n == 0) {
        gu_colors_free(&k);
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                        most ? "max" : "min");
    }
    Value *best = gu_colors_pick(&k, most);
    gu_colors_free(&k);
    return best;
}

#endif
