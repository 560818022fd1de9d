/* tokpidjin primitives: core group (containers, filters, ranks, samples;
 * arithmetic and closures are in arith.c).
 *
 * Conventions of the reference (pierreb4/tokpidjin dsl.py) that shape this
 * file: every public function is wrapped so an Exception becomes its return
 * type's default, and the wrapping applies to nested DSL calls too, so a body
 * that calls another DSL function goes through tk_sub (the callee answers its
 * default and the outer body carries on).  Function arguments are called
 * with v_call (tk_call1).  Where a body builds `type(c)(genexpr)` the container type is
 * kept and frozensets are built by ADD-ALL in generator order.
 */
#include <math.h>

#include "tokpidjin/core_util.h"
#include "common/mshift.h"
#include "common/counts.h"

/* ---- apply family ------------------------------------------------------- */

Value *tk_apply_t(Ctx *cx, Value *const *a) { return core_map(cx, a[0], a[1], V_TUPLE, false, false); }
Value *tk_apply_f(Ctx *cx, Value *const *a) { return core_map(cx, a[0], a[1], a[1]->type, false, false); }
Value *tk_rapply_t(Ctx *cx, Value *const *a) { return core_map(cx, a[1], a[0], V_TUPLE, true, false); }
Value *tk_rapply_f(Ctx *cx, Value *const *a) { return core_map(cx, a[1], a[0], a[0]->type, true, false); }

/* outer(inner(args)) with both wrapped */
static Value *nest(Ctx *cx, int outer, int inner, int argc, Value *const *argv)
{
    Value *t = tk_sub(cx, inner, argc, argv);
    if (!t)
        return NULL;
    Value *r = tk_sub1(cx, outer, t);
    v_decref(t);
    return r;
}

Value *tk_mapply_t(Ctx *cx, Value *const *a)
{
    Value *r;
    if (cm_mapply_shifts(cx, a[0], a[1], false, &r) || tk_mapply_nb(cx, a[0], a[1], &r))
        return r;
    return nest(cx, PRIM_TK_merge_t, PRIM_TK_apply_t, 2, a);
}

Value *tk_mapply_f(Ctx *cx, Value *const *a) { return nest(cx, PRIM_TK_merge_f, PRIM_TK_apply_f, 2, a); }
Value *tk_mpapply(Ctx *cx, Value *const *a) { return nest(cx, PRIM_TK_merge_t, PRIM_TK_papply, 3, a); }
Value *tk_mfilter(Ctx *cx, Value *const *a) { return nest(cx, PRIM_TK_merge_f, PRIM_TK_sfilter, 2, a); }

Value *tk_merge(Ctx *cx, Value *const *a) { return core_merge(cx, a[0]); }

/* ---- filters ------------------------------------------------------------ */

/* condition(e) truthiness; -1 on error */
static int holds(Ctx *cx, Value *cond, Value *e)
{
    Value *r = tk_call1(cx, cond, e);
    if (!r)
        return -1;
    int k = v_truthy(r);
    v_decref(r);
    return k;
}

enum { KEEP_IF, KEEP_NE, KEEP_NOT_IN, KEEP_LEN };

static int keep(Ctx *cx, int how, Value *e, Value *arg)
{
    switch (how) {
    case KEEP_IF: return holds(cx, arg, e);
    case KEEP_NE: return !v_eq(e, arg);
    case KEEP_NOT_IN: {
        int r = core_contains(cx, arg, e);
        return r < 0 ? -1 : !r;
    }
    default:
        if (!v_is_container(e)) {
            cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(e));
            return -1;
        }
        Value *len = v_int((int64_t)v_len(e));
        int r = v_eq(len, arg);
        v_decref(len);
        return r;
    }
}

typedef struct {
    int how;
    Value *arg;
} KeepArg;

static int keep_by(Ctx *cx, Value *e, void *ud)
{
    const KeepArg *k = ud;
    return keep(cx, k->how, e, k->arg);
}

/* container `type` of e for e in c if keep(e) */
static Value *filter(Ctx *cx, Value *c, int type, int how, Value *arg)
{
    KeepArg k = {how, arg};
    return core_filter(cx, c, keep_by, &k, type);
}

