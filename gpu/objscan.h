/* objscan.h -- objects() of one grid as the CPU computes it, in a form a
 * GPU thread can run: CPython's set tables (cpython-set-order.md §2-4)
 * simulated on small integer keys in fixed scratch, so the objects, the
 * cells of each, and the iteration order of every frozenset come out as
 * dsl/arcdsl/objects.c and dsl/tokpidjin/grid.c produce them.
 *
 * Keys: a location (i, j) is i * 32 + j; a cell is keyed by its location;
 * an object by its discovery number.  Hashes come from tables the host
 * fills with pyhash.c (nothing here hashes a tuple), so the device and the
 * CPU cannot disagree on them.  Only `occupied` is not simulated: the
 * reference uses it for membership and its size alone, never its order.
 *
 * Output, per grid, uint16 words from its offset (cap = h * w):
 *   [0] objects  [1] mask of frozenset(objs)
 *   [2 + 3k ..]  object k (discovery order): slot in frozenset(objs),
 *                mask of frozenset(obj), cells
 *   [2 + 3cap..] the cells of object 0, 1, ... as (slot, location) pairs,
 *                in slot order (OBJ_TUPLE: append order, slot 0).
 * C (host emulation) and CUDA both include this.
 */
#ifndef ARC_GPU_OBJSCAN_H
#define ARC_GPU_OBJSCAN_H

#include "ops.h"

#ifdef __CUDACC__
#define OS_HD __host__ __device__
#else
#define OS_HD
#endif

#define OS_KEYS 1024            /* location keys: i * 32 + j */
#define OS_CAP 4096             /* a set of <= 900 keys never outgrows this */
#define OS_SMALL 32             /* a neighbour setcomp (<= 8 keys) */

enum { OBJ_FSET = 0, OBJ_TUPLE = 1 };              /* result shape */
enum { OF_WITHOUT_BG = 1, OF_DIAGONAL = 2, OF_UNIVALUED = 4 };   /* p0 */

/* Tables the host fills once (gpu/objects.cu uploads them). */
typedef struct ObjTables {
    uint64_t loc[OS_KEYS];          /* hash((i, j)) */
    uint64_t cell[10][OS_KEYS];     /* hash of the dialect's cell of colour c at (i, j) */
    int8_t nb[2][OS_KEYS][8];       /* [diagonal][loc]: neighbour order, as directions */
    int8_t di[8], dj[8];            /* direction -> offset */
} ObjTables;

typedef struct {
    int16_t all[OS_CAP], obj[OS_CAP], cands[OS_CAP], nbhd[OS_CAP], objs[OS_CAP];
    int16_t spare[OS_CAP];          /* the old table during a resize */
    int16_t tmp[OS_SMALL];
    uint8_t occupied[OS_KEYS];
    uint64_t ohash[GPU_CELLS];      /* hash of frozenset(obj) by object number */
} ObjScratch;

static inline size_t objscan_out_words(int h, int w)
{
    return 2 + 5 * (size_t)h * (size_t)w;
}

/* Where a key's hash comes from. */
enum { OH_TABLE, OH_CELL };
typedef struct {
    int kind;
    const uint64_t *tab;            /* OH_TABLE: tab[key] */
    const ObjTables *T;             /* OH_CELL: T->cell[colour at key][key] */
    const GpuGrid *g;
} OHash;

OS_HD static inline uint64_t oh_get(const OHash *H, int k)
{
    if (H->kind == OH_TABLE)
        return H->tab[k];
    return H->T->cell[H->g->cell[(k >> 5) * GPU_SIDE + (k & 31)]][k];
}

typedef struct {
    int16_t *t;
    uint32_t mask, fill, used;
} OSet;

OS_HD static inline void os_init(OSet *s, int16_t *store)
{
    s->t = store;
    s->mask = 7;
    s->fill = s->used = 0;
    for (int k = 0; k < 8; k++)
        store[k] = -1;
}

/* The probe sequence of CPython's set (LINEAR_PROBES 9, PERTURB_SHIFT 5);
 * BODY sees the slot as j and leaves by return or goto. */
#define OS_PROBE(mask, h, BODY)                                             \
    do {                                                                    \
        uint64_t perturb_ = (h);                                            \
        uint32_t i_ = (uint32_t)(perturb_ & (mask));                        \
        for (;;) {                                                          \
            uint32_t end_ = i_ + 9 <= (mask) ? i_ + 9 : i_;                 \
            for (uint32_t j = i_; j <= end_; j++) { BODY }                  \
            perturb_ >>= 5;                                                 \
            i_ = (uint32_t)((i_ * 5 + 1 + perturb_) & (mask));              \
        }                                                                   \
    } while (0)

OS_HD static inline void os_insert_clean(int16_t *t, uint32_t mask, uint64_t h, int16_t k)
{
    OS_PROBE(mask, h, {
        if (t[j] == -1) {
            t[j] = k;
            return;
        }
    });
}

