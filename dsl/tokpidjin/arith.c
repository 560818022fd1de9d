/* arith.c -- tokpidjin arithmetic, combine and closures (bind, power). */
#include <math.h>
#include "tokpidjin/core_util.h"
#include "common/closures.h"
#include "common/binop.h"

/* ---- arithmetic --------------------------------------------------------- */

enum { OP_ADD = CORE_ADD, OP_SUB = CORE_SUB, OP_MUL = CORE_MUL, OP_DIV = CORE_FLOORDIV };

/* Python's x OP y (common/binop.h); + of tuples always copies, charged. */
static inline Value *binop(Ctx *cx, int op, Value *x, Value *y)
{
    return cm_binop(cx, op, x, y, false);
}

/* (f(x0, y0), f(x1, y1)) with xk = x[k] when x is a tuple, else x itself. */
static Value *binop_pair(Ctx *cx, int op, Value *x, bool xt, Value *y, bool yt)
{
    Value *r[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        Value *a = xt ? subscript(cx, x, k) : v_incref(x);
        Value *b = a && yt ? subscript(cx, y, k) : a ? v_incref(y) : NULL;
        r[k] = b ? binop(cx, op, a, b) : NULL;
        v_decref(a);
        v_decref(b);
        if (!r[k]) {
            v_decref(r[0]);
            return NULL;
        }
    }
    return v_pair_steal(r[0], r[1]);
}

/* add/subtract/multiply/divide: `()` stands for the identity element;
 * int OP int, pair OP pair, int OP pair and pair OP scalar. */
static Value *numerical(Ctx *cx, Value *const *av, int op)
{
    Value *unit = v_int(op == OP_MUL || op == OP_DIV ? 1 : 0);
    Value *a = av[0], *b = av[1];
    if (b->type == V_TUPLE && b->u.tup.len == 0)
        b = unit;
    if (a->type == V_TUPLE && a->u.tup.len == 0)
        a = unit;
    if (v_is_int(a) && v_is_int(b))
        return binop(cx, op, a, b);
    if (a->type == V_TUPLE && b->type == V_TUPLE)
        return binop_pair(cx, op, a, true, b, true);
    if (v_is_int(a) && b->type == V_TUPLE)
        return binop_pair(cx, op, a, false, b, true);
    return binop_pair(cx, op, a, true, b, false);
}

Value *tk_add(Ctx *cx, Value *const *a) { return numerical(cx, a, OP_ADD); }
Value *tk_subtract(Ctx *cx, Value *const *a) { return numerical(cx, a, OP_SUB); }
Value *tk_multiply(Ctx *cx, Value *const *a) { return numerical(cx, a, OP_MUL); }
Value *tk_divide(Ctx *cx, Value *const *a) { return numerical(cx, a, OP_DIV); }

/* ---- closures ----------------------------------------------------------- */

Value *tk_rbind(Ctx *cx, Value *const *a) { return cm_bind(cx, a, true, "rbind.<locals>.f", PRIM_TK_rbind); }
Value *tk_lbind(Ctx *cx, Value *const *a) { return cm_bind(cx, a, false, "lbind.<locals>.f", PRIM_TK_lbind); }

/* power(f, n) = compose(f, power(f, n - 1)) down to n == 1: calling it
 * applies f n times.  kind 1: the recursion never reached 1 (n < 1,
 * fractional, or past Python's stack), where the innermost default is the
 * non-callable () and the chain raises TypeError when called. */
#define POWER_MAX 500   /* deepest power() recursion that fits CPython's 1000 frames */

static Value *power_inv(Ctx *cx, Value *self, Value *const *argv)
{
    if (self->u.fn.kind == 1)
        return cx_raise(cx, "TypeError", "'tuple' object is not callable");
    Value *cur = v_incref(argv[0]);
    for (int64_t i = CAP(self, 1)->u.i; i > 0; i--) {
        Value *nxt = tk_call1(cx, CAP(self, 0), cur);
        v_decref(cur);
        if (!nxt)
            return NULL;
        cur = nxt;
    }
    return cur;
}

Value *tk_power(Ctx *cx, Value *const *a)
{
    Value *f = a[0], *nv = a[1];
    if (!core_is_num(nv))   /* n - 1 raises before the inner call */
        return cx_raise(cx, "TypeError", "unsupported operand type(s) for -: '%s' and 'int'",
                        v_typename(nv));
    double d = core_as_f(nv);
    if (d == 1)
        return v_incref(f);
    bool whole = d == floor(d) && d > 1 && d < POWER_MAX;
    Value *cap[2] = {f, v_int(whole ? (int64_t)d : 0)};
    Value *r = cm_closure(power_inv, "compose.<locals>.<lambda>", PRIM_TK_compose, 1,
                          whole ? 0 : 1, 2, cap);
    v_decref(cap[1]);
    return r;
}

Value *tk_c_branch(Ctx *cx, Value *const *a)
{
    (void)cx;
    return v_incref(v_truthy(a[0]) ? a[1] : a[2]);
}

/* ---- combining ---------------------------------------------------------- */

/* a + b */
Value *tk_combine_t(Ctx *cx, Value *const *a) { return binop(cx, OP_ADD, a[0], a[1]); }

/* a | b */
Value *tk_combine_f(Ctx *cx, Value *const *a)
{
    Value *x = a[0], *y = a[1];
    if (x->type == V_FSET && y->type == V_FSET) {
        if (!core_work(cx, v_len(x) + v_len(y)))
            return NULL;
        return fs_or(x, y);
    }
    if (v_is_int(x) && v_is_int(y)) {
        int64_t r = x->u.i | y->u.i;
        return x->type == V_BOOL && y->type == V_BOOL ? v_bool(r) : v_int(r);
    }
    return cx_raise(cx, "TypeError", "unsupported operand type(s) for |: '%s' and '%s'",
                    v_typename(x), v_typename(y));
}

Value *tk_size(Ctx *cx, Value *const *a) { return ad_size(cx, a); }
Value *tk_repeat(Ctx *cx, Value *const *a) { return ad_repeat(cx, a); }