Value *tk_sfilter_t(Ctx *cx, Value *const *a) { return filter(cx, a[0], V_TUPLE, KEEP_IF, a[1]); }
Value *tk_sfilter_f(Ctx *cx, Value *const *a) { return filter(cx, a[0], V_FSET, KEEP_IF, a[1]); }
/* no merge here: the reference keeps the filtered items as they are */
Value *tk_mfilter_t(Ctx *cx, Value *const *a) { return filter(cx, a[0], V_FSET, KEEP_IF, a[1]); }
Value *tk_remove_t(Ctx *cx, Value *const *a) { return filter(cx, a[1], V_TUPLE, KEEP_NE, a[0]); }
Value *tk_remove_f(Ctx *cx, Value *const *a) { return filter(cx, a[1], a[1]->type, KEEP_NE, a[0]); }
Value *tk_sizefilter_t(Ctx *cx, Value *const *a) { return filter(cx, a[0], V_TUPLE, KEEP_LEN, a[1]); }

Value *tk_difference_tuple(Ctx *cx, Value *const *a)
{
    return filter(cx, a[0], a[0]->type, KEEP_NOT_IN, a[1]);
}

/* next((e for e in c if condition(e)), frozenset()) */
Value *tk_extract(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    for (size_t i = 0; i < v_len(a[0]); i++) {
        Value *e = v_items(a[0])[i];
        int k = holds(cx, a[1], e);
        if (k < 0)
            return NULL;
        if (k)
            return v_incref(e);
    }
    return &v_empty_fset_;
}

/* the first e != value, else () */
Value *tk_other_t(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    for (size_t i = 0; i < v_len(a[0]); i++)
        if (!v_eq(v_items(a[0])[i], a[1]))
            return v_incref(v_items(a[0])[i]);
    return v_tuple_new(0);
}

/* next(iter(remove_f(value, c))) or frozenset(); remove_f keeps c's type
 * (and so its order) */
Value *tk_other_f(Ctx *cx, Value *const *a)
{
    Value *args[2] = {a[1], a[0]};
    Value *r = tk_sub(cx, PRIM_TK_remove_f, 2, args);
    if (!r)
        return NULL;
    Value *e = v_is_container(r) && v_len(r) ? v_incref(v_items(r)[0])
             : v_truthy(r) ? type_error(cx, "object is not an iterator", r)
             : &v_empty_fset_;
    v_decref(r);
    return e;
}

/* tuple((a, b) for a, b in S if a != b) */
Value *tk_dedupe_pair_tuple(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    Value *const *it = v_items(a[0]);
    VBuf b = {0};
    for (size_t i = 0, n = v_len(a[0]); i < n; i++) {
        Value *p = it[i];
        if (!v_is_container(p) || v_len(p) != 2) {
            vb_drop(&b);
            return v_is_container(p) ? cx_raise(cx, "ValueError", "expected 2 values to unpack")
                                     : type_error(cx, "cannot unpack non-iterable", p);
        }
        Value *x = v_items(p)[0], *y = v_items(p)[1];
        if (!v_eq(x, y) && !vb_push(cx, &b, v_tuple2(x, y)))
            return vb_drop(&b), NULL;
    }
    return vb_finish(cx, &b, V_TUPLE);
}

/* ---- first / last ------------------------------------------------------- */

/* next(iter(c), None) */
Value *tk_first(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    return v_len(a[0]) ? v_incref(v_items(a[0])[0]) : v_none();
}

/* next(it) (StopIteration when empty), then next(it, None) */
Value *tk_second(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    size_t n = v_len(a[0]);
    if (n == 0)
        return cx_raise(cx, "StopIteration", "%s", "");
    return n > 1 ? v_incref(v_items(a[0])[1]) : v_none();
}

/* `c[k] if c else ()` for a tuple: k = 0 or -1 */
static Value *index_or_empty(Ctx *cx, Value *c, int64_t k)
{
    if (!v_truthy(c))
        return v_tuple_new(0);
    return subscript(cx, c, k);
}

Value *tk_first_t(Ctx *cx, Value *const *a) { return index_or_empty(cx, a[0], 0); }
Value *tk_last_t(Ctx *cx, Value *const *a) { return index_or_empty(cx, a[0], -1); }