OS_HD static inline void os_resize(OSet *s, const OHash *H, uint32_t minused, int16_t *spare)
{
    uint32_t newsize = 8, oldmask = s->mask;
    while (newsize <= minused)
        newsize <<= 1;
    if (newsize == 8 && oldmask == 7 && s->fill == s->used)
        return;                 /* CPython keeps its smalltable as is */
    for (uint32_t i = 0; i <= oldmask; i++)
        spare[i] = s->t[i];
    for (uint32_t i = 0; i < newsize; i++)
        s->t[i] = -1;
    for (uint32_t i = 0; i <= oldmask; i++)
        if (spare[i] >= 0)
            os_insert_clean(s->t, newsize - 1, oh_get(H, spare[i]), spare[i]);
    s->mask = newsize - 1;
    s->fill = s->used;
}

OS_HD static inline bool os_has(const OSet *s, const OHash *H, int16_t k)
{
    const int16_t *t = s->t;
    OS_PROBE(s->mask, oh_get(H, k), {
        if (t[j] == -1)
            return false;
        if (t[j] == k)
            return true;
    });
}

OS_HD static inline void os_add(OSet *s, const OHash *H, int16_t k, int16_t *spare)
{
    int16_t *t = s->t;
    uint32_t mask = s->mask, e = 0, freeslot = 0xFFFFFFFFu;
    OS_PROBE(mask, oh_get(H, k), {
        if (t[j] == -1) {
            e = j;
            goto found_empty;
        }
        if (t[j] == k)
            return;
        if (t[j] == -2)
            freeslot = j;
    });
found_empty:
    s->used++;
    if (freeslot != 0xFFFFFFFFu) {
        t[freeslot] = k;
        return;
    }
    t[e] = k;
    s->fill++;
    if (s->fill * 5 >= mask * 3)
        os_resize(s, H, s->used > 50000 ? s->used * 2 : s->used * 4, spare);
}

/* MERGE(d, src) (§3); also COPY into a fresh d, and so frozenset(src). */
OS_HD static inline void os_merge(OSet *d, const OSet *src, const OHash *H, int16_t *spare)
{
    uint32_t n = src->used;
    if (n == 0)
        return;
    if ((d->fill + n) * 5 >= d->mask * 3)
        os_resize(d, H, (d->used + n) * 2, spare);
    if (d->fill == 0 && d->mask == src->mask && src->fill == src->used) {
        for (uint32_t i = 0; i <= d->mask; i++)
            d->t[i] = src->t[i];
        d->fill = d->used = n;
    } else if (d->fill == 0) {
        for (uint32_t i = 0; i <= src->mask; i++)
            if (src->t[i] >= 0)
                os_insert_clean(d->t, d->mask, oh_get(H, src->t[i]), src->t[i]);
        d->fill = d->used = n;
    } else {
        for (uint32_t i = 0; i <= src->mask; i++)
            if (src->t[i] >= 0)
                os_add(d, H, src->t[i], spare);
    }
}

/* r = a - occupied (§4), r fresh in store.  When CPython copies a and
 * discards occupied's keys, the dummies land where those keys sit whatever
 * order they are discarded in, so walking a instead is the same. */
OS_HD static inline void os_sub_occupied(OSet *r, int16_t *store, const OSet *a, const uint8_t *occ,
                                  uint32_t nocc, const OHash *H, int16_t *spare)
{
    os_init(r, store);
    if (a->used == 0)
        return;
    if ((a->used >> 2) > nocc) {
        os_merge(r, a, H, spare);
        for (uint32_t i = 0; i <= r->mask; i++)
            if (r->t[i] >= 0 && occ[r->t[i]]) {
                r->t[i] = -2;
                r->used--;
            }
        if (r->fill - r->used > r->mask / 4)
            os_resize(r, H, r->used > 50000 ? r->used * 2 : r->used * 4, spare);
    } else {
        for (uint32_t i = 0; i <= a->mask; i++)
            if (a->t[i] >= 0 && !occ[a->t[i]])
                os_add(r, H, a->t[i], spare);
    }
}

OS_HD static inline uint64_t os_shuffle(uint64_t h)
{
    return ((h ^ 89869747ull) ^ (h << 16)) * 3644798167ull;
}

/* hash(frozenset) of the keys in s (pyhash.c hash_fset) */
OS_HD static inline uint64_t os_fset_hash(const OSet *s, const OHash *H)
{
    uint64_t x = 0;
    for (uint32_t i = 0; i <= s->mask; i++)
        if (s->t[i] >= 0)
            x ^= os_shuffle(oh_get(H, s->t[i]));
    x ^= ((uint64_t)s->used + 1) * 1927868237ull;
    x ^= (x >> 11) ^ (x >> 25);
    x = x * 69069u + 907133923u;
    return x == ~0ull ? 590923713ull : x;
}

