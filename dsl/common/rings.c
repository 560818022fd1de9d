/* rings.c -- the outline of a rectangle (rings.h).
 *
 * box(p), inbox(p) and outbox(p) are frozenset(vlines | hlines) in both
 * dialects: four set comprehensions and three unions whose layout follows
 * from the corners alone.  It is simulated on location numbers (iset.h),
 * each place numbered by where it lies on the ring, and the last ring laid
 * out for some corners is kept for the next (runs ask for the same rings
 * again and again).  Until something reads a ring in order it is only its
 * corners: a recipe that lists its places and hashes from them.
 * A merge of a tuple of such rings keeps their corners (a recipe tuple),
 * and shift of that a recipe set of the moved places, so that a fill of
 * shifted rings (solve_5c2c9af4's mapply(box, ...), shift, fill) lays
 * nothing out.
 */
#include <stdatomic.h>
#include "prim.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "tuprecipe.h"
#include "vgrid.h"
#include "common/core_util.h"
#include "common/iset.h"
#include "common/rings.h"

/* ---- laying a ring out ---------------------------------------------------- */

#define RING_MEMO 1024
typedef struct {
    int64_t i0, i1, j0, j1;
    Value *fs;
} RingMemo;
static _Atomic(RingMemo *) ring_memo[RING_MEMO];

static size_t ring_slot(int64_t i0, int64_t i1, int64_t j0, int64_t j1)
{
    uint64_t h = (((uint64_t)i0 * 1000003u ^ (uint64_t)i1) * 1000003u ^ (uint64_t)j0) * 1000003u ^
                 (uint64_t)j1;
    return (size_t)(h * 0x9E3779B97F4A7C15u >> 54) & (RING_MEMO - 1);
}

static void ring_keep(int64_t i0, int64_t i1, int64_t j0, int64_t j1, const Value *r)
{
    if (!(r->flags & V_FLAG_FLAT))
        return;         /* a copy would share items it does not hold */
    RingMemo *m = xmalloc_(sizeof *m), *none = NULL;
    *m = (RingMemo){.i0 = i0, .i1 = i1, .j0 = j0, .j1 = j1, .fs = fs_clone_flat(r)};
    m->fs->refs = -1;   /* immortal: only the memo holds it */
    if (!atomic_compare_exchange_strong_explicit(&ring_memo[ring_slot(i0, i1, j0, j1)], &none, m,
                                                 memory_order_release, memory_order_relaxed)) {
        v_free_pinned(m->fs);
        free(m);
    }
}

typedef struct {
    int64_t si, sj, ei, ej, w;
} Ring;

/* A place's number: top row 0..w-1, bottom row w..2w-1, then the
 * columns' inner places, two a row. */
static int32_t ring_key(const Ring *r, int64_t i, int64_t j)
{
    if (i == r->si)
        return (int32_t)(j - r->sj);
    if (i == r->ei)
        return (int32_t)(r->w + j - r->sj);
    return (int32_t)(2 * r->w + 2 * (i - r->si - 1) + (j == r->ej));
}

static void ring_place(const Ring *r, int32_t k, int64_t *i, int64_t *j)
{
    if (k < 2 * r->w) {
        *i = k < r->w ? r->si : r->ei;
        *j = r->sj + k % r->w;
    } else {
        *i = r->si + 1 + (k - 2 * r->w) / 2;
        *j = (k - 2 * r->w) % 2 ? r->ej : r->sj;
    }
}

/* {(i, fixed) for i in range(lo, hi + 1)} (or (fixed, i) when col) on the
 * ring's numbers, the places' hashes into H */
static void keyed_line(ISet *s, uint64_t *H, const Ring *r, int64_t lo, int64_t hi, int64_t fixed,
                       bool col)
{
    for (int64_t x = lo; x <= hi; x++) {
        int64_t i = col ? fixed : x, j = col ? x : fixed;
        int32_t k = ring_key(r, i, j);
        Value *p = v_interned_of(0, i, j);
        H[k] = (uint64_t)(p ? v_hash(p) : py_hash_int_pair(i, j));
        is_add(s, H, k);
    }
}

