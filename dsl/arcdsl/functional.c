/* functional.c -- arc-dsl combinators (closures); the apply family is apply.c.
 *
 * A closure is a V_FUNC whose cap[] holds what the Python lambda closes
 * over; its name is the lambda's __qualname__, so repr matches CPython's,
 * and its arity is the lambda's co_argcount, which rbind/lbind read.
 * Callees are evaluated in Python's order (inner before outer, fork's a
 * before b before outer) so the first exception raised is the same.
 */
#include <math.h>

#include "prim.h"
#include "fsrecipe.h"
#include "arcdsl/paths.h"
#include "arcdsl/patch_util.h"
#include "common/core_util.h"
#include "common/closures.h"
#include "common/neighbours.h"
#include "callmemo.h"

static Value *call1(Ctx *cx, Value *f, Value *x) { return prim_call(cx, f, 1, &x); }

/* ---- projections ---------------------------------------------------------
 * compose, power and chain of first, last and identity only take items of
 * their argument: power(first, TWO) is x[0][0], compose(first, last)
 * x[-1][0].  Such a closure keeps the steps as a path (VFunc.path: bit 7
 * set, the count in bits 0-2, step k in bit 3 + k, 1 for last) and the
 * calls one run of it makes (path_calls), and a run walks the items
 * instead of making the calls, charged the same.  Where a step meets what
 * is not a non-empty tuple or frozenset, the calls are made as written,
 * which raise what they raise. */
#define PATH_ON 0x80
#define PATH_MAX_STEPS 4

/* f as a path: its bits and the calls inside one run (not f's own); false
 * when f is not one. */
static bool path_of(const Value *f, unsigned *path, unsigned *calls)
{
    if (f->type != V_FUNC)
        return false;
    int prim = f->u.fn.invoke == prim_invoke ? f->u.fn.prim : -1;
    if (prim == PRIM_AD_first || prim == PRIM_AD_last || prim == PRIM_AD_identity) {
        *path = PATH_ON | (prim != PRIM_AD_identity) | (prim == PRIM_AD_last) << 3;
        *calls = 0;
        return true;
    }
    if (!(f->u.fn.path & PATH_ON))
        return false;
    *path = f->u.fn.path;
    *calls = f->u.fn.path_calls;
    return true;
}

/* The path of running a then b on one argument; ca, cb and *calls count
 * every call a run makes, each one's own included. */
static bool path_then(unsigned a, unsigned ca, unsigned b, unsigned cb, unsigned *path,
                      unsigned *calls)
{
    unsigned na = a & 7, nb = b & 7;
    if (na + nb > PATH_MAX_STEPS || ca + cb > 255)
        return false;
    *path = PATH_ON | (na + nb) | (a & 0x78) | ((b >> 3) & 0xf) << (3 + na);
    *calls = ca + cb;
    return true;
}

static void path_set(Value *f, unsigned path, unsigned calls)
{
    f->u.fn.path = (uint8_t)path;
    f->u.fn.path_calls = (uint8_t)calls;
}

/* The item the path leads to from x, borrowed; NULL where a step cannot
 * be taken without the call's own error. */
static Value *path_walk_from(unsigned path, unsigned from, Value *x)
{
    for (unsigned k = from, n = path & 7; k < n; k++) {
        size_t len;
        Value *const *it;
        if (x->type == V_TUPLE && (len = x->u.tup.len))
            it = v_titems(x);
        else if (x->type == V_FSET && (len = x->u.set.len))
            it = v_items(x);
        else
            return NULL;
        x = it[path >> (3 + k) & 1 ? len - 1 : 0];
    }
    return x;
}

static Value *path_walk(unsigned path, Value *x)
{
    return path_walk_from(path, 0, x);
}

/* A run by path on x, `calls` charged: true when it ran so (*r the
 * result, or NULL raised), false when the calls must be made. */
static bool path_take(Ctx *cx, unsigned path, unsigned calls, Value *x, Value **r)
{
    Value *p = path_walk(path, x);
    if (!p)
        return false;
    *r = cx_charge(cx, calls) ? v_incref(p) : NULL;
    return true;
}

/* A run of the closure self by its path, if it has one. */
static bool path_ran(Ctx *cx, const Value *self, Value *x, Value **r)
{
    return self->u.fn.path && path_take(cx, self->u.fn.path, self->u.fn.path_calls, x, r);
}

