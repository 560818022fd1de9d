/* objwalk_int.h -- what objwalk.c's walk shares with objlazy.c, which
 * replays one object's part of it when the object is first read. */
#ifndef ARC_OBJWALK_INT_H
#define ARC_OBJWALK_INT_H

#include "common/cells.h"
#include "common/core_util.h"
#include "common/iset.h"

#define SHAPE_MAX 512           /* orders per location, tables per shape */

struct NbImg;

/* The locations walked: a grid, or (objlazy.c) a window of one, whose
 * location numbers are local but whose hashes, neighbour orders and
 * cells are those of (i0 + k / w, j0 + k % w) in the grid. */
typedef struct {
    size_t h, w, n;
    int64_t i0, j0;
    Value **val;      /* grid[i][j] by location number, borrowed */
    Value **cell;     /* the dialect's cell, owned, made on demand */
    ObjCell make;
    uint64_t *H;      /* hash of (i, j) */
    int8_t (*nbx)[8];        /* neighbour order per location, for grids past SHAPE_MAX */
    uint8_t *inb;            /* bit d: neighbour d (ad_nb_di/dj) is in the grid */
    int32_t off[8];          /* ... and its location number less this one's */
    uint8_t *code;           /* grid[i][j] as a byte where every cell is an int
                                0..254 (and bg one or None); else NULL */
    uint8_t bgcode;          /* bg's byte; 255, which no cell has, for None */
    uint8_t arity;           /* the dialect's cell length once one was read; 0 before */
    uint32_t owned;          /* cells made that are not arena values (held in cell[]) */
} OScan;

/* One object's walk (ow_replay): what it reads and its scratch. */
typedef struct {
    OScan *s;
    struct NbImg *imgs;     /* the neighbour set images (ow_img_table), or NULL */
    size_t imgs_h, imgs_w;  /* the grid's shape, where a window lies */
    bool univalued, diagonal;
    Value *bg;
    const Occ *member;      /* the object's cells, found by a flood fill; NULL:
                               o_joins asks the grid */
    Occ *occupied;
    uint64_t *HC;           /* hash of each location's cell, made as it joins */
    uint32_t *stamp;        /* n words, zeroed before the first walk */
    uint32_t layer;
    int32_t *cells, *keep;  /* n + 1 each */
} OWalk;

/* inb's byte from which sides a location has: up, down, left, right */
static inline uint8_t ow_sides(bool up, bool down, bool left, bool right)
{
    return (uint8_t)(up | down << 1 | left << 2 | right << 3 | (up && left) << 4 |
                     (up && right) << 5 | (down && left) << 6 | (down && right) << 7);
}

/* The grid's (i, j) of location ix. */
static inline void ow_place(const OScan *s, size_t ix, int64_t *i, int64_t *j)
{
    *i = s->i0 + (int64_t)(ix / s->w);
    *j = s->j0 + (int64_t)(ix % s->w);
}

/* The cell at ix, made on first use.  Cells in the interned span are
 * arena values, which hold nothing: a walk that made only such (every
 * grid of ARC's size) lets its cells go without visiting them. */
static inline Value *ow_cell(OScan *s, size_t ix)
{
    if (!s->cell[ix]) {
        int64_t i, j;
        ow_place(s, ix, &i, &j);
        s->cell[ix] = s->make(i, j, s->val[ix]);
        s->owned += !v_in_arena(s->cell[ix]);
    }
    return s->cell[ix];
}

/* Whether the walk's cells are arc-dsl's pairs (else tokpidjin's
 * triples), read from the first cell asked about only: interned cells sit
 * in a table too large for the cache, and one read per object missed. */
static inline bool ow_pairs(OScan *s, const Value *cell)
{
    if (!s->arity)
        s->arity = (uint8_t)cell->u.tup.len;
    return s->arity == 2;
}

/* hash(cell at ix).  Where the grid is bytes and the dialect is known,
 * from the place's hash and the colour: the cells' cached hashes sit in a
 * table too large for the cache, and a walk read one per cell it met.
 * tokpidjin's (i, j, c) continues the lanes of (i, j), recovered from its
 * hash (py_tuple_unend). */
static inline __attribute__((always_inline)) uint64_t ow_cell_hash(OScan *s, size_t ix)
{
    uint64_t acc;
    if (s->code && s->arity) {
        int64_t c = s->code[ix];
        if (s->arity == 2)
            return (uint64_t)py_hash_pair_from(py_pair_lane(py_hash_int(c)), (int64_t)s->H[ix]);
        if (py_tuple_unend((int64_t)s->H[ix], 2, &acc))
            return (uint64_t)py_tuple_end(py_tuple_lane(acc, py_hash_int(c)), 3);
    }
    Value *cell = ow_cell(s, ix);
    (void)ow_pairs(s, cell);        /* learns the dialect */
    return (uint64_t)v_hash(cell);
}

/* The neighbour set images for walks on an h x w grid, shared by every
 * walk and replay; NULL past SHAPE_MAX. */
struct NbImg *ow_img_table(size_t h, size_t w, bool diag);

/* The reference's walk of the object through loc (colour val, byte vc):
 * its cells into obj keyed by location (HC made for them), or with cl
 * listed in the order the walk visits them. */
void ow_replay(OWalk *w, int32_t loc, Value *val, unsigned vc, ISet *obj, Ctx *cx, VBuf *cl);

/* frozenset(obj)'s table (mask: pyset_copy_mask(obj->used)) filled into
 * L, the cells increffed; tab: room for 4n + 8.  Returns the xor of the
 * cells' shuffled hashes. */
uint64_t ow_fill(OScan *s, const ISet *obj, const uint64_t *HC, int32_t *tab, size_t mask,
                 FsLayout *L);

/* The object of the nc cells[] of grid (s's locations; the first is the
 * walk's start), found by a flood fill, as a frozenset laid out when read
 * (objlazy.c): its hash, size and bounding box are known now; its order
 * is the walk's, replayed then over a window of the grid around it.
 * occupied: as it is when the object's walk begins.  NULL where that
 * window would be large beside the object: the caller walks it now. */
Value *ow_lazy(OScan *s, Value *grid, bool diagonal, const int32_t *cells, size_t nc,
               const Occ *occupied, const uint64_t *HC);

#endif
