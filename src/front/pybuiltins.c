/* pybuiltins.c -- `arcrun eval`'s Python values (lists, sets, ranges as
 * flagged tuples and frozensets, value.h) and its builtins: len abs min max
 * sum sorted range tuple list frozenset set any all, as CPython's. */
#include "pyeval.h"
#include "pysort.h"

#include <math.h>

/* ---- values ------------------------------------------------------------------ */

/* Every list and set is an object of its own, [] and set() too: `[] is []`
 * is False.  So is every frozenset eval makes (CPython 3.11 shares no empty
 * one); the empty tuple is shared, as CPython's. */
Value *py_new_list(Value *const *items, size_t n)   /* borrows items */
{
    Value *t = n ? v_tuple_from(items, n) : v_tuple_new_empty_own();
    t->flags |= V_FLAG_LIST;
    return t;
}

Value *py_new_set(Ctx *cx, Value *const *items, size_t n, bool mutable)
{
    for (size_t i = 0; i < n; i++)
        if (!v_hashable(cx, items[i]))
            return NULL;
    Value *s;
    if (!n) {
        FsLayout lay;
        s = fs_layout(0, 7, &lay);
    } else {
        s = fs_from_items(items, n);
    }
    if (mutable)
        s->flags |= V_FLAG_SET;
    return s;
}

/* The items of an iterable as a tuple (new reference): containers, a
 * range, a str (its characters). */
Value *py_items_of(Ctx *cx, Value *v)
{
    if (v->type == V_TUPLE && (v->flags & V_FLAG_RANGE)) {
        int64_t a = v_titems(v)[0]->u.i, b = v_titems(v)[1]->u.i, s = v_titems(v)[2]->u.i;
        int64_t n = s > 0 ? (b > a ? (b - a + s - 1) / s : 0) : (a > b ? (a - b - s - 1) / -s : 0);
        if (n > 10000000)
            return cx_raise(cx, "MemoryError", "range too large for arcrun eval");
        Value *t = v_tuple_new((size_t)n);
        for (int64_t i = 0; i < n; i++)
            v_titems(t)[i] = v_int(a + i * s);
        return t;
    }
    if (v_is_container(v))
        return v_tuple_from(v_items(v), v_len(v));
    if (v->type == V_STR) {
        Value *t = v_tuple_new(v->u.str.len);
        for (size_t i = 0; i < v->u.str.len; i++)
            v_titems(t)[i] = v_str(v->u.str.s + i, 1);
        return t;
    }
    return cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(v));
}

/* ---- calls --------------------------------------------------------------------- */

_Thread_local Value *py_default;

static Value *b_len(Py *py, Value *const *a, int n, Value *key, bool rev)
{
    if (n != 1)
        return cx_raise(py->cx, "TypeError", "len() takes exactly one argument (%d given)", n);
    if (a[0]->type == V_STR)
        return v_int((int64_t)a[0]->u.str.len);
    if (a[0]->flags & V_FLAG_RANGE) {
        Value *t = py_items_of(py->cx, a[0]);
        Value *r = t ? v_int((int64_t)t->u.tup.len) : NULL;
        v_decref(t);
        return r;
    }
    if (!v_is_container(a[0]))
        return cx_raise(py->cx, "TypeError", "object of type '%s' has no len()", v_typename(a[0]));
    return v_int((int64_t)v_len(a[0]));
}

static Value *b_abs(Py *py, Value *const *a, int n, Value *key, bool rev)
{
    if (n != 1)
        return cx_raise(py->cx, "TypeError", "abs() takes exactly one argument (%d given)", n);
    if (a[0]->type == V_FLOAT)
        return v_float(fabs(a[0]->u.f));
    if (!v_is_int(a[0]))
        return cx_raise(py->cx, "TypeError", "bad operand type for abs(): '%s'", v_typename(a[0]));
    return a[0]->u.i < 0 ? py_int_neg(py->cx, a[0]->u.i) : v_int(a[0]->u.i);
}

