/* fskeys.c -- frozensets kept as their elements' keys (fskeys.h). */
#include "fskeys.h"
#include "fsdistinct.h"
#include "fsderived.h"
#include "fsline.h"
#include "fsrecipe.h"
#include "pyprobe.h"

#include <stdlib.h>
#include <string.h>

/* Places and arc-dsl's cells: tokpidjin's (i, j, c) cells are left to
 * the eager paths. */
#define PLACES FS_KEY_TABLE
#define TABLES FS_KEY_ARCDSL

/* A key set keeps its keys in insertion order; a recolor keeps none
 * (src[0] is the key set of places, src[1] the colour) and reads those. */
typedef struct {
    FsRecipeHead h;
    uint32_t tables;            /* bit t: some key lies in table t */
    uint32_t pad;
    uint32_t keys[];            /* a key set's: len of them, as they went in */
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

/* Marks keys seen, for one dedup at a time per thread; every bit set is
 * cleared before it returns. */
static _Thread_local uint64_t seen_[(V_INTERN_TABLES * PLACES + 63) / 64];

static inline bool first_sight(uint32_t k)
{
    uint64_t b = (uint64_t)1 << (k & 63), w = seen_[k >> 6];
    seen_[k >> 6] = w | b;
    return !(w & b);
}

static inline bool seen(uint32_t k)
{
    return seen_[k >> 6] >> (k & 63) & 1;
}

static inline void unsee(uint32_t k)
{
    seen_[k >> 6] &= ~((uint64_t)1 << (k & 63));
}

/* The first of each key among k[0..n) (all below TABLES * PLACES), kept
 * in order at the front; their number. */
static size_t first_of_each(uint32_t *k, size_t n)
{
    size_t m = 0;
    for (size_t x = 0; x < n; x++)
        if (first_sight(k[x]))
            k[m++] = k[x];
    for (size_t x = 0; x < m; x++)
        unsee(k[x]);
    return m;
}

/* The bytes after the Value: the tail and its keys, to a multiple of 8 */
static size_t tail_bytes(size_t nkeys)
{
    return (sizeof(Tail) + nkeys * sizeof(uint32_t) + 7) & ~(size_t)7;
}

static size_t keyset_size(const Value *v)
{
    return sizeof(Value) + tail_bytes(v->u.set.len);
}

static size_t recolor_size(const Value *v)
{
    (void)v;
    return sizeof(Value) + tail_bytes(0);
}

/* v's table: its len keys k added in that order. */
static void build_from(Value *v, const uint32_t *k)
{
    size_t n = v->u.set.len;
    FsScratch s;
    fs_scratch_open(&s, n);
    for (size_t x = 0; x < n; x++) {
        s.v[x] = fs_key_value(k[x]);
        s.h[x] = v_arena_hashes_[k[x]];
    }
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, s.v, s.h, n);
    fs_scratch_close(&s);
}

static void keyset_build(Value *v)
{
    build_from(v, tail_of(v)->keys);
}

static bool keyset_keys(const Value *v, FsKeys *o)
{
    size_t n = v->u.set.len;
    if (!fs_keys_reserve(o, n))
        return false;
    memcpy(o->k + o->n, tail_of(v)->keys, n * sizeof *o->k);
    o->n += n;
    return true;
}

static bool keyset_ordered(const Value *v, FsKeys *o)
{
    return fs_keys_laid(tail_of(v)->keys, v->u.set.len, o);
}

/* A kind that lists the keys in the order they went in (its `inserted`)
 * builds its table and lists its order from them. */
typedef bool (*Inserted)(const Value *v, FsKeys *o);

static void build_inserted(Value *v, Inserted inserted)
{
    FsKeys o = {0};
    if (!inserted(v, &o) || o.n != v->u.set.len)
        abort();                /* a build cannot fail: as out of memory anywhere */
    build_from(v, o.k);
    fs_keys_free(&o);
}