/* call1 of f on x, by f's path where it has one (the call is charged too). */
static Value *call1_path(Ctx *cx, Value *f, Value *x)
{
    unsigned path, calls;
    Value *r;
    if (path_of(f, &path, &calls) && path_take(cx, path, 1 + calls, x, &r))
        return r;
    return call1(cx, f, x);
}

/* len(a & b) as CPython's set_intersection leaves it: a's items found in
 * b (all of them where a is b).  -1 where a or b is not a frozenset made. */
static long and_len(const Value *a, const Value *b)
{
    if (a->type != V_FSET || b->type != V_FSET || fs_gen_lazy(a) || fs_gen_lazy(b))
        return -1;
    if (a == b)
        return (long)a->u.set.len;
    long n = fs_keys_and_len(a, b);
    if (n >= 0)
        return n;
    const Value *walk = b->u.set.len > a->u.set.len ? a : b, *in = walk == a ? b : a;
    Value *const *it = v_items(walk);
    n = 0;
    for (size_t k = 0, m = walk->u.set.len; k < m; k++)
        n += fs_contains(in, it[k]);
    return n;
}

/* size(f(x)) for f an rbind/lbind(intersection, s) the call memo would not
 * keep: the intersection counted, not made, and charged as the closure's
 * call, intersection's and size's are.  true when it ran so (*r the
 * count, or NULL raised). */
static bool and_size_of(const Value *f, const Value *size, Value **s)
{
    return prim_direct(size, 1) && size->u.fn.prim == PRIM_AD_size &&
           cm_bind_of(f, PRIM_AD_intersection, true, s);     /* a & b and b & a: one count */
}

static bool and_size_ran(Ctx *cx, Value *f, Value *size, Value *x, Value **r)
{
    Value *s;
    if (!and_size_of(f, size, &s) || callmemo_wants(cx, f, 1, &x))
        return false;
    long n = and_len(x, s);
    if (n < 0)
        return false;
    size_t least = x->u.set.len < s->u.set.len ? x->u.set.len : s->u.set.len;
    *r = cx_charge(cx, 1) && cx_charge(cx, 1) && core_work(cx, least) && cx_charge(cx, 1)
             ? v_int(n) : NULL;
    return true;
}

/* colorcount(g(p), c) for g rbind(toobject, grid) over a byte grid,
 * counted place by place instead of made: the grid, c as a byte, and the
 * count of places inside and of those of colour c. */
typedef struct {
    const uint8_t *b;
    size_t h, w;
    int c;                      /* the byte equal to the colour, or -1 */
    size_t inside, n;
} CellCount;

/* g rbind(toobject, *grid) and count rbind(colorcount, *c) */
static bool cellcount_binds(const Value *g, const Value *count, Value **grid, Value **c)
{
    return cm_bind_of(g, PRIM_AD_toobject, false, grid) &&
           cm_bind_of(count, PRIM_AD_colorcount, false, c);
}

static bool cellcount_of(Value *g, Value *count, CellCount *k)
{
    Value *grid, *c;
    k->inside = k->n = 0;
    if (!cellcount_binds(g, count, &grid, &c) || !(k->b = gu_bytes(grid, &k->h, &k->w)))
        return false;
    k->c = gu_byte_equal_to(c);
    return true;
}

static inline void cellcount_add(CellCount *k, int64_t i, int64_t j)
{
    if (i < 0 || j < 0 || (size_t)i >= k->h || (size_t)j >= k->w)
        return;
    k->inside++;
    k->n += k->b[(size_t)i * k->w + (size_t)j] == k->c;
}

/* The count, charged as the two closures' calls and toobject's own charge
 * (a cell per place inside) are; NULL where the charge ran out. */
static Value *cellcount_done(Ctx *cx, const CellCount *k)
{
    return cx_charge(cx, 1) && cx_charge(cx, 1) && cx_charge(cx, k->inside) && cx_charge(cx, 1) &&
                   cx_charge(cx, 1)
               ? v_int((int64_t)k->n) : NULL;
}

/* colorcount(g(x), c) for x a laid-out frozenset of places.  true when it
 * ran so (*r the count, or NULL raised). */