/* min/max: one iterable or several arguments; key; the first extreme wins */
static Value *extreme(Py *py, Value *const *a, int n, Value *key, int op, const char *name)
{
    Value *all = n == 1 ? py_items_of(py->cx, a[0]) : v_tuple_from(a, (size_t)n);
    if (!all)
        return NULL;
    if (n == 1 && all->u.tup.len == 0 && py_default) {
        v_decref(all);
        return v_incref(py_default);
    }
    if (n == 0 || all->u.tup.len == 0) {
        v_decref(all);
        return cx_raise(py->cx, n == 0 ? "TypeError" : "ValueError",
                        n == 0 ? "%s expected at least 1 argument, got 0" : "%s() arg is an empty sequence",
                        name);
    }
    Value *best = NULL, *bk = NULL;
    for (size_t i = 0; i < all->u.tup.len; i++) {
        Value *x = v_titems(all)[i], *k = key ? v_call(py->cx, key, 1, &x) : v_incref(x);
        if (!k)
            goto fail;
        int better = best ? v_richcmp(py->cx, k, bk, op) : 1;
        if (better < 0) {
            v_decref(k);
            goto fail;
        }
        if (better) {
            v_decref(bk);
            bk = k;
            best = x;
        } else {
            v_decref(k);
        }
    }
    v_incref(best);
    v_decref(bk);
    v_decref(all);
    return best;
fail:
    v_decref(bk);
    v_decref(all);
    return NULL;
}

static Value *b_min(Py *py, Value *const *a, int n, Value *key, bool rev) { return extreme(py, a, n, key, CMP_LT, "min"); }
static Value *b_max(Py *py, Value *const *a, int n, Value *key, bool rev) { return extreme(py, a, n, key, CMP_GT, "max"); }


static Value *b_sum(Py *py, Value *const *a, int n, Value *key, bool rev)
{
    if (n < 1)
        return cx_raise(py->cx, "TypeError", "sum() takes at least 1 positional argument (0 given)");
    if (n > 2)
        return cx_raise(py->cx, "TypeError", "sum() takes at most 2 arguments (%d given)", n);
    Value *all = py_items_of(py->cx, a[0]);
    if (!all)
        return NULL;
    Value *acc = n == 2 ? v_incref(a[1]) : v_int(0);
    for (size_t i = 0; acc && i < all->u.tup.len; i++) {
        Value *next = py_binop(py, PY_ADD, acc, v_titems(all)[i]);
        v_decref(acc);
        acc = next;
    }
    v_decref(all);
    return acc;
}

static Value *b_sorted(Py *py, Value *const *a, int n, Value *key, bool reverse)
{
    if (n != 1)
        return cx_raise(py->cx, "TypeError", "sorted expected 1 argument, got %d", n);
    Value *all = py_items_of(py->cx, a[0]);
    if (!all)
        return NULL;
    size_t len = all->u.tup.len;
    SortItem *v = calloc(len + 1, sizeof *v);
    Value *r = NULL;
    size_t made = 0;
    for (; made < len; made++) {
        Value *x = v_titems(all)[made];
        v[made].val = x;
        if (!(v[made].key = key ? v_call(py->cx, key, 1, &x) : v_incref(x)))
            goto done;
    }
    if (py_sort(py->cx, v, len, reverse) == 0) {
        Value **vals = malloc((len + 1) * sizeof *vals);
        for (size_t i = 0; i < len; i++)
            vals[i] = v[i].val;
        r = py_new_list(vals, len);
        free(vals);
    }
done:
    for (size_t i = 0; i < made; i++)
        v_decref(v[i].key);
    free(v);
    v_decref(all);
    return r;
}

static Value *b_range(Py *py, Value *const *a, int n, Value *key, bool rev)
{
    if (n < 1 || n > 3)
        return cx_raise(py->cx, "TypeError", "range expected at least 1 argument, got %d", n);
    for (int i = 0; i < n; i++)
        if (!v_is_int(a[i]))
            return cx_raise(py->cx, "TypeError", "'%s' object cannot be interpreted as an integer",
                            v_typename(a[i]));
    int64_t start = n > 1 ? a[0]->u.i : 0, stop = n > 1 ? a[1]->u.i : a[0]->u.i, step = n > 2 ? a[2]->u.i : 1;
    if (step == 0)
        return cx_raise(py->cx, "ValueError", "range() arg 3 must not be zero");
    Value *t = v_tuple_new(3);
    v_titems(t)[0] = v_int(start);
    v_titems(t)[1] = v_int(stop);
    v_titems(t)[2] = v_int(step);
    t->flags |= V_FLAG_RANGE;
    return t;
}

