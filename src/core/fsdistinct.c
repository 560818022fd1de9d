/* fsdistinct.c -- frozensets of distinct keys (fsdistinct.h). */
#include "fsdistinct.h"
#include "pyprobe.h"
#include "pyset.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define FS_MINSIZE 8

size_t pyset_distinct_mask(size_t n)
{
    size_t mask = FS_MINSIZE - 1;
    for (;;) {
        size_t full = (mask * 3 + 4) / 5;       /* the least fill PY_SET_FULL calls full */
        if (n < full)
            return mask;
        mask = py_set_size(PY_SET_GROW(full)) - 1;
    }
}

/* The first free slot on h's path: with distinct keys ADD-ALL's walk never
 * meets an equal key, and no slot is ever a dummy. */
static inline void put_index(int32_t *t, size_t mask, int64_t h, int32_t k)
{
    size_t home = (size_t)h & mask;     /* most keys find their home free */
    if (t[home] < 0) {
        t[home] = k;
        return;
    }
    PY_PROBE(size_t, mask, h, {
        if (t[j] < 0) {
            t[j] = k;
            return;
        }
    });
}

/* Both entry points share this body; inlined into each, the hash read is
 * a direct one where the hashes are an array. */
static inline __attribute__((always_inline)) void
layout(int32_t *out, size_t n, int64_t (*hash)(size_t k, void *ud), void *ud)
{
    size_t mask = pyset_distinct_mask(n);
    /* the tables before the last, while small, on the stack: 8, 32, 128
     * and 512 slots fit */
    int32_t early[FS_MINSIZE + 32 + 128 + 512], *tab = mask == FS_MINSIZE - 1 ? out : early;
    size_t tmask = FS_MINSIZE - 1, taken = FS_MINSIZE;
    bool heap = false;          /* tab malloc'd */
    memset(tab, 0xff, FS_MINSIZE * sizeof *tab);
    size_t full = (tmask * 3 + 4) / 5;      /* the least fill PY_SET_FULL calls full */
    for (size_t k = 0; k < n; k++) {
        put_index(tab, tmask, hash(k, ud), (int32_t)k);
        if (k + 1 < full)
            continue;
        size_t size = py_set_size(PY_SET_GROW(k + 1));
        bool stacked = size - 1 != mask && taken + size <= sizeof early / sizeof *early;
        int32_t *nt = size - 1 == mask ? out : stacked ? early + taken : malloc(size * sizeof *nt);
        if (!nt)
            abort();
        if (stacked)
            taken += size;
        memset(nt, 0xff, size * sizeof *nt);
        for (size_t s = 0; s <= tmask; s++)       /* survivors in old slot order */
            if (tab[s] >= 0)
                put_index(nt, size - 1, hash((size_t)tab[s], ud), tab[s]);
        if (heap)
            free(tab);
        heap = nt != out && !stacked;
        tab = nt;
        tmask = size - 1;
        full = (tmask * 3 + 4) / 5;
    }
}

void pyset_distinct_layout(int32_t *out, size_t n, int64_t (*hash)(size_t k, void *ud), void *ud)
{
    layout(out, n, hash, ud);
}

static inline int64_t hash_at(size_t k, void *ud)
{
    return ((const int64_t *)ud)[k];
}

void pyset_distinct_slots(int32_t *out, const int64_t *h, size_t n)
{
    layout(out, n, hash_at, (void *)h);
}

/* Bit s set for each taken slot s < n (n <= 64; a table's size, so a
 * multiple of 4 from 8 up): four slots' sign bits at a time where SSE2 is
 * there. */
static inline uint64_t taken_bits(const int32_t *slots, size_t n)
{
    uint64_t bits = 0;
#ifdef __SSE2__
    for (size_t s = 0; s + 4 <= n; s += 4) {
        __m128i v = _mm_loadu_si128((const __m128i *)(slots + s));
        bits |= (uint64_t)(~_mm_movemask_ps(_mm_castsi128_ps(v)) & 0xF) << s;
    }
    for (size_t s = n & ~(size_t)3; s < n; s++)
#else
    for (size_t s = 0; s < n; s++)
#endif
        bits |= (uint64_t)(slots[s] >= 0) << s;
    return bits;
}

