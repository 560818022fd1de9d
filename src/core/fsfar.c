/* fsfar.c -- frozensets past the interned span, kept as codes (fsfar.h). */
#include "fsfar.h"
#include "fsderived.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "fsline.h"
#include "pyprobe.h"

#include <stdlib.h>
#include <string.h>

#define PLACES FS_KEY_TABLE

typedef struct {
    FsRecipeHead h;
    uint32_t tables;            /* bit t: some element lies in table t */
    uint32_t unordered;         /* a merge's: its codes in no order, src[0] its members */
    uint64_t codes[];           /* len of them, distinct, as they went in unless unordered */
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static inline bool fits(int64_t x)
{
    return x > -FS_FAR_BIAS && x < FS_FAR_BIAS;
}

static inline uint64_t code_of(unsigned t, int64_t i, int64_t j)
{
    return (uint64_t)t << 56 | (uint64_t)(i + FS_FAR_BIAS) << 28 | (uint64_t)(j + FS_FAR_BIAS);
}

static int64_t code_hash(uint64_t c)
{
    return py_hash_table_tuple(fs_far_table(c), fs_far_i(c), fs_far_j(c));
}

/* The element of code c, a new reference (the interned one in the span). */
static Value *code_value(uint64_t c)
{
    return v_table_tuple(fs_far_table(c), fs_far_i(c), fs_far_j(c));
}

static size_t tail_bytes(size_t n)
{
    return sizeof(Tail) + n * sizeof(uint64_t);
}

static size_t far_size(const Value *v)
{
    return sizeof(Value) + tail_bytes(v->u.set.len);
}

typedef struct {
    uint64_t *c;
    size_t n, cap;
} Codes;

static bool codes_reserve(Codes *o, size_t extra)
{
    if (o->cap - o->n >= extra)
        return true;
    size_t cap = o->cap ? o->cap : 64;
    while (cap - o->n < extra)
        cap *= 2;
    uint64_t *c = realloc(o->c, cap * sizeof *c);
    if (!c)
        return false;
    o->c = c;
    o->cap = cap;
    return true;
}

/* The n codes k appended to o. */
static bool codes_append(Codes *o, const uint64_t *k, size_t n)
{
    if (!codes_reserve(o, n))
        return false;
    memcpy(o->c + o->n, k, n * sizeof *k);
    o->n += n;
    return true;
}

static bool inserted(const Value *v, Codes *o);

static void far_build(Value *v)
{
    size_t n = v->u.set.len;
    Codes ins = {0};
    if (!inserted(v, &ins) || ins.n != n)
        abort();                /* a build cannot fail: as out of memory anywhere */
    FsScratch s;
    fs_scratch_open(&s, n);
    for (size_t x = 0; x < n; x++) {
        if (!(s.v[x] = code_value(ins.c[x])))
            abort();
        s.h[x] = code_hash(ins.c[x]);
    }
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, s.v, s.h, n);
    for (size_t x = 0; x < n; x++)
        v_decref(s.v[x]);
    fs_scratch_close(&s);
    free(ins.c);
}

/* Some element is not an interned tuple: no keys to list. */
static bool far_no_keys(const Value *v, FsKeys *o)
{
    (void)v;
    (void)o;
    return false;
}

/* Cells of one colour say so (color, colorfilter). */
static Value *far_same(const Value *v, size_t at)
{
    uint32_t t = tail_of(v)->tables;
    if (at != 0 || (t & 1) || !t || (t & (t - 1)))
        return NULL;
    return v_small(__builtin_ctz(t) - 1);
}

static const FsRecipe far_kind = {far_build, far_size, NULL, fs_table_free, far_no_keys,
                                  far_no_keys, far_same, false, false};

bool fs_far_unbuilt(const Value *v)
{
    return v->type == V_FSET &&
           (__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & (V_MEMO_RECIPE | V_MEMO_UNBUILT)) ==
               (V_MEMO_RECIPE | V_MEMO_UNBUILT) &&
           fs_recipe_head(v)->kind == &far_kind;
}

bool fs_far_cells(const Value *v)
{
    return !(tail_of(v)->tables & 1);
}

/* An unbuilt far set of n codes in `tables`, its codes to be written,
 * then sealed; a merge's holds its members' container cs (a reference
 * taken here, once the block is there). */
static Value *far_alloc(size_t n, uint32_t tables, Value *cs)
{
    Value *v = fs_alloc_bare(n, pyset_distinct_mask(n), tail_bytes(n));
    if (!v)
        return NULL;
    fs_recipe_init(v, &far_kind, cs ? v_incref(cs) : NULL, NULL, true);
    tail_of(v)->tables = tables;
    tail_of(v)->unordered = 0;
    return v;
}

/* Box and kind from the codes; the hash waits for its first reader
 * (fs_far_hash): paint and fill of a far set never hash it. */