/* `first/last item if c else dflt`, c iterated (any container) */
static Value *end_or(Ctx *cx, Value *c, bool last, Value *dflt)
{
    if (!v_truthy(c))
        return dflt;
    if (!core_iterable(cx, c))
        return NULL;
    return v_incref(v_items(c)[last ? v_len(c) - 1 : 0]);
}

Value *tk_first_f(Ctx *cx, Value *const *a) { return end_or(cx, a[0], false, &v_empty_fset_); }
/* max(enumerate(c))[1]: the indices decide, so the last item */
Value *tk_last(Ctx *cx, Value *const *a) { return end_or(cx, a[0], true, v_tuple_new(0)); }
Value *tk_last_f(Ctx *cx, Value *const *a) { return end_or(cx, a[0], true, &v_empty_fset_); }

/* ---- most / least common ------------------------------------------------ */

/* The distinct items of `items` in the order of set(items) (ADD-ALL),
 * each with items.count(e), as owned (count, item) pairs; NULL on error. */
static TkKV *set_counts(Ctx *cx, Value *const *items, size_t n, size_t *np)
{
    if (!core_work(cx, n))
        return NULL;
    CountWalk w;
    cm_count_begin(&w, items, n);
    TkKV *kv = calloc(w.s.used ? w.s.used : 1, sizeof *kv);
    size_t k = 0, c;
    Value *key;
    while (kv && cm_count_next(&w, &key, &c)) {
        kv[k].key = v_int((int64_t)c);
        kv[k++].val = v_incref(key);
    }
    cm_count_end(&w);
    if (!kv)
        return cx_raise(cx, "MemoryError", "out of memory"), NULL;
    if (k > 64 && !core_work(cx, (uint64_t)n * k / 64)) {
        tk_kv_free(kv, k);
        return NULL;
    }
    *np = k;
    return kv;
}

/* max/min(set(list(c)), key=list(c).count); tuples only unless as_list */
static Value *common_extreme(Ctx *cx, Value *c, bool most, bool as_list)
{
    if (!core_iterable(cx, c))
        return NULL;
    if (!as_list && c->type != V_TUPLE)
        return cx_raise(cx, "AttributeError", "'%s' object has no attribute 'count'",
                        v_typename(c));
    size_t n = v_len(c), k;
    if (!core_work(cx, n))                    /* set_counts' charges, in its order */
        return NULL;
    Value *best = cm_count_extreme(v_items(c), n, most, &k);
    if (k > 64 && !core_work(cx, (uint64_t)n * k / 64))
        return NULL;
    if (!best)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence", most ? "max" : "min");
    return v_incref(best);
}

Value *tk_mostcommon_t(Ctx *cx, Value *const *a) { return common_extreme(cx, a[0], true, false); }
Value *tk_mostcommon_f(Ctx *cx, Value *const *a) { return common_extreme(cx, a[0], true, true); }
Value *tk_leastcommon_t(Ctx *cx, Value *const *a) { return common_extreme(cx, a[0], false, false); }
Value *tk_leastcommon_f(Ctx *cx, Value *const *a) { return common_extreme(cx, a[0], false, true); }

/* ---- nth and ranks ------------------------------------------------------ */

/* t[rank], nan when t is not a tuple or rank is out of range */
Value *tk_get_nth_t(Ctx *cx, Value *const *a)
{
    Value *t = a[0], *rank = a[1];
    if (t->type != V_TUPLE)
        return &tk_nan_;
    int r = in_range(cx, rank, t->u.tup.len);
    if (r < 0)
        return NULL;
    if (!r)
        return &tk_nan_;
    return want_int(cx, rank) ? subscript(cx, t, rank->u.i) : NULL;
}

/* rank-th item in iteration order (from the end when rank < 0), frozenset()
 * when there are not that many */
Value *tk_get_nth_f(Ctx *cx, Value *const *a)
{
    Value *c = a[0], *rank = a[1];
    Value *zero = v_int(0);
    int neg = v_richcmp(cx, rank, zero, CMP_LT);
    if (neg < 0)
        return NULL;
    if (!core_iterable(cx, c) || !want_int(cx, rank))
        return NULL;
    int64_t n = (int64_t)v_len(c), k = rank->u.i;
    int64_t idx = neg ? n + k : k;
    if (idx < 0 || idx >= n)
        return &v_empty_fset_;
    return v_incref(v_items(c)[idx]);
}

