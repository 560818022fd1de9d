/* pairfork.c -- apply(fork(outer, x, y), c) over a product c laid out in
 * its own order, no pair built.  x and y each take one side of a pair
 * (paths.h PairLeaf) or are a fork of two such; their values are looked
 * up per item of A and of B, not walked per pair.  functional.c's
 * map_product_fork takes the products nothing has laid out yet. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "prim.h"
#include "fsrecipe.h"
#include "fsproduct.h"
#include "fastdiv.h"
#include "fsderived.h"
#include "common/core_util.h"
#include "arcdsl/paths.h"
#include "arcdsl/line.h"
#include "common/closures.h"

/* A call's result kept for its arguments (connect's: for its line key),
 * and the work it charged, charged again wherever they come back: DSL
 * functions are pure, and equal calls charge alike.  A table keeps at
 * most MEMO_MOST; past that, new arguments are called unkept.
 *
 * The fork's own table is keyed by its arguments' addresses: leaves'
 * values, which live through the walk, and results a branch's table
 * keeps.  A result a branch could not keep is freed after its pair and
 * its address may come again for another value; but it never becomes a
 * key, since every new result of a branch is a new key for the fork's
 * table, which is therefore full no later than the branch's.
 *
 * A walk's three tables are sized for it at once (at most twice
 * MEMO_MOST slots: they never grow) and come from the thread's own, kept
 * zeroed between walks: a walk clears the entries it used, not the table
 * (calloc's zeroing of the tables, grown step by step, was a tenth of
 * solve_06df4c85).  A thread's tables grow to the largest walk it made
 * and are freed when it ends. */
enum { MEMO_MOST = 1 << 13, MEMO_SLOTS = 2 * MEMO_MOST, MEMO_ROLES = 3 };

typedef struct {
    uintptr_t k0, k1;
    Value *r;                   /* NULL: empty */
    uint64_t work;
} Memo;

typedef struct {
    Memo *e;
    size_t mask, used;
    uint16_t *at;               /* the slots used, for memo_close */
    int role;                   /* the thread's table it is, or -1: its own */
} MemoTab;

/* per role (the fork, its two branches): slots all empty between walks,
 * and room to list the slots a walk uses.  A walk inside a call of
 * another walk's (an outer that applies a fork of its own) finds the
 * thread's busy and takes tables of its own. */
typedef struct {
    Memo *e[MEMO_ROLES];
    uint16_t *at[MEMO_ROLES];
    size_t size[MEMO_ROLES];
    bool busy[MEMO_ROLES];
} MemoPool;

static _Thread_local MemoPool memo_pool;
static pthread_key_t memo_key;
static pthread_once_t memo_key_once = PTHREAD_ONCE_INIT;

static void memo_pool_free(void *unused)
{
    (void)unused;
    for (int r = 0; r < MEMO_ROLES; r++) {
        free(memo_pool.e[r]);
        free(memo_pool.at[r]);
    }
    memo_pool = (MemoPool){0};
}

static void memo_key_make(void)
{
    if (pthread_key_create(&memo_key, memo_pool_free) != 0)
        abort();
}

/* size empty slots and room to list half of them; false when memory ran
 * out */
static bool memo_alloc(Memo **e, uint16_t **at, size_t size)
{
    *e = calloc(size, sizeof **e);
    *at = malloc(size / 2 * sizeof **at);
    if (*e && *at)
        return true;
    free(*e), free(*at);
    *e = NULL, *at = NULL;
    return false;
}

/* role's table, for a walk of n pairs (n distinct keys at most) */
static bool memo_open(MemoTab *t, int role, size_t n)
{
    size_t size = 256;
    while (size < MEMO_SLOTS && size < 2 * n)
        size *= 2;
    *t = (MemoTab){NULL, size - 1, 0, NULL, -1};
    MemoPool *p = &memo_pool;
    if (!p->busy[role] && p->size[role] < size) {
        Memo *e;
        uint16_t *at;
        if (memo_alloc(&e, &at, size)) {
            pthread_once(&memo_key_once, memo_key_make);
            pthread_setspecific(memo_key, p);       /* freed as the thread ends */
            free(p->e[role]), free(p->at[role]);
            p->e[role] = e, p->at[role] = at, p->size[role] = size;
        }
    }
    if (!p->busy[role] && p->size[role] >= size) {
        p->busy[role] = true;
        t->e = p->e[role], t->at = p->at[role], t->role = role;
        return true;
    }
    return memo_alloc(&t->e, &t->at, size);
}

