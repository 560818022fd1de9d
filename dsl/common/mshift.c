/* mshift.c -- mapply(lbind(shift, P), offsets) as a recipe (mshift.h).
 *
 * merge(apply(...)) over a tuple of offsets (tokpidjin's mapply_t over any
 * container) lays out one frozenset per offset, each P's interned cells
 * (or places) moved, only for merge to read each in its order into one
 * tuple.  The order of an image follows from its keys alone (an ADD-ALL
 * of P's distinct keys moved, fs_keys_laid), so no image is made: the
 * result is a recipe tuple (tuprecipe.h) of P's keys and the offsets,
 * whose items are each image's keys laid out, one image after another,
 * when something first reads them.  fill reads the recipe instead (one
 * colour: no order counts), and so does paint where P's places all
 * differ: each image then writes a place at most once, so only the order
 * of the images counts.  Only what shift's interned path takes comes
 * here: P all places or all cells of the dialect, interned, and offsets
 * pairs of ints; anything else makes the calls.  An image that leaves the
 * interned span is laid out from its items' hashes, found by arithmetic,
 * and only its items are made.
 */
#include "prim.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "tuprecipe.h"
#include "common/mshift.h"
#include "common/core_util.h"

/* The recipe: noffs offsets (di, dj), then nkeys keys of P, distinct, in
 * first-occurrence order, then each key's place. */
typedef struct {
    uint32_t nkeys, noffs;
    bool cells;                /* P's items are cells, not places */
    bool arcdsl;               /* ... arc-dsl's (c, (i, j)), else (i, j, c) */
    bool unique;               /* no two of P's items share a place */
    int64_t box[4];            /* P's places' bounding box */
} Shifts;

static int64_t *shifts_offs(const Shifts *s) { return (int64_t *)(s + 1); }
static uint32_t *shifts_keys(const Shifts *s) { return (uint32_t *)(shifts_offs(s) + 2 * (size_t)s->noffs); }
static int8_t *shifts_places(const Shifts *s) { return (int8_t *)(shifts_keys(s) + s->nkeys); }
static size_t shifts_size(size_t nkeys, size_t noffs)
{
    return sizeof(Shifts) + 16 * noffs + 6 * nkeys;
}

/* Whether an item in table `at` is of P's kind: a place, or a cell of
 * the dialect (arc-dsl's tables 1..10, tokpidjin's from 11). */
static bool of_kind(int at, bool cells, bool arcdsl)
{
    return !cells ? at == 0 : arcdsl ? at >= 1 && at <= 10 : at >= 11;
}

/* P's distinct keys in first-occurrence order into d (the keys its image
 * is added in), with their box and whether their places all differ;
 * false where P is not all cells or all places, interned. */
static bool distinct_keys(const Value *p, FsKeys *d, Shifts *s, bool arcdsl)
{
    size_t n = v_len(p);
    Value *const *it = v_items(p);
    int64_t i, j;
    int at0 = v_interned_at(it[0], &i, &j);
    if (at0 < 0 || (at0 != 0 && !of_kind(at0, true, arcdsl)))
        return false;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *seen = calloc(cap, sizeof *seen);     /* key + 1; 0 empty */
    uint64_t placed[FS_KEY_TABLE / 64] = {0};       /* the places met */
    if (!seen || !fs_keys_reserve(d, n)) {
        free(seen);
        return false;
    }
    s->box[0] = s->box[1] = INT64_MAX;
    s->box[2] = s->box[3] = INT64_MIN;
    s->cells = at0 != 0;
    s->arcdsl = arcdsl;
    s->unique = true;
    bool ok = true;
    for (size_t x = 0; ok && x < n; x++) {
        int at = v_interned_at(it[x], &i, &j);
        if (!of_kind(at, s->cells, arcdsl)) {
            ok = false;
            break;
        }
        uint32_t k = (uint32_t)fs_arena_key(it[x]);
        size_t h = (k * 0x9E3779B1u) & (cap - 1);
        while (seen[h] && seen[h] != k + 1)
            h = (h + 1) & (cap - 1);
        if (seen[h])
            continue;
        seen[h] = k + 1;
        d->k[d->n++] = k;
        uint32_t place = k % FS_KEY_TABLE;
        s->unique &= !(placed[place / 64] >> (place % 64) & 1);
        placed[place / 64] |= 1ull << (place % 64);
        if (i < s->box[0]) s->box[0] = i;
        if (j < s->box[1]) s->box[1] = j;
        if (i > s->box[2]) s->box[2] = i;
        if (j > s->box[3]) s->box[3] = j;
    }
    free(seen);
    return ok;
}

/* The items: each image's keys moved and laid out, in the offsets' order;
 * an image past the span by its items' hashes. */
