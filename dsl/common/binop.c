/* binop.c -- binary arithmetic past two ints (binop.h). */
#include "prim.h"
#include "common/binop.h"

/* Python's float + - * // %. */
static Value *float_op(Ctx *cx, int op, double x, double y)
{
    switch (op) {
    case CORE_ADD: return v_float(x + y);
    case CORE_SUB: return v_float(x - y);
    case CORE_MUL: return v_float(x * y);
    default:
        break;
    }
    if (y == 0.0)
        return cx_raise(cx, "ZeroDivisionError",
                        op == CORE_MOD ? "float modulo" : "float floor division by zero");
    return v_float(op == CORE_MOD ? core_float_mod(x, y) : core_float_floordiv(x, y));
}

Value *cm_binop_other(Ctx *cx, int op, Value *x, Value *y, bool reuse)
{
    static const char *const sym[] = {"+", "-", "*", "//", "%"};
    if (core_is_num(x) && core_is_num(y))
        return float_op(cx, op, core_as_f(x), core_as_f(y));
    Value *r;
    if (core_seq_op(cx, op, x, y, reuse, "tuple too large", &r))
        return r;
    if (op == CORE_MUL && (x->type == V_TUPLE || y->type == V_TUPLE))
        return cx_raise(cx, "TypeError", "can't multiply sequence by non-int of type '%s'",
                        v_typename(x->type == V_TUPLE ? y : x));
    if (op == CORE_ADD && x->type == V_TUPLE)   /* tuple's own + refuses first */
        return cx_raise(cx, "TypeError", "can only concatenate tuple (not \"%s\") to tuple",
                        v_typename(y));
    return cx_raise(cx, "TypeError", "unsupported operand type(s) for %s: '%s' and '%s'",
                    sym[op], v_typename(x), v_typename(y));
}