/* sorted(c, key=key) as owned pairs; c must be iterable */
static TkKV *sorted_of(Ctx *cx, Value *c, Value *key, bool reverse)
{
    if (!core_iterable(cx, c))
        return NULL;
    if (key && key->type == V_NONE)   /* sorted(c, key=None) */
        key = NULL;
    return tk_sorted(cx, v_items(c), v_len(c), key, reverse);
}

/* sorted(c, key=key)[rank] if any else None */
Value *tk_get_nth_by_key_t(Ctx *cx, Value *const *a)
{
    TkKV *kv = sorted_of(cx, a[0], a[2], false);
    if (!kv)
        return NULL;
    size_t n = v_len(a[0]);
    Value *r;
    if (n == 0)
        r = v_none();
    else if (!want_int(cx, a[1]))
        r = NULL;
    else {
        int64_t k = a[1]->u.i < 0 ? a[1]->u.i + (int64_t)n : a[1]->u.i;
        r = k >= 0 && k < (int64_t)n ? v_incref(kv[k].val)
          : cx_raise(cx, "IndexError", "list index out of range");
    }
    tk_kv_free(kv, n);
    return r;
}

/* skip rank items of sorted(c, key=key), then next(it, None) */
Value *tk_get_nth_by_key_f(Ctx *cx, Value *const *a)
{
    TkKV *kv = sorted_of(cx, a[0], a[2], false);
    if (!kv)
        return NULL;
    size_t n = v_len(a[0]);
    Value *r = NULL;
    if (want_int(cx, a[1])) {
        int64_t k = a[1]->u.i < 0 ? 0 : a[1]->u.i;
        r = k < (int64_t)n ? v_incref(kv[k].val) : v_none();
    }
    tk_kv_free(kv, n);
    return r;
}

/* ranked[rank] if -len <= rank < len else `dflt` (owned) */
static Value *pick_rank(Ctx *cx, TkKV *kv, size_t n, Value *rank, Value *dflt)
{
    int r = in_range(cx, rank, n);
    Value *v = r < 0 ? NULL
             : !r ? v_incref(dflt)
             : want_int(cx, rank) ? v_incref(kv[rank->u.i < 0 ? rank->u.i + (int64_t)n : rank->u.i].val)
             : NULL;
    tk_kv_free(kv, n);
    return v;
}

/* sorted(c, reverse=True)[rank], else 0 */
Value *tk_get_rank(Ctx *cx, Value *const *a)
{
    TkKV *kv = sorted_of(cx, a[0], NULL, true);
    if (!kv)
        return NULL;
    return pick_rank(cx, kv, v_len(a[0]), a[1], v_int(0));
}

/* sorted(c, key=compfunc, reverse=True)[rank], else an empty container */
static Value *arg_rank(Ctx *cx, Value *const *a, Value *dflt)
{
    TkKV *kv = sorted_of(cx, a[0], a[1], true);
    if (!kv)
        return NULL;
    return pick_rank(cx, kv, v_len(a[0]), a[2], dflt);
}

Value *tk_get_arg_rank(Ctx *cx, Value *const *a)
{
    return arg_rank(cx, a, a[0]->type == V_FSET ? &v_empty_fset_ : v_tuple_new(0));
}
Value *tk_get_arg_rank_t(Ctx *cx, Value *const *a) { return arg_rank(cx, a, v_tuple_new(0)); }
Value *tk_get_arg_rank_f(Ctx *cx, Value *const *a) { return arg_rank(cx, a, &v_empty_fset_); }

/* compfunc(sorted(c, key=compfunc)[rank]), else compfunc(0) */
Value *tk_get_val_rank(Ctx *cx, Value *const *a)
{
    TkKV *kv = sorted_of(cx, a[0], a[1], false);
    if (!kv)
        return NULL;
    Value *x = pick_rank(cx, kv, v_len(a[0]), a[2], v_int(0));
    if (!x)
        return NULL;
    Value *r = tk_call1(cx, a[1], x);
    v_decref(x);
    return r;
}

