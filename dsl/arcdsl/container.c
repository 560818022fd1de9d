/* container.c -- arc-dsl primitives over tuples and frozensets.
 *
 * Where the reference writes `type(c)(genexpr)` the result keeps the input's
 * container type and a frozenset result is built by ADD-ALL in the
 * generator's order (vb_finish); `a & b` and `.union` go through pyset.h so
 * the iteration order is CPython's.  Ties (max/min/sorted) keep the first
 * element in iteration order, as CPython's do.
 */
#include "prim.h"
#include "fastdiv.h"
#include "arcdsl/fitfilter.h"
#include "vgrid.h"
#include "common/core_util.h"
#include "common/rings.h"
#include "common/counts.h"
#include "pysort.h"
#include "fskeys.h"
#include "fsfar.h"
#include "fsproduct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "arcdsl/paths.h"

/* ---- membership and set algebra ---------------------------------------- */

Value *ad_contained(Ctx *cx, Value *const *a)
{
    int r = core_contains(cx, a[1], a[0]);
    return core_bool(r);
}

/* type(a)((*a, *b)) */
Value *ad_combine(Ctx *cx, Value *const *a)
{
    for (int k = 0; k < 2; k++)         /* (*a, *b) */
        if (!v_is_container(a[k]))
            return cx_raise(cx, "TypeError", "Value after * must be an iterable, not %s",
                            v_typename(a[k]));
    size_t n = v_len(a[0]), m = v_len(a[1]);
    Value *k = fs_keys_concat(a[0], a[1]);
    if (k)                      /* charged as vb_finish charges the n + m items */
        return core_work(cx, n + m) ? k : (v_decref(k), NULL);
    VBuf b = {0};
    if (!vb_reserve(cx, &b, n + m))
        return NULL;
    for (size_t i = 0; i < n; i++) b.v[b.n++] = v_incref(v_items(a[0])[i]);
    for (size_t i = 0; i < m; i++) b.v[b.n++] = v_incref(v_items(a[1])[i]);
    return vb_finish(cx, &b, a[0]->type);
}

/* a & b: frozensets intersect; ints (bools) are bitwise */
Value *ad_intersection(Ctx *cx, Value *const *a)
{
    Value *x = a[0], *y = a[1];
    if (x->type == V_FSET && y->type == V_FSET) {
        if (!core_work(cx, v_len(x) < v_len(y) ? v_len(x) : v_len(y)))
            return NULL;
        Value *k = fs_keys_and(x, y);
        return k ? k : fs_and(x, y);
    }
    if (v_is_int(x) && v_is_int(y)) {
        if (x->type == V_BOOL && y->type == V_BOOL)
            return v_bool(x->u.i & y->u.i);
        return v_int(x->u.i & y->u.i);
    }
    return cx_raise(cx, "TypeError", "unsupported operand type(s) for &: '%s' and '%s'",
                    v_typename(x), v_typename(y));
}

static int keep_not_in(Ctx *cx, Value *e, void *ud)
{
    int r = core_contains(cx, ud, e);
    return r < 0 ? -1 : !r;
}

/* type(a)(e for e in a if e not in b): a's order, not `a - b` */
Value *ad_difference(Ctx *cx, Value *const *a)
{
    Value *k = fs_keys_minus(a[0], a[1]);
    if (k)                      /* charged as core_filter charges the kept */
        return core_work(cx, v_len(k)) ? k : (v_decref(k), NULL);
    Value *x = a[0], *y = a[1];
    if (x->type == V_FSET && y->type == V_FSET && !fs_gen_lazy(x)) {
        /* two sets: a's items in its order, probed in b, borrowed until
         * the kept are laid out as core_filter lays them (distinct) */
        size_t n = v_len(x), m = 0;
        Value *small[64], **kept = n <= 64 ? small : malloc(n * sizeof *kept);
        if (!kept)
            return cx_raise(cx, "MemoryError", "out of memory");
        Value *const *it = v_items(x);
        for (size_t i = 0; i < n; i++)
            if (!fs_contains(y, it[i]))
                kept[m++] = it[i];
        Value *r = core_work(cx, m) ? fs_from_distinct(kept, m) : NULL;
        if (kept != small)
            free(kept);
        return r;
    }
    return core_filter(cx, a[0], keep_not_in, a[1], a[0]->type);
}

