/* core_util.h -- helpers of the tokpidjin core group (core.c, arith.c):
 * calling values as the wrapped reference does, Python's list.sort, and
 * the small checks both files make.
 */
#ifndef ARC_TK_CORE_UTIL_H
#define ARC_TK_CORE_UTIL_H

#include <math.h>

#include "prim.h"
#include "common/core_util.h"
#include "pysort.h"

/* Call f as a tokpidjin body does.  A mis-called primitive answering its
 * default, and defaulted trailing parameters, are v_call's business
 * (prim_call_mismatch), so this is v_call. */
static inline Value *tk_call1(Ctx *cx, Value *f, Value *x) { return prim_call(cx, f, 1, &x); }

/* A nested DSL call: the callee is wrapped, so its failure is its default
 * (prim_invoke does that); only a spent budget comes back as NULL. */
static inline Value *tk_sub(Ctx *cx, int prim, int argc, Value *const *argv)
{
    return v_call(cx, prim_value(prim), argc, argv);
}

static inline Value *tk_sub1(Ctx *cx, int prim, Value *x) { return tk_sub(cx, prim, 1, &x); }

/* ---- sorted() ------------------------------------------------------------ */

typedef SortItem TkKV;   /* here both key and val are owned */

static inline void tk_kv_free(TkKV *kv, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        v_decref(kv[i].key);
        v_decref(kv[i].val);
    }
    free(kv);
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
    if (py_sort(cx, kv, n, reverse) < 0) {
        tk_kv_free(kv, n);
        return NULL;
    }
    return kv;
}

/* math.nan is one object in the reference; `is`-identity and container
 * equality depend on it being shared. */
#define tk_nan_ v_nan_   /* the one math.nan (value.c) */

/* ---- helpers ----------------------------------------------------------- */

static inline Value *type_error(Ctx *cx, const char *what, const Value *v)
{
    return cx_raise(cx, "TypeError", "%s: '%s'", what, v_typename(v));
}

/* x[i] for a tuple x (IndexError / TypeError as Python). */
static inline Value *subscript(Ctx *cx, Value *x, int64_t i)
{
    if (x->type != V_TUPLE)
        return type_error(cx, "object is not subscriptable", x);
    int64_t n = (int64_t)x->u.tup.len;
    if (i < 0)
        i += n;
    if (i < 0 || i >= n)
        return cx_raise(cx, "IndexError", "tuple index out of range");
    return v_incref(v_titems(x)[i]);
}

/* `c.count(x)`: identity first, then ==, as CPython does. */
static inline bool same(Value *a, Value *b) { return a == b || v_eq(a, b); }

/* Check a Python-int index argument (range(n), t[n]); bool counts. */
static inline bool want_int(Ctx *cx, const Value *v)
{
    if (v_is_int(v))
        return true;
    cx_raise(cx, "TypeError", "'%s' object cannot be interpreted as an integer", v_typename(v));
    return false;
}

/* -len <= rank < len, compared as Python would (rank may be a float). */
static inline int in_range(Ctx *cx, Value *rank, size_t len)
{
    Value *lo = v_int(-(int64_t)len), *hi = v_int((int64_t)len);
    int a = v_richcmp(cx, lo, rank, CMP_LE);
    int b = a == 1 ? v_richcmp(cx, rank, hi, CMP_LT) : a;
    v_decref(lo);
    v_decref(hi);
    return b;
}

/* mapply_t(f, c) for f neighbors, dneighbors or ineighbors and c of places
 * whose neighbourhoods are kept (boxes.c): true with *r the result or NULL
 * raised; false, nothing done, for any other f or c. */
bool tk_mapply_nb(Ctx *cx, Value *f, Value *c, Value **r);

#endif
