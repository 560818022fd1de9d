/* core_util.h -- helpers of the tokpidjin core group (core.c): calling
 * values as the wrapped reference does, and Python's list.sort.
 */
#ifndef ARC_TK_CORE_UTIL_H
#define ARC_TK_CORE_UTIL_H

#include "prim.h"
#include "arcdsl/core_util.h"

/* Whether f is a tokpidjin primitive itself (not a closure it made). */
static inline bool tk_is_prim(Value *f)
{
    int p = f->type == V_FUNC ? f->u.fn.prim : -1;
    return p >= 0 && p < PRIM_COUNT && prim_table[p].dialect == DIALECT_TOKPIDJIN &&
           f == prim_value(p);
}

/* Call f the way a tokpidjin body does.  Every public DSL name is bound to
 * a `wrapper(*args)` that catches any Exception, so a primitive called with
 * the wrong number of arguments answers its default instead of raising
 * (closures are not wrapped and still raise).  A trailing parameter with a
 * default (TKOPT) is filled in. */
static inline Value *tk_call(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    if (f->type == V_FUNC && f->u.fn.arity != V_ARITY_ANY && argc != f->u.fn.arity &&
        tk_is_prim(f)) {
        int p = f->u.fn.prim;
#define TK(name, arity, ret, same)
#define TKOPT(name, min, param, dflt)                                          \
        if (p == PRIM_TK_##name && argc == (min) && argc + 1 == f->u.fn.arity) { \
            Value *full[4];                                                    \
            for (int i = 0; i < argc; i++)                                     \
                full[i] = argv[i];                                             \
            full[argc] = prim_value(PRIM_TK_##dflt);                           \
            return v_call(cx, f, argc + 1, full);                              \
        }
#include "tokpidjin/list.h"
#undef TKOPT
#undef TK
        return prim_safe_default(p);
    }
    return v_call(cx, f, argc, argv);
}

static inline Value *tk_call1(Ctx *cx, Value *f, Value *x) { return tk_call(cx, f, 1, &x); }

/* A nested DSL call: the callee is wrapped, so its failure is its default
 * (prim_invoke does that); only a spent budget comes back as NULL. */
static inline Value *tk_sub(Ctx *cx, int prim, int argc, Value *const *argv)
{
    return tk_call(cx, prim_value(prim), argc, argv);
}

static inline Value *tk_sub1(Ctx *cx, int prim, Value *x) { return tk_sub(cx, prim, 1, &x); }

/* ---- sorted() ------------------------------------------------------------ */

typedef struct { Value *key, *val; } TkKV;   /* both owned */

static inline void tk_kv_free(TkKV *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        v_decref(kv[i].key);
        v_decref(kv[i].val);
    }
    free(kv);
}

static inline void tk_kv_reverse(TkKV *lo, TkKV *hi)
{
    for (--hi; lo < hi; lo++, hi--) {
        TkKV t = *lo;
        *lo = *hi;
        *hi = t;
    }
}

/* CPython's list.sort for short lists (below its minrun of 64): the leading
 * run (a strictly descending one reversed), then binary insertion, compare
 * for compare, so even partial orders (frozenset keys) come out the same. */
static inline int tk_sort_small(Ctx *cx, TkKV *v, size_t n)
{
    if (n < 2)
        return 0;
    int lt = v_richcmp(cx, v[1].key, v[0].key, CMP_LT);
    if (lt < 0)
        return -1;
    size_t run = 2;
    if (lt) {
        while (run < n && (lt = v_richcmp(cx, v[run].key, v[run - 1].key, CMP_LT)) == 1)
            run++;
        if (lt < 0)
            return -1;
        tk_kv_reverse(v, v + run);
    } else {
        while (run < n && (lt = v_richcmp(cx, v[run].key, v[run - 1].key, CMP_LT)) == 0)
            run++;
        if (lt < 0)
            return -1;
    }
    for (size_t s = run; s < n; s++) {
        TkKV pivot = v[s];
        size_t l = 0, r = s;
        do {
            size_t p = l + ((r - l) >> 1);
            int c = v_richcmp(cx, pivot.key, v[p].key, CMP_LT);
            if (c < 0)
                return -1;
            if (c)
                r = p;
            else
                l = p + 1;
        } while (l < r);
        memmove(v + l + 1, v + l, (s - l) * sizeof *v);
        v[l] = pivot;
    }
    return 0;
}

/* Longer lists: a stable merge sort (the same result for total orders). */
static inline int tk_sort_merge(Ctx *cx, TkKV *v, TkKV *tmp, size_t n)
{
    if (n < 64)
        return tk_sort_small(cx, v, n);
    size_t h = n / 2;
    if (tk_sort_merge(cx, v, tmp, h) < 0 || tk_sort_merge(cx, v + h, tmp, n - h) < 0)
        return -1;
    memcpy(tmp, v, h * sizeof *v);
    size_t i = 0, j = h, k = 0;
    while (i < h && j < n) {
        int c = v_richcmp(cx, v[j].key, tmp[i].key, CMP_LT);
        if (c < 0) {
            memcpy(v + k, tmp + i, (h - i) * sizeof *v);   /* every entry owned once */
            return -1;
        }
        v[k++] = c ? v[j++] : tmp[i++];
    }
    while (i < h)
        v[k++] = tmp[i++];
    return 0;
}

/* Sort prepared (key, value) pairs as list.sort(reverse=reverse) does:
 * with reverse it reverses before and after a stable sort.  -1 on error
 * (the pairs stay owned by kv). */
static inline int tk_sort_pairs(Ctx *cx, TkKV *kv, size_t n, bool reverse)
{
    if (reverse)
        tk_kv_reverse(kv, kv + n);
    TkKV *tmp = n >= 64 ? malloc((n / 2 + 1) * sizeof *tmp) : NULL;
    if (n >= 64 && !tmp) {
        cx_raise(cx, "MemoryError", "out of memory");
        return -1;
    }
    int rc = tk_sort_merge(cx, kv, tmp, n);
    free(tmp);
    if (rc == 0 && reverse)
        tk_kv_reverse(kv, kv + n);
    return rc;
}

/* sorted(items, key=key, reverse=reverse): keys computed in order first (key
 * NULL: the items themselves).  Returns the owned pairs or NULL. */
static inline TkKV *tk_sorted(Ctx *cx, Value *const *items, size_t n, Value *key,
                              bool reverse)
{
    if (!core_work(cx, n))
        return NULL;
    TkKV *kv = calloc(n ? n : 1, sizeof *kv);
    if (!kv)
        return cx_raise(cx, "MemoryError", "out of memory"), NULL;
    for (size_t i = 0; i < n; i++) {
        kv[i].val = v_incref(items[i]);
        kv[i].key = key ? tk_call1(cx, key, items[i]) : v_incref(items[i]);
        if (!kv[i].key) {
            tk_kv_free(kv, i + 1);
            return NULL;
        }
    }
    if (tk_sort_pairs(cx, kv, n, reverse) < 0) {
        tk_kv_free(kv, n);
        return NULL;
    }
    return kv;
}

#endif