/* keeps the first of equal elements (tuple.index) */
Value *ad_dedupe(Ctx *cx, Value *const *a)
{
    Value *t = a[0];
    if (!core_iterable(cx, t))
        return NULL;
    if (t->type != V_TUPLE)
        return v_len(t) ? v_no_attr(cx, t, "index") : v_tuple_new(0);
    VBuf b = {0};
    for (size_t i = 0; i < t->u.tup.len; i++) {
        Value *e = v_titems(t)[i];
        size_t j = 0;
        while (j < i && !(v_titems(t)[j] == e || v_eq(v_titems(t)[j], e)))
            j++;
        if (j == i && !vb_push(cx, &b, v_incref(e)))
            return vb_drop(&b), NULL;
    }
    return vb_finish(cx, &b, V_TUPLE);
}

/* ---- sorting ------------------------------------------------------------ */

/* Sort entries: key owned, val borrowed. */
typedef SortItem KV;

/* Calls key on every item (in order), then sorts.  kv[i].key owned. */
static KV *keyed(Ctx *cx, Value *c, Value *key, size_t *np)
{
    if (key->type == V_NONE)   /* sorted(c, key=None): the items themselves */
        key = prim_value(PRIM_AD_identity);
    size_t n = v_len(c);
    KV *kv = calloc(n ? n : 1, sizeof *kv);
    if (!kv)
        return cx_raise(cx, "MemoryError", "out of memory"), NULL;
    for (size_t i = 0; i < n; i++) {
        v_fetch_ahead(v_items(c), i, n);
        kv[i].val = v_items(c)[i];
        if (!(kv[i].key = prim_call(cx, key, 1, &kv[i].val))) {
            while (i--)
                v_decref(kv[i].key);
            free(kv);
            return NULL;
        }
    }
    *np = n;
    return kv;
}

static void kv_free(KV *kv, size_t n)
{
    for (size_t i = 0; i < n; i++)
        v_decref(kv[i].key);
    free(kv);
}

/* tuple(sorted(container, key=compfunc)) */
Value *ad_order(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    size_t n;
    KV *kv = keyed(cx, a[0], a[1], &n);
    if (!kv)
        return NULL;
    if (py_sort(cx, kv, n, false) < 0 || !core_work(cx, n)) {
        kv_free(kv, n);
        return NULL;
    }
    Value *t = v_tuple_new(n);
    for (size_t i = 0; i < n; i++)
        v_titems(t)[i] = v_incref(kv[i].val);
    kv_free(kv, n);
    return t;
}

/* ---- max / min ---------------------------------------------------------- */

/* max/min(c, key=key): the first item whose key beats all before it
 * (strictly, with > or <).  Returns 1 with *best borrowed and *bestkey owned
 * (NULL without key), 0 when c is empty, -1 on error. */
static int extreme(Ctx *cx, Value *c, Value *key, int op, Value **best, Value **bestkey)
{
    if (!core_iterable(cx, c))
        return -1;
    if (key && key->type == V_NONE)   /* max(c, key=None) compares the items */
        key = NULL;
    size_t n = v_len(c);
    Value **it = v_items(c);
    Value *bk = NULL;
    FlatCall fc;
    if (key)
        flat_open(&fc, key, c);
    *best = NULL;
    for (size_t i = 0; i < n; i++) {
        Value *k = it[i];
        v_fetch_ahead(it, i, n);
        if (key && !(k = flat_call(cx, &fc, it[i]))) {
            v_decref(bk);
            return -1;
        }
        if (!*best) {
            *best = it[i];
            bk = key ? k : NULL;
            continue;
        }
        const Value *o = bk ? bk : *best;
        int r = k->type == V_INT && o->type == V_INT && (op == CMP_GT || op == CMP_LT)
                    ? (op == CMP_GT ? k->u.i > o->u.i : k->u.i < o->u.i)
                    : v_richcmp(cx, k, o, op);
        if (r < 0) {
            if (key) v_decref(k);
            v_decref(bk);
            return -1;
        }
        if (r) {
            *best = it[i];
            if (key) {
                v_decref(bk);
                bk = k;
            }
        } else if (key) {
            v_decref(k);
        }
    }
    *bestkey = bk;
    return n != 0;
}