void fs_fill_distinct(const FsLayout *lay, size_t mask, Value *const *items, const int64_t *h, size_t n)
{
    Value **out = lay->items;
    int32_t *slots = lay->slots;
    int64_t *hashes = lay->hashes;
    pyset_distinct_slots(slots, h, n);
    int32_t m = 0;
    for (size_t base = 0; base <= mask; base += 64) {     /* taken slots as bits, as in pyset_take */
        size_t end = base + 64 <= mask + 1 ? base + 64 : mask + 1;
        uint64_t bits = taken_bits(slots + base, end - base);
        while (bits) {
            size_t s = base + (size_t)__builtin_ctzll(bits);
            bits &= bits - 1;
            int32_t k = slots[s];
            out[m] = v_incref(items[k]);
            hashes[m] = h[k];
            slots[s] = m++;
        }
    }
}

/* The frozenset of n > 0 distinct items whose hashes are h, x the xor of
 * their shuffled hashes (its own hash's first part). */
static Value *laid_distinct(Value *const *items, const int64_t *h, size_t n, uint64_t x)
{
    size_t mask = pyset_distinct_mask(n);
    FsLayout lay;
    Value *v = fs_layout(n, mask, &lay);
    fs_fill_distinct(&lay, mask, items, h, n);
    v_mark_flat(v, lay.items, n);
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    return v;
}

Value *fs_from_distinct(Value *const *items, size_t n)
{
    if (n == 0)
        return v_incref(&v_empty_fset_);
    if (n == 1) {               /* initset's: the key at its home in a table of 8 */
        int64_t h1 = v_hash(items[0]);
        FsLayout lay;
        Value *v = fs_layout(1, FS_MINSIZE - 1, &lay);
        lay.items[0] = v_incref(items[0]);
        lay.hashes[0] = h1;
        lay.slots[(uint64_t)h1 & (FS_MINSIZE - 1)] = 0;
        v_mark_flat(v, lay.items, 1);
        v->hash = py_fset_end(py_fset_shuffle((uint64_t)h1), 1);
        v->hashed = 1;
        return v;
    }
    int64_t small[64], *h = n <= 64 ? small : malloc(n * sizeof *h);
    if (!h)
        abort();
    uint64_t x = 0;             /* its own hash comes with the items' (pyhash.c's) */
    for (size_t k = 0; k < n; k++) {
        h[k] = v_hash(items[k]);
        x ^= py_fset_shuffle((uint64_t)h[k]);
    }
    Value *v = laid_distinct(items, h, n, x);
    if (h != small)
        free(h);
    return v;
}

Value *fs_from_firsts(Value *const *items, size_t n)
{
    if (n == 0)
        return v_incref(&v_empty_fset_);
    size_t bits = 1;
    while (((size_t)1 << bits) < 2 * n)
        bits++;
    size_t tmask = ((size_t)1 << bits) - 1;
    int64_t *h = malloc(2 * n * sizeof *h), *fh = h + n;
    Value **firsts = malloc(n * sizeof *firsts);
    int32_t *tab = malloc((tmask + 1) * sizeof *tab);
    if (!h || !firsts || !tab)
        abort();
    memset(tab, 0xff, (tmask + 1) * sizeof *tab);
    size_t m = 0;
    uint64_t x = 0;
    for (size_t k = 0; k < n; k++) {
        int64_t hk = h[k] = pyset_key_hash(items[k]);
        size_t j = (size_t)((uint64_t)hk * 0x9E3779B97F4A7C15ull >> (64 - bits));
        for (;; j = (j + 1) & tmask) {
            int32_t at = tab[j];
            if (at < 0) {
                tab[j] = (int32_t)k;
                firsts[m] = items[k];
                fh[m++] = hk;
                x ^= py_fset_shuffle((uint64_t)hk);
                break;
            }
            if (h[at] == hk && (items[at] == items[k] || v_eq(items[at], items[k])))
                break;
        }
    }
    free(tab);
    Value *v = laid_distinct(firsts, fh, m, x);
    free(firsts);
    free(h);
    return v;
}

Value *fs_copy_distinct(Value *const *items, size_t n)
{
    if (n == 0)
        return v_incref(&v_empty_fset_);
    Value *added = fs_from_distinct(items, n), *v = fs_copy(added);
    v_decref(added);
    return v;
}

void fs_scratch_open(FsScratch *s, size_t n)
{
    s->v = n <= 64 ? s->small_v : malloc(n * sizeof *s->v);
    s->h = n <= 64 ? s->small_h : malloc(n * sizeof *s->h);
    if (!s->v || !s->h)
        abort();
}

void fs_scratch_close(FsScratch *s)
{
    if (s->v != s->small_v)
        free(s->v);
    if (s->h != s->small_h)
        free(s->h);
}