static Value *far_seal(Value *v)
{
    const uint64_t *k = tail_of(v)->codes;
    size_t n = v->u.set.len;
    int64_t i0 = INT64_MAX, j0 = INT64_MAX, i1 = INT64_MIN, j1 = INT64_MIN;
    for (size_t q = 0; q < n; q++) {
        int64_t i = fs_far_i(k[q]), j = fs_far_j(k[q]);
        i0 = i < i0 ? i : i0;
        i1 = i > i1 ? i : i1;
        j0 = j < j0 ? j : j0;
        j1 = j > j1 ? j : j1;
    }
    v->hashed = 0;
    v_box_keep(v, i0, j0, i1, j1);
    v->memo |= tail_of(v)->tables == 1 ? V_MEMO_PLACES : V_MEMO_CELLS;
    return v;
}

Value *fs_far_moved(const FsMoveSrc *m, int64_t di, int64_t dj)
{
    const int64_t *b = m->box;  /* in the span: the bounds cannot overflow */
    if (!(di > -FS_FAR_BIAS - b[0] && di < FS_FAR_BIAS - b[2] && dj > -FS_FAR_BIAS - b[1] &&
          dj < FS_FAR_BIAS - b[3]))
        return NULL;
    Value *v = far_alloc(m->n, m->tables, NULL);
    if (!v)
        return NULL;
    uint64_t *k = tail_of(v)->codes;
    for (size_t q = 0; q < m->n; q++) {
        int64_t i, j;
        v_intern_place(m->k[q] % PLACES, &i, &j);
        k[q] = code_of(m->k[q] / PLACES, i + di, j + dj);
    }
    return far_seal(v);
}

/* ---- merge --------------------------------------------------------------
 * A merge's far set holds its codes in no order and its members'
 * container (src[0]): its insertion order, the members' elements each in
 * its member's order, is found only when it is read in order. */

/* The code of arena key k: a place or an arc-dsl cell. */
static bool key_code(int64_t k, uint64_t *out)
{
    if (k >= FS_KEY_ARCDSL * PLACES)
        return false;
    int64_t i, j;
    v_intern_place((size_t)k % PLACES, &i, &j);
    *out = code_of((unsigned)(k / PLACES), i, j);
    return true;
}

/* The code of item e: an interned place or arc-dsl cell, or a tuple of
 * ints (i, j) or (c, (i, j)), c a colour, i and j within +-2^27. */
static bool value_code(const Value *e, uint64_t *out)
{
    int64_t key = fs_arena_key(e);
    if (key >= 0)
        return key_code(key, out);
    if (e->type != V_TUPLE || e->u.tup.len != 2)
        return false;
    Value *a = v_titems(e)[0], *b = v_titems(e)[1];
    unsigned t = 0;
    if (b->type == V_TUPLE) {   /* a cell: its colour, then its place */
        if (a->type != V_INT || (uint64_t)a->u.i > 9 || b->u.tup.len != 2)
            return false;
        t = (unsigned)a->u.i + 1;
        a = v_titems(b)[0];
        b = v_titems(b)[1];
    }
    if (a->type != V_INT || b->type != V_INT || !fits(a->u.i) || !fits(b->u.i))
        return false;
    *out = code_of(t, a->u.i, b->u.i);
    return true;
}

/* The n codes ending o, in the order they went into a set, reordered
 * as that set's table lays them out. */
static bool codes_laid(Codes *o, size_t n)
{
    uint64_t *k = o->c + o->n - n;
    size_t mask = pyset_distinct_mask(n);
    int64_t *h = malloc(n * sizeof *h);
    int32_t *slots = malloc((mask + 1) * sizeof *slots);
    uint64_t *ins = malloc(n * sizeof *ins);
    bool ok = h && slots && ins;
    if (ok) {
        memcpy(ins, k, n * sizeof *ins);
        for (size_t x = 0; x < n; x++)
            h[x] = code_hash(ins[x]);
        pyset_distinct_slots(slots, h, n);
        for (size_t s = 0; s <= mask; s++)
            if (slots[s] >= 0)
                *k++ = ins[slots[s]];
    }
    free(h);
    free(slots);
    free(ins);
    return ok;
}

/* The codes of line t's n points appended to o, in the order connect
 * yields them; false where an end would pass +-2^27. */
static bool line_codes(const FsLineSteps *t, size_t n, Codes *o)
{
    if (!fits(t->i0) || !fits(t->j0) || n > (size_t)FS_FAR_BIAS)
        return false;
    int64_t i1 = t->i0 + (int64_t)(n - 1) * t->di, j1 = t->j0 + (int64_t)(n - 1) * t->dj;
    if (!fits(i1) || !fits(j1) || !codes_reserve(o, n))
        return false;
    int64_t i = t->i0, j = t->j0;
    for (size_t k = 0; k < n; k++, i += t->di, j += t->dj)
        o->c[o->n++] = code_of(0, i, j);
    return true;
}