static Value *maxmin_default(Ctx *cx, Value *c, int op)
{
    Value *best, *bk;
    int r = extreme(cx, c, NULL, op, &best, &bk);
    return r < 0 ? NULL : r ? v_incref(best) : v_int(0);
}

Value *ad_maximum(Ctx *cx, Value *const *a) { return maxmin_default(cx, a[0], CMP_GT); }
Value *ad_minimum(Ctx *cx, Value *const *a) { return maxmin_default(cx, a[0], CMP_LT); }

/* compfunc(max(container, key=compfunc, default=0)) */
static Value *valext(Ctx *cx, Value *const *a, int op)
{
    Value *best, *bk;
    int r = extreme(cx, a[0], a[1], op, &best, &bk);
    if (r < 0)
        return NULL;
    if (r) {
        v_decref(bk);
        return v_call(cx, a[1], 1, &best);   /* called again, as the reference does */
    }
    Value *zero = v_int(0);
    return v_call(cx, a[1], 1, &zero);
}

Value *ad_valmax(Ctx *cx, Value *const *a) { return valext(cx, a, CMP_GT); }
Value *ad_valmin(Ctx *cx, Value *const *a) { return valext(cx, a, CMP_LT); }

/* max/min(container, key=compfunc); re-arc's (rearc) pass default=None */
static Value *argext(Ctx *cx, Value *const *a, int op, bool rearc)
{
    Value *best, *bk;
    int r = extreme(cx, a[0], a[1], op, &best, &bk);
    if (r < 0)
        return NULL;
    if (!r)
        return rearc ? v_none()
                     : cx_raise(cx, "ValueError", "%s() arg is an empty sequence",
                                op == CMP_GT ? "max" : "min");
    v_decref(bk);
    return v_incref(best);
}

Value *ad_argmax(Ctx *cx, Value *const *a) { return argext(cx, a, CMP_GT, false); }
Value *ad_argmin(Ctx *cx, Value *const *a) { return argext(cx, a, CMP_LT, false); }
Value *ra_argmax(Ctx *cx, Value *const *a) { return argext(cx, a, CMP_GT, true); }
Value *ra_argmin(Ctx *cx, Value *const *a) { return argext(cx, a, CMP_LT, true); }

/* max(set(container), key=container.count): the set's slot order decides ties */
static Value *mostleast(Ctx *cx, Value *c, bool most)
{
    if (!core_iterable(cx, c))
        return NULL;
    if (c->type != V_TUPLE)
        return v_no_attr(cx, c, "count");
    size_t k;
    Value *best = cm_count_extreme(v_titems(c), c->u.tup.len, most, &k);
    if (!best)
        return cx_raise(cx, "ValueError", "%s() arg is an empty sequence", most ? "max" : "min");
    if (!core_work(cx, c->u.tup.len))
        return NULL;
    return v_incref(best);
}

Value *ad_mostcommon(Ctx *cx, Value *const *a) { return mostleast(cx, a[0], true); }
Value *ad_leastcommon(Ctx *cx, Value *const *a) { return mostleast(cx, a[0], false); }

/* ---- construction and access ------------------------------------------- */

/* tuple(item for i in range(num)) */
Value *ad_repeat(Ctx *cx, Value *const *a)
{
    if (!v_is_int(a[1]))
        return cx_raise(cx, "TypeError", "'%s' object cannot be interpreted as an integer",
                        v_typename(a[1]));
    int64_t n = a[1]->u.i;
    if (n <= 0)
        return v_tuple_new(0);
    if (!core_work(cx, (uint64_t)n))
        return NULL;
    Value *t = v_tuple_new((size_t)n);
    for (int64_t i = 0; i < n; i++)
        v_titems(t)[i] = v_incref(a[0]);
    return t;
}

Value *ad_size(Ctx *cx, Value *const *a)
{
    if (!v_is_container(a[0]))
        return cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(a[0]));
    return v_int((int64_t)v_len(a[0]));
}

/* A tuple of byte grids of one width, merged: one byte grid of their rows
 * in order (equal to the tuple of rows, which would make every grid's
 * rows as tuples and hold a pointer per row); NULL where that does not
 * apply.  *rows: the rows, which the merge is charged. */
