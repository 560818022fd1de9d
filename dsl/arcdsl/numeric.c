/* numeric.c -- arc-dsl arithmetic and logic primitives.
 *
 * "Numerical" arguments are ints (bools included: Python's bool is an int)
 * or pairs, and binary ops broadcast: int op int, pair op pair, int op pair,
 * pair op int.  The pair branches only index [0] and [1], so the element
 * operations are Python's generic ones (a pair of pairs adds by tuple
 * concatenation); anything else raises the TypeError/IndexError Python
 * would.  Division is floor division, as `//`.
 */
#include <math.h>

#include "prim.h"
#include "common/core_util.h"
#include "common/binop.h"
#include "common/grid_util.h"

enum { OP_ADD = CORE_ADD, OP_SUB = CORE_SUB, OP_MUL = CORE_MUL, OP_FLOORDIV = CORE_FLOORDIV,
       OP_MOD = CORE_MOD };

/* Python's binary x OP y (common/binop.h); an empty tuple side of + is
 * the other, as CPython's concat gives it. */
static inline Value *binop(Ctx *cx, int op, Value *x, Value *y)
{
    return cm_binop(cx, op, x, y, true);
}

static Value *neg(Ctx *cx, Value *x)
{
    if (v_is_int(x)) {
        if (x->u.i == INT64_MIN)
            return core_overflow(cx);
        return v_int(-x->u.i);
    }
    if (x->type == V_FLOAT)
        return v_float(-x->u.f);
    return cx_raise(cx, "TypeError", "bad operand type for unary -: '%s'", v_typename(x));
}

/* v[0] and v[1] of a tuple whose first two items are ints (or bools),
 * as the pair branches read them. */
static inline bool int_pair(const Value *v, int64_t o[2])
{
    if (v->type != V_TUPLE || v->u.tup.len < 2)
        return false;
    Value *const *it = v_titems(v);
    if (!v_is_int(it[0]) || !v_is_int(it[1]))
        return false;
    o[0] = it[0]->u.i;
    o[1] = it[1]->u.i;
    return true;
}

/* The four-way broadcast of add/subtract/multiply/divide. */
static Value *bcast(Ctx *cx, int op, Value *a, Value *b)
{
    if (v_is_int(a) && v_is_int(b))
        return binop(cx, op, a, b);
    /* ints on both sides of both items: the pair made at once; a divide
     * by zero or an overflow goes the general way, for its error */
    int64_t x[2], y[2], z[2];
    bool pa = int_pair(a, x), pb = int_pair(b, y);
    if ((pa || v_is_int(a)) && (pb || v_is_int(b))) {
        if (!pa)
            x[0] = x[1] = a->u.i;
        if (!pb)
            y[0] = y[1] = b->u.i;
        if ((op == OP_ADD || op == OP_SUB || op == OP_MUL || (y[0] && y[1])) &&
            core_int_arith(op, x[0], y[0], &z[0]) && core_int_arith(op, x[1], y[1], &z[1]))
            return v_pair_int(z[0], z[1]);
    }
    bool ta = a->type == V_TUPLE && b->type == V_TUPLE;
    bool ia = !ta && v_is_int(a) && b->type == V_TUPLE;
    Value *r[2] = {NULL, NULL};
    for (size_t k = 0; k < 2; k++) {
        Value *x = ia ? a : gu_getitem(cx, a, k);
        if (!x) goto fail;
        Value *y = (ta || ia) ? gu_getitem(cx, b, k) : b;
        if (!y) goto fail;
        if (!(r[k] = binop(cx, op, x, y))) goto fail;
    }
    return v_pair_steal(r[0], r[1]);
fail:
    v_decref(r[0]);
    return NULL;
}

/* `f(n) if isinstance(n, int) else (f(n[0]), f(n[1]))` */
typedef Value *(*UnaryFn)(Ctx *cx, Value *x);

/* Inlined into each primitive, so that f is a direct call on an int. */
static inline __attribute__((always_inline)) Value *unary_map(Ctx *cx, Value *n, UnaryFn f)
{
    if (v_is_int(n))
        return f(cx, n);
    Value *r[2] = {NULL, NULL};
    for (size_t k = 0; k < 2; k++) {
        Value *x = gu_getitem(cx, n, k);
        if (!x || !(r[k] = f(cx, x))) {
            v_decref(r[0]);
            return NULL;
        }
    }
    return v_pair_steal(r[0], r[1]);
}

static Value *u_neg(Ctx *cx, Value *x) { return neg(cx, x); }
static Value *u_double(Ctx *cx, Value *x) { return binop(cx, OP_MUL, x, v_int(2)); }
static Value *u_halve(Ctx *cx, Value *x) { return binop(cx, OP_FLOORDIV, x, v_int(2)); }
static Value *u_inc(Ctx *cx, Value *x) { return binop(cx, OP_ADD, x, v_int(1)); }
static Value *u_dec(Ctx *cx, Value *x) { return binop(cx, OP_SUB, x, v_int(1)); }

