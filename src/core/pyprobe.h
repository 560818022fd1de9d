/* pyprobe.h -- the one copy of CPython 3.11's set probe sequence and of
 * its int, tuple and frozenset hash steps (cpython-set-order.md §1-2).
 * The value layer's set tables (pyset.c, pyhash.c), the objects walk
 * (dsl/) and the GPU's objects scan (gpu/objscan.h, compiled by nvcc too)
 * all expand these, so none of them can drift from the others. */
#ifndef ARC_PYPROBE_H
#define ARC_PYPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __CUDACC__
#define PY_HD __host__ __device__
#else
#define PY_HD
#endif

#define PY_LINEAR_PROBES 9
#define PY_PERTURB_SHIFT 5

/* Visit the slots a key of hash h probes in a table of mask + 1 slots:
 * a run i..i+9 where it fits without wrapping, then the perturbed jump
 * from the run's start.  BODY sees the slot as j (of type T) and leaves
 * by return or goto. */
#define PY_PROBE(T, mask, h, BODY)                                          \
    do {                                                                    \
        uint64_t perturb_ = (uint64_t)(h);                                  \
        T i_ = (T)(perturb_ & (mask));                                      \
        for (;;) {                                                          \
            T end_ = i_ + PY_LINEAR_PROBES <= (mask) ? i_ + PY_LINEAR_PROBES \
                                                     : i_;                  \
            for (T j = i_; j <= end_; j++) { BODY }                         \
            perturb_ >>= PY_PERTURB_SHIFT;                                  \
            i_ = (T)((i_ * 5 + 1 + perturb_) & (mask));                     \
        }                                                                   \
    } while (0)

/* PY_SET_SLOT_FN(name, K, I) defines
 *     I name(const K *t, I mask, uint64_t h, K k, int *how)
 * set.add's walk (cpython-set-order.md §2.4) over a table of small integer
 * keys (-1 empty, -2 dummy) whose hashes the caller knows: the slot key k
 * of hash h is in (*how 0), or takes -- the last dummy on its path (*how
 * 1), else the empty slot that ended it (*how 2). */
#define PY_SET_SLOT_FN(name, K, I)                                          \
    PY_HD static inline I name(const K *t, I mask, uint64_t h, K k, int *how) \
    {                                                                       \
        I dummy = 0;                                                        \
        bool seen = false;                                                  \
        PY_PROBE(I, mask, h, {                                              \
            if (t[j] == -1) {                                               \
                *how = seen ? 1 : 2;                                        \
                return seen ? dummy : j;                                    \
            }                                                               \
            if (t[j] == k) {                                                \
                *how = 0;                                                   \
                return j;                                                   \
            }                                                               \
            if (t[j] == -2) {                                               \
                dummy = j;                                                  \
                seen = true;                                                \
            }                                                               \
        });                                                                 \
    }

/* set.add's walk and its bookkeeping, for a set s of small integer keys
 * (fields t, mask, used, fill) whose slots SLOT (a PY_SET_SLOT_FN) finds:
 * key k of hash h goes in unless it is there, and RESIZE (a statement)
 * runs when the table is full.  The host walk's sets and the device
 * scan's expand it around their own tables and resizes. */
#define PY_SET_ADD(s, I, SLOT, h, k, RESIZE)                                \
    do {                                                                    \
        int how_;                                                           \
        I mask_ = (s)->mask, e_ = SLOT((s)->t, mask_, (h), (k), &how_);     \
        if (how_ == 0)                                                      \
            break;                                                          \
        (s)->t[e_] = (k);                                                   \
        (s)->used++;                                                        \
        if (how_ == 1)                                                      \
            break;                                                          \
        (s)->fill++;                                                        \
        if (PY_SET_FULL((s)->fill, mask_))                                  \
            RESIZE;                                                         \
    } while (0)

/* set.add's growth rule: a table of mask + 1 slots, fill of them used or
 * dummy, is full at three fifths; it then grows to hold at least
 * PY_SET_GROW(used) keys. */
#define PY_SET_FULL(fill, mask) ((uint64_t)(fill) * 5 >= (uint64_t)(mask) * 3)
#define PY_SET_GROW(used) ((used) > 50000 ? (used) * 2 : (used) * 4)

/* The table size a resize picks for minused keys: the least power of two
 * above it, eight at least. */
PY_HD static inline size_t py_set_size(size_t minused)
{
    size_t size = 8;
    while (size <= minused)
        size <<= 1;
    return size;
}