static bool ordered_inserted(const Value *v, FsKeys *o, Inserted inserted)
{
    FsKeys ins = {0};
    bool ok = inserted(v, &ins) && fs_keys_laid(ins.k, ins.n, o);
    fs_keys_free(&ins);
    return ok;
}

/* A set of cells of one colour says so: color() and colorfilter read no
 * order. */
static Value *one_colour(const Value *v, size_t at)
{
    uint32_t t = tail_of(v)->tables;
    if (at != 0 || t < 2 || (t & (t - 1)))
        return NULL;
    return v_small(__builtin_ctz(t) - 1);
}

static const FsRecipe keyset_kind = {keyset_build, keyset_size, NULL, fs_table_free, keyset_keys,
                                    keyset_ordered, one_colour, false, false, NULL};

/* A shift's image that a merge takes (fs_keys_moved): a key set whose
 * merges wait until read in order. */
static const FsRecipe moved_kind = {keyset_build, keyset_size, NULL, fs_table_free, keyset_keys,
                                   keyset_ordered, one_colour, false, true, NULL};

/* The first key of colour c's table (c in 0..9). */
static inline uint32_t colour_base(const Value *c)
{
    return (uint32_t)(c->u.i + 1) * PLACES;
}

/* Append the place keys list(u) gives, moved to the colour table at base:
 * the cells (c, q) for those places q, in the same order. */
static bool recoloured(bool (*list)(const Value *, FsKeys *), const Value *u, uint32_t base,
                       FsKeys *o)
{
    size_t n0 = o->n;
    if (!list(u, o))
        return false;
    for (size_t x = n0; x < o->n; x++)
        o->k[x] += base;
    return true;
}

/* The places of u's items, once each: in any order, or (ordered) in u's,
 * which toindices(u) adds them in; false where an item is not an arc-dsl
 * cell (cells) or not a place. */
static bool places_listed(const Value *u, FsKeys *o, bool ordered, bool cells)
{
    size_t n0 = o->n;
    if (!(ordered ? fs_ordered_keys(u, o) : fs_arena_keys(u, o)))
        return false;
    for (size_t x = n0; x < o->n; x++) {
        if (cells ? o->k[x] < PLACES || o->k[x] >= TABLES * PLACES : o->k[x] >= PLACES) {
            o->n = n0;
            return false;
        }
        o->k[x] %= PLACES;
    }
    o->n = n0 + first_of_each(o->k + n0, o->n - n0);
    return true;
}

/* toindices(u)'s places for u of arc-dsl cells, distinct: in any order,
 * or in toindices(u)'s (its places added in u's order, repeats skipped);
 * false where u holds anything but arc-dsl cells. */
static bool cell_places(const Value *u, FsKeys *o, bool ordered)
{
    size_t n0 = o->n;
    if (!places_listed(u, o, ordered, true))
        return false;
    if (!ordered)
        return true;
    FsKeys laid = {0};
    bool ok = fs_keys_laid(o->k + n0, o->n - n0, &laid);
    if (ok)
        memcpy(o->k + n0, laid.k, laid.n * sizeof *o->k);
    fs_keys_free(&laid);
    return ok;
}

static bool lists_unbuilt(const Value *v, bool ordered);

/* toindices(u) of a recolor's source: a key set of places is its own, as
 * is a recipe of places that lists its keys (a rectangle, a ring); a set
 * of cells gives its places */
static bool source_places(const Value *u, FsKeys *o, bool ordered)
{
    if (fs_keys_places(u))
        return ordered ? keyset_ordered(u, o) : keyset_keys(u, o);
    if ((__atomic_load_n(&u->memo, __ATOMIC_ACQUIRE) & V_MEMO_PLACES) &&
        (ordered || lists_unbuilt(u, false)))
        return places_listed(u, o, ordered, false);
    return cell_places(u, o, ordered);
}