/* The comprehensions, unions and final COPY, the places put in at the end. */
static Value *ring_keyed(int64_t si, int64_t sj, int64_t ei, int64_t ej)
{
    Ring g = {si, sj, ei, ej, ej - sj + 1};
    uint64_t *H = xmalloc_((size_t)(2 * g.w + 2 * (ei - si + 1)) * sizeof *H);
    ISet l1, l2, v, h1, h2, hz, all, fin;
    ISet *sets[] = {&l1, &l2, &v, &h1, &h2, &hz, &all, &fin};
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
        is_init(sets[k]);
    keyed_line(&l1, H, &g, si, ei, sj, false);
    keyed_line(&l2, H, &g, si, ei, ej, false);
    is_merge(&v, &l1, H);
    is_merge(&v, &l2, H);
    keyed_line(&h1, H, &g, sj, ej, si, true);
    keyed_line(&h2, H, &g, sj, ej, ei, true);
    is_merge(&hz, &h1, H);
    is_merge(&hz, &h2, H);
    is_merge(&all, &v, H);
    is_merge(&all, &hz, H);
    is_merge(&fin, &all, H);
    size_t n = fin.used;
    FsLayout L;
    Value *r = fs_layout(n, fin.mask, &L);
    int32_t m = 0;
    uint64_t x = 0;
    for (size_t s = 0; s <= fin.mask; s++) {
        int32_t k = fin.t[s];
        if (k < 0)
            continue;
        int64_t i, j;
        ring_place(&g, k, &i, &j);
        L.items[m] = v_pair_int(i, j);      /* interned in the span, else made */
        L.hashes[m] = (int64_t)H[k];
        L.slots[s] = m++;
        x ^= py_fset_shuffle(H[k]);
    }
    v_mark_flat(r, L.items, n);
    r->hash = py_fset_end(x, n);
    r->hashed = 1;
    for (size_t k = 0; k < sizeof sets / sizeof *sets; k++)
        is_free(sets[k]);
    free(H);
    return r;
}

/* The ring with corners c laid out: the one kept (borrowed), or a new one
 * (*owned), kept in turn. */
static Value *ring_laid(const int64_t c[4], bool *owned)
{
    RingMemo *m = atomic_load_explicit(&ring_memo[ring_slot(c[0], c[2], c[1], c[3])],
                                       memory_order_acquire);
    if (m && m->i0 == c[0] && m->i1 == c[2] && m->j0 == c[1] && m->j1 == c[3]) {
        *owned = false;
        return m->fs;
    }
    Value *r = ring_keyed(c[0], c[1], c[2], c[3]);
    ring_keep(c[0], c[2], c[1], c[3], r);
    *owned = true;
    return r;
}

/* ---- a ring kept as its corners ------------------------------------------ */

static size_t ring_len(const int64_t c[4])
{
    size_t h = (size_t)(c[2] - c[0] + 1), w = (size_t)(c[3] - c[1] + 1);
    return h == 1 ? w : w == 1 ? h : 2 * w + 2 * h - 4;
}

/* Each of the ring's places (once, in no order) to fn; inlined, so that
 * fn is a direct call a ring's hash and keys pay nothing for. */
static inline __attribute__((always_inline)) void ring_each(const int64_t c[4], void (*fn)(int64_t i, int64_t j, void *ud), void *ud)
{
    for (int64_t j = c[1]; j <= c[3]; j++) {
        fn(c[0], j, ud);
        if (c[2] > c[0])
            fn(c[2], j, ud);
    }
    for (int64_t i = c[0] + 1; i < c[2]; i++) {
        fn(i, c[1], ud);
        if (c[3] > c[1])
            fn(i, c[3], ud);
    }
}

/* ring_each's places moved by (di, dj), appended to o as keys (room made). */
typedef struct {
    int64_t di, dj;
    FsKeys *o;
} KeysMoved;

static inline __attribute__((always_inline)) void key_moved(int64_t i, int64_t j, void *ud)
{
    KeysMoved *a = ud;
    a->o->k[a->o->n++] = (uint32_t)v_intern_index(i + a->di, j + a->dj);
}

