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
    uint32_t unordered;         /* its codes in no order: MERGED (src[0] its members),
                                   SHIFTED (src[0] P, src[1] the offsets) or FILTERED
                                   (src[0] the far set they were kept from) */
    uint64_t codes[];           /* len of them, distinct, as they went in unless unordered */
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

enum { LISTED, MERGED, SHIFTED, FILTERED };

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
static bool codes_laid(Codes *o, size_t n);

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

static inline bool code_in_span(uint64_t c)
{
    return (uint64_t)(fs_far_i(c) - V_INTERN_MIN) < V_INTERN_SPAN &&
           (uint64_t)(fs_far_j(c) - V_INTERN_MIN) < V_INTERN_SPAN;
}

/* Whether every one of the n codes c lies within the span: most far
 * sets' elements do not, but a union of shifts (fs_far_shifts) may, and
 * it reads then as a set of keys. */
static bool codes_in_span(const uint64_t *c, size_t n)
{
    bool in = true;
    for (size_t x = 0; x < n; x++)
        in &= code_in_span(c[x]);
    return in;
}

/* The arena keys of the n codes c (all within the span) appended to o. */
static bool codes_keys(const uint64_t *c, size_t n, FsKeys *o)
{
    if (!fs_keys_reserve(o, n))
        return false;
    for (size_t x = 0; x < n; x++)
        o->k[o->n++] = fs_far_table(c[x]) * PLACES +
                       (uint32_t)v_intern_index(fs_far_i(c[x]), fs_far_j(c[x]));
    return true;
}

static bool far_keys(const Value *v, FsKeys *o)
{
    const uint64_t *c = tail_of(v)->codes;
    size_t n = v->u.set.len;
    return codes_in_span(c, n) && codes_keys(c, n, o);
}

static bool far_ordered(const Value *v, FsKeys *o)
{
    size_t n = v->u.set.len;
    if (!codes_in_span(tail_of(v)->codes, n))
        return false;
    Codes ins = {0};
    bool ok = inserted(v, &ins) && codes_laid(&ins, n) && codes_keys(ins.c, n, o);
    free(ins.c);
    return ok;
}

/* Cells of one colour say so (color, colorfilter). */
static Value *far_same(const Value *v, size_t at)
{
    uint32_t t = tail_of(v)->tables;
    if (at != 0 || (t & 1) || !t || (t & (t - 1)))
        return NULL;
    return v_small(__builtin_ctz(t) - 1);
}

static int64_t far_hash(const Value *v);

static const FsRecipe far_kind = {far_build, far_size, NULL, fs_table_free, far_keys,
                                  far_ordered, far_same, false, false, far_hash};

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
    tail_of(v)->unordered = LISTED;
    return v;
}

/* Box (i0, j0, i1, j1) and kind; the hash waits for its first reader
 * (far_hash): paint and fill of a far set never hash it. */
static Value *far_seal_box(Value *v, const int64_t b[4])
{
    v->hashed = 0;
    v_box_keep(v, b[0], b[1], b[2], b[3]);
    v->memo |= tail_of(v)->tables == 1 ? V_MEMO_PLACES : V_MEMO_CELLS;
    return v;
}