static void memo_close(MemoTab *t)
{
    if (!t->e)
        return;
    for (size_t q = 0; q < t->used; q++) {
        Memo *m = &t->e[t->at[q]];
        v_decref(m->r);
        *m = (Memo){0};
    }
    if (t->role >= 0) {
        memo_pool.busy[t->role] = false;
    } else {
        free(t->e);
        free(t->at);
    }
    t->e = NULL;
}

static inline size_t memo_home(uintptr_t k0, uintptr_t k1, size_t mask)
{
    uint64_t h = (uint64_t)k0 * 0x9E3779B97F4A7C15u ^ (uint64_t)k1 * 0xC2B2AE3D27D4EB4Fu;
    return (size_t)(h ^ h >> 29) & mask;
}

/* outer(x, y) called, a new reference, and kept in the empty entry s for
 * (k0, k1) where there is room; NULL where it fails or gives what a set
 * cannot hold (the ordered walk then decides). */
static Value *memo_miss(Ctx *cx, MemoTab *t, size_t s, Value *outer, Value *x, Value *y,
                        uintptr_t k0, uintptr_t k1)
{
    uint64_t before = cx->work;
    Value *args[2] = {x, y}, *r = prim_call(cx, outer, 2, args);
    if (r && ((r->flags & V_FLAGS_PY) || !v_hashable(cx, r))) {
        v_decref(r);
        return NULL;
    }
    /* half full at most: only the largest table, MEMO_MOST entries, gets
     * there (a smaller one has twice its walk's pairs); past it, unkept */
    if (!r || 2 * (t->used + 1) > t->mask + 1)
        return r;
    t->e[s] = (Memo){k0, k1, v_incref(r), cx->work - before};
    t->at[t->used++] = (uint16_t)s;
    return r;
}

/* outer(x, y), a new reference: the result kept under (k0, k1), its
 * charge added to *owed (*kept set), or the call. */
static inline Value *memo_call(Ctx *cx, MemoTab *t, Value *outer, Value *x, Value *y,
                               uintptr_t k0, uintptr_t k1, bool *kept, uint64_t *owed)
{
    size_t s = memo_home(k0, k1, t->mask);
    *kept = false;
    for (; t->e[s].r; s = (s + 1) & t->mask)
        if (t->e[s].k0 == k0 && t->e[s].k1 == k1) {
            *kept = true;
            *owed += t->e[s].work;
            return v_incref(t->e[s].r);
        }
    return memo_miss(cx, t, s, outer, x, y, k0, k1);
}

/* One of the fork's arguments: a leaf, or a fork of two leaves whose
 * outer is called through a memo; connect's by line key where both
 * leaves give interned places (lines are canonical: connects.c). */
typedef struct {
    PairLeaf leaf[2];           /* a leaf: leaf[0] alone */
    Value *outer;               /* a fork's (borrowed); NULL for a leaf */
    uint64_t charge;            /* a fork's own call and its leaves' runs */
    int16_t *ij[2];             /* connect: each leaf's place per item of its side */
    MemoTab memo;
} Branch;

static void branch_close(Branch *b)
{
    free(b->leaf[0].val);
    free(b->leaf[1].val);
    free(b->ij[0]);
    memo_close(&b->memo);
}

/* The leaves' values as places, for connect; false where one is not an
 * interned place. */
static bool leaf_places(Branch *b, Value *const src[2])
{
    size_t n0 = v_len(src[b->leaf[0].side]), n1 = v_len(src[b->leaf[1].side]);
    int16_t *ij = malloc(2 * (n0 + n1 + 1) * sizeof *ij);
    if (!ij)
        return false;
    b->ij[0] = ij;
    b->ij[1] = ij + 2 * n0;
    for (int q = 0; q < 2; q++)
        for (size_t x = 0; x < (q ? n1 : n0); x++) {
            int64_t i, j;
            if (v_interned_at(b->leaf[q].val[x], &i, &j) != 0) {
                free(ij);
                b->ij[0] = b->ij[1] = NULL;
                return false;
            }
            b->ij[q][2 * x] = (int16_t)i;
            b->ij[q][2 * x + 1] = (int16_t)j;
        }
    return true;
}