/* `0 if x == 0 else (pos if x > 0 else neg)` */
static Value *signlike(Ctx *cx, Value *x, bool crement)
{
    Value *zero = v_int(0);
    if (v_eq(x, zero))
        return zero;
    int gt = v_richcmp(cx, x, zero, CMP_GT);
    if (gt < 0)
        return NULL;
    if (crement)
        return binop(cx, gt ? OP_ADD : OP_SUB, x, v_int(1));
    return v_int(gt ? 1 : -1);
}

static Value *u_crement(Ctx *cx, Value *x) { return signlike(cx, x, true); }
static Value *u_sign(Ctx *cx, Value *x) { return signlike(cx, x, false); }

/* ---- primitives --------------------------------------------------------- */

Value *ad_identity(Ctx *cx, Value *const *a) { (void)cx; return v_incref(a[0]); }
Value *ad_add(Ctx *cx, Value *const *a) { return bcast(cx, OP_ADD, a[0], a[1]); }
Value *ad_subtract(Ctx *cx, Value *const *a) { return bcast(cx, OP_SUB, a[0], a[1]); }
Value *ad_multiply(Ctx *cx, Value *const *a) { return bcast(cx, OP_MUL, a[0], a[1]); }
Value *ad_divide(Ctx *cx, Value *const *a) { return bcast(cx, OP_FLOORDIV, a[0], a[1]); }
Value *ad_invert(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_neg); }
Value *ad_double(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_double); }
Value *ad_halve(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_halve); }
Value *ad_increment(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_inc); }
Value *ad_decrement(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_dec); }
Value *ad_crement(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_crement); }
Value *ad_sign(Ctx *cx, Value *const *a) { return unary_map(cx, a[0], u_sign); }

Value *ad_even(Ctx *cx, Value *const *a)
{
    if (v_is_int(a[0]))         /* x % 2 == 0 is the low bit, negatives too */
        return v_bool(!(a[0]->u.i & 1));
    Value *m = binop(cx, OP_MOD, a[0], v_int(2));
    if (!m)
        return NULL;
    bool r = v_eq(m, v_int(0));
    v_decref(m);
    return v_bool(r);
}

Value *ad_flip(Ctx *cx, Value *const *a) { (void)cx; return v_bool(!v_truthy(a[0])); }
Value *ad_equality(Ctx *cx, Value *const *a)
{
    int eq = v_eq_checked(cx, a[0], a[1]);
    return eq < 0 ? NULL : v_bool(eq);
}

static Value *cmp_bool(Ctx *cx, Value *x, Value *y, int op)
{
    int r = v_richcmp(cx, x, y, op);
    return core_bool(r);
}

Value *ad_greater(Ctx *cx, Value *const *a) { return cmp_bool(cx, a[0], a[1], CMP_GT); }
Value *ad_positive(Ctx *cx, Value *const *a) { return cmp_bool(cx, a[0], v_int(0), CMP_GT); }

Value *ad_toivec(Ctx *cx, Value *const *a) { (void)cx; return v_tuple2(a[0], v_int(0)); }
Value *ad_tojvec(Ctx *cx, Value *const *a) { (void)cx; return v_tuple2(v_int(0), a[0]); }
Value *ad_astuple(Ctx *cx, Value *const *a) { (void)cx; return v_tuple2(a[0], a[1]); }

/* `a and b`, `a or b`: the operand itself, not a bool */
Value *ad_both(Ctx *cx, Value *const *a) { (void)cx; return v_incref(v_truthy(a[0]) ? a[1] : a[0]); }
Value *ad_either(Ctx *cx, Value *const *a) { (void)cx; return v_incref(v_truthy(a[0]) ? a[0] : a[1]); }

/* tuple(range(start, stop, step)) */
Value *ad_interval(Ctx *cx, Value *const *a)
{
    for (int k = 0; k < 3; k++)
        if (!v_is_int(a[k]))
            return cx_raise(cx, "TypeError", "'%s' object cannot be interpreted as an integer",
                            v_typename(a[k]));
    int64_t start = a[0]->u.i, stop = a[1]->u.i, step = a[2]->u.i;
    if (step == 0)
        return cx_raise(cx, "ValueError", "range() arg 3 must not be zero");
    uint64_t n = 0;
    if (step > 0 && start < stop)
        n = ((uint64_t)stop - (uint64_t)start - 1) / (uint64_t)step + 1;
    else if (step < 0 && start > stop)
        n = ((uint64_t)start - (uint64_t)stop - 1) / (0 - (uint64_t)step) + 1;
    if (!core_work(cx, n))
        return NULL;
    Value *t = v_tuple_new((size_t)n);
    for (uint64_t i = 0; i < n; i++)
        v_titems(t)[i] = v_int((int64_t)((uint64_t)start + i * (uint64_t)step));
    return t;
}
