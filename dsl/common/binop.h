/* binop.h -- Python's x + y, x - y, x * y, x // y and x % y on DSL values,
 * for both dialects (binop.c). */
#ifndef CM_BINOP_H
#define CM_BINOP_H

#include "common/core_util.h"

/* x OP y past two ints: numbers as floats, then tuples and frozensets by
 * Python's sequence rules (core_seq_op, reuse passed on), else TypeError. */
Value *cm_binop_other(Ctx *cx, int op, Value *x, Value *y, bool reuse);

/* x OP y (op a CORE_*), a new reference: two ints inline, so that a
 * constant op folds. */
static inline Value *cm_binop(Ctx *cx, int op, Value *x, Value *y, bool reuse)
{
    if (v_is_int(x) && v_is_int(y)) {
        int64_t r;
        if ((op == CORE_FLOORDIV || op == CORE_MOD) && y->u.i == 0)
            return cx_raise(cx, "ZeroDivisionError", "integer division or modulo by zero");
        if (!core_int_arith(op, x->u.i, y->u.i, &r))
            return core_overflow(cx);
        return v_int(r);
    }
    return cm_binop_other(cx, op, x, y, reuse);
}

/* x OP k for an int k: a new reference, or NULL raised */
static inline Value *cm_binop_int(Ctx *cx, int op, Value *x, int64_t k)
{
    int64_t n;
    if (v_is_int(x) && op != CORE_FLOORDIV && op != CORE_MOD)   /* no zero to refuse */
        return core_int_arith(op, x->u.i, k, &n) ? v_int(n) : core_overflow(cx);
    Value *y = v_int(k), *r = cm_binop(cx, op, x, y, false);
    v_decref(y);
    return r;
}

#endif
