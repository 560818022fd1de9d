/* core_util.h -- small helpers both dialects share: iteration checks,
 * the work budget, and a buffer of owned values that becomes a tuple or a
 * frozenset (Python's `type(c)(genexpr)`).
 */
#ifndef ARC_CORE_UTIL_H
#define ARC_CORE_UTIL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "value.h"
#include "pyset.h"
#include "fsproduct.h"
#include "fsderived.h"
#include "fsdistinct.h"
#include "fskeys.h"
#include "fsfar.h"
#include "vmem.h"
#include "prim.h"
#include "common/flatcall.h"

/* Largest container built in one step; past it MemoryError rather than an
 * allocation that would abort the process (an unlimited budget allows it). */
#define CORE_MAX_ITEMS ((uint64_t)1 << 27)

/* Charge n units of work; false (MemoryError raised) once over budget. */
static inline bool core_work(Ctx *cx, uint64_t n)
{
    if (n > CORE_MAX_ITEMS) {
        cx_raise(cx, "MemoryError", "container too large");
        return false;
    }
    return cx_charge(cx, n);
}

/* Whether a container of n items may be made: past CORE_MAX_ITEMS
 * MemoryError, as core_work, before any allocation (n from a program's
 * ints, cx_mul'd). */
static inline bool core_fits(Ctx *cx, uint64_t n)
{
    if (n > CORE_MAX_ITEMS) {
        cx_raise(cx, "MemoryError", "container too large");
        return false;
    }
    return true;
}

/* A test's 1/0 as a bool value; -1 (raised) as NULL. */
static inline Value *core_bool(int r) { return r < 0 ? NULL : v_bool(r); }

/* `x in c`: a frozenset's probe, or a tuple's items tested by identity,
 * then ==, as CPython does.  Arena values (small ints, interned tuples)
 * are each one of a kind: among them == is identity (no bool is one). */
static inline int core_contains(Ctx *cx, Value *c, Value *x)
{
    if (c->type == V_FSET)
        return fs_contains(c, x);
    if (c->type != V_TUPLE) {
        cx_raise(cx, "TypeError", "argument of type '%s' is not iterable", v_typename(c));
        return -1;
    }
    if ((c->flags & V_FLAG_FLAT) && v_in_arena(x)) {
        for (size_t i = 0; i < c->u.tup.len; i++)
            if (v_titems(c)[i] == x)
                return 1;
        return 0;
    }
    for (size_t i = 0; i < c->u.tup.len; i++) {
        Value *e = v_titems(c)[i];
        if (e == x || v_eq(e, x))
            return 1;
    }
    return 0;
}

/* `for e in v`: only tuples and frozensets are iterable among DSL values. */
static inline bool core_iterable(Ctx *cx, const Value *v)
{
    if (v_is_container(v))
        return true;
    cx_raise(cx, "TypeError", "'%s' object is not iterable", v_typename(v));
    return false;
}

/* x beats best under min (op CMP_LT) or max (CMP_GT), as Python's
 * builtins compare an item to the best so far: 1/0, -1 raised */
static inline int core_beats(Ctx *cx, const Value *x, const Value *best, int op)
{
    if (v_is_int(x) && v_is_int(best))
        return op == CMP_LT ? x->u.i < best->u.i : x->u.i > best->u.i;
    return v_richcmp(cx, x, best, op);
}

/* min(a, b) (op CMP_LT) or max(a, b) (CMP_GT): a kept on a tie;
 * borrowed, or NULL raised */
static inline Value *core_minmax2(Ctx *cx, Value *a, Value *b, int op)
{
    int r = core_beats(cx, b, a, op);
    return r < 0 ? NULL : r ? b : a;
}

/* `k OP v` for an int k where the reference computes with a count or
 * factor v that is no number (op "//", "%"...): TypeError, CPython's words */
static inline bool core_int_operand(Ctx *cx, const char *op, const Value *v)
{
    if (v_is_int(v) || v->type == V_FLOAT)
        return true;
    cx_raise(cx, "TypeError", "unsupported operand type(s) for %s: 'int' and '%s'", op,
             v_typename(v));
    return false;
}