static Value *merge_byte_grids(const Value *cs, size_t *rows)
{
    if (cs->type != V_TUPLE || (cs->flags & V_FLAGS_PY) || cs->u.tup.len == 0)
        return NULL;
    size_t n = cs->u.tup.len, w = 0, h = 0;
    Value *const *gs = v_titems(cs);
    for (size_t i = 0; i < n; i++) {
        if (!vg_is(gs[i]) || (i && vg_w(gs[i]) != w))
            return NULL;
        w = vg_w(gs[i]);
        h += gs[i]->u.tup.len;
    }
    Value *out = vg_new(h, w);
    uint8_t *o = vg_cells(out);
    for (size_t i = 0; i < n; i++) {
        size_t k = gs[i]->u.tup.len * w;
        memcpy(o, vg_cells(gs[i]), k);
        o += k;
    }
    *rows = h;
    return out;
}

Value *core_merge(Ctx *cx, Value *cs)
{
    if (!core_iterable(cx, cs))
        return NULL;
    bool raised;                /* rings none has read keep their corners */
    Value *rings = cm_rings_merge(cx, cs, &raised);
    if (rings || raised)
        return rings;
    size_t rows;
    Value *grid = merge_byte_grids(cs, &rows);
    if (grid) {
        if (!core_work(cx, rows))
            return v_decref(grid), NULL;
        return grid;
    }
    VBuf b = {0};
    if (vg_is(cs)) {     /* a byte grid's rows, merged */
        size_t h = cs->u.tup.len, w = vg_w(cs);
        const uint8_t *cells = vg_cells(cs);
        if (!vb_reserve(cx, &b, h * w))
            return NULL;
        for (size_t k = 0; k < h * w; k++)
            b.v[b.n++] = v_small(cells[k]);
        return vb_finish(cx, &b, V_TUPLE);
    }
    /* sized once: a buffer grown member by member was reallocated over
     * and over (mapply_t of neighbours: hundreds of members) */
    size_t total = 0;
    for (size_t i = 0; i < v_len(cs); i++) {
        Value *c = v_items(cs)[i];
        if (!core_iterable(cx, c))
            return NULL;
        total += v_len(c);
    }
    if (!vb_reserve(cx, &b, total))
        return NULL;
    for (size_t i = 0; i < v_len(cs); i++) {
        Value *c = v_items(cs)[i];
        Value *const *it = v_items(c);
        for (size_t j = 0, n = v_len(c); j < n; j++)
            b.v[b.n++] = v_incref(it[j]);
    }
    return vb_finish(cx, &b, cs->type);
}

/* arc-dsl's merge of sets of places or cells keeps their keys, or codes
 * where a member reaches past the span: its fill and paint read them
 * without the table (fskeys.h, fsfar.h). */
Value *ad_merge(Ctx *cx, Value *const *a)
{
    Value *cs = a[0];
    if (cs->type == V_FSET) {
        size_t total = 0;       /* members in no order: a derived cs stays unlaid */
        Value *const *ms = fs_members_any(cs);
        for (size_t i = 0; i < v_len(cs); i++)
            total += ms[i]->type == V_FSET ? v_len(ms[i]) : 0;
        /* a far member has no keys: fs_keys_merge would list the others
         * only to fail on it */
        Value *u = fs_far_merge(cs);
        if (!u)
            u = fs_keys_merge(cs, total);
        if (u && !core_work(cx, total))
            return v_decref(u), NULL;
        if (u)
            return u;
    }
    return core_merge(cx, cs);
}

Value *ad_initset(Ctx *cx, Value *const *a)
{
    if (!v_hashable(cx, a[0]))
        return NULL;
    return fs_from_distinct(a, 1);     /* one item: distinct, laid out at its home */
}

static int keep_if(Ctx *cx, Value *e, void *ud)
{
    Value *r = core_gen_call(cx, ud, 1, &e);
    if (!r)
        return -1;
    int k = v_truthy(r);
    v_decref(r);
    return k;
}

/* keep_if through the condition's layout (flatcall.h) */
static int keep_flat(Ctx *cx, Value *e, void *ud)
{
    Value *r = core_gen_done(cx, flat_call(cx, ud, e));
    if (!r)
        return -1;
    int k = v_truthy(r);
    v_decref(r);
    return k;
}