/* objects(grid, univalued, diagonal, without_bg) of g: p0 holds the
 * OF_* flags, p1 the background colour (GPU_NOCOLOR without one). */
OS_HD static inline void objscan(const GpuGrid *g, int shape, const ObjTables *T, ObjScratch *s,
                          uint16_t *out)
{
    const int h = g->h, w = g->w, cap = h * w;
    const bool univalued = g->p0 & OF_UNIVALUED, diagonal = g->p0 & OF_DIAGONAL;
    const int bg = g->p1, nd = diagonal ? 8 : 4;
    const OHash HL = {OH_TABLE, T->loc, T, g}, HC = {OH_CELL, NULL, T, g};
    const OHash HO = {OH_TABLE, s->ohash, T, g};
    uint16_t *hdr = out + 2, *cells = out + 2 + 3 * (size_t)cap;
    uint32_t nobj = 0, ncell = 0, nocc = 0;
    OSet all, obj, cands, nbhd, tmp, objs;

    /* asindices(grid): the pairs added in row-major order */
    os_init(&all, s->all);
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++)
            os_add(&all, &HL, (int16_t)(i * 32 + j), s->spare);
    for (int k = 0; k < OS_KEYS; k++)
        s->occupied[k] = 0;
    os_init(&objs, s->objs);

    for (uint32_t a = 0; a <= all.mask; a++) {
        int16_t loc = all.t[a];
        if (loc < 0 || s->occupied[loc])
            continue;
        int val = g->cell[(loc >> 5) * GPU_SIDE + (loc & 31)];
        if (val == bg)
            continue;
        uint32_t first = ncell;
        os_init(&obj, s->obj);
        if (shape == OBJ_FSET)
            os_add(&obj, &HC, loc, s->spare);
        os_init(&cands, s->cands);
        os_add(&cands, &HL, loc, s->spare);
        while (cands.used > 0) {
            os_init(&nbhd, s->nbhd);
            for (uint32_t c = 0; c <= cands.mask; c++) {
                int16_t cand = cands.t[c];
                if (cand < 0)
                    continue;
                int ci = cand >> 5, cj = cand & 31;
                int v = g->cell[ci * GPU_SIDE + cj];
                if (!(univalued ? v == val : v != bg))
                    continue;
                if (shape == OBJ_FSET) {
                    os_add(&obj, &HC, cand, s->spare);
                } else {
                    cells[2 * ncell] = 0;
                    cells[2 * ncell + 1] = (uint16_t)cand;
                    ncell++;
                }
                if (!s->occupied[cand]) {
                    s->occupied[cand] = 1;
                    nocc++;
                }
                const int8_t *nb = T->nb[diagonal][cand];
                os_init(&tmp, s->tmp);
                for (int q = 0; q < nd; q++) {
                    int ni = ci + T->di[nb[q]], nj = cj + T->dj[nb[q]];
                    if (ni >= 0 && ni < h && nj >= 0 && nj < w)
                        os_add(&tmp, &HL, (int16_t)(ni * 32 + nj), s->spare);
                }
                os_merge(&nbhd, &tmp, &HL, s->spare);
            }
            os_sub_occupied(&cands, s->cands, &nbhd, s->occupied, nocc, &HL, s->spare);
        }
        if (shape == OBJ_FSET) {
            /* frozenset(obj): a fresh copy; cands' store is free now */
            OSet fo;
            os_init(&fo, s->cands);
            os_merge(&fo, &obj, &HC, s->spare);
            for (uint32_t k = 0; k <= fo.mask; k++)
                if (fo.t[k] >= 0) {
                    cells[2 * ncell] = (uint16_t)k;
                    cells[2 * ncell + 1] = (uint16_t)fo.t[k];
                    ncell++;
                }
            s->ohash[nobj] = os_fset_hash(&fo, &HC);
            hdr[3 * nobj + 1] = (uint16_t)fo.mask;
            os_add(&objs, &HO, (int16_t)nobj, s->spare);
        } else {
            hdr[3 * nobj + 0] = (uint16_t)nobj;
            hdr[3 * nobj + 1] = 0;
        }
        hdr[3 * nobj + 2] = (uint16_t)(ncell - first);
        nobj++;
    }
    out[0] = (uint16_t)nobj;
    out[1] = 0;
    if (shape == OBJ_FSET && nobj) {
        OSet fo;
        os_init(&fo, s->cands);
        os_merge(&fo, &objs, &HO, s->spare);
        out[1] = (uint16_t)fo.mask;
        for (uint32_t k = 0; k <= fo.mask; k++)
            if (fo.t[k] >= 0)
                hdr[3 * fo.t[k]] = (uint16_t)k;
    }
}

#ifndef __CUDACC__
/* Host emulation of gpu_run_objects over the same records (ops_host.c). */
void gpu_emulate_objects(int n, int shape, const ObjTables *T, const GpuGrid *in,
                         const uint32_t *off, uint16_t *out);
#endif

#endif