/* A call made inside a generator expression: a StopIteration escaping it
 * becomes RuntimeError (PEP 479), as in the reference's genexprs. */
static inline Value *core_gen_done(Ctx *cx, Value *r)
{
    if (!r && !cx->over_budget && strncmp(cx->errmsg, "StopIteration:", 14) == 0) {
        cx_clear(cx);
        cx_raise(cx, "RuntimeError", "generator raised StopIteration");
    }
    return r;
}

static inline Value *core_gen_call(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    return core_gen_done(cx, prim_call(cx, f, argc, argv));
}

/* ---- numbers: int (bool) and float, as Python combines them ------------ */

static inline bool core_is_num(const Value *v) { return v_is_int(v) || v->type == V_FLOAT; }
static inline double core_as_f(const Value *v) { return v->type == V_FLOAT ? v->u.f : (double)v->u.i; }

/* a // b for b != 0 (the caller rules out INT64_MIN // -1) */
static inline int64_t core_floordiv(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/* CPython's float floor division (floatobject.c float_floor_div), w != 0 */
static inline double core_float_floordiv(double v, double w)
{
    double mod = fmod(v, w), div = (v - mod) / w, fl;
    if (mod != 0.0 && ((w < 0) != (mod < 0)))
        div -= 1.0;
    if (div != 0.0) {
        fl = floor(div);
        if (div - fl > 0.5)
            fl += 1.0;
    } else {
        fl = copysign(0.0, v / w);
    }
    return fl;
}

/* CPython's float modulo (floatobject.c float_rem), w != 0: the sign of
 * w, zero signed as w. */
static inline double core_float_mod(double v, double w)
{
    double mod = fmod(v, w);
    if (mod != 0.0) {
        if ((w < 0) != (mod < 0))
            mod += w;
    } else {
        mod = copysign(0.0, w);
    }
    return mod;
}

/* ---- sequence operators ------------------------------------------------ */

/* The binary operators, numbered alike in both dialects. */
enum { CORE_ADD, CORE_SUB, CORE_MUL, CORE_FLOORDIV, CORE_MOD };

/* An int result past 64 bits, where CPython's would grow (docs/notes.md,
 * "Left alone"): OverflowError, NULL. */
static inline Value *core_overflow(Ctx *cx)
{
    return cx_raise(cx, "OverflowError", "integer result beyond 64 bits");
}

/* -a, Python's unary minus: a new reference, or NULL raised */
static inline Value *core_neg(Ctx *cx, const Value *a)
{
    if (v_is_int(a))
        return a->u.i == INT64_MIN ? core_overflow(cx) : v_int(-a->u.i);
    if (a->type == V_FLOAT)
        return v_float(-a->u.f);
    return cx_raise(cx, "TypeError", "bad operand type for unary -: '%s'", v_typename(a));
}

/* A coordinate moved by an offset, x + d; false past 64 bits, raised. */
static inline bool core_coord_add(Ctx *cx, int64_t x, int64_t d, int64_t *r)
{
    return !__builtin_add_overflow(x, d, r) || core_overflow(cx);
}

/* x OP y on 64-bit ints as Python computes them (y != 0 for CORE_FLOORDIV
 * and CORE_MOD): false when the result does not fit, which each caller
 * raises in its own words. */
static inline bool core_int_arith(int op, int64_t x, int64_t y, int64_t *r)
{
    switch (op) {
    case CORE_ADD: return !__builtin_add_overflow(x, y, r);
    case CORE_SUB: return !__builtin_sub_overflow(x, y, r);
    case CORE_MUL: return !__builtin_mul_overflow(x, y, r);
    default: break;
    }
    if (y == -1) {      /* C's / and % trap on INT64_MIN / -1 */
        if (op == CORE_MOD) {
            *r = 0;
            return true;
        }
        return !__builtin_sub_overflow(0, x, r);
    }
    int64_t q = x / y, m = x % y;
    if (m != 0 && ((m < 0) != (y < 0))) {
        q--;
        m += y;
    }
    *r = op == CORE_MOD ? m : q;
    return true;
}

/* x + y for tuples.  reuse: an empty side gives the other, as CPython's
 * tuple concat; charge: the new tuple's items count as work. */
static inline Value *core_concat(Ctx *cx, Value *x, Value *y, bool reuse, bool charge)
{
    size_t n = x->u.tup.len, m = y->u.tup.len;
    if (reuse && n == 0)
        return v_incref(y);
    if (reuse && m == 0)
        return v_incref(x);
    if (charge && !core_work(cx, n + m))
        return NULL;
    Value *r = v_tuple_new(n + m);
    for (size_t i = 0; i < n; i++)
        v_titems(r)[i] = v_incref(v_titems(x)[i]);
    for (size_t i = 0; i < m; i++)
        v_titems(r)[n + i] = v_incref(v_titems(y)[i]);
    v_mark_flat_known(r, (x->flags & y->flags) & V_FLAG_FLAT);
    return r;
}

/* t * n; past CORE_MAX_ITEMS MemoryError(too_large), the dialect's text */
static inline Value *core_repeat(Ctx *cx, const Value *t, int64_t n, const char *too_large)
{
    size_t len = t->u.tup.len;
    if (n <= 0 || len == 0)
        return v_tuple_new(0);
    if ((uint64_t)n > CORE_MAX_ITEMS / len)
        return cx_raise(cx, "MemoryError", "%s", too_large);
    size_t total = len * (size_t)n;
    if (!core_work(cx, total))
        return NULL;
    Value *r = v_tuple_new(total);
    for (size_t i = 0; i < total; i++)
        v_titems(r)[i] = v_incref(v_titems(t)[i % len]);
    return r;
}

/* x OP y by Python's sequence rules: tuple + tuple, frozenset - frozenset,
 * tuple * int either way.  false when none applies; else *r is the result
 * (NULL raised). */
static inline bool core_seq_op(Ctx *cx, int op, Value *x, Value *y, bool reuse,
                               const char *too_large, Value **r)
{
    if (op == CORE_ADD && x->type == V_TUPLE && y->type == V_TUPLE)
        *r = core_concat(cx, x, y, reuse, true);
    else if (op == CORE_SUB && x->type == V_FSET && y->type == V_FSET)
        *r = fs_sub(x, y);
    else if (op == CORE_MUL && x->type == V_TUPLE && v_is_int(y))
        *r = core_repeat(cx, x, y->u.i, too_large);
    else if (op == CORE_MUL && v_is_int(x) && y->type == V_TUPLE)
        *r = core_repeat(cx, y, x->u.i, too_large);
    else
        return false;
    return true;
}

/* s.add(owned), the reference released */
static inline void core_set_put(PySet *s, Value *owned)
{
    pyset_add(s, owned);
    v_decref(owned);
}

/* The frozenset of a set filled item by item, charged the n items a
 * buffer of them would have been (vb_finish). */
static inline Value *core_set_finish(Ctx *cx, PySet *s, size_t n)
{
    if (!core_work(cx, n)) {
        pyset_clear(s);
        return NULL;
    }
    return pyset_take(s);
}

/* type(containers)(e for c in containers for e in c), every element
 * added (arcdsl/container.c) */
Value *core_merge(Ctx *cx, Value *cs);

/* A growing array of owned references. */
typedef struct {
    Value **v;
    size_t n, cap;
} VBuf;

static inline void vb_drop(VBuf *b)
{
    for (size_t i = 0; i < b->n; i++)
        v_decref(b->v[i]);
    free(b->v);
    b->v = NULL;
    b->n = b->cap = 0;
}

/* Reserve room for `extra` more items; false (MemoryError) on failure. */
static inline bool vb_reserve(Ctx *cx, VBuf *b, size_t extra)
{
    if (b->cap - b->n >= extra)
        return true;
    size_t cap = b->cap ? b->cap : 8;
    while (cap - b->n < extra) {
        if (cap > SIZE_MAX / 2 / sizeof *b->v)
            goto oom;
        cap *= 2;
    }
    Value **nv = realloc(b->v, cap * sizeof *nv);
    if (!nv)
        goto oom;
    b->v = nv;
    b->cap = cap;
    return true;
oom:
    cx_raise(cx, "MemoryError", "out of memory");
    return false;
}

/* Append an owned reference (consumed even on failure). */
static inline bool vb_push(Ctx *cx, VBuf *b, Value *owned)
{
    if (!vb_reserve(cx, b, 1)) {
        v_decref(owned);
        return false;
    }
    b->v[b->n++] = owned;
    return true;
}

/* The buffer's items, no two of them equal (the caller made them so: a
 * subset of a frozenset, the one-to-one image of one), as a frozenset
 * laid out directly (fs_from_distinct); the buffer is emptied. */
static inline Value *vb_take_distinct(VBuf *b)
{
    Value *r = fs_from_distinct(b->v, b->n);
    vb_drop(b);
    return r;
}

/* The buffer's items charged as a container's making charges them; false
 * (the buffer dropped) past the budget. */
static inline bool vb_charge(Ctx *cx, VBuf *b)
{
    if (core_work(cx, b->n))
        return true;
    vb_drop(b);
    return false;
}

/* The same, charged as vb_finish. */
static inline Value *vb_finish_distinct(Ctx *cx, VBuf *b)
{
    return vb_charge(cx, b) ? vb_take_distinct(b) : NULL;
}

/* The buffer's items, taken, as a tuple (the buffer left holding none). */
static inline Value *vb_tuple_take(VBuf *b)
{
    Value *r;
    if (b->n == 2) {            /* a place or a cell may be interned */
        r = v_pair_steal(b->v[0], b->v[1]);
    } else {
        r = v_tuple_new(b->n);
        if (b->n)
            memcpy(v_titems(r), b->v, b->n * sizeof *b->v);
        v_mark_flat(r, v_titems(r), b->n);
    }
    b->n = 0;
    return r;
}

/* The buffer as a tuple, its memory kept for the next: a loop that makes
 * a tuple per round allocates once. */
static inline Value *vb_tuple_reuse(Ctx *cx, VBuf *b)
{
    return vb_charge(cx, b) ? vb_tuple_take(b) : NULL;
}

/* The buffer as a container of `type` (V_TUPLE or V_FSET, the latter built
 * by ADD-ALL in buffer order); the buffer is emptied. */
static inline Value *vb_finish(Ctx *cx, VBuf *b, int type)
{
    Value *r;
    if (!vb_charge(cx, b))
        return NULL;
    if (type == V_FSET) {
        r = fs_from_items(b->v, b->n);
        vb_drop(b);
        return r;
    }
    r = vb_tuple_take(b);
    free(b->v);
    b->v = NULL;
    b->cap = 0;
    return r;
}

/* A container's items in iteration order, each borrowed until the next.
 * A product whose pairs are not built gives them one at a time, made and
 * released in turn: building them all for a walk would undo what its
 * laziness saves. */
typedef struct {
    Value *c;
    size_t i;
    bool unbuilt;
    Value *made;                /* the pair handed out last, to release */
    Value *const *it;           /* c's items once the walk has begun, and how many */
    size_t n;
} CoreWalk;

static inline CoreWalk core_walk(Value *c)
{
    return (CoreWalk){c, 0, c->type == V_FSET &&
                                (__atomic_load_n(&c->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) &&
                                fs_is_product(c),
                      NULL, NULL, 0};
}

/* The next item, or NULL at the end (the walk is then released).  A
 * container's items stay where they are once laid out, so the walk reads
 * them from where it first found them. */
static inline Value *core_walk_next(CoreWalk *w)
{
    if (w->it) {
        if (w->i == w->n)
            return NULL;
        v_fetch_ahead(w->it, w->i, w->n);
        return w->it[w->i++];
    }
    Value *spare = w->made;
    w->made = NULL;
    if (w->unbuilt)
        return w->made = fs_product_next(w->c, &w->i, spare);
    v_decref(spare);
    w->n = v_len(w->c);
    if (w->i == w->n)
        return NULL;
    w->it = v_items(w->c);
    v_fetch_ahead(w->it, w->i, w->n);
    return w->it[w->i++];
}

/* A walk left before its end. */
static inline void core_walk_stop(CoreWalk *w)
{
    v_decref(w->made);
    w->made = NULL;
}

/* ---- sets walked before their order is made (fsderived.h) ------------
 * frozenset(f(e) for e in c), and the filters, for a c whose order is not
 * made: the calls run in c's generation order and the result is a derived
 * set.  Where a call fails, the budget runs out or two equal results could
 * read differently, the walk is undone, its charges too, and NULL comes
 * back with nothing raised: the caller then walks c in order. */
typedef struct {
    Ctx *cx;
    uint64_t work, check_at;    /* the budget as the walk found it */
    int32_t *map;
    uint64_t *kept;
    VBuf mem;
    uint32_t *tab;              /* members by hash: index + 1, 0 empty */
    size_t mask;
} CoreGen;

/* mapped: apply's map and dedup table; else a filter's bitmap.  The
 * table starts small and grows with the members: a walk of a product
 * gives few distinct results for many items. */
static inline bool core_gen_open(CoreGen *g, Ctx *cx, size_t n, bool mapped)
{
    *g = (CoreGen){.cx = cx, .work = cx->work, .check_at = cx->check_at};
    g->mask = 1;
    while (mapped && g->mask < 2 * n && g->mask < 1023)
        g->mask = 2 * g->mask + 1;
    if (mapped) {
        g->map = malloc(n * sizeof *g->map);
        g->tab = calloc(g->mask + 1, sizeof *g->tab);
    } else {
        g->kept = calloc((n + 63) / 64, sizeof *g->kept);
    }
    return (mapped ? g->map && g->tab : g->kept != NULL) && vb_reserve(cx, &g->mem, 16);
}

static inline void core_gen_close(CoreGen *g)
{
    free(g->kept);
    free(g->map);
    free(g->tab);
    vb_drop(&g->mem);
}

static inline Value *core_gen_undo(CoreGen *g)
{
    g->cx->work = g->work;
    g->cx->check_at = g->check_at;
    g->cx->over_budget = false;
    cx_clear(g->cx);
    core_gen_close(g);
    return NULL;
}

/* The dedup table at twice the size, the members placed again. */
static inline bool core_gen_grow(CoreGen *g)
{
    size_t mask = 2 * g->mask + 1;
    uint32_t *tab = calloc(mask + 1, sizeof *tab);
    if (!tab)
        return false;
    for (size_t m = 0; m < g->mem.n; m++) {
        size_t p = (uint64_t)v_hash(g->mem.v[m]) & mask;
        while (tab[p])
            p = (p + 1) & mask;
        tab[p] = (uint32_t)m + 1;
    }
    free(g->tab);
    g->tab = tab;
    g->mask = mask;
    return true;
}

/* r (taken) as a member: its index, or -1 (r released) where an equal
 * member might not read as r does. */
static inline int32_t core_gen_member(CoreGen *g, Value *r)
{
    if (2 * (g->mem.n + 1) > g->mask + 1 && !core_gen_grow(g)) {
        v_decref(r);
        return -1;
    }
    uint64_t h = (uint64_t)v_hash(r);
    for (size_t p = h & g->mask;; p = (p + 1) & g->mask) {
        uint32_t at = g->tab[p];
        if (!at) {
            if (!vb_push(g->cx, &g->mem, r))
                return -1;
            g->tab[p] = (uint32_t)g->mem.n;
            return (int32_t)g->mem.n - 1;
        }
        Value *m = g->mem.v[at - 1];
        if ((uint64_t)v_hash(m) == h && v_eq(m, r)) {
            bool same = fs_gen_same(m, r);
            v_decref(r);
            return same ? (int32_t)at - 1 : -1;
        }
    }
}

static inline Value *core_map_gen(Ctx *cx, Value *f, Value *c, bool gen)
{
    CoreGen g;
    size_t n = v_len(c), x = 0;
    if (!core_gen_open(&g, cx, n, true))
        return core_gen_undo(&g);
    FsGenWalk w = fs_gen_walk(c);
    for (Value *e; (e = fs_gen_next(&w)); x++) {
        Value *r = gen ? core_gen_call(cx, f, 1, &e) : prim_call(cx, f, 1, &e);
        if (r && (r->flags & V_FLAGS_PY)) {     /* a list or set: the ordered walk decides */
            v_decref(r);
            r = NULL;
        }
        if (!r || (g.map[x] = core_gen_member(&g, r)) < 0) {
            fs_gen_stop(&w);
            return core_gen_undo(&g);
        }
    }
    if (!core_work(cx, n))
        return core_gen_undo(&g);
    Value *v = fs_derived(c, g.map, g.mem.v, g.mem.n);
    g.mem.n = 0;                /* taken */
    core_gen_close(&g);
    return v;
}

static inline Value *core_filter_gen(Ctx *cx, Value *c, int (*keep)(Ctx *, Value *, void *),
                                     void *ud)
{
    CoreGen g;
    size_t n = v_len(c), x = 0;
    if (!core_gen_open(&g, cx, n, false))
        return core_gen_undo(&g);
    FsGenWalk w = fs_gen_walk(c);
    for (Value *e; (e = fs_gen_next(&w)); x++) {
        int k = keep(cx, e, ud);
        if (k < 0 || (k && !vb_push(cx, &g.mem, v_incref(e)))) {
            fs_gen_stop(&w);
            return core_gen_undo(&g);
        }
        g.kept[x >> 6] |= (uint64_t)(k != 0) << (x & 63);
    }
    if (!core_work(cx, g.mem.n))
        return core_gen_undo(&g);
    Value *v = g.mem.n ? fs_derived_filtered(c, g.kept, g.mem.v, g.mem.n) : fs_from_items(NULL, 0);
    g.mem.n = 0;
    core_gen_close(&g);
    return v;
}

/* An item's result made without the call (a new reference), or NULL:
 * raised where cx->err is set, else the call makes it. */
typedef Value *(*CoreMake)(Ctx *cx, Value *e, void *ud);

/* The container `type` of f(e) for e in c (rev: of e(f)); gen: the calls
 * run in a generator expression (core_gen_call), else as plain calls;
 * make (may be NULL) offered each item first, outside generation order. */
static inline Value *core_map_by(Ctx *cx, Value *f, Value *c, int type, bool rev, bool gen,
                                 CoreMake make, void *ud)
{
    if (!core_iterable(cx, c))
        return NULL;
    Value *lazy = type == V_FSET && !rev && fs_gen_lazy(c) ? core_map_gen(cx, f, c, gen) : NULL;
    if (lazy)
        return lazy;
    /* the results are buffered; a frozenset's are then added in order, as
     * frozenset(genexpr) adds them (vb_finish) */
    bool to_set = type == V_FSET;
    VBuf b = {0};
    if (!vb_reserve(cx, &b, v_len(c)))
        return NULL;
    FlatCall fc;
    flat_open(&fc, f, rev || make ? NULL : c);
    CoreWalk w = core_walk(c);
    for (Value *e; (e = core_walk_next(&w));) {
        Value *r = make ? make(cx, e, ud) : NULL;
        if (!r && !cx->err)
            r = rev ? (gen ? core_gen_call(cx, e, 1, &f) : prim_call(cx, e, 1, &f))
                    : (gen ? core_gen_done(cx, flat_call(cx, &fc, e)) : flat_call(cx, &fc, e));
        if (r && to_set && !v_hashable(cx, r)) {
            v_decref(r);
            r = NULL;
        }
        if (!r) {
            core_walk_stop(&w);
            return vb_drop(&b), NULL;
        }
        b.v[b.n++] = r;
    }
    return vb_finish(cx, &b, type);
}

static inline Value *core_map(Ctx *cx, Value *f, Value *c, int type, bool rev, bool gen)
{
    return core_map_by(cx, f, c, type, rev, gen, NULL, NULL);
}

/* The items e of c with keep(e, ud) 1 (-1 raised), as a container of
 * `type`: a filtering genexpr. */
/* core_filter of an unbuilt product into a frozenset: the kept pairs are
 * kept as their places in it (fs_product_subset), none built.  The
 * places and hashes gathered on the way are vmem's: the waves count
 * them (waves.c). */
static inline Value *core_filter_product(Ctx *cx, Value *c, int (*keep)(Ctx *, Value *, void *),
                                         void *ud)
{
    size_t slot = 0, n = 0, len = v_len(c), bytes = len * (sizeof(uint32_t) + sizeof(int64_t));
    int64_t *h = vmem_alloc(bytes);
    uint32_t *at = (uint32_t *)(h + len), k;
    Value *r = NULL;
    for (Value *e = NULL; (e = fs_product_next_at(c, &slot, e, &k));) {
        int kept = keep(cx, e, ud);
        if (kept < 0) {
            v_decref(e);
            goto out;
        }
        if (kept) {
            at[n] = k;
            h[n++] = v_hash(e);
        }
    }
    if (core_work(cx, n))
        r = n ? fs_product_subset(c, at, h, n) : fs_from_items(NULL, 0);
out:
    vmem_free(h, bytes);
    return r;
}

/* core_filter of an unbuilt far set into a frozenset, its items made
 * from its codes in no order: the kept as a far set that finds the
 * filter's order only when read (fs_far_filtered).  Undone as a
 * generation walk is (NULL, nothing raised or charged) where a call
 * fails or the budget runs out: the caller then walks c in order. */
static inline Value *core_filter_far(Ctx *cx, Value *c, int (*keep)(Ctx *, Value *, void *),
                                     void *ud)
{
    CoreGen g;
    size_t n = v_len(c), m = 0;
    if (!core_gen_open(&g, cx, n, false))
        return core_gen_undo(&g);
    const uint64_t *k = fs_far_codes(c);
    for (size_t x = 0; x < n; x++) {
        Value *e = fs_far_value(k[x]);
        int kept = e ? keep(cx, e, ud) : -1;
        v_decref(e);
        if (kept < 0)
            return core_gen_undo(&g);
        g.kept[x >> 6] |= (uint64_t)(kept != 0) << (x & 63);
        m += kept != 0;
    }
    if (!core_work(cx, m))
        return core_gen_undo(&g);
    Value *v = m ? fs_far_filtered(c, g.kept, m) : fs_from_items(NULL, 0);
    core_gen_close(&g);
    return v ? v : cx_raise(cx, "MemoryError", "out of memory");
}

static inline Value *core_filter(Ctx *cx, Value *c, int (*keep)(Ctx *, Value *, void *),
                                 void *ud, int type)
{
    if (!core_iterable(cx, c))
        return NULL;
    /* a product's filter keeps to core_filter_product: where the subset
     * is read in order after all, laying it out then walks the product's
     * table once more than filtering in order does */
    Value *lazy = type == V_FSET && fs_gen_lazy(c) && !fs_is_product(c)
                      ? core_filter_gen(cx, c, keep, ud)
                      : NULL;
    if (lazy)
        return lazy;
    if (type == V_FSET && core_walk(c).unbuilt)
        return core_filter_product(cx, c, keep, ud);
    if (type == V_FSET && fs_far_unbuilt(c) && (lazy = core_filter_far(cx, c, keep, ud)))
        return lazy;
    if (type == V_FSET && c->type == V_FSET) {
        /* the kept are c's own items: borrowed while c holds them, then
         * laid out as distinct */
        size_t n = v_len(c), m = 0;
        Value *small[64], **kept = n <= 64 ? small : malloc(n * sizeof *kept);
        if (!kept)
            return cx_raise(cx, "MemoryError", "out of memory");
        Value *const *it = v_items(c);
        Value *r = NULL;
        int k = 0;
        for (size_t i = 0; i < n && k >= 0; i++) {
            v_fetch_ahead(it, i, n);
            if ((k = keep(cx, it[i], ud)) > 0)
                kept[m++] = it[i];
        }
        /* the kept are distinct: as keys where they are interned */
        if (k >= 0 && core_work(cx, m) && !(fs_keys_may(kept, m) && (r = fs_from_interned(kept, m))))
            r = fs_from_distinct(kept, m);
        if (kept != small)
            free(kept);
        return r;
    }
    VBuf b = {0};
    CoreWalk w = core_walk(c);
    for (Value *e; (e = core_walk_next(&w));) {
        int k = keep(cx, e, ud);
        if (k < 0 || (k && !vb_push(cx, &b, v_incref(e)))) {
            core_walk_stop(&w);
            return vb_drop(&b), NULL;
        }
    }
    return type == V_FSET && c->type == V_FSET ? vb_finish_distinct(cx, &b) : vb_finish(cx, &b, type);
}

#endif