/* sorted(set(items), key=items.count)[rank], else dflt; tuples only unless
 * as_list (the _f variant counts in list(c)) */
static Value *common_rank(Ctx *cx, Value *const *a, Value *dflt, bool as_list)
{
    Value *c = a[0];
    if (!core_iterable(cx, c))
        return NULL;
    if (!as_list && c->type != V_TUPLE)
        return cx_raise(cx, "AttributeError", "'%s' object has no attribute 'count'",
                        v_typename(c));
    size_t k;
    TkKV *kv = set_counts(cx, v_items(c), v_len(c), &k);
    if (!kv)
        return NULL;
    if (py_sort(cx, kv, k, false) < 0) {
        tk_kv_free(kv, k);
        return NULL;
    }
    return pick_rank(cx, kv, k, a[1], dflt);
}

Value *tk_get_common_rank(Ctx *cx, Value *const *a)
{
    return common_rank(cx, a, a[0]->type == V_FSET ? &v_empty_fset_ : v_tuple_new(0), false);
}
Value *tk_get_common_rank_t(Ctx *cx, Value *const *a) { return common_rank(cx, a, v_tuple_new(0), false); }
Value *tk_get_common_rank_f(Ctx *cx, Value *const *a) { return common_rank(cx, a, &v_empty_fset_, true); }

/* ---- cells -------------------------------------------------------------- */

Value *tk_astriple(Ctx *cx, Value *const *a)
{
    (void)cx;
    Value *t = v_tuple_new(3);
    for (int i = 0; i < 3; i++)
        v_titems(t)[i] = v_incref(a[i]);
    return t;
}

/* (x[0], x[1]) + tail */
static Value *head2(Ctx *cx, Value *x, Value *tail)
{
    Value *i = subscript(cx, x, 0), *j = i ? subscript(cx, x, 1) : NULL;
    if (!j) {
        v_decref(i);
        return NULL;
    }
    Value *t = v_tuple_new(tail ? 3 : 2);
    v_titems(t)[0] = i;
    v_titems(t)[1] = j;
    if (tail)
        v_titems(t)[2] = v_incref(tail);
    return t;
}

Value *tk_ascell(Ctx *cx, Value *const *a) { return head2(cx, a[0], a[1]); }
Value *tk_toij(Ctx *cx, Value *const *a) { return head2(cx, a[0], NULL); }

/* tuple((x, y, z) for (x, y), z in zip(a, b)) */
Value *tk_celltuple(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]) || !core_iterable(cx, a[1]))
        return NULL;
    size_t n = v_len(a[0]) < v_len(a[1]) ? v_len(a[0]) : v_len(a[1]);
    VBuf b = {0};
    for (size_t i = 0; i < n; i++) {
        Value *p = v_items(a[0])[i];
        if (!v_is_container(p) || v_len(p) != 2) {
            vb_drop(&b);
            return v_is_container(p) ? cx_raise(cx, "ValueError", "expected 2 values to unpack")
                                     : type_error(cx, "cannot unpack non-iterable", p);
        }
        Value *t = v_tuple_new(3);
        v_titems(t)[0] = v_incref(v_items(p)[0]);
        v_titems(t)[1] = v_incref(v_items(p)[1]);
        v_titems(t)[2] = v_incref(v_items(a[1])[i]);
        if (!vb_push(cx, &b, t))
            return vb_drop(&b), NULL;
    }
    return vb_finish(cx, &b, V_TUPLE);
}

/* True unless x is a tuple of tuples of ints */
Value *tk_is_no_grid(Ctx *cx, Value *const *a)
{
    (void)cx;
    Value *x = a[0];
    if (x->type != V_TUPLE)
        return v_bool(true);
    for (size_t i = 0; i < x->u.tup.len; i++) {
        Value *row = v_titems(x)[i];
        if (row->type != V_TUPLE)
            return v_bool(true);
        for (size_t j = 0; j < row->u.tup.len; j++)
            if (!v_is_int(v_titems(row)[j]))
                return v_bool(true);
    }
    return v_bool(false);
}

/* ---- samples ------------------------------------------------------------ */

