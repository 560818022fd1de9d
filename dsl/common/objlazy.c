/* objlazy.c -- objects laid out when read (objwalk_int.h).
 *
 * An object's cells are what a flood fill finds; only their order needs
 * the reference's walk, with its sets of candidates and neighbourhoods.
 * Much of what programs do with objects never reads that order: size,
 * the bounding box, equality and hashing, fill and paint of distinct
 * places.  So an object the walk would have to replay keeps instead a
 * window of the grid around it (which places were occupied when its walk
 * began, which are its own) and replays its walk there when first read.
 * The walk of one object sees nothing beyond its cells' neighbours, and
 * of `occupied` only those places and how many there were. */
#include "fsrecipe.h"
#include "common/neighbours.h"
#include "common/objwalk_int.h"

#include <string.h>

enum { OUTSIDE, OCCUPIED, OWN };

typedef struct {
    FsRecipeHead h;             /* src[0]: the grid */
    ObjCell make;
    int32_t i0, j0;             /* the window's corner in the grid */
    uint16_t wh, ww;            /* its size */
    uint16_t gh, gw;            /* the grid's */
    uint32_t occ_before;        /* places occupied when the walk began */
    int32_t start;              /* where it began, in the window */
    uint8_t diagonal;
    int8_t colour_at;           /* the cells' colour's index, when they have one colour; else -1 */
    uint8_t map[];              /* per place of the window: OUTSIDE, OCCUPIED, OWN */
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

static size_t tail_bytes(size_t area)
{
    return (sizeof(Tail) + area + 7) & ~(size_t)7;
}

static size_t object_size(const Value *v)
{
    const Tail *t = tail_of(v);
    return sizeof(Value) + tail_bytes((size_t)t->wh * t->ww);
}


/* On one thread (fsrecipe.c): the walk over the window, then
 * frozenset(obj) as objwalk makes it. */
static void object_build(Value *v)
{
    Tail *t = tail_of(v);
    const Value *grid = t->h.src[0];
    size_t n = (size_t)t->wh * t->ww, bitwords = n / 64 + 1;
    OScan s = {.h = t->wh, .w = t->ww, .n = n, .i0 = t->i0, .j0 = t->j0, .make = t->make};
    size_t words = 4 * n + 2 * bitwords;
    size_t halves = (n + 1) + (n + 1) + (4 * n + 8) + n + (n + 3) / 4;
    uint64_t *block = xmalloc_((words + (halves + 1) / 2) * sizeof(uint64_t));
    memset(block + n, 0, n * sizeof *block);
    memset(block + 4 * n, 0, 2 * bitwords * sizeof *block);
    s.val = (Value **)block;
    s.cell = (Value **)(block + n);
    s.H = block + 2 * n;
    uint64_t *HC = block + 3 * n;
    Occ member = {.bits = block + 4 * n}, occupied = {.bits = block + 4 * n + bitwords};
    int32_t *keep = (int32_t *)(block + words), *cells = keep + n + 1, *ftab = cells + n + 1;
    uint32_t *stamp = (uint32_t *)(ftab + 4 * n + 8);
    s.inb = (uint8_t *)(stamp + n);
    memset(stamp, 0, n * sizeof *stamp);
    for (size_t r = 0, k = 0; r < t->wh; r++)
        for (size_t c = 0; c < t->ww; c++, k++) {
            size_t gi = (size_t)t->i0 + r, gj = (size_t)t->j0 + c;
            s.val[k] = vg_at(grid, gi, gj);
            s.H[k] = (uint64_t)v_loc_hash((int64_t)gi, (int64_t)gj);
            s.inb[k] = ow_sides(gi > 0, gi + 1 < t->gh, gj > 0, gj + 1 < t->gw);
            if (t->map[k] == OWN)
                occ_add(&member, (int32_t)k);
            else if (t->map[k] == OCCUPIED)
                occ_add(&occupied, (int32_t)k);
        }
    occupied.used = t->occ_before;
    for (int d = 0; d < 8; d++)
        s.off[d] = ad_nb_di[d] * (int32_t)s.w + ad_nb_dj[d];
    OWalk w = {.s = &s, .imgs = ow_img_table(t->gh, t->gw, t->diagonal), .imgs_h = t->gh,
               .imgs_w = t->gw,
               .diagonal = t->diagonal, .member = &member, .occupied = &occupied,
               .HC = HC, .stamp = stamp, .cells = cells, .keep = keep};
    ISet obj;
    ow_replay(&w, t->start, NULL, 0, &obj, NULL, NULL);
    FsLayout L = fs_table_alloc(v);
    (void)ow_fill(&s, &obj, HC, ftab, v->u.set.mask, &L);
    is_free(&obj);
    for (size_t k = 0; s.owned && k < n; k++)
        v_decref(s.cell[k]);
    free(block);
}

/* The cells' arena keys, for readers no order changes (fill, paint). */
static bool object_keys(const Value *v, FsKeys *o)
{
    const Tail *t = tail_of(v);
    if (!(v->flags & V_FLAG_FLAT) || !fs_keys_reserve(o, v->u.set.len))
        return false;
    for (size_t r = 0, k = 0; r < t->wh; r++)
        for (size_t c = 0; c < t->ww; c++, k++) {
            if (t->map[k] != OWN)
                continue;
            int64_t i = t->i0 + (int64_t)r, j = t->j0 + (int64_t)c;
            int64_t key = fs_arena_key(t->make(i, j, vg_at(t->h.src[0], (size_t)i, (size_t)j)));
            if (key < 0)
                return false;
            o->k[o->n++] = (uint32_t)key;
        }
    return true;
}

/* One colour: every cell's, at its index (the start's is that colour). */
static Value *object_same(const Value *v, size_t at)
{
    const Tail *t = tail_of(v);
    if (t->colour_at < 0 || at != (size_t)t->colour_at)
        return NULL;
    size_t k = (size_t)t->start;
    return vg_at(t->h.src[0], (size_t)t->i0 + k / t->ww, (size_t)t->j0 + k % t->ww);
}

static const FsRecipe object_kind = {object_build, object_size, NULL, fs_table_free, object_keys,
                                     NULL, object_same, false, false, NULL};

/* A window past this many places per cell costs more than it saves. */
#define WINDOW_PER_CELL 16
#define WINDOW_SLACK 256

Value *ow_lazy(OScan *s, Value *grid, bool diagonal, const int32_t *cells, size_t nc,
               const Occ *occupied, const uint64_t *HC)
{
    size_t w = s->w, i0 = SIZE_MAX, j0 = SIZE_MAX, i1 = 0, j1 = 0;
    if (nc == 0 || s->i0 || s->j0 || s->h > UINT16_MAX || w > UINT16_MAX)
        return NULL;
    bool flat = true, one = true;
    Value *c0 = s->val[cells[0]];
    for (size_t x = 0; x < nc; x++) {
        size_t i = (size_t)cells[x] / w, j = (size_t)cells[x] % w;
        i0 = i < i0 ? i : i0;
        i1 = i > i1 ? i : i1;
        j0 = j < j0 ? j : j0;
        j1 = j > j1 ? j : j1;
        flat &= v_in_arena(ow_cell(s, (size_t)cells[x]));
        one &= s->code ? s->code[cells[x]] == s->code[cells[0]] : gu_eq(s->val[cells[x]], c0);
    }
    size_t wi0 = i0 ? i0 - 1 : 0, wj0 = j0 ? j0 - 1 : 0;
    size_t wi1 = i1 + 1 < s->h ? i1 + 1 : i1, wj1 = j1 + 1 < w ? j1 + 1 : j1;
    size_t wh = wi1 - wi0 + 1, ww = wj1 - wj0 + 1, area = wh * ww;
    if (area > WINDOW_PER_CELL * nc + WINDOW_SLACK)
        return NULL;
    Value *v = fs_alloc_bare(nc, pyset_copy_mask(nc), tail_bytes(area));
    fs_recipe_init(v, &object_kind, v_incref(grid), NULL, true);
    Tail *t = tail_of(v);
    t->make = s->make;
    t->i0 = (int32_t)wi0;
    t->j0 = (int32_t)wj0;
    t->wh = (uint16_t)wh;
    t->ww = (uint16_t)ww;
    t->gh = (uint16_t)s->h;
    t->gw = (uint16_t)w;
    t->occ_before = (uint32_t)occupied->used;
    t->diagonal = diagonal;
    /* the dialect's cell: arc-dsl's (c, (i, j)), tokpidjin's (i, j, c) */
    bool arcdsl = ow_pairs(s, ow_cell(s, (size_t)cells[0]));
    t->colour_at = (int8_t)(one ? (arcdsl ? 0 : 2) : -1);
    for (size_t r = 0, k = 0; r < wh; r++)
        for (size_t c = 0; c < ww; c++, k++)
            t->map[k] = occ_has(occupied, (int32_t)((wi0 + r) * w + wj0 + c)) ? OCCUPIED : OUTSIDE;
    uint64_t x = 0;
    for (size_t q = 0; q < nc; q++) {
        size_t i = (size_t)cells[q] / w, j = (size_t)cells[q] % w;
        t->map[(i - wi0) * ww + (j - wj0)] = OWN;
        x ^= py_fset_shuffle(HC[cells[q]]);
    }
    t->start = (int32_t)(((size_t)cells[0] / w - wi0) * ww + (size_t)cells[0] % w - wj0);
    v->hash = py_fset_end(x, nc);
    v->hashed = 1;
    v_mark_flat_known(v, flat);
    if (arcdsl) {       /* what arc-dsl's readers keep (patch_util.h) */
        v_box_keep(v, (int64_t)i0, (int64_t)j0, (int64_t)i1, (int64_t)j1);
        v->memo |= V_MEMO_CELLS;
    }
    return v;
}
