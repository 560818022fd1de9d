/* core_util.h -- helpers of the tokpidjin core group (core.c): calling
 * values as the wrapped reference does, and Python's list.sort.
 */
#ifndef ARC_TK_CORE_UTIL_H
#define ARC_TK_CORE_UTIL_H

#include "prim.h"
#include "common/core_util.h"
#include "pysort.h"

/* Call f as a tokpidjin body does.  A mis-called primitive answering its
 * default, and defaulted trailing parameters, are v_call's business
 * (prim_call_mismatch), so this is v_call. */
static inline Value *tk_call1(Ctx *cx, Value *f, Value *x) { return v_call(cx, f, 1, &x); }

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

#endif