typedef struct {
    FsRecipeHead h;
    int64_t c[4];
} RingTail;

static size_t ring_size(const Value *v)
{
    (void)v;
    return sizeof(Value) + sizeof(RingTail);
}

static void ring_build(Value *v)
{
    const RingTail *t = fs_extra(v);
    bool owned;
    Value *r = ring_laid(t->c, &owned);
    size_t n = v->u.set.len, mask = v->u.set.mask;
    if (r->u.set.len != n || r->u.set.mask != mask)
        abort();        /* ring_len is wrong, or the COPY did not presize */
    Value *const *it = v_items(r);
    FsLayout lay = fs_table_alloc(v);
    memcpy(lay.slots, r->u.set.slots, (mask + 1) * sizeof *lay.slots);
    for (size_t k = 0; k < n; k++) {
        lay.items[k] = v_incref(it[k]);
        lay.hashes[k] = v_hash(it[k]);
    }
    if (owned)
        v_decref(r);
}

static bool ring_keys(const Value *v, FsKeys *o)
{
    const RingTail *t = fs_extra(v);
    if (!v_box_moved_interned(t->c, 0, 0) || !fs_keys_reserve(o, v->u.set.len))
        return false;
    ring_each(t->c, key_moved, &(KeysMoved){0, 0, o});
    return true;
}

/* One rectangle, one outline: the corners are its extremes. */
static bool ring_eq(const Value *a, const Value *b)
{
    const RingTail *x = fs_extra(a), *y = fs_extra(b);
    return memcmp(x->c, y->c, sizeof x->c) == 0;
}

static inline __attribute__((always_inline)) void hash_in(int64_t i, int64_t j, void *ud)
{
    uint64_t *x = ud;
    *x ^= py_fset_shuffle((uint64_t)v_loc_hash(i, j));
}

/* From the places alone: a set of rings hashes them, a fill does not */
static int64_t ring_hash(const Value *v)
{
    const RingTail *t = fs_extra(v);
    uint64_t x = 0;
    ring_each(t->c, hash_in, &x);
    return py_fset_end(x, v->u.set.len);
}

static const FsRecipe ring_kind = {ring_build, ring_size, ring_eq, fs_table_free, ring_keys,
                                   NULL, NULL, false, false, ring_hash};

/* Places known without reading one: boxed, and flat where all are in the
 * interned span. */
static void places_noted(Value *v, int64_t i0, int64_t j0, int64_t i1, int64_t j1)
{
    const int64_t b[4] = {i0, j0, i1, j1};
    v_mark_flat_known(v, v_box_moved_interned(b, 0, 0));
    v_box_keep(v, i0, j0, i1, j1);
    v->memo |= V_MEMO_PLACES;
}

Value *cm_ring(int64_t si, int64_t sj, int64_t ei, int64_t ej)
{
    const int64_t c[4] = {si, sj, ei, ej};
    size_t n = ring_len(c);
    Value *v = fs_alloc_bare(n, pyset_copy_mask(n), sizeof(RingTail));   /* frozenset(all)'s COPY */
    fs_recipe_init(v, &ring_kind, NULL, NULL, true);
    memcpy(((RingTail *)fs_extra(v))->c, c, sizeof c);
    places_noted(v, si, sj, ei, ej);
    return v;
}

/* A ring's corners, laid out or not (its layout follows from them). */
static const int64_t *ring_corners(const Value *m)
{
    if (m->type != V_FSET || !(v_memo(m) & V_MEMO_RECIPE) || fs_recipe_head(m)->kind != &ring_kind)
        return NULL;
    return ((const RingTail *)fs_extra(m))->c;
}

/* ---- rings merged: a tuple of their corners ------------------------------- */

typedef struct {
    uint32_t n;
    int64_t c[][4];
} Rings;