/* The same, the box from the codes. */
static Value *far_seal(Value *v)
{
    const uint64_t *k = tail_of(v)->codes;
    size_t n = v->u.set.len;
    int64_t b[4] = {INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN};
    for (size_t q = 0; q < n; q++) {
        int64_t i = fs_far_i(k[q]), j = fs_far_j(k[q]);
        b[0] = i < b[0] ? i : b[0];
        b[2] = i > b[2] ? i : b[2];
        b[1] = j < b[1] ? j : b[1];
        b[3] = j > b[3] ? j : b[3];
    }
    return far_seal_box(v, b);
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

/* A set of codes, open addressing with room for n of them: 0 is no code
 * (no element's code is 0). */
typedef struct {
    uint64_t *t;
    size_t mask;
} CodeSet;

static bool codeset_open(CodeSet *s, size_t n)
{
    size_t cap = 64;
    while (cap < 2 * n)
        cap *= 2;
    s->t = calloc(cap, sizeof *s->t);
    s->mask = cap - 1;
    return s->t != NULL;
}

/* The slot of code k: where it is, or the empty one it would take. */
static uint64_t *codeset_slot(const CodeSet *s, uint64_t k)
{
    size_t x = (size_t)((k * 0x9e3779b97f4a7c15u) >> 32) & s->mask;
    while (s->t[x] && s->t[x] != k)
        x = (x + 1) & s->mask;
    return &s->t[x];
}

/* Members ms[0..nm)'s codes, each member's in its order (ordered) or in
 * any, the first of each kept, appended to o; their tables or'ed into
 * *tables. */
static bool merged_codes(Value *const *ms, size_t nm, bool ordered, Codes *o, uint32_t *tables)
{
    size_t total = 0, n0 = o->n, n = o->n;
    for (size_t c = 0; c < nm; c++)
        total += v_len(ms[c]);
    CodeSet seen;
    bool ok = codeset_open(&seen, total);
    for (size_t c = 0; ok && c < nm; c++) {
        ok = member_codes(ms[c], o, ordered);
        for (size_t x = n; ok && x < o->n; x++) {
            uint64_t k = o->c[x], *at = codeset_slot(&seen, k);
            if (!*at) {
                *at = k;
                *tables |= 1u << fs_far_table(k);
                o->c[n++] = k;
            }
        }
        o->n = n;
    }
    free(seen.t);
    if (!ok)
        o->n = n0;
    return ok;
}

static bool shifted_inserted(const Value *p, const Value *offs, Codes *o);
static bool codes_among(Codes *o, size_t n0, const Value *v);

/* v's codes in insertion order, appended to o. */
static bool inserted(const Value *v, Codes *o)
{
    const Tail *t = tail_of(v);
    if (t->unordered == LISTED)
        return codes_append(o, t->codes, v->u.set.len);
    if (t->unordered == SHIFTED)
        return shifted_inserted(t->h.src[0], t->h.src[1], o);
    if (t->unordered == FILTERED) {     /* the source's iteration order, those kept */
        size_t n0 = o->n;
        const Value *src = t->h.src[0];
        return inserted(src, o) && codes_laid(o, src->u.set.len) && codes_among(o, n0, v);
    }
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
        tail_of(v)->unordered = MERGED;
        far_seal(v);
    }
    free(all.c);
    return v;
}

/* ---- mapply of shifts -----------------------------------------------------
 * merge(apply(lbind(shift, P), offsets)) over a frozenset of offsets: the
 * images P + d are distinct (P is not empty), and the apply's table lays
 * them out by their hashes; merge then adds each image's elements in that
 * image's own order (an ADD-ALL of P's elements moved, in P's order).  The
 * union keeps its codes in no order and P and the offsets, from which
 * that insertion order is made only when it is read. */

/* The offset (di, dj) of item e of the offsets: two ints. */
static void offset_of(const Value *e, int64_t *di, int64_t *dj)
{
    *di = v_titems(e)[0]->u.i;
    *dj = v_titems(e)[1]->u.i;
}

/* Code c moved by (di, dj), where it stays within +-2^27: each field
 * takes its own sum, no borrow or carry crosses into the next. */
static inline uint64_t code_moved(uint64_t c, int64_t di, int64_t dj)
{
    return c + (uint64_t)(di * ((int64_t)1 << 28) + dj);
}

/* The union's elements as bits: one per table met and place of the box
 * every image lies in. */
typedef struct {
    uint64_t *bits;
    int64_t i0, j0, h, w;
    uint32_t tables;
    int64_t base[16];           /* table t's first bit */
} Region;

#define REGION_MAX_BITS ((int64_t)1 << 26)

/* The bit of element code c (in the region). */
static inline int64_t region_bit(const Region *r, uint64_t c)
{
    return r->base[fs_far_table(c)] + (fs_far_i(c) - r->i0) * r->w + fs_far_j(c) - r->j0;
}