/* sfilter(product(A, B), fork(equality, p, q)) with p and q paths
 * (paths.h): each side's value is walked once per item of A and of B, not
 * once per pair, and the pairs are visited in the product's order,
 * charged as their calls would be.  false where that does not apply
 * (nothing done); else *r is the result (NULL raised). */
static bool filter_product_eq(Ctx *cx, Value *c, Value *f, Value **r)
{
    ForkPairs fp;
    if (!core_walk(c).unbuilt || !ad_fork_pairs(f, c, &fp))
        return false;
    if (fp.outer->type != V_FUNC || fp.outer->u.fn.invoke != prim_invoke ||
        fp.outer->u.fn.prim != PRIM_AD_equality) {
        ad_fork_pairs_free(&fp);
        return false;
    }
    Value *src[2] = {fs_recipe_head(c)->src[0], fs_recipe_head(c)->src[1]};
    size_t n = fp.n, m = v_len(src[1]), len = v_len(c);
    int64_t *hs = malloc((n + m) * sizeof *hs);          /* items' hashes, A's then B's */
    if (!hs) {
        ad_fork_pairs_free(&fp);
        return false;
    }
    for (int side = 0; side < 2; side++)
        for (size_t x = 0; x < v_len(src[side]); x++)
            hs[(side ? n : 0) + x] = v_hash(v_items(src[side])[x]);
    *r = NULL;
    /* equality's call, made here by comparing */
    if (cx_charge(cx, (uint64_t)len * (fp.charge + 1))) {
        size_t bytes = len * (sizeof(uint32_t) + sizeof(int64_t)), kept = 0;
        int64_t *h = vmem_alloc(bytes);
        uint32_t *at = (uint32_t *)(h + len);
        const int32_t *order = fs_product_slots(c);
        FastDiv by_n = fastdiv_of((uint32_t)n);
        for (size_t s = 0; s <= c->u.set.mask; s++) {
            int32_t k = order[s];
            if (k < 0)
                continue;
            size_t i = fastmod(by_n, (uint32_t)k), j = n + fastdiv(by_n, (uint32_t)k);
            Value *x = ad_fork_pair_arg(&fp, 0, i, j), *y = ad_fork_pair_arg(&fp, 1, i, j);
            int64_t xi, yi;     /* two small ints (not bools) are equal as one object */
            if (x == y || (!(v_small_of(x, &xi) && v_small_of(y, &yi)) && v_eq(x, y))) {
                at[kept] = (uint32_t)k;
                h[kept++] = py_hash_pair(hs[i], hs[j]);
            }
        }
        if (core_work(cx, kept))
            *r = kept ? fs_product_subset(c, at, h, kept) : fs_from_items(NULL, 0);
        vmem_free(h, bytes);
    }
    ad_fork_pairs_free(&fp);
    free(hs);
    return true;
}

Value *ad_sfilter(Ctx *cx, Value *const *a)
{
    Value *r;
    if (a[0]->type == V_FSET && filter_product_eq(cx, a[0], a[1], &r))
        return r;
    if (ad_fit_filter(cx, a[0], a[1], &r))
        return r;
    FlatCall fc;
    flat_open(&fc, a[1], a[0]);
    return core_filter(cx, a[0], keep_flat, &fc, a[0]->type);
}

Value *ad_mfilter(Ctx *cx, Value *const *a)
{
    Value *f = ad_sfilter(cx, a);
    if (!f)
        return NULL;
    Value *r = ad_merge(cx, &f);
    v_decref(f);
    return r;
}

/* next(e for e in container if condition(e)) */
Value *ad_extract(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    for (size_t i = 0; i < v_len(a[0]); i++) {
        Value *e = v_items(a[0])[i];
        int k = keep_if(cx, e, a[1]);
        if (k < 0)
            return NULL;
        if (k)
            return v_incref(e);
    }
    return cx_raise(cx, "StopIteration", "%s", "");
}

Value *ad_totuple(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    if (a[0]->type == V_TUPLE)
        return v_incref(a[0]);
    if (!core_work(cx, v_len(a[0])))
        return NULL;
    return v_tuple_from(v_items(a[0]), v_len(a[0]));
}