static void shifts_build(Value *t, Value **items)
{
    const Shifts *s = tr_data(t);
    const uint32_t *keys = shifts_keys(s);
    const int8_t *ij = shifts_places(s);
    const int64_t *offs = shifts_offs(s);
    size_t n = s->nkeys, mask = pyset_distinct_mask(n), ni = 0;
    FsKeys moved = {0}, laid = {0};
    int64_t *h = malloc(n * sizeof *h);
    int32_t *slots = malloc((mask + 1) * sizeof *slots);
    if (!h || !slots || !fs_keys_reserve(&moved, n))
        abort();
    moved.n = n;
    for (size_t q = 0; q < s->noffs; q++) {
        int64_t di = offs[2 * q], dj = offs[2 * q + 1];
        if (v_box_moved_interned(s->box, di, dj)) {
            for (size_t x = 0; x < n; x++)
                moved.k[x] = keys[x] / FS_KEY_TABLE * FS_KEY_TABLE +
                             (uint32_t)v_intern_index(ij[2 * x] + di, ij[2 * x + 1] + dj);
            laid.n = 0;
            if (!fs_keys_laid(moved.k, n, &laid))
                abort();
            for (size_t x = 0; x < laid.n; x++)
                items[ni++] = fs_key_value(laid.k[x]);
            continue;
        }
        for (size_t x = 0; x < n; x++)
            h[x] = py_hash_table_tuple(keys[x] / FS_KEY_TABLE, ij[2 * x] + di, ij[2 * x + 1] + dj);
        pyset_distinct_slots(slots, h, n);
        for (size_t k = 0; k <= mask; k++) {
            int32_t x = slots[k];
            if (x >= 0)
                items[ni++] =
                    v_table_tuple(keys[x] / FS_KEY_TABLE, ij[2 * x] + di, ij[2 * x + 1] + dj);
        }
    }
    free(h);
    free(slots);
    fs_keys_free(&moved);
    fs_keys_free(&laid);
}

static const TupRecipe shifts_recipe = {.build = shifts_build};

bool cm_mapply_shifts(Ctx *cx, Value *f, Value *c, bool arcdsl, Value **r)
{
    if (f->type != V_FUNC || f->u.fn.prim != (arcdsl ? PRIM_AD_lbind : PRIM_TK_lbind) ||
        f->u.fn.ncap != 2 || f->u.fn.cap[0] != prim_value(arcdsl ? PRIM_AD_shift : PRIM_TK_shift) ||
        !v_is_container(c) || v_len(c) == 0)
        return false;
    Value *p = f->u.fn.cap[1];
    if (!v_is_container(p) || v_len(p) == 0)
        return false;
    size_t m = v_len(c), n = v_len(p);
    Value *const *offs = v_items(c);
    for (size_t q = 0; q < m; q++) {      /* the offsets, all checked first */
        const Value *o = offs[q];
        if (o->type != V_TUPLE || (o->flags & V_FLAGS_PY) || o->u.tup.len != 2 ||
            !v_is_int(v_titems(o)[0]) || !v_is_int(v_titems(o)[1]))
            return false;
    }
    FsKeys d = {0};
    Shifts s;
    if (!distinct_keys(p, &d, &s, arcdsl) || m * d.n > CORE_MAX_ITEMS) {
        fs_keys_free(&d);
        return false;
    }
    *r = NULL;
    size_t ni = m * d.n;
    /* what the calls charge: tokpidjin's apply_t and merge_t calls (arc-dsl's
     * mapply runs its apply and merge within its own call), each offset's
     * call of the bind and of shift, shift's n images, apply's m results,
     * merge's items */
    if (cx_charge(cx, (arcdsl ? 0 : 2) + m * (n + 2)) && cx_charge(cx, m) && cx_charge(cx, ni)) {
        bool flat = true;
        for (size_t q = 0; q < m; q++)
            flat &= v_box_moved_interned(s.box, v_titems(offs[q])[0]->u.i, v_titems(offs[q])[1]->u.i);
        s.nkeys = (uint32_t)d.n;
        s.noffs = (uint32_t)m;
        Value *t = tr_new(ni, &shifts_recipe, shifts_size(d.n, m), flat);
        Shifts *ts = tr_data(t);
        *ts = s;
        memcpy(shifts_keys(ts), d.k, d.n * sizeof *d.k);
        int8_t *ij = shifts_places(ts);
        for (size_t x = 0; x < d.n; x++) {
            int64_t i, j;
            v_intern_place(d.k[x] % FS_KEY_TABLE, &i, &j);
            ij[2 * x] = (int8_t)i;
            ij[2 * x + 1] = (int8_t)j;
        }
        int64_t *o = shifts_offs(ts);
        for (size_t q = 0; q < m; q++) {
            o[2 * q] = v_titems(offs[q])[0]->u.i;
            o[2 * q + 1] = v_titems(offs[q])[1]->u.i;
        }
        *r = t;
    }
    fs_keys_free(&d);
    return true;
}

bool cm_shifts_of(const Value *t)
{
    return tr_of(t, &shifts_recipe) != NULL;
}

bool cm_shifts_put(Ctx *cx, MGrid *m, const Value *t, Value *colour, const Value *bg, bool *ok)
{
    const Shifts *s = tr_of(t, &shifts_recipe);
    if (!s || (!colour && !(s->cells && s->unique)))
        return false;
    int64_t first = s->arcdsl ? 1 : 11;     /* the table of colour 0 */
    const uint32_t *keys = shifts_keys(s);
    const int8_t *ij = shifts_places(s);
    const int64_t *offs = shifts_offs(s);
    int64_t h = (int64_t)m->h, w = (int64_t)m->w;
    *ok = true;
    for (size_t q = 0; *ok && q < s->noffs; q++) {
        int64_t di = offs[2 * q], dj = offs[2 * q + 1];
        /* an image wholly off the grid writes nothing (P's box is in the
         * span, so neither side overflows) */
        if (di >= h - s->box[0] || di < -s->box[2] || dj >= w - s->box[1] || dj < -s->box[3])
            continue;
        for (size_t x = 0; *ok && x < s->nkeys; x++) {
            int64_t i = ij[2 * x] + di, j = ij[2 * x + 1] + dj;
            if (gu_mgrid_in(m, i, j))
                *ok = gu_mgrid_put_ij(
                    cx, m, i, j, colour ? colour : v_small(keys[x] / FS_KEY_TABLE - first), bg);
        }
    }
    return true;
}