static bool cellcount_ran(Ctx *cx, Value *g, Value *count, Value *x, Value **r)
{
    CellCount k;
    if (x->type != V_FSET || x->u.set.len == 0 ||
        (__atomic_load_n(&x->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) ||
        !cellcount_of(g, count, &k))
        return false;
    Value *const *it = v_items(x);
    for (size_t q = 0, len = x->u.set.len; q < len; q++) {
        int64_t i, j;
        if (v_interned_at(it[q], &i, &j) != 0)     /* not a place: toobject's own way */
            return false;
        cellcount_add(&k, i, j);
    }
    *r = cellcount_done(cx, &k);
    return true;
}

/* The directions (ad_nb_di) of nb: neighbors, dneighbors or ineighbors. */
static bool nb_range(const Value *nb, int *first, int *end)
{
    if (!prim_direct(nb, 1))
        return false;
    switch (nb->u.fn.prim) {
    case PRIM_AD_neighbors: *first = 0, *end = 8; return true;
    case PRIM_AD_dneighbors: *first = 0, *end = 4; return true;
    case PRIM_AD_ineighbors: *first = 4, *end = 8; return true;
    default: return false;
    }
}

/* chain(rbind(colorcount, c), rbind(toobject, grid), nb)(loc) for nb
 * neighbors, dneighbors or ineighbors and loc a place of ints: the
 * neighbours counted from their offsets, no set of them made either,
 * charged as neighbors' call and its own charge (four per half) and the
 * pair above are.  true when it ran so. */
static bool nbcount_ran(Ctx *cx, const Value *self, Value *x, Value **r)
{
    CellCount k;
    int first, end;
    if (!nb_range(CAP(self, 2), &first, &end) || x->type != V_TUPLE || x->u.tup.len < 2)
        return false;
    Value *const *ij = v_titems(x);
    if (!v_is_int(ij[0]) || !v_is_int(ij[1]))
        return false;
    int64_t i = ij[0]->u.i, j = ij[1]->u.i;
    if (i <= INT64_MIN / 2 || i >= INT64_MAX / 2 || j <= INT64_MIN / 2 || j >= INT64_MAX / 2)
        return false;
    if (!cellcount_of(CAP(self, 1), CAP(self, 0), &k))
        return false;
    for (int d = first; d < end; d++)
        cellcount_add(&k, i + ad_nb_di[d], j + ad_nb_dj[d]);
    *r = cx_charge(cx, 1) && cx_charge(cx, (uint64_t)(end - first)) ? cellcount_done(cx, &k) : NULL;
    return true;
}

/* outer(inner(x)) for the pairs above, counted; true when it ran so. */
static bool pair_ran(Ctx *cx, Value *inner, Value *outer, Value *x, Value **r)
{
    return and_size_ran(cx, inner, outer, x, r) || cellcount_ran(cx, inner, outer, x, r);
}

/* Which of the runs above a compose or chain closure may take, kept in
 * its VFunc.kind as it is made: they follow from what it closes over
 * alone, and the calls of one that may take none (most) skip the tests.
 * A pair's inner callee is the one called first. */
enum { MAY_PAIR_FIRST = 1, MAY_PAIR_SECOND = 2, MAY_NBCOUNT = 4 };

static bool pair_may(const Value *inner, const Value *outer)
{
    Value *a, *b;
    return and_size_of(inner, outer, &a) || cellcount_binds(inner, outer, &a, &b);
}

static bool nbcount_may(const Value *nb, const Value *g, const Value *count)
{
    Value *a, *b;
    int first, end;
    return nb_range(nb, &first, &end) && cellcount_binds(g, count, &a, &b);
}

/* ---- closures ----------------------------------------------------------- */

/* compose: lambda x: outer(inner(x)) */
static Value *compose_inv(Ctx *cx, Value *self, Value *const *argv)
{
    Value *r;
    if (path_ran(cx, self, argv[0], &r) ||
        ((self->u.fn.kind & MAY_PAIR_FIRST) &&
         pair_ran(cx, CAP(self, 1), CAP(self, 0), argv[0], &r)))
        return r;
    Value *t = call1(cx, CAP(self, 1), argv[0]);
    if (!t)
        return NULL;
    r = call1(cx, CAP(self, 0), t);
    v_decref(t);
    return r;
}

/* chain: lambda x: h(g(f(x))) */
static Value *chain_inv(Ctx *cx, Value *self, Value *const *argv)
{
    Value *r;
    unsigned may = self->u.fn.kind;
    if (path_ran(cx, self, argv[0], &r) || ((may & MAY_NBCOUNT) && nbcount_ran(cx, self, argv[0], &r)))
        return r;
    Value *cur = v_incref(argv[0]);
    for (int i = 2; i >= 0; i--) {
        Value *nxt;
        if (i >= 1 && (may & (i == 2 ? MAY_PAIR_FIRST : MAY_PAIR_SECOND)) &&
            pair_ran(cx, CAP(self, i), CAP(self, i - 1), cur, &nxt))
            i--;
        else
            nxt = call1(cx, CAP(self, i), cur);
        v_decref(cur);
        if (!nxt)
            return NULL;
        cur = nxt;
    }
    return cur;
}

/* matcher: lambda x: function(x) == target */
static Value *matcher_inv(Ctx *cx, Value *self, Value *const *argv)
{
    Value *t = call1(cx, CAP(self, 0), argv[0]);
    if (!t)
        return NULL;
    bool r = v_eq(t, CAP(self, 1));
    v_decref(t);
    return v_bool(r);
}

/* power: compose(f, power(f, n - 1)) unrolled into one closure */
static Value *power_inv(Ctx *cx, Value *self, Value *const *argv)
{
    Value *r;
    if (path_ran(cx, self, argv[0], &r))
        return r;
    Value *cur = argv[0];       /* borrowed until the first call: the argument is often cold */
    bool own = false;
    for (int64_t i = CAP(self, 1)->u.i; i > 0; i--) {
        Value *nxt = call1(cx, CAP(self, 0), cur);
        if (own)
            v_decref(cur);
        if (!nxt)
            return NULL;
        cur = nxt;
        own = true;
    }
    return own ? cur : v_incref(cur);
}

/* fork: lambda x: outer(a(x), b(x)) */
static Value *fork_inv(Ctx *cx, Value *self, Value *const *argv)
{
    Value *ab[2];
    if (!(ab[0] = call1_path(cx, CAP(self, 1), argv[0])))
        return NULL;
    if (!(ab[1] = call1_path(cx, CAP(self, 2), argv[0]))) {
        v_decref(ab[0]);
        return NULL;
    }
    Value *r = prim_call(cx, CAP(self, 0), 2, ab);
    v_decref(ab[0]);
    v_decref(ab[1]);
    return r;
}

bool ad_pair_leaf(const Value *g, Value *const src[2], PairLeaf *lf)
{
    unsigned path = 0, calls = 0;
    bool color = g->type == V_FUNC && g->u.fn.invoke == prim_invoke && g->u.fn.prim == PRIM_AD_color;
    if (!color && (!path_of(g, &path, &calls) || !(path & 7)))
        return false;
    int side = color ? 0 : path >> 3 & 1;   /* a pair's last item is b */
    size_t n = v_len(src[side]);
    Value *const *it = v_items(src[side]);
    Value **val = malloc((n ? n : 1) * sizeof *val);
    bool ok = val != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        Value *a = it[i];
        if (color)      /* color(pair): next(iter(pair))[0], a's item 0 */
            val[i] = a->type == V_TUPLE && !(a->flags & V_FLAGS_PY) && a->u.tup.len ? v_titems(a)[0]
                                                                                 : NULL;
        else
            val[i] = path_walk_from(path, 1, a);
        ok = val[i] != NULL;
    }
    if (!ok) {
        free(val);
        return false;
    }
    *lf = (PairLeaf){.val = val, .side = side, .charge = color ? 1 : 1 + calls};
    return true;
}