/* Member m's elements appended to o: in its iteration order (ordered),
 * or in any, repeats allowed; from an unbuilt far set's codes, an
 * unbuilt line's points, another set's keys, or its items. */
static bool member_codes(const Value *m, Codes *o, bool ordered)
{
    size_t n = v_len(m);
    FsLineSteps line;
    if (fs_far_unbuilt(m)) {
        if (!ordered)
            return codes_append(o, tail_of(m)->codes, n);
        return inserted(m, o) && codes_laid(o, n);
    }
    if (fs_line_past_span(m, &line))
        return line_codes(&line, n, o) && (!ordered || codes_laid(o, n));
    FsKeys keys = {0};
    bool ok = codes_reserve(o, n);
    if (ok && (ordered ? fs_ordered_keys(m, &keys) : fs_arena_keys(m, &keys))) {
        ok = codes_reserve(o, keys.n);
        for (size_t x = 0; ok && x < keys.n; x++)
            ok = key_code(keys.k[x], &o->c[o->n++]);
    } else if (ok) {
        Value *const *it = v_items(m);
        for (size_t x = 0; ok && x < n; x++)
            ok = value_code(it[x], &o->c[o->n++]);
    }
    fs_keys_free(&keys);
    return ok;
}

/* Members ms[0..nm)'s codes, each member's in its order (ordered) or in
 * any, the first of each kept, appended to o; their tables or'ed into
 * *tables. */
static bool merged_codes(Value *const *ms, size_t nm, bool ordered, Codes *o, uint32_t *tables)
{
    size_t total = 0, n0 = o->n, n = o->n;
    for (size_t c = 0; c < nm; c++)
        total += v_len(ms[c]);
    size_t cap = 64;
    while (cap < 2 * total)
        cap *= 2;
    uint64_t *seen = calloc(cap, sizeof *seen);     /* open addressing; 0 is no code */
    bool ok = seen != NULL;
    for (size_t c = 0; ok && c < nm; c++) {
        ok = member_codes(ms[c], o, ordered);
        for (size_t x = n; ok && x < o->n; x++) {
            uint64_t k = o->c[x];
            size_t s = (size_t)((k * 0x9e3779b97f4a7c15u) >> 32) & (cap - 1);
            while (seen[s] && seen[s] != k)
                s = (s + 1) & (cap - 1);
            if (!seen[s]) {
                seen[s] = k;
                *tables |= 1u << fs_far_table(k);
                o->c[n++] = k;
            }
        }
        o->n = n;
    }
    free(seen);
    if (!ok)
        o->n = n0;
    return ok;
}

/* v's codes in insertion order, appended to o. */
static bool inserted(const Value *v, Codes *o)
{
    const Tail *t = tail_of(v);
    if (!t->unordered)
        return codes_append(o, t->codes, v->u.set.len);
    const Value *cs = t->h.src[0];
    uint32_t tables = 0;
    return merged_codes(v_items(cs), cs->u.set.len, true, o, &tables);
}

Value *fs_far_merge(Value *cs)
{
    if (cs->type != V_FSET || !cs->u.set.len)
        return NULL;
    Value *const *ms = fs_members_any(cs);
    bool far = false;
    for (size_t c = 0; c < cs->u.set.len; c++) {
        if (ms[c]->type != V_FSET)
            return NULL;
        FsLineSteps line;
        far |= fs_far_unbuilt(ms[c]) || fs_line_past_span(ms[c], &line);
    }
    if (!far)
        return NULL;
    Codes all = {0};
    uint32_t tables = 0;
    Value *v = NULL;
    if (merged_codes(ms, cs->u.set.len, false, &all, &tables) && all.n &&
        (tables == 1 || !(tables & 1)) && (v = far_alloc(all.n, tables, cs))) {
        memcpy(tail_of(v)->codes, all.c, all.n * sizeof *all.c);
        tail_of(v)->unordered = 1;
        far_seal(v);
    }
    free(all.c);
    return v;
}

int64_t fs_far_hash(const Value *v)
{
    const uint64_t *k = tail_of(v)->codes;
    size_t n = v->u.set.len;
    uint64_t x = 0;
    for (size_t q = 0; q < n; q++)
        x ^= py_fset_shuffle((uint64_t)code_hash(k[q]));
    return py_fset_end(x, n);
}

size_t fs_far_in(const Value *v, int64_t h, int64_t w, uint64_t *out)
{
    const uint64_t *k = tail_of(v)->codes;
    size_t m = 0;
    for (size_t q = 0, n = v->u.set.len; q < n; q++) {
        uint64_t i = (uint64_t)fs_far_i(k[q]), j = (uint64_t)fs_far_j(k[q]);
        out[m] = k[q];
        m += i < (uint64_t)h && j < (uint64_t)w;
    }
    return m;
}