/* Whether bit x of r was clear (it is set now). */
static inline bool region_first(Region *r, int64_t x)
{
    uint64_t bit = (uint64_t)1 << (x & 63), *word = &r->bits[x >> 6];
    bool first = !(*word & bit);
    *word |= bit;
    return first;
}

/* The region of P's n codes pc moved by the m offsets offs (each image
 * within +-2^27, checked); false where it would pass REGION_MAX_BITS, an
 * image would leave +-2^27, or memory ran out. */
static bool region_of(Region *r, const uint64_t *pc, size_t n, Value *const *offs, size_t m)
{
    int64_t b[4] = {INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN};
    int64_t d[4] = {INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN};
    *r = (Region){0};
    if (!n || !m)
        return false;
    for (size_t k = 0; k < n; k++) {
        int64_t i = fs_far_i(pc[k]), j = fs_far_j(pc[k]);
        b[0] = i < b[0] ? i : b[0], b[1] = j < b[1] ? j : b[1];
        b[2] = i > b[2] ? i : b[2], b[3] = j > b[3] ? j : b[3];
        r->tables |= 1u << fs_far_table(pc[k]);
    }
    for (size_t q = 0; q < m; q++) {
        int64_t di, dj;
        offset_of(offs[q], &di, &dj);
        if (!(di > -FS_FAR_BIAS - b[0] && di < FS_FAR_BIAS - b[2] && dj > -FS_FAR_BIAS - b[1] &&
              dj < FS_FAR_BIAS - b[3]))
            return false;
        d[0] = di < d[0] ? di : d[0], d[1] = dj < d[1] ? dj : d[1];
        d[2] = di > d[2] ? di : d[2], d[3] = dj > d[3] ? dj : d[3];
    }
    r->i0 = b[0] + d[0];
    r->j0 = b[1] + d[1];
    r->h = b[2] + d[2] - r->i0 + 1;
    r->w = b[3] + d[3] - r->j0 + 1;
    int64_t ntab = 0;
    for (unsigned t = 0; t < 16; t++)
        if (r->tables >> t & 1)
            r->base[t] = ntab++ * r->h * r->w;
    if (r->h > REGION_MAX_BITS / r->w / ntab)
        return false;
    r->bits = calloc((size_t)((r->h * r->w * ntab + 63) / 64), sizeof *r->bits);
    return r->bits != NULL;
}

static bool shifted_inserted(const Value *p, const Value *offs, Codes *o)
{
    Codes pc = {0}, img = {0};
    size_t n = v_len(p), m = v_len(offs), n0 = o->n;
    Value *const *it = v_items(offs);
    int64_t *ih = malloc(m * sizeof *ih);
    int32_t *slots = malloc((pyset_distinct_mask(m) + 1) * sizeof *slots);
    Region r = {0};
    bool ok = ih && slots && member_codes(p, &pc, true) && pc.n == n && codes_reserve(&img, n) &&
              region_of(&r, pc.c, n, it, m);
    /* the images' hashes, then the apply's table of them */
    for (size_t q = 0; ok && q < m; q++) {
        int64_t di, dj;
        offset_of(it[q], &di, &dj);
        uint64_t x = 0;
        for (size_t k = 0; k < n; k++)
            x ^= py_fset_shuffle((uint64_t)code_hash(code_moved(pc.c[k], di, dj)));
        ih[q] = py_fset_end(x, n);
    }
    if (ok)
        pyset_distinct_slots(slots, ih, m);
    for (size_t s = 0; ok && s <= pyset_distinct_mask(m); s++) {
        if (slots[s] < 0)
            continue;
        int64_t di, dj;
        offset_of(it[slots[s]], &di, &dj);
        img.n = 0;
        for (size_t k = 0; k < n; k++)
            img.c[img.n++] = code_moved(pc.c[k], di, dj);
        ok = codes_laid(&img, n) && codes_reserve(o, n);
        for (size_t k = 0; ok && k < n; k++)        /* merge's loop: first occurrences */
            if (region_first(&r, region_bit(&r, img.c[k])))
                o->c[o->n++] = img.c[k];
    }
    free(ih);
    free(slots);
    free(r.bits);
    free(pc.c);
    free(img.c);
    if (!ok)
        o->n = n0;
    return ok;
}