/* Their places in the rings' order, as merge_t lays them one after another. */
static void rings_build(Value *t, Value **items)
{
    const Rings *rs = tr_data(t);
    size_t at = 0;
    for (uint32_t q = 0; q < rs->n; q++) {
        bool owned;
        Value *r = ring_laid(rs->c[q], &owned);
        Value *const *it = v_items(r);
        for (size_t x = 0; x < r->u.set.len; x++)
            items[at++] = v_incref(it[x]);
        if (owned)
            v_decref(r);
    }
}

static const TupRecipe rings_recipe = {.build = rings_build};

Value *cm_rings_merge(Ctx *cx, Value *cs, bool *raised)
{
    *raised = false;
    if (cs->type != V_TUPLE || (cs->flags & V_FLAGS_PY) || vg_is(cs) || cs->u.tup.len == 0)
        return NULL;
    size_t m = cs->u.tup.len, total = 0;
    Value *const *ms = v_titems(cs);
    for (size_t q = 0; q < m; q++) {
        if (!ring_corners(ms[q]))
            return NULL;
        total += v_len(ms[q]);
    }
    if (total < CM_RINGS_MIN)
        return NULL;
    if (!core_work(cx, total)) {     /* merge_t's items, as vb_finish charges them */
        *raised = true;
        return NULL;
    }
    bool flat = true;
    for (size_t q = 0; q < m; q++)
        flat &= v_box_moved_interned(ring_corners(ms[q]), 0, 0);
    Value *t = tr_new(total, &rings_recipe, sizeof(Rings) + m * sizeof(int64_t[4]), flat);
    Rings *rs = tr_data(t);
    rs->n = (uint32_t)m;
    for (size_t q = 0; q < m; q++)
        memcpy(rs->c[q], ring_corners(ms[q]), sizeof rs->c[q]);
    return t;
}

/* ---- merged rings shifted: a set of the moved places ----------------------- */

typedef struct {
    FsRecipeHead h;
    int64_t di, dj;
    int64_t b[4];               /* the rings' box, not moved */
    uint32_t n;
    int64_t c[][4];
} Shifted;

static size_t shifted_size(const Value *v)
{
    const Shifted *s = fs_extra(v);
    return sizeof(Value) + sizeof(Shifted) + s->n * sizeof(int64_t[4]);
}

/* Places of a box marked seen, one bit each: shift moves every place
 * alike, so the rings' own places tell the moved ones apart. */
typedef struct {
    uint64_t *bits;
    int64_t i0, j0, w;
} Seen;

#define SEEN_MAX_BITS ((int64_t)1 << 24)

static bool seen_open(Seen *z, const int64_t b[4])
{
    int64_t h = b[2] - b[0] + 1, w = b[3] - b[1] + 1;
    if (h > SEEN_MAX_BITS / w)
        return false;
    *z = (Seen){calloc((size_t)((h * w + 63) / 64), sizeof(uint64_t)), b[0], b[1], w};
    return z->bits != NULL;
}

static bool first_sight(Seen *z, int64_t i, int64_t j)
{
    int64_t x = (i - z->i0) * z->w + (j - z->j0);
    uint64_t bit = (uint64_t)1 << (x & 63), *word = &z->bits[x >> 6];
    bool first = !(*word & bit);
    *word |= bit;
    return first;
}

static void count_new(int64_t i, int64_t j, void *ud)
{
    void **a = ud;
    *(size_t *)a[1] += first_sight(a[0], i, j);
}

/* shift of the merged tuple: its items' moved places in its order, the
 * first of each laid out as distinct (ADD-ALL), as shift's own path. */
static void shifted_build(Value *v)
{
    const Shifted *s = fs_extra(v);
    size_t n = v->u.set.len, m = 0;
    Seen z;
    if (!seen_open(&z, s->b))
        abort();
    Value **items = xmalloc_(n * sizeof *items);
    int64_t *h = xmalloc_(n * sizeof *h);
    for (uint32_t q = 0; q < s->n; q++) {
        bool owned;
        Value *r = ring_laid(s->c[q], &owned);
        Value *const *it = v_items(r);
        for (size_t x = 0; x < r->u.set.len; x++) {
            Value *const *ij = v_titems(it[x]);
            int64_t i = ij[0]->u.i, j = ij[1]->u.i;
            if (!first_sight(&z, i, j))
                continue;
            if (m == n)
                abort();    /* counted wrong at making */
            Value *p = v_pair_int(i + s->di, j + s->dj);
            h[m] = v_hash(p);
            items[m++] = p;
        }
        if (owned)
            v_decref(r);
    }
    free(z.bits);
    if (m != n)
        abort();
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, items, h, n);
    for (size_t x = 0; x < n; x++)
        v_decref(items[x]);
    free(items);
    free(h);
}