bool ad_is_fork(const Value *g)
{
    return g->type == V_FUNC && g->u.fn.invoke == fork_inv;
}

bool ad_fork_pairs(const Value *f, const Value *c, ForkPairs *fp)
{
    if (!ad_is_fork(f))
        return false;
    Value *src[2] = {fs_recipe_head(c)->src[0], fs_recipe_head(c)->src[1]};
    *fp = (ForkPairs){.outer = CAP(f, 0), .n = v_len(src[0])};
    if (!ad_pair_leaf(CAP(f, 1), src, &fp->leaf[0]))
        return false;
    if (!ad_pair_leaf(CAP(f, 2), src, &fp->leaf[1])) {
        ad_fork_pairs_free(fp);
        return false;
    }
    fp->charge = 1 + fp->leaf[0].charge + fp->leaf[1].charge;
    return true;
}

void ad_fork_pairs_free(ForkPairs *fp)
{
    free(fp->leaf[0].val);
    free(fp->leaf[1].val);
    fp->leaf[0].val = fp->leaf[1].val = NULL;
}

/* ---- combinators -------------------------------------------------------- */

Value *ad_branch(Ctx *cx, Value *const *a)
{
    (void)cx;
    return v_incref(v_truthy(a[0]) ? a[1] : a[2]);
}