/* Branch b of the fork, g, for a walk of n pairs; role: its memo's */
static bool branch_open(Branch *b, Value *g, Value *const src[2], int role, size_t n)
{
    memset(b, 0, sizeof *b);
    if (ad_pair_leaf(g, src, &b->leaf[0]))
        return true;            /* a leaf looks up, it calls nothing */
    if (!ad_is_fork(g) || !ad_pair_leaf(CAP(g, 1), src, &b->leaf[0]))
        return false;
    if (!ad_pair_leaf(CAP(g, 2), src, &b->leaf[1]) || !memo_open(&b->memo, role, n)) {
        branch_close(b);
        return false;
    }
    b->outer = CAP(g, 0);
    b->charge = 1 + b->leaf[0].charge + b->leaf[1].charge;
    if (b->outer == prim_value(PRIM_AD_connect))
        leaf_places(b, src);
    return true;
}

/* The branch's value for the pair of items at[0] of A and at[1] of B, a
 * new reference, its run's charge added to *owed; NULL where it fails. */
static Value *branch_value(Ctx *cx, Branch *b, const size_t at[2], uint64_t *owed)
{
    const PairLeaf *l0 = &b->leaf[0], *l1 = &b->leaf[1];
    size_t i0 = at[l0->side];
    if (!b->outer) {
        *owed += l0->charge;
        return v_incref(l0->val[i0]);
    }
    size_t i1 = at[l1->side];
    Value *x = l0->val[i0], *y = l1->val[i1];
    *owed += b->charge;
    uintptr_t k0 = (uintptr_t)x, k1 = (uintptr_t)y;
    if (b->ij[0]) {
        const int16_t *p = b->ij[0] + 2 * i0, *q = b->ij[1] + 2 * i1;
        Line l;
        k0 = line_of(p[0], p[1], q[0], q[1], &l) ? line_key(&l) : 0;
        k1 = 0;
    }
    bool kept;
    return memo_call(cx, &b->memo, b->outer, x, y, k0, k1, &kept, owed);
}

bool ad_apply_pairs(Ctx *cx, Value *f, Value *c, Value **r)
{
    if (!(__atomic_load_n(&c->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) || !fs_is_product(c) ||
        fs_gen_lazy(c) || !ad_is_fork(f))
        return false;
    Value *src[2] = {fs_recipe_head(c)->src[0], fs_recipe_head(c)->src[1]};
    Branch br[2];
    MemoTab top = {0};
    if (!branch_open(&br[0], CAP(f, 1), src, 1, v_len(c)))
        return false;
    if (!branch_open(&br[1], CAP(f, 2), src, 2, v_len(c))) {
        branch_close(&br[0]);
        return false;
    }
    uint64_t work = cx->work, check_at = cx->check_at;
    size_t n = v_len(src[0]);
    const int32_t *order = fs_product_slots(c);
    FastDiv by_n = fastdiv_of((uint32_t)n);
    VBuf b = {0};
    size_t calls = 0;
    bool kept, ok = memo_open(&top, 0, v_len(c)) && vb_reserve(cx, &b, v_len(c));
    for (size_t s = 0; ok && s <= c->u.set.mask; s++) {
        int32_t k = order[s];
        if (k < 0)
            continue;
        size_t at[2] = {fastmod(by_n, (uint32_t)k), fastdiv(by_n, (uint32_t)k)};
        Value *xy[2] = {NULL, NULL}, *res = NULL;
        /* a pair's charges, the fork's own call first, are paid at its
         * end: a failure anywhere undoes the walk, so only the sum counts */
        uint64_t owed = 1;
        ok = true;
        for (int q = 0; ok && q < 2; q++)
            ok = (xy[q] = branch_value(cx, &br[q], at, &owed)) != NULL;
        if (ok)
            res = memo_call(cx, &top, CAP(f, 0), xy[0], xy[1], (uintptr_t)xy[0], (uintptr_t)xy[1],
                            &kept, &owed);
        if (res && !cx_charge(cx, owed)) {
            v_decref(res);
            res = NULL;
        }
        v_decref(xy[0]);
        v_decref(xy[1]);
        /* a kept result is in the buffer already, and adding it again to
         * the set changes nothing */
        if ((ok = res != NULL) && kept)
            v_decref(res);
        else if (ok)
            b.v[b.n++] = res;
        calls++;
    }
    branch_close(&br[0]);
    branch_close(&br[1]);
    memo_close(&top);
    if (!ok) {      /* undone, charges too: the calls run again as written */
        vb_drop(&b);
        cx->work = work;
        cx->check_at = check_at;
        cx->over_budget = false;
        cx_clear(cx);
        return false;
    }
    /* charged for every result, as vb_finish charges a buffer of them all */
    *r = core_work(cx, calls) ? fs_from_items(b.v, b.n) : NULL;
    vb_drop(&b);
    return true;
}