/* difference_tuple(dedupe(mapply_t(function, inputs)), dedupe(mapply_t(function, outputs))),
 * operands swapped for c_zo */
static Value *c_diff(Ctx *cx, Value *const *a, bool zo)
{
    Value *side[2] = {NULL, NULL};
    const int pick[2] = {PRIM_TK_first, PRIM_TK_second};
    for (int k = 0; k < 2; k++) {
        Value *args[2] = {prim_value(pick[k]), a[0]};
        Value *x = tk_sub(cx, PRIM_TK_apply, 2, args), *m = NULL;
        if (x) {
            Value *margs[2] = {a[1], x};
            m = tk_sub(cx, PRIM_TK_mapply_t, 2, margs);
            v_decref(x);
        }
        side[k] = m ? tk_sub1(cx, PRIM_TK_dedupe, m) : NULL;
        v_decref(m);
        if (!side[k]) {
            v_decref(side[0]);
            return NULL;
        }
    }
    Value *args[2] = {side[zo], side[!zo]};
    Value *r = tk_sub(cx, PRIM_TK_difference_tuple, 2, args);
    v_decref(side[0]);
    v_decref(side[1]);
    return r;
}

Value *tk_c_iz(Ctx *cx, Value *const *a) { return c_diff(cx, a, false); }
Value *tk_c_zo(Ctx *cx, Value *const *a) { return c_diff(cx, a, true); }

/* pick(c_iz(S, function)) */
static Value *c_pick(Ctx *cx, Value *const *a, int prim)
{
    Value *t = tk_sub(cx, prim, 2, a);
    if (!t)
        return NULL;
    Value *r = tk_call1(cx, a[2], t);
    v_decref(t);
    return r;
}

Value *tk_c_iz_n(Ctx *cx, Value *const *a) { return c_pick(cx, a, PRIM_TK_c_iz); }
Value *tk_c_zo_n(Ctx *cx, Value *const *a) { return c_pick(cx, a, PRIM_TK_c_zo); }

/* the smallest k in 0..7 with mir_rot_t(in, k) == out for every pair, else None */
Value *tk_a_mr(Ctx *cx, Value *const *a)
{
    Value *s = a[0];
    if (!core_iterable(cx, s))
        return NULL;
    for (int k = 0; k < 8; k++) {
        bool all = true;
        for (size_t i = 0; all && i < v_len(s); i++) {
            Value *p = v_items(s)[i];
            if (!v_is_container(p) || v_len(p) != 2)
                return v_is_container(p) ? cx_raise(cx, "ValueError", "expected 2 values to unpack")
                                         : type_error(cx, "cannot unpack non-iterable", p);
            Value *args[2] = {v_items(p)[0], v_int(k)};
            Value *m = tk_sub(cx, PRIM_TK_mir_rot_t, 2, args);
            if (!m)
                return NULL;
            all = v_eq(v_items(p)[1], m);
            v_decref(m);
        }
        if (all)
            return v_int(k);
    }
    return v_none();
}

/* batt_gpu.py's batch_process_samples_gpu(S) on the CPU path:
 * (apply(first, S), apply(second, S), mapply(p_g, ·), mapply(p_g, ·)) */
Value *tk_batch_process_samples_gpu(Ctx *cx, Value *const *a)
{
    Value *r[4] = {NULL, NULL, NULL, NULL};
    const int pick[2] = {PRIM_TK_first, PRIM_TK_second};
    for (int k = 0; k < 2; k++) {
        Value *args[2] = {prim_value(pick[k]), a[0]};
        if (!(r[k] = tk_sub(cx, PRIM_TK_apply, 2, args)))
            goto fail;
    }
    for (int k = 0; k < 2; k++) {
        Value *args[2] = {prim_value(PRIM_TK_p_g), r[k]};
        if (!(r[2 + k] = tk_sub(cx, PRIM_TK_mapply, 2, args)))
            goto fail;
    }
    Value *t = v_tuple_new(4);
    for (int k = 0; k < 4; k++)
        v_titems(t)[k] = r[k];
    return t;
fail:
    for (int k = 0; k < 4; k++)
        v_decref(r[k]);
    return NULL;
}