Value *ad_compose(Ctx *cx, Value *const *a)
{
    (void)cx;
    Value *r = cm_closure(compose_inv, "compose.<locals>.<lambda>", PRIM_AD_compose, 1,
                          pair_may(a[1], a[0]) ? MAY_PAIR_FIRST : 0, 2, a);
    unsigned po, co, pi, ci, p, c;
    if (path_of(a[1], &pi, &ci) && path_of(a[0], &po, &co) &&
        path_then(pi, 1 + ci, po, 1 + co, &p, &c))
        path_set(r, p, c);
    return r;
}

Value *ad_chain(Ctx *cx, Value *const *a)
{
    (void)cx;
    int may = (pair_may(a[2], a[1]) ? MAY_PAIR_FIRST : 0) |
              (pair_may(a[1], a[0]) ? MAY_PAIR_SECOND : 0) |
              (nbcount_may(a[2], a[1], a[0]) ? MAY_NBCOUNT : 0);
    Value *r = cm_closure(chain_inv, "chain.<locals>.<lambda>", PRIM_AD_chain, 1, may, 3, a);
    unsigned ph, ch, pg, cg, pf, cf, p, c;
    if (path_of(a[2], &pf, &cf) && path_of(a[1], &pg, &cg) && path_of(a[0], &ph, &ch) &&
        path_then(pf, 1 + cf, pg, 1 + cg, &p, &c) && path_then(p, c, ph, 1 + ch, &p, &c))
        path_set(r, p, c);
    return r;
}

Value *ad_matcher(Ctx *cx, Value *const *a)
{
    (void)cx;
    return cm_closure(matcher_inv, "matcher.<locals>.<lambda>", PRIM_AD_matcher, 1, 0, 2, a);
}

Value *ad_rbind(Ctx *cx, Value *const *a) { return cm_bind(cx, a, true, "rbind.<locals>.<lambda>", PRIM_AD_rbind); }
Value *ad_lbind(Ctx *cx, Value *const *a) { return cm_bind(cx, a, false, "lbind.<locals>.<lambda>", PRIM_AD_lbind); }

/* Python recursion depth the reference's recursive power() can reach. */
#define POWER_MAX_DEPTH 1000

Value *ad_power(Ctx *cx, Value *const *a)
{
    Value *f = a[0], *nv = a[1];
    int64_t n;
    if (v_eq(nv, v_int(1)))
        return v_incref(f);
    if (v_is_int(nv)) {
        n = nv->u.i;
    } else if (nv->type == V_FLOAT) {
        double d = nv->u.f;
        n = (d == floor(d) && d > 1 && d < POWER_MAX_DEPTH) ? (int64_t)d : 0;
    } else {
        return cx_raise(cx, "TypeError", "unsupported operand type(s) for -: '%s' and 'int'",
                        v_typename(nv));
    }
    /* n < 1 (or fractional) never reaches n == 1: unbounded recursion */
    if (n < 1 || n >= POWER_MAX_DEPTH)
        return cx_raise(cx, "RecursionError", "maximum recursion depth exceeded");
    Value *cap[2] = {f, v_int(n)};
    Value *r = cm_closure(power_inv, "compose.<locals>.<lambda>", PRIM_AD_power, 1, 0, 2, cap);
    v_decref(cap[1]);
    unsigned pf = 0, cf = 0, p, c;
    bool ok = path_of(f, &pf, &cf);
    p = pf, c = 1 + cf;                  /* one call of f; each further one chains on */
    for (int64_t k = 1; ok && k < n; k++)
        ok = path_then(p, c, pf, 1 + cf, &p, &c);
    if (ok)
        path_set(r, p, c);
    return r;
}

Value *ad_fork(Ctx *cx, Value *const *a)
{
    (void)cx;
    return cm_closure(fork_inv, "fork.<locals>.<lambda>", PRIM_AD_fork, 1, 0, 3, a);
}