static bool source_places_any(const Value *u, FsKeys *o) { return source_places(u, o, false); }
static bool source_places_laid(const Value *u, FsKeys *o) { return source_places(u, o, true); }

/* (c, q) for q in toindices(p), in that order: distinct places, distinct
 * cells, added in that order. */
static bool recolor_inserted(const Value *v, FsKeys *o)
{
    const Tail *t = tail_of(v);
    return recoloured(source_places_laid, t->h.src[0], colour_base(t->h.src[1]), o);
}

static void recolor_build(Value *v) { build_inserted(v, recolor_inserted); }

static bool recolor_ordered(const Value *v, FsKeys *o)
{
    return ordered_inserted(v, o, recolor_inserted);
}

static bool recolor_keys(const Value *v, FsKeys *o)
{
    const Tail *t = tail_of(v);
    return recoloured(source_places_any, t->h.src[0], colour_base(t->h.src[1]), o);
}

/* Every cell's colour is c: color() and colorfilter need no order. */
static Value *recolor_same(const Value *v, size_t at)
{
    return at == 0 ? tail_of(v)->h.src[1] : NULL;
}

static const FsRecipe recolor_kind = {recolor_build, recolor_size, NULL, fs_table_free,
                                      recolor_keys, recolor_ordered, recolor_same, false, false, NULL};

/* toindices(p) keeps no keys either: src[0] is p, a set of arc-dsl cells
 * that lists its keys unlaid, and its places are read from there. */
static bool indices_keys(const Value *v, FsKeys *o)
{
    return cell_places(tail_of(v)->h.src[0], o, false);
}

static bool indices_ordered(const Value *v, FsKeys *o)
{
    return cell_places(tail_of(v)->h.src[0], o, true);
}

/* the places in p's order, repeats dropped: toindices' insertion order */
static bool indices_inserted(const Value *v, FsKeys *o)
{
    return places_listed(tail_of(v)->h.src[0], o, true, true);
}

static void indices_build(Value *v) { build_inserted(v, indices_inserted); }

static const FsRecipe indices_kind = {indices_build, recolor_size, NULL, fs_table_free,
                                      indices_keys, indices_ordered, NULL, false, false, NULL};

/* The tables the n keys k lie in (bit t) and their places' box
 * (i0, j0, i1, j1). */
static uint32_t keys_extent(const uint32_t *k, size_t n, int64_t box[4])
{
    uint32_t tables = 0;
    int64_t i0 = INT64_MAX, j0 = INT64_MAX, i1 = INT64_MIN, j1 = INT64_MIN;
    for (size_t q = 0; q < n; q++) {
        int64_t i, j;
        tables |= 1u << (k[q] / PLACES);
        v_intern_place(k[q] % PLACES, &i, &j);
        i0 = i < i0 ? i : i0;
        i1 = i > i1 ? i : i1;
        j0 = j < j0 ? j : j0;
        j1 = j > j1 ? j : j1;
    }
    box[0] = i0, box[1] = j0, box[2] = i1, box[3] = j1;
    return tables;
}

/* What n keys lying in `tables` within box b tell of their set v. */
static void keep_facts(Value *v, size_t n, uint32_t tables, const int64_t b[4])
{
    v_mark_flat_known(v, true);
    /* a box is of one kind's locations: places, or cells */
    if (n && (tables == 1 || !(tables & 1)))
        v_box_keep(v, b[0], b[1], b[2], b[3]);
    if (n && !(tables & 1))
        v->memo |= V_MEMO_CELLS;
    if (n && tables == 1)
        v->memo |= V_MEMO_PLACES;
}

uint32_t fs_keys_note(Value *v, const uint32_t *k, size_t n)
{
    int64_t b[4];
    uint32_t tables = keys_extent(k, n, b);
    keep_facts(v, n, tables, b);
    return tables;
}

/* An unbuilt recipe of `kind` for n keys, room for nkeep of them kept,
 * holding a and b; its keys, hash and facts are the caller's to write. */
