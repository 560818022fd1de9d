/* pyops.c -- eval's operators: arithmetic, bitwise and set operators
 * (py_binop), comparisons and membership (py_compare), as CPython gives
 * them on DSL values. */
#include "pyeval.h"
#include "common/core_util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double fl(const Value *v) { return v->type == V_FLOAT ? v->u.f : (double)v->u.i; }

static const char *op_sym(int op)
{
    static const char *s[] = {"+", "-", "*", "/", "//", "%", "**", "|", "^", "&"};
    return op <= PY_BITAND ? s[op] : "?";
}

static Value *repeat(Py *py, Value *seq, Value *times)
{
    int64_t k = times->u.i < 0 ? 0 : times->u.i;
    size_t n = v_len(seq);
    if (n && (uint64_t)k > 10000000 / n)
        return cx_raise(py->cx, "MemoryError", "repetition too large for arcrun eval");
    Value **items = malloc((n * (size_t)k + 1) * sizeof *items);
    for (int64_t r = 0; n && r < k; r++)
        memcpy(items + (size_t)r * n, v_items(seq), n * sizeof *items);
    Value *t = seq->flags & V_FLAG_LIST ? py_new_list(items, n * (size_t)k) : v_tuple_from(items, n * (size_t)k);
    free(items);
    return t;
}

Value *py_int_neg(Ctx *cx, int64_t x)
{
    int64_t r;
    if (!core_int_arith(CORE_SUB, 0, x, &r))
        return cx_raise(cx, "OverflowError", "integer result beyond 64 bits");
    return v_int(r);
}