#define PY_HASH_MODULUS ((uint64_t)0x1FFFFFFFFFFFFFFF)   /* 2**61 - 1 */

/* hash(int): Py_hash_t never is -1 (CPython's error value). */
PY_HD static inline int64_t py_hash_int(int64_t v)
{
    uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (m >= PY_HASH_MODULUS)      /* grid coordinates and colours never are */
        m %= PY_HASH_MODULUS;
    uint64_t x = v < 0 ? 0 - m : m;
    return x == UINT64_MAX ? -2 : (int64_t)x;
}

/* hash(tuple): xxHash-style lanes (3.8+ tuplehash).  acc starts at
 * PY_XXP5, takes one lane per item, and ends with the length. */
#define PY_XXP1 11400714785074694791ull
#define PY_XXP2 14029467366897019727ull
#define PY_XXP5 2870177450012600261ull

PY_HD static inline uint64_t py_tuple_lane(uint64_t acc, int64_t item_hash)
{
    acc += (uint64_t)item_hash * PY_XXP2;
    acc = (acc << 31) | (acc >> 33);
    return acc * PY_XXP1;
}

#define PY_TUPLE_END_REMAPPED 1546275796   /* what an acc of -1 ends as */

PY_HD static inline int64_t py_tuple_end(uint64_t acc, uint64_t n)
{
    acc += n ^ (PY_XXP5 ^ 3527539ull);
    return acc == UINT64_MAX ? PY_TUPLE_END_REMAPPED : (int64_t)acc;
}

/* py_tuple_end undone: the lanes' acc of an n-tuple whose hash is h, so
 * that a longer tuple with the same first items continues them; false
 * for the one hash the end remaps, whose acc is ambiguous. */
PY_HD static inline bool py_tuple_unend(int64_t h, uint64_t n, uint64_t *acc)
{
    if (h == PY_TUPLE_END_REMAPPED)
        return false;
    *acc = (uint64_t)h - (n ^ (PY_XXP5 ^ 3527539ull));
    return true;
}

/* hash((a, b)) in two steps, for many pairs that share their a: a's
 * lane, then the pair's hash from it and b's hash */
PY_HD static inline uint64_t py_pair_lane(int64_t ha)
{
    return py_tuple_lane(PY_XXP5, ha);
}
PY_HD static inline int64_t py_hash_pair_from(uint64_t lane_a, int64_t hb)
{
    return py_tuple_end(py_tuple_lane(lane_a, hb), 2);
}

/* hash((a, b)) from its items' hashes */
PY_HD static inline int64_t py_hash_pair(int64_t ha, int64_t hb)
{
    return py_hash_pair_from(py_pair_lane(ha), hb);
}

/* hash((a, b)) of two ints */
PY_HD static inline int64_t py_hash_int_pair(int64_t a, int64_t b)
{
    return py_hash_pair(py_hash_int(a), py_hash_int(b));
}

/* hash((a, b, c)) of three ints: tokpidjin's cells */
PY_HD static inline int64_t py_hash_int_triple(int64_t a, int64_t b, int64_t c)
{
    return py_tuple_end(py_tuple_lane(py_tuple_lane(py_tuple_lane(PY_XXP5, py_hash_int(a)), py_hash_int(b)),
                                      py_hash_int(c)), 3);
}

/* hash((i, j)) for t == 0, hash((t - 1, (i, j))) for t in 1..10 (an
 * arc-dsl cell), hash((i, j, t - 11)) above (a tokpidjin cell): the
 * tuples of value.h's interned tables, t the table, any i and j. */
PY_HD static inline int64_t py_hash_table_tuple(unsigned t, int64_t i, int64_t j)
{
    if (t > 10)
        return py_hash_int_triple(i, j, (int64_t)t - 11);
    int64_t loc = py_hash_int_pair(i, j);
    return t ? py_hash_pair(py_hash_int((int64_t)t - 1), loc) : loc;
}

/* hash(frozenset): the items' shuffled hashes xor-ed, then the length
 * mixed in.  Depends on the active entries only: CPython's extra xors for
 * empty and dummy slots cancel out. */
PY_HD static inline uint64_t py_fset_shuffle(uint64_t h)
{
    return ((h ^ 89869747ull) ^ (h << 16)) * 3644798167ull;
}

PY_HD static inline int64_t py_fset_end(uint64_t x, uint64_t n)
{
    x ^= (n + 1) * 1927868237ull;
    x ^= (x >> 11) ^ (x >> 25);
    x = x * 69069u + 907133923u;
    return x == UINT64_MAX ? 590923713 : (int64_t)x;
}

#endif