Value *fs_far_shifts(Value *p, const uint32_t *pk, size_t n, Value *offs)
{
    size_t m = v_len(offs);
    Value *const *it = v_items(offs);
    Codes pc = {0}, all = {0};
    Region r = {0};
    int64_t *at = malloc((n ? n : 1) * sizeof *at);
    bool ok = at && codes_reserve(&pc, n);
    for (size_t k = 0; ok && k < n; k++)
        ok = key_code(pk[k], &pc.c[pc.n++]);
    ok = ok && region_of(&r, pc.c, n, it, m) && (r.tables == 1 || !(r.tables & 1)) &&
         codes_reserve(&all, n * m);
    /* element k moved by (di, dj) is bit at[k] + di * w + dj */
    for (size_t k = 0; ok && k < n; k++)
        at[k] = region_bit(&r, pc.c[k]);
    for (size_t q = 0; ok && q < m; q++) {
        int64_t di, dj;
        offset_of(it[q], &di, &dj);
        int64_t by = di * r.w + dj;
        for (size_t k = 0; k < n; k++)
            if (region_first(&r, at[k] + by))
                all.c[all.n++] = code_moved(pc.c[k], di, dj);
    }
    Value *v = ok ? far_alloc(all.n, r.tables, p) : NULL;
    if (v) {
        memcpy(tail_of(v)->codes, all.c, all.n * sizeof *all.c);
        tail_of(v)->unordered = SHIFTED;
        tail_of(v)->h.src[1] = v_incref(offs);
        /* every image is P's box moved: the union's spans the region */
        const int64_t box[4] = {r.i0, r.j0, r.i0 + r.h - 1, r.j0 + r.w - 1};
        far_seal_box(v, box);
    }
    free(at);
    free(r.bits);
    free(pc.c);
    free(all.c);
    return v;
}

/* ---- filters --------------------------------------------------------------
 * A filter of a far set in no order keeps the codes it kept and the set
 * they came from (src[0]): its iteration order, those kept, is the order
 * the filter adds them in. */

/* The codes of o from n0 on that are v's, kept in their order, the rest
 * dropped. */
static bool codes_among(Codes *o, size_t n0, const Value *v)
{
    const uint64_t *k = tail_of(v)->codes;
    size_t n = v->u.set.len, m = n0;
    CodeSet mine;
    if (!codeset_open(&mine, n))
        return false;
    for (size_t x = 0; x < n; x++)
        *codeset_slot(&mine, k[x]) = k[x];
    for (size_t x = n0; x < o->n; x++)
        if (*codeset_slot(&mine, o->c[x]))
            o->c[m++] = o->c[x];
    o->n = m;
    free(mine.t);
    return true;
}

const uint64_t *fs_far_codes(const Value *v)
{
    return tail_of(v)->codes;
}

Value *fs_far_value(uint64_t c)
{
    return code_value(c);
}

Value *fs_far_filtered(Value *v, const uint64_t *kept, size_t m)
{
    const Tail *t = tail_of(v);
    uint32_t tables = 0;
    for (size_t x = 0; x < v->u.set.len; x++)
        if (kept[x >> 6] >> (x & 63) & 1)
            tables |= 1u << fs_far_table(t->codes[x]);
    Value *r = far_alloc(m, tables, v);
    if (!r)
        return NULL;
    uint64_t *k = tail_of(r)->codes;
    size_t q = 0;
    for (size_t x = 0; x < v->u.set.len && q < m; x++)
        if (kept[x >> 6] >> (x & 63) & 1)
            k[q++] = t->codes[x];
    if (q != m)
        abort();        /* the caller counted wrong */
    tail_of(r)->unordered = FILTERED;
    return far_seal(r);
}

/* hash(v) from its codes, made when first asked: paint and fill of a far
 * set never hash it. */
static int64_t far_hash(const Value *v)
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
