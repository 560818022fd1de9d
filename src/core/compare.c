/* compare.c -- Python's == and rich comparisons on DSL values (value.h). */
#include "value.h"
#include "vgrid.h"
#include "fsproduct.h"
#include "fsrecipe.h"
#include "pyset.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double as_double(const Value *v)
{
    return v->type == V_FLOAT ? v->u.f : (double)v->u.i;
}

/* -1, 0, 1; NaN compares unordered (2). */
static int num_cmp(const Value *a, const Value *b)
{
    if (a->type != V_FLOAT && b->type != V_FLOAT)
        return (a->u.i > b->u.i) - (a->u.i < b->u.i);
    double x = as_double(a), y = as_double(b);
    if (x != x || y != y)
        return 2;
    return (x > y) - (x < y);
}

/* Both hashes known and different: the values differ.  Another thread may
 * be publishing either hash (pyhash.c), hence the atomic loads. */
static inline bool known_unequal_hashes(const Value *a, const Value *b)
{
    return __atomic_load_n(&a->hashed, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&b->hashed, __ATOMIC_ACQUIRE) &&
           __atomic_load_n(&a->hash, __ATOMIC_RELAXED) != __atomic_load_n(&b->hash, __ATOMIC_RELAXED);
}

static bool eq_same_type(const Value *a, const Value *b);

/* Equality recurses a level per pair of containers compared inside
 * another; eq_depth counts the levels under way on this thread.  Where a
 * program compares (eq_bounded), eq_limit is where CPython's recursion
 * limit falls: a level past it stops the comparison, unequal, with
 * eq_overflow set, and the caller raises RecursionError.  Elsewhere
 * (eq_checked false) tuples past EQ_DEEP levels compare from a stack of
 * their own, as a program can nest a value one level per line, far past
 * what C's stack holds; frozensets, whose members are found by probing,
 * stop unequal past EQ_FSET_MAX levels (overflow set, nobody to raise). */
enum { EQ_DEEP = 256, EQ_FSET_MAX = 2000, EQ_ON_STACK = 32 };
static _Thread_local int eq_depth, eq_limit;
static _Thread_local bool eq_checked, eq_overflow;

/* Whether to compare no further: past max levels, or after another
 * level's overflow, which stops the whole comparison as CPython's
 * exception would (a set's probe would try other slots). */
static bool stop_deep(int max)
{
    if (!eq_checked && eq_depth == 0)
        eq_overflow = false;            /* a comparison of its own */
    if (eq_overflow)
        return true;
    if (eq_depth < max)
        return false;
    eq_overflow = true;
    return true;
}

/* Two tuples compared item by item by eq_same_type's rule, not v_eq's
 * type dispatch: lists and ranges are not tuples, byte grids compare as
 * bytes. */
static bool plain_tuples(const Value *a, const Value *b)
{
    return a->type == V_TUPLE && b->type == V_TUPLE &&
           !((a->flags ^ b->flags) & (V_FLAG_LIST | V_FLAG_RANGE)) && !vg_is(a) && !vg_is(b);
}

typedef struct {
    const Value *a, *b;
    size_t i;
} EqFrame;

static bool eq_tuples_deep(const Value *a, const Value *b)
{
    EqFrame own[EQ_ON_STACK], *st = own;
    size_t n = 0, cap = EQ_ON_STACK;
    bool eq = true;
    st[n++] = (EqFrame){a, b, 0};
    while (eq && n) {
        EqFrame *f = &st[n - 1];
        if (f->i == f->a->u.tup.len) {
            n--;
            continue;
        }
        Value *x = v_titems(f->a)[f->i], *y = v_titems(f->b)[f->i];
        f->i++;
        if (x == y)                     /* identity first, as Python's containers */
            continue;
        if (!plain_tuples(x, y)) {
            eq = v_eq(x, y);
            continue;
        }
        if (x->u.tup.len != y->u.tup.len || known_unequal_hashes(x, y)) {
            eq = false;
            continue;
        }
        if (n == cap)
            st = xstack_grow(st, own, &cap, sizeof *st);
        st[n++] = (EqFrame){x, y, 0};
    }
    if (st != own)
        free(st);
    return eq;
}

bool v_eq(const Value *a, const Value *b)
{
    if (a == b)
        return a->type != V_FLOAT || a->u.f == a->u.f;   /* nan is nan: identity wins */
    if (v_is_number(a) && v_is_number(b))
        return num_cmp(a, b) == 0;
    if (a->type != b->type)
        return false;
    return eq_same_type(a, b);
}