static Value *made_bare(const FsRecipe *kind, size_t n, size_t nkeep, Value *a, Value *b)
{
    Value *v = fs_alloc_bare(n, pyset_distinct_mask(n), tail_bytes(nkeep));
    fs_recipe_init(v, kind, a, b, true);
    tail_of(v)->pad = 0;
    return v;
}

/* An unbuilt recipe of n distinct keys k (hashes, box and tables from
 * them), holding a and b. */
static Value *made(const FsRecipe *kind, const uint32_t *k, size_t n, size_t nkeep, Value *a,
                   Value *b)
{
    Value *v = made_bare(kind, n, nkeep, a, b);
    Tail *t = tail_of(v);
    uint64_t x = 0;
    for (size_t q = 0; q < n; q++)
        x ^= py_fset_shuffle((uint64_t)fs_key_hash(k[q]));
    if (nkeep)
        memcpy(t->keys, k, n * sizeof *k);
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    t->tables = fs_keys_note(v, k, n);
    return v;
}

bool fs_keys_move_from(const uint32_t *k, size_t n, FsMoveSrc *m)
{
    *m = (FsMoveSrc){.k = k, .n = n};
    m->tables = keys_extent(k, n, m->box);
    return n && (m->tables == 1 || (!(m->tables & 1) && m->tables < 1u << TABLES));
}

static inline uint32_t key_moved(uint32_t k, int64_t di, int64_t dj)
{
    int64_t i, j;
    v_intern_place(k % PLACES, &i, &j);
    return k / PLACES * PLACES + (uint32_t)v_intern_index(i + di, j + dj);
}

/* A shift's image of a set not laid out (fs_keys_moved_view): its keys
 * in no order; src[0] the set, the offset in pad (16 bits each), so that
 * its insertion order, the set's order moved, is made only when read. */
static bool view_inserted(const Value *v, FsKeys *o)
{
    uint32_t pad = tail_of(v)->pad;
    int64_t di = (int16_t)(pad & 0xffff), dj = (int16_t)(pad >> 16);
    size_t n0 = o->n;
    if (!fs_ordered_keys(fs_recipe_head(v)->src[0], o))
        return false;
    for (size_t q = n0; q < o->n; q++)
        o->k[q] = key_moved(o->k[q], di, dj);
    return true;
}

static void view_build(Value *v) { build_inserted(v, view_inserted); }

static bool view_ordered(const Value *v, FsKeys *o)
{
    return ordered_inserted(v, o, view_inserted);
}

static const FsRecipe view_kind = {view_build, keyset_size, NULL, fs_table_free, keyset_keys,
                                   view_ordered, one_colour, true, true, NULL};

Value *fs_keys_moved(const FsMoveSrc *m, int64_t di, int64_t dj)
{
    return fs_keys_moved_view(m, di, dj, NULL);
}

Value *fs_keys_moved_view(const FsMoveSrc *m, int64_t di, int64_t dj, Value *src)
{
    const int64_t *b = m->box;
    if (!v_box_moved_interned(b, di, dj) || (src && (di < INT16_MIN || di > INT16_MAX ||
                                                     dj < INT16_MIN || dj > INT16_MAX)))
        return NULL;
    size_t n = m->n;
    Value *v = made_bare(src ? &view_kind : &moved_kind, n, n, src ? v_incref(src) : NULL, NULL);
    Tail *t = tail_of(v);
    if (src)
        t->pad = (uint32_t)(uint16_t)di | (uint32_t)(uint16_t)dj << 16;
    t->tables = m->tables;
    uint64_t x = 0;
    for (size_t q = 0; q < n; q++) {
        uint32_t k = key_moved(m->k[q], di, dj);
        t->keys[q] = k;
        x ^= py_fset_shuffle((uint64_t)fs_key_hash(k));
    }
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    const int64_t moved[4] = {b[0] + di, b[1] + dj, b[2] + di, b[3] + dj};
    keep_facts(v, n, m->tables, moved);
    return v;
}