static Value *from_iterable(Py *py, Value *const *a, int n, const char *name, int kind)
{
    if (n > 1)
        return cx_raise(py->cx, "TypeError", "%s expected at most 1 argument, got %d", name, n);
    if (kind >= 2 && n && a[0]->type == V_FSET && a[0]->u.set.len) {
        Value *r = fs_copy(a[0]);
        r->flags = (uint8_t)((r->flags & ~V_FLAG_SET) | (kind == 3 ? V_FLAG_SET : 0));
        return r;
    }
    Value *all = n ? py_items_of(py->cx, a[0]) : v_tuple_new(0);
    if (!all)
        return NULL;
    Value *r = kind == 0 ? v_incref(all)
             : kind == 1 ? py_new_list(v_titems(all), all->u.tup.len)
             : py_new_set(py->cx, v_titems(all), all->u.tup.len, kind == 3);
    v_decref(all);
    if (r && kind == 0 && r->flags & V_FLAGS_PY) {      /* tuple(a tuple) may hand back the same */
        Value *c = v_tuple_from(v_titems(r), r->u.tup.len);
        v_decref(r);
        r = c;
    }
    return r;
}

static Value *b_tuple(Py *py, Value *const *a, int n, Value *key, bool rev) { return from_iterable(py, a, n, "tuple", 0); }
static Value *b_list(Py *py, Value *const *a, int n, Value *key, bool rev) { return from_iterable(py, a, n, "list", 1); }
static Value *b_frozenset(Py *py, Value *const *a, int n, Value *key, bool rev)
{
    if (n == 1 && a[0]->type == V_FSET && !(a[0]->flags & V_FLAG_SET))
        return v_incref(a[0]);          /* frozenset(a frozenset) is itself */
    return from_iterable(py, a, n, "frozenset", 2);
}
static Value *b_set(Py *py, Value *const *a, int n, Value *key, bool rev) { return from_iterable(py, a, n, "set", 3); }

static Value *anyall(Py *py, Value *const *a, int n, bool any)
{
    if (n != 1)
        return cx_raise(py->cx, "TypeError", "%s() takes exactly one argument (%d given)", any ? "any" : "all", n);
    Value *all = py_items_of(py->cx, a[0]);
    if (!all)
        return NULL;
    bool r = !any;
    for (size_t i = 0; i < all->u.tup.len; i++)
        if (v_truthy(v_titems(all)[i]) == any) {
            r = any;
            break;
        }
    v_decref(all);
    return v_bool(r);
}

static Value *b_any(Py *py, Value *const *a, int n, Value *key, bool rev) { return anyall(py, a, n, true); }
static Value *b_all(Py *py, Value *const *a, int n, Value *key, bool rev) { return anyall(py, a, n, false); }

const PyBuiltin py_builtins[] = {
    {"len", b_len, 0, false}, {"abs", b_abs, 0, false},
    {"min", b_min, PY_KW_KEY | PY_KW_DEFAULT, false}, {"max", b_max, PY_KW_KEY | PY_KW_DEFAULT, false},
    {"sum", b_sum, PY_KW_START, false}, {"sorted", b_sorted, PY_KW_KEY | PY_KW_REVERSE, false},
    {"range", b_range, 0, true}, {"tuple", b_tuple, 0, true}, {"list", b_list, 0, true},
    {"frozenset", b_frozenset, 0, true}, {"set", b_set, 0, true},
    {"any", b_any, 0, false}, {"all", b_all, 0, false},
};
const int py_nbuiltins = sizeof py_builtins / sizeof py_builtins[0];
_Static_assert(sizeof py_builtins / sizeof py_builtins[0] <= PY_BUILTINS_MAX, "PY_BUILTINS_MAX");

int py_builtin_index(const char *name)
{
    for (int i = 0; i < py_nbuiltins; i++)
        if (strcmp(py_builtins[i].name, name) == 0)
            return i;
    return -1;
}