static bool fset_items_eq(const Value *a, const Value *b)
{
    bool eq;
    if (fs_recipe_eq(a, b, &eq))
        return eq;
    /* an item that is b's item at the same place is in b (containment
     * tests identity first): equal sets built alike, from interned
     * cells, answer without a probe */
    Value *const *x = v_items(a), *const *y = NULL;
    if (!(__atomic_load_n(&b->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        y = b->u.set.items;                 /* an unbuilt b's items stay unmade */
    for (size_t i = 0; i < a->u.set.len; i++)
        if ((!y || x[i] != y[i]) && !fs_contains(b, x[i]))
            return false;
    return true;
}

/* Out of line: its loops keep registers that the checks above need not
 * save. */
static __attribute__((noinline)) bool eq_same_type(const Value *a, const Value *b)
{
    /* a list is never a tuple; a set may equal a frozenset, as in Python */
    if (a->type == V_TUPLE && ((a->flags ^ b->flags) & (V_FLAG_LIST | V_FLAG_RANGE)))
        return false;
    switch (a->type) {
    case V_STR:
        return a->u.str.len == b->u.str.len &&
               memcmp(a->u.str.s, b->u.str.s, a->u.str.len) == 0;
    case V_TUPLE:
        if (a->u.tup.len != b->u.tup.len)
            return false;
        if (known_unequal_hashes(a, b))
            return false;
        if (vg_is(a) || vg_is(b))
            return vg_is(a) ? vg_eq(a, b) : vg_eq(b, a);
        if (stop_deep(eq_checked ? eq_limit : INT_MAX))
            return false;
        if (!eq_checked && eq_depth >= EQ_DEEP)
            return eq_tuples_deep(a, b);
        eq_depth++;
        for (size_t i = 0; i < a->u.tup.len; i++) {
            Value *x = v_titems(a)[i], *y = v_titems(b)[i];
            /* Python compares container items with identity first */
            if (x != y && !v_eq(x, y)) {
                eq_depth--;
                return false;
            }
        }
        eq_depth--;
        return true;
    case V_FSET: {
        if (a->u.set.len != b->u.set.len)
            return false;
        if (known_unequal_hashes(a, b))
            return false;
        if (stop_deep(eq_checked ? eq_limit : EQ_FSET_MAX))
            return false;
        eq_depth++;
        bool eq = fset_items_eq(a, b);
        eq_depth--;
        return eq;
    }
    default:
        return false;   /* None, functions: identity only */
    }
}

/* ---- comparisons a program makes: CPython's recursion limit ------------- */

/* CPython enters a recursion level per pair of tuples it compares inside
 * another, on the count its calls share: what the calls under way leave. */
static int cmp_levels_left(void)
{
    return V_CALL_DEPTH_MAX - v_call_depth;
}

static int raise_too_deep(Ctx *cx)
{
    cx_raise(cx, "RecursionError", "maximum recursion depth exceeded in comparison");
    return -1;
}

/* a == b within `left` more levels: 1/0, or -1 past them. */
static int eq_bounded(const Value *a, const Value *b, int left)
{
    int limit = eq_limit;
    bool checked = eq_checked, overflow = eq_overflow;
    eq_limit = eq_depth + (left > 0 ? left : 0);
    eq_checked = true;
    eq_overflow = false;
    int r = v_eq(a, b);
    if (eq_overflow)
        r = -1;
    eq_limit = limit;
    eq_checked = checked;
    eq_overflow = overflow;
    return r;
}

int v_eq_checked(Ctx *cx, const Value *a, const Value *b)
{
    int r = eq_bounded(a, b, cmp_levels_left());
    return r < 0 ? raise_too_deep(cx) : r;
}

static int cmp_result(int c, int op)
{
    switch (op) {
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_GT: return c > 0;
    default:     return c >= 0;
    }
}

static const char *op_symbol(int op)
{
    static const char *s[] = {"<", "<=", ">", ">="};
    return s[op];
}

static bool fs_subset(const Value *a, const Value *b)
{
    if (a->u.set.len > b->u.set.len)
        return false;
    for (size_t i = 0; i < a->u.set.len; i++)
        if (!fs_contains(b, v_items(a)[i]))
            return false;
    return true;
}

/* Two tuples that order item by item: a list does not order against a
 * tuple, nor a range against anything. */
static bool tuples_order(const Value *a, const Value *b)
{
    return a->type == V_TUPLE && b->type == V_TUPLE &&
           !((a->flags | b->flags) & V_FLAG_RANGE) && !((a->flags ^ b->flags) & V_FLAG_LIST);
}

/* Tuples order by their first unequal items: down a level per tuple pair,
 * in a loop, until CPython's recursion limit. */
static int tuple_cmp(Ctx *cx, const Value *a, const Value *b, int op)
{
    for (int left = cmp_levels_left(); left > 0; left--) {
        size_t n = a->u.tup.len < b->u.tup.len ? a->u.tup.len : b->u.tup.len, i = 0;
        Value *x = NULL, *y = NULL;
        for (; i < n; i++) {
            x = v_titems(a)[i], y = v_titems(b)[i];
            int r = x == y ? 1 : eq_bounded(x, y, left - 1);
            if (r < 0)
                return raise_too_deep(cx);
            if (!r)
                break;
        }
        if (i == n) {
            int c = (a->u.tup.len > b->u.tup.len) - (a->u.tup.len < b->u.tup.len);
            return cmp_result(c, op);
        }
        if (!tuples_order(x, y))
            return v_richcmp(cx, x, y, op);     /* other types, or its TypeError */
        a = x, b = y;
    }
    return raise_too_deep(cx);
}

int v_richcmp(Ctx *cx, const Value *a, const Value *b, int op)
{
    if (v_is_number(a) && v_is_number(b)) {
        int c = num_cmp(a, b);
        return c == 2 ? 0 : cmp_result(c, op);
    }
    if (a->type == b->type) {
        switch (a->type) {
        case V_STR: {
            size_t n = a->u.str.len < b->u.str.len ? a->u.str.len : b->u.str.len;
            int c = memcmp(a->u.str.s, b->u.str.s, n);
            if (c == 0)
                c = (a->u.str.len > b->u.str.len) - (a->u.str.len < b->u.str.len);
            return cmp_result(c, op);
        }
        case V_TUPLE:
            if (!tuples_order(a, b))
                break;
            return tuple_cmp(cx, a, b, op);
        case V_FSET:
            /* Sets order by inclusion: a partial order. */
            switch (op) {
            case CMP_LT: return a->u.set.len < b->u.set.len && fs_subset(a, b);
            case CMP_LE: return fs_subset(a, b);
            case CMP_GT: return a->u.set.len > b->u.set.len && fs_subset(b, a);
            default:     return fs_subset(b, a);
            }
        default:
            break;
        }
    }
    cx_raise(cx, "TypeError",
             "'%s' not supported between instances of '%s' and '%s'",
             op_symbol(op), v_typename(a), v_typename(b));
    return -1;
}