/* The keys of o, distinct and in order, as a key set (or NULL). */
static Value *keyset_of(FsKeys *o, size_t n)
{
    return n ? made(&keyset_kind, o->k, n, n, NULL, NULL) : NULL;
}

/* A union keeps its distinct keys in no order, as a key set's tail, for
 * fill and paint, and its members (src[0] holds their container), read
 * again each in its own order for its table.  It stands for a merge of
 * members that are laid out only when read (objects, objlazy.c), which a
 * key set would have had to lay out. */
static bool merged_in_order(Value *const *ms, size_t n, FsKeys *o);
static bool lists_with_seen(const Value *m);

/* merge's own loop, members adding nothing unread */
static bool union_inserted(const Value *v, FsKeys *o)
{
    const Value *cs = fs_recipe_head(v)->src[0];
    return merged_in_order(v_items(cs), cs->u.set.len, o);
}

static void union_build(Value *v) { build_inserted(v, union_inserted); }

static bool union_ordered(const Value *v, FsKeys *o)
{
    return ordered_inserted(v, o, union_inserted);
}

static const FsRecipe union_kind = {union_build, keyset_size, NULL, fs_table_free, keyset_keys,
                                    union_ordered, one_colour, false, false, NULL};

/* combine(a, b) of sets whose order is dear (order_dear): a union of the
 * two held as src[0] and src[1], its keys in no order in its tail, read
 * in order only when its own order is. */
static bool pair_inserted(const Value *v, FsKeys *o)
{
    const FsRecipeHead *h = fs_recipe_head(v);
    Value *const ms[2] = {h->src[0], h->src[1]};
    return merged_in_order(ms, 2, o);
}

static void pair_build(Value *v) { build_inserted(v, pair_inserted); }

static bool pair_ordered(const Value *v, FsKeys *o)
{
    return ordered_inserted(v, o, pair_inserted);
}

static const FsRecipe pair_kind = {pair_build, keyset_size, NULL, fs_table_free, keyset_keys,
                                   pair_ordered, one_colour, false, false, NULL};

/* Whether listing m marks keys in seen_ itself: an unbuilt union, recolor
 * or toindices dedups its keys there, and drops any a caller has marked. */