Value *ad_first(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    if (!v_len(a[0]))
        return cx_raise(cx, "StopIteration", "%s", "");
    return v_incref(v_items(a[0])[0]);
}

/* max(enumerate(container))[1]: the last item */
Value *ad_last(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]))
        return NULL;
    if (!v_len(a[0]))
        return cx_raise(cx, "ValueError", "max() arg is an empty sequence");
    return v_incref(v_items(a[0])[v_len(a[0]) - 1]);
}

/* container.union(frozenset({value})) */
Value *ad_insert(Ctx *cx, Value *const *a)
{
    Value *c = a[1];
    if (c->type != V_FSET)
        return v_no_attr(cx, c, "union");
    if (!core_work(cx, v_len(c) + 1) || !v_hashable(cx, a[0]))
        return NULL;
    Value *one = fs_from_items(a, 1);
    Value *r = fs_or(c, one);
    v_decref(one);
    return r;
}

static int keep_ne(Ctx *cx, Value *e, void *ud)
{
    (void)cx;
    return !v_eq(e, ud);
}

/* type(container)(e for e in container if e != value) */
Value *ad_remove(Ctx *cx, Value *const *a)
{
    return core_filter(cx, a[1], keep_ne, a[0], a[1]->type);
}

Value *ad_other(Ctx *cx, Value *const *a)
{
    Value *r = core_filter(cx, a[0], keep_ne, a[1], a[0]->type);
    if (!r)
        return NULL;
    Value *f = ad_first(cx, &r);
    v_decref(r);
    return f;
}

/* frozenset((i, j) for j in b for i in a) */
Value *ad_product(Ctx *cx, Value *const *a)
{
    Value *x = a[0], *y = a[1];
    if (!core_iterable(cx, y))
        return NULL;
    if (!v_len(y))
        return fs_from_items(NULL, 0);
    if (!core_iterable(cx, x))
        return NULL;
    size_t n = v_len(x), m = v_len(y);
    if (n && m > CORE_MAX_ITEMS / n)
        return cx_raise(cx, "MemoryError", "product too large");
    if (!core_work(cx, (uint64_t)n * m))
        return NULL;
    /* sets' pairs are distinct: their table is laid out with no pair made */
    if (x->type == V_FSET && y->type == V_FSET && n * m >= FS_PRODUCT_LAZY_MIN)
        return fs_product(x, y);
    VBuf b = {0};
    if (!vb_reserve(cx, &b, n * m))
        return NULL;
    for (size_t j = 0; j < m; j++)
        for (size_t i = 0; i < n; i++)
            b.v[b.n++] = v_tuple2(v_items(x)[i], v_items(y)[j]);
    return vb_finish(cx, &b, V_FSET);
}

/* tuple(zip(a, b)) */
Value *ad_pair(Ctx *cx, Value *const *a)
{
    if (!core_iterable(cx, a[0]) || !core_iterable(cx, a[1]))
        return NULL;
    size_t n = v_len(a[0]) < v_len(a[1]) ? v_len(a[0]) : v_len(a[1]);
    if (!core_work(cx, n))
        return NULL;
    Value *t = v_tuple_new(n);
    Value *const *x = v_items(a[0]), *const *y = v_items(a[1]);
    for (size_t i = 0; i < n; i++) {
        int64_t p, q;           /* two colours, as rows zip: an interned place */
        Value *in = v_small_of(x[i], &p) && v_small_of(y[i], &q) ? v_interned_of(0, p, q) : NULL;
        v_titems(t)[i] = in ? in : v_tuple2(x[i], y[i]);
    }
    return t;
}

static int keep_size(Ctx *cx, Value *e, void *ud)
{
    Value *n = ud;
    if (!v_is_container(e)) {
        cx_raise(cx, "TypeError", "object of type '%s' has no len()", v_typename(e));
        return -1;
    }
    int64_t len = (int64_t)v_len(e);
    if (v_is_int(n))
        return n->u.i == len;
    Value *lv = v_int(len);
    int r = v_eq(lv, n);
    v_decref(lv);
    return r;
}

/* frozenset(item for item in container if len(item) == n): always a frozenset */
Value *ad_sizefilter(Ctx *cx, Value *const *a) { return core_filter(cx, a[0], keep_size, a[1], V_FSET); }