Value *py_binop(Py *py, int op, Value *x, Value *y)
{
    Ctx *cx = py->cx;
    bool seqx = x->type == V_TUPLE && !(x->flags & V_FLAG_RANGE), seqy = y->type == V_TUPLE && !(y->flags & V_FLAG_RANGE);
    if (op == PY_ADD && seqx && seqy && ((x->flags ^ y->flags) & V_FLAG_LIST) == 0) {
        size_t a = x->u.tup.len, b = y->u.tup.len;
        Value **items = malloc((a + b + 1) * sizeof *items);
        if (a)
            memcpy(items, v_titems(x), a * sizeof *items);
        if (b)
            memcpy(items + a, v_titems(y), b * sizeof *items);
        Value *t = x->flags & V_FLAG_LIST ? py_new_list(items, a + b) : v_tuple_from(items, a + b);
        free(items);
        return t;
    }
    if (op == PY_ADD && seqx)
        return cx_raise(cx, "TypeError", "can only concatenate %s (not \"%s\") to %s", v_typename(x),
                        v_typename(y), v_typename(x));
    if (op == PY_ADD && x->type == V_STR && y->type == V_STR) {
        char *s = malloc(x->u.str.len + y->u.str.len + 1);
        memcpy(s, x->u.str.s, x->u.str.len);
        memcpy(s + x->u.str.len, y->u.str.s, y->u.str.len);
        Value *r = v_str(s, x->u.str.len + y->u.str.len);
        free(s);
        return r;
    }
    if (op == PY_MUL && seqx && v_is_int(y))
        return repeat(py, x, y);
    if (op == PY_MUL && seqy && v_is_int(x))
        return repeat(py, y, x);
    /* a sequence's repeat is tried first, with the other side as its count */
    bool strx = x->type == V_STR, stry = y->type == V_STR;
    if (op == PY_MUL && ((seqx || strx) ? !v_is_int(y) : (seqy || stry) && !v_is_int(x)))
        return cx_raise(cx, "TypeError", "can't multiply sequence by non-int of type '%s'",
                        v_typename(seqx || strx ? y : x));
    bool bits = op == PY_BITOR || op == PY_BITXOR || op == PY_BITAND;
    if ((op == PY_SUB || bits) && x->type == V_FSET && y->type == V_FSET) {
        Value *r = op == PY_SUB ? fs_sub(x, y) : op == PY_BITOR ? fs_or(x, y)
                 : op == PY_BITAND ? fs_and(x, y) : fs_xor(x, y);
        /* the left side's type: a set's result is a set, a frozenset's a frozenset */
        if (!(x->flags & V_FLAG_SET) || (r->flags & V_FLAG_SET))
            return r;
        if (!r->u.set.len) {
            v_decref(r);
            return py_new_set(cx, NULL, 0, true);
        }
        r->flags |= V_FLAG_SET;         /* fs_* made it: a new value */
        return r;
    }
    if (bits) {                         /* ints and bools only; two bools give a bool */
        if (!v_is_int(x) || !v_is_int(y))
            return cx_raise(cx, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'",
                            op_sym(op), v_typename(x), v_typename(y));
        int64_t a = x->u.i, b = y->u.i;
        int64_t r = op == PY_BITOR ? a | b : op == PY_BITAND ? a & b : a ^ b;
        return x->type == V_BOOL && y->type == V_BOOL ? v_bool(r != 0) : v_int(r);
    }
    if (!v_is_number(x) || !v_is_number(y))
        return cx_raise(cx, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'",
                        op == PY_POW ? "** or pow()" : op_sym(op), v_typename(x), v_typename(y));
    bool ints = x->type != V_FLOAT && y->type != V_FLOAT;
    if (op == PY_DIV) {
        if (fl(y) == 0)
            return cx_raise(cx, "ZeroDivisionError", "division by zero");
        return v_float(fl(x) / fl(y));
    }
    if (ints) {
        static const int core_op[] = {[PY_ADD] = CORE_ADD, [PY_SUB] = CORE_SUB, [PY_MUL] = CORE_MUL,
                                      [PY_FLOORDIV] = CORE_FLOORDIV, [PY_MOD] = CORE_MOD};
        int64_t a = x->u.i, b = y->u.i, r = 1;
        if ((op == PY_FLOORDIV || op == PY_MOD) && b == 0)
            return cx_raise(cx, "ZeroDivisionError", op == PY_MOD ? "integer modulo by zero"
                                                                  : "integer division or modulo by zero");
        if (op == PY_POW && b < 0) {
            if (a == 0)
                return cx_raise(cx, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
            return v_float(pow((double)a, (double)b));
        }
        bool fits = true;
        if (op != PY_POW)
            fits = core_int_arith(core_op[op], a, b, &r);
        else if (a == 0 || a == 1 || a == -1)
            r = b == 0 || (a == -1 && b % 2 == 0) ? 1 : a;
        else            /* |a| >= 2 leaves 64 bits within 63 steps */
            for (int64_t k = 0; k < b && fits; k++)
                fits = !__builtin_mul_overflow(r, a, &r);
        if (!fits)      /* as the DSL's own arithmetic (ints are 64-bit) */
            return cx_raise(cx, "OverflowError", "integer result beyond 64 bits");
        return v_int(r);
    }
    double a = fl(x), b = fl(y);
    switch (op) {
    case PY_ADD: return v_float(a + b);
    case PY_SUB: return v_float(a - b);
    case PY_MUL: return v_float(a * b);
    case PY_FLOORDIV: case PY_MOD: {
        if (b == 0)
            return cx_raise(cx, "ZeroDivisionError", op == PY_MOD ? "float modulo" : "float floor division by zero");
        return v_float(op == PY_MOD ? core_float_mod(a, b) : core_float_floordiv(a, b));
    }
    case PY_POW:
        if (a == 0 && b < 0)
            return cx_raise(cx, "ZeroDivisionError", "0.0 cannot be raised to a negative power");
        return v_float(pow(a, b));
    }
    return cx_raise(cx, "SystemError", "operator %d", op);
}

static int contains(Py *py, Value *item, Value *in)
{
    if (in->type == V_STR) {
        if (item->type != V_STR) {
            cx_raise(py->cx, "TypeError", "'in <string>' requires string as left operand, not %s",
                     v_typename(item));
            return -1;
        }
        return memmem(in->u.str.s, in->u.str.len, item->u.str.s, item->u.str.len) != NULL;
    }
    if (in->type == V_FSET) {
        if (item->type == V_FSET && (item->flags & V_FLAG_SET)) {
            /* CPython looks a set up as the frozenset of its items */
            Value *key = fs_copy(item);
            int r = fs_contains(in, key);
            v_decref(key);
            return r;
        }
        if (!v_hashable(py->cx, item))
            return -1;
        return fs_contains(in, item);
    }
    if (!v_is_container(in)) {
        cx_raise(py->cx, "TypeError", "argument of type '%s' is not iterable", v_typename(in));
        return -1;
    }
    Value *all = py_items_of(py->cx, in);
    if (!all)
        return -1;
    int r = 0;
    for (size_t i = 0; !r && i < all->u.tup.len; i++)
        r = v_titems(all)[i] == item || v_eq(v_titems(all)[i], item);
    v_decref(all);
    return r;
}

int py_compare(Py *py, int op, Value *a, Value *b)
{
    switch (op) {
    case PY_EQ: return v_eq_checked(py->cx, a, b);
    case PY_NE: { int r = v_eq_checked(py->cx, a, b); return r < 0 ? r : !r; }
    case PY_LT: return v_richcmp(py->cx, a, b, CMP_LT);
    case PY_LE: return v_richcmp(py->cx, a, b, CMP_LE);
    case PY_GT: return v_richcmp(py->cx, a, b, CMP_GT);
    case PY_GE: return v_richcmp(py->cx, a, b, CMP_GE);
    case PY_IN: return contains(py, a, b);
    case PY_NOT_IN: { int r = contains(py, a, b); return r < 0 ? r : !r; }
    case PY_IS: return a == b;
    default: return a != b;
    }
}