static bool shifted_keys(const Value *v, FsKeys *o)
{
    const Shifted *s = fs_extra(v);
    size_t total = 0;
    for (uint32_t q = 0; q < s->n; q++)
        total += ring_len(s->c[q]);
    if (!v_box_moved_interned(s->b, s->di, s->dj) || !fs_keys_reserve(o, total))
        return false;
    KeysMoved a = {s->di, s->dj, o};
    for (uint32_t q = 0; q < s->n; q++)
        ring_each(s->c[q], key_moved, &a);
    return true;
}

static const FsRecipe shifted_kind = {shifted_build, shifted_size, NULL, fs_table_free,
                                      shifted_keys, NULL, NULL, false, false, NULL};

Value *cm_rings_shift(const Value *t, int64_t di, int64_t dj)
{
    const Rings *rs = tr_of(t, &rings_recipe);
    if (!rs)
        return NULL;
    int64_t b[4] = {INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN};
    for (uint32_t q = 0; q < rs->n; q++) {
        const int64_t *c = rs->c[q];
        b[0] = c[0] < b[0] ? c[0] : b[0];
        b[1] = c[1] < b[1] ? c[1] : b[1];
        b[2] = c[2] > b[2] ? c[2] : b[2];
        b[3] = c[3] > b[3] ? c[3] : b[3];
    }
    /* moved places stay ints: no bound may wrap */
    if ((di > 0 ? b[2] > INT64_MAX - di : b[0] < INT64_MIN - di) ||
        (dj > 0 ? b[3] > INT64_MAX - dj : b[1] < INT64_MIN - dj))
        return NULL;
    Seen z;
    if (!seen_open(&z, b))
        return NULL;
    size_t m = 0;
    void *a[2] = {&z, &m};
    for (uint32_t q = 0; q < rs->n; q++)
        ring_each(rs->c[q], count_new, a);
    free(z.bits);
    Value *v = fs_alloc_bare(m, pyset_distinct_mask(m), sizeof(Shifted) + rs->n * sizeof(int64_t[4]));
    fs_recipe_init(v, &shifted_kind, NULL, NULL, true);
    Shifted *s = fs_extra(v);
    s->di = di;
    s->dj = dj;
    memcpy(s->b, b, sizeof b);
    s->n = rs->n;
    memcpy(s->c, rs->c, rs->n * sizeof(int64_t[4]));
    places_noted(v, b[0] + di, b[1] + dj, b[2] + di, b[3] + dj);
    return v;
}

bool cm_rings_shifted(const Value *v)
{
    return v->type == V_FSET && (v_memo(v) & V_MEMO_RECIPE) && fs_recipe_head(v)->kind == &shifted_kind;
}

static void loc_moved(int64_t i, int64_t j, void *ud)
{
    void **a = ud;
    const Shifted *s = a[0];
    GLoc *l = a[1];
    size_t *n = a[2];
    l[*n] = (GLoc){i + s->di, j + s->dj};
    ++*n;
}

int cm_rings_locs(Ctx *cx, const Value *v, GLoc **out, size_t *n)
{
    if (!cm_rings_shifted(v))
        return 0;
    const Shifted *s = fs_extra(v);
    size_t total = 0;
    for (uint32_t q = 0; q < s->n; q++)
        total += ring_len(s->c[q]);
    GLoc *l = gu_alloc_raw(cx, total, sizeof *l);
    if (!l)
        return -1;
    *n = 0;
    void *a[3] = {(void *)s, l, n};
    for (uint32_t q = 0; q < s->n; q++)
        ring_each(s->c[q], loc_moved, a);
    *out = l;
    return 1;
}