static bool lists_with_seen(const Value *m)
{
    if (!(__atomic_load_n(&m->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return false;
    const FsRecipe *k = fs_recipe_head(m)->kind;
    return k == &union_kind || k == &recolor_kind || k == &view_kind || k == &pair_kind ||
           k == &indices_kind;
}

/* Whether a merge leaves v's order unread: v is an unbuilt recipe that
 * cannot list its keys in order without building, or whose kind asks. */
static bool order_unmade(const Value *v)
{
    return (__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) &&
           (!fs_recipe_head(v)->kind->ordered || fs_recipe_head(v)->kind->merge_later);
}

/* m's keys into tmp, in its order or in none, with the marks of o's
 * keys past n0 lifted while a member that dedups in seen_ itself
 * (lists_with_seen) lists them: it would drop those from its list. */
static bool listed_lifted(const Value *m, FsKeys *tmp, const FsKeys *o, size_t n0, bool ordered)
{
    bool lift = lists_with_seen(m);
    for (size_t x = n0; lift && x < o->n; x++)
        unsee(o->k[x]);
    tmp->n = 0;
    bool ok = ordered ? fs_ordered_keys(m, tmp) : fs_arena_keys(m, tmp);
    for (size_t x = n0; lift && x < o->n; x++)
        (void)first_sight(o->k[x]);
    return ok;
}

/* Whether every key of member m is seen already (the keys of o past n0),
 * found without its order where listing that would lay it out (a line,
 * a recolor: each an ordered hook); false where it must be read in order
 * to tell. */
static bool adds_nothing(const Value *m, FsKeys *tmp, const FsKeys *o, size_t n0)
{
    if (!(__atomic_load_n(&m->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) ||
        !fs_recipe_head(m)->kind->ordered || !fs_recipe_head(m)->kind->keys)
        return false;
    int line = fs_line_keys_marked(m, seen_);   /* most members are lines */
    if (line >= 0)
        return line;
    if (!listed_lifted(m, tmp, o, n0, false))
        return false;
    for (size_t x = 0; x < tmp->n; x++)
        if (tmp->k[x] >= TABLES * PLACES || !seen(tmp->k[x]))
            return false;
    return true;
}

/* The keys of members ms[0..n), each in its order, first occurrences
 * kept, into o: what merge's loop adds, in its order.  A member whose keys
 * are all in already is passed over unread (most lines of prapply(connect,
 * p, p)).  false (o as it was) where a member is not a set of places and
 * arc-dsl cells. */
static bool merged_in_order(Value *const *ms, size_t n, FsKeys *o)
{
    FsKeys tmp = {0};
    size_t n0 = o->n;
    bool ok = true;
    for (size_t c = 0; ok && c < n; c++) {
        if (ms[c]->type != V_FSET) {
            ok = false;
            break;
        }
        if (adds_nothing(ms[c], &tmp, o, n0))
            continue;
        if (!listed_lifted(ms[c], &tmp, o, n0, true) || !fs_keys_reserve(o, tmp.n)) {
            ok = false;
            break;
        }
        for (size_t x = 0; x < tmp.n; x++) {
            if (tmp.k[x] >= TABLES * PLACES) {
                ok = false;
                break;
            }
            if (first_sight(tmp.k[x]))
                o->k[o->n++] = tmp.k[x];
        }
    }
    for (size_t x = n0; x < o->n; x++)
        unsee(o->k[x]);
    fs_keys_free(&tmp);
    if (!ok)
        o->n = n0;
    return ok;
}

Value *fs_keys_merge(Value *cs, size_t total)
{
    if (cs->type != V_FSET)
        return NULL;
    FsKeys o = {0};
    bool later = fs_gen_lazy(cs) && fs_is_derived(cs);
    Value *const *ms = fs_members_any(cs);
    for (size_t c = 0; c < cs->u.set.len; c++)
        later |= ms[c]->type == V_FSET && order_unmade(ms[c]);
    if (total < FS_KEYS_MERGE_MIN && !later)
        return NULL;
    if (!later) {
        Value *v = merged_in_order(ms, cs->u.set.len, &o) && o.n ? keyset_of(&o, o.n) : NULL;
        fs_keys_free(&o);
        return v;
    }
    for (size_t c = 0; c < cs->u.set.len; c++)
        if (ms[c]->type != V_FSET || !fs_arena_keys(ms[c], &o)) {
            fs_keys_free(&o);
            return NULL;
        }
    bool ok = true;
    for (size_t x = 0; x < o.n; x++)
        ok &= o.k[x] < TABLES * PLACES;
    size_t n = ok ? first_of_each(o.k, o.n) : 0;
    Value *v = !ok || !n ? NULL : made(&union_kind, o.k, n, n, v_incref(cs), NULL);
    fs_keys_free(&o);
    return v;
}

/* ---- set algebra over keys ----------------------------------------------
 * CPython makes the result of a & b, of frozenset((*a, *b)) and of
 * frozenset(e for e in a if e not in b) by adding items one at a time in
 * the order it walks a set: which items, and in which order, follows from
 * keys alone.  So where both sides are sets of places and arc-dsl cells
 * the result is a key set, and neither side's table is made unless its
 * own order is read (a lazy object, a line, a union lists its keys in no
 * order; a side walked in order lays its keys out in a scratch table). */

/* Whether v is a recipe not laid out yet that lists its keys (in order,
 * or in none) without being laid out: the case where working on keys
 * saves a table.  Between sets already laid out, CPython's own walk and
 * probes (pyset.c) cost less than listing both sides' keys. */
static bool lists_unbuilt(const Value *v, bool ordered)
{
    if (v->type != V_FSET || !(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) ||
        fs_gen_lazy(v))
        return false;
    const FsRecipe *k = fs_recipe_head(v)->kind;
    return ordered ? k->ordered != NULL : k->keys != NULL;
}

static bool both_sets(const Value *a, const Value *b)
{
    return a->type == V_FSET && b->type == V_FSET && !fs_gen_lazy(a) && !fs_gen_lazy(b);
}

/* Every key of o below TABLES * PLACES (places and arc-dsl cells). */
static bool all_ours(const FsKeys *o)
{
    bool ok = true;
    for (size_t x = 0; x < o->n; x++)
        ok &= o->k[x] < TABLES * PLACES;
    return ok;
}

/* walk's keys in its order, those in `in` marked or not (keep_marked),
 * as a key set; the empty frozenset where none is kept; NULL where a side
 * is not a set of places and arc-dsl cells.  Both lists are made before
 * anything is marked: a union or a recolor lists with seen_ itself. */
static Value *filtered(const Value *walk, const Value *in, bool keep_marked)
{
    FsKeys ord = {0}, mark = {0};
    Value *v = NULL;
    if (fs_ordered_keys(walk, &ord) && all_ours(&ord) && fs_arena_keys(in, &mark) &&
        all_ours(&mark)) {
        for (size_t x = 0; x < mark.n; x++)
            (void)first_sight(mark.k[x]);
        size_t m = 0;
        for (size_t x = 0; x < ord.n; x++)
            if (seen(ord.k[x]) == keep_marked)
                ord.k[m++] = ord.k[x];
        for (size_t x = 0; x < mark.n; x++)
            unsee(mark.k[x]);
        v = m ? keyset_of(&ord, m) : v_incref(&v_empty_fset_);
    }
    fs_keys_free(&ord);
    fs_keys_free(&mark);
    return v;
}

Value *fs_keys_and(const Value *a, const Value *b)
{
    if (a == b || !both_sets(a, b))
        return NULL;
    /* CPython walks the smaller, b where they are the same size */
    const Value *walk = b->u.set.len > a->u.set.len ? a : b, *in = walk == a ? b : a;
    return lists_unbuilt(walk, true) || lists_unbuilt(in, false) ? filtered(walk, in, true) : NULL;
}

long fs_keys_and_len(const Value *a, const Value *b)
{
    if (!both_sets(a, b) || !(lists_unbuilt(a, false) || lists_unbuilt(b, false)))
        return -1;
    FsKeys ka = {0}, kb = {0};
    long n = -1;
    if (fs_arena_keys(a, &ka) && fs_arena_keys(b, &kb)) {
        for (size_t x = 0; x < ka.n; x++)
            (void)first_sight(ka.k[x]);
        n = 0;
        for (size_t x = 0; x < kb.n; x++)
            if (seen(kb.k[x])) {
                n++;
                unsee(kb.k[x]);     /* a key listed twice counts once */
            }
        for (size_t x = 0; x < ka.n; x++)
            unsee(ka.k[x]);
    }
    fs_keys_free(&ka);
    fs_keys_free(&kb);
    return n;
}

Value *fs_keys_minus(const Value *a, const Value *b)
{
    if (!both_sets(a, b) || !(lists_unbuilt(a, true) || lists_unbuilt(b, false)))
        return NULL;
    return filtered(a, b, false);
}

/* Whether v's order costs a build to list: v is unbuilt and its order is
 * unmade (a lazy object), or it reads it from sources that are so (a
 * recolor or toindices of one, a shift's view, a combine of such). */
static bool order_dear(const Value *v, int depth)
{
    if (v->type != V_FSET || !(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return false;
    if (order_unmade(v))
        return true;
    const FsRecipeHead *h = fs_recipe_head(v);
    if (depth == 0 || !(h->kind == &recolor_kind || h->kind == &indices_kind ||
                        h->kind == &view_kind || h->kind == &pair_kind))
        return false;
    return order_dear(h->src[0], depth - 1) ||
           (h->kind == &pair_kind && order_dear(h->src[1], depth - 1));
}

/* combine(a, b) kept as its keys, both sides unread (pair_kind) */
static Value *pair_of(Value *a, Value *b)
{
    FsKeys o = {0};
    Value *v = NULL;
    if (fs_arena_keys(a, &o) && fs_arena_keys(b, &o) && all_ours(&o)) {
        size_t n = first_of_each(o.k, o.n);
        v = n ? made(&pair_kind, o.k, n, n, v_incref(a), v_incref(b))
              : v_incref(&v_empty_fset_);
    }
    fs_keys_free(&o);
    return v;
}

Value *fs_keys_concat(Value *a, Value *b)
{
    if (!both_sets(a, b))
        return NULL;
    if (order_dear(a, 3) || order_dear(b, 3))
        return pair_of(a, b);
    if (!(lists_unbuilt(a, true) || lists_unbuilt(b, true)))
        return NULL;
    FsKeys o = {0};
    Value *const ms[2] = {a, b};
    Value *v = NULL;
    if (merged_in_order(ms, 2, &o))
        v = o.n ? keyset_of(&o, o.n) : v_incref(&v_empty_fset_);
    fs_keys_free(&o);
    return v;
}

bool fs_keys_places(const Value *v)
{
    return v->type == V_FSET && (v_memo(v) & V_MEMO_RECIPE) &&
           fs_recipe_head(v)->kind == &keyset_kind && tail_of(v)->tables == 1;
}

Value *fs_keys_recolor(Value *c, Value *u)
{
    if (u->type != V_FSET || u->u.set.len == 0)
        return NULL;
    FsKeys o = {0};
    Value *v = recoloured(source_places_any, u, colour_base(c), &o)
                   ? made(&recolor_kind, o.k, o.n, 0, v_incref(u), v_incref(c))
                   : NULL;
    fs_keys_free(&o);
    return v;
}

Value *fs_keys_toindices(Value *p)
{
    if (!lists_unbuilt(p, false) || !(__atomic_load_n(&p->memo, __ATOMIC_ACQUIRE) & V_MEMO_CELLS))
        return NULL;
    FsKeys o = {0};
    Value *v = cell_places(p, &o, false) && o.n ? made(&indices_kind, o.k, o.n, 0, v_incref(p), NULL)
                                                : NULL;
    fs_keys_free(&o);
    return v;
}

Value *fs_keys_of(const uint32_t *k, size_t n)
{
    return made(&keyset_kind, k, n, n, NULL, NULL);
}

Value *fs_from_interned(Value **items, size_t n)
{
    uint32_t small[64], *k = n <= 64 ? small : malloc(n * sizeof *k);
    if (!k)
        return NULL;
    size_t m = 0, x = 0;
    for (; x < n; x++) {
        int64_t key = fs_arena_key(items[x]);
        if (key < 0 || key >= (int64_t)(V_INTERN_TABLES * PLACES))
            break;
        if (first_sight((uint32_t)key)) {
            k[m] = (uint32_t)key;
            items[m++] = items[x];
        }
    }
    for (size_t y = 0; y < m; y++)
        unsee(k[y]);
    Value *r = NULL;
    if (x == n && m >= FS_KEYS_MERGE_MIN && all_ours(&(FsKeys){.k = k, .n = m}))
        r = made(&keyset_kind, k, m, m, NULL, NULL);   /* laid out when read in order */
    else if (x == n)
        r = fs_from_distinct(items, m);
    if (k != small)
        free(k);
    return r;
}
