/* objscan.h -- objects() of a grid as the CPU computes it, in pieces a
 * GPU can run side by side: CPython's set tables (cpython-set-order.md
 * §2-4) simulated on small integer keys, so the objects, the cells of
 * each, and the iteration order of every frozenset come out as
 * dsl/common/objwalk.c produces them for both dialects.
 *
 * The reference finds objects one after the other; they depend on each
 * other only through `occupied`, which, when object r is walked, holds
 * exactly the cells of objects 0..r-1 (found in asindices order) plus the
 * cells r has taken so far.  So the work is cut in three:
 *   objscan_label  (per grid)   the objects as plain connected components,
 *                               numbered in discovery order;
 *   objscan_walk   (per object) the reference's walk of object r, set for
 *                               set, with that `occupied`;
 *   objscan_objs   (per grid)   frozenset(objs) from the objects' hashes.
 *
 * Keys: a location (i, j) is i * 32 + j; a cell is keyed by its location;
 * an object by its number.  Hashes come from tables the host fills with
 * pyhash.c (nothing here hashes a tuple), so the device and the CPU cannot
 * disagree on them.
 *
 * Output, per grid, uint16 words from its offset (n objects holding c
 * cells in all; objscan_words(n, c) words, at most objscan_out_words):
 *   [0] n        [1] mask of frozenset(objs)
 *   [2 + 3r ..]  object r (discovery order): slot in frozenset(objs),
 *                mask of frozenset(obj), cells
 *   [2 + 3n ..]  the cells of object 0, 1, ... as (slot, location) pairs,
 *                in slot order (OBJ_TUPLE: append order, slot 0)
 *   [2+3n+2c ..] hash(frozenset(obj)) of each object, 4 words, low first
 *                (OBJ_FSET), so the host need not compute it again.
 * Sized by what was found, not by h * w, so a device copies back only
 * what the grids hold.
 * C (host emulation) and CUDA both include this.
 */
#ifndef ARC_GPU_OBJSCAN_H
#define ARC_GPU_OBJSCAN_H

#include "ops.h"
#include "pyprobe.h"

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
    uint32_t order_at[GPU_SIDE + 1][GPU_SIDE + 1];   /* where order[] of an h x w grid starts */
    int16_t order[465 * 465];       /* asindices(grid)'s iteration order, every shape */
} ObjTables;

/* Per grid, between the phases. */
typedef struct {
    int16_t rank[OS_KEYS];          /* object number of each location; -1 none */
    uint8_t done[OS_KEYS];          /* taken by its object's walk */
    uint16_t seed[GPU_CELLS];       /* object r's first location in asindices order */
    uint16_t before[GPU_CELLS + 1]; /* cells of objects 0..r-1 */
    uint16_t queue[GPU_CELLS];
    uint64_t ohash[GPU_CELLS];      /* hash of frozenset(obj) */
    uint32_t nobj;
} ObjGrid;

/* Per walker (a GPU warp, or the host). */
typedef struct {
    int16_t obj[OS_CAP], cands[OS_CAP], nbhd[OS_CAP], spare[OS_CAP];
    int16_t tmp[OS_SMALL];
} ObjWalk;

OS_HD static inline size_t objscan_words(uint32_t nobj, uint32_t ncells)
{
    return 2 + 7 * (size_t)nobj + 2 * (size_t)ncells;
}

/* The most any h x w grid needs: every cell an object. */
static inline size_t objscan_out_words(int h, int w)
{
    return objscan_words((uint32_t)(h * w), (uint32_t)(h * w));
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

OS_HD static inline void os_insert_clean(int16_t *t, uint32_t mask, uint64_t h, int16_t k)
{
    PY_PROBE(uint32_t, mask, h, {
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
    PY_PROBE(uint32_t, s->mask, oh_get(H, k), {
        if (t[j] == -1)
            return false;
        if (t[j] == k)
            return true;
    });
}

PY_SET_SLOT_FN(os_slot, int16_t, uint32_t)

OS_HD static inline void os_add(OSet *s, const OHash *H, int16_t k, int16_t *spare)
{
    PY_SET_ADD(s, uint32_t, os_slot, oh_get(H, k), k, os_resize(s, H, PY_SET_GROW(s->used), spare));
}

/* MERGE(d, src) (§3); also COPY into a fresh d, and so frozenset(src). */
OS_HD static inline void os_merge(OSet *d, const OSet *src, const OHash *H, int16_t *spare)
{
    uint32_t n = src->used;
    if (n == 0)
        return;
    if (PY_SET_FULL(d->fill + n, d->mask))
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

/* `occupied` while object r is walked: the cells of objects 0..r-1 and
 * those r has taken; n of them. */
typedef struct {
    const int16_t *rank;
    const uint8_t *done;
    int r;
    uint32_t n;
} OOcc;

OS_HD static inline bool oc_has(const OOcc *o, int k)
{
    return o->rank[k] >= 0 && (o->rank[k] < o->r || (o->rank[k] == o->r && o->done[k]));
}

/* r = a - occupied (§4), r fresh in store.  When CPython copies a and
 * discards occupied's keys, the dummies land where those keys sit whatever
 * order they are discarded in, so walking a instead is the same. */
OS_HD static inline void os_sub_occupied(OSet *r, int16_t *store, const OSet *a, const OOcc *occ,
                                         const OHash *H, int16_t *spare)
{
    os_init(r, store);
    if (a->used == 0)
        return;
    if ((a->used >> 2) > occ->n) {
        os_merge(r, a, H, spare);
        for (uint32_t i = 0; i <= r->mask; i++)
            if (r->t[i] >= 0 && oc_has(occ, r->t[i])) {
                r->t[i] = -2;
                r->used--;
            }
        if (r->fill - r->used > r->mask / 4)
            os_resize(r, H, PY_SET_GROW(r->used), spare);
    } else {
        for (uint32_t i = 0; i <= a->mask; i++)
            if (a->t[i] >= 0 && !oc_has(occ, a->t[i]))
                os_add(r, H, a->t[i], spare);
    }
}

/* hash(frozenset) of the keys in s (pyhash.c hash_fset) */
OS_HD static inline uint64_t os_fset_hash(const OSet *s, const OHash *H)
{
    uint64_t x = 0;
    for (uint32_t i = 0; i <= s->mask; i++)
        if (s->t[i] >= 0)
            x ^= py_fset_shuffle(oh_get(H, s->t[i]));
    return (uint64_t)py_fset_end(x, s->used);
}

/* Whether a cell of colour v joins an object started on colour val. */
#define OS_JOINS(univalued, val, v, bg) ((univalued) ? (v) == (val) : (v) != (bg))

/* Phase 1: number the objects of g (p0 the OF_* flags, p1 the background
 * or GPU_NOCOLOR) as the reference finds them: the first location in
 * asindices order that is neither taken nor background starts the next;
 * its object is its connected component (what the walk will take). */
OS_HD static inline void objscan_label(const GpuGrid *g, const ObjTables *T, ObjGrid *G)
{
    const int h = g->h, w = g->w, bg = g->p1;
    const bool univalued = g->p0 & OF_UNIVALUED;
    const int nd = g->p0 & OF_DIAGONAL ? 8 : 4;
    const int16_t *order = T->order + T->order_at[h][w];
    for (int i = 0; i < h; i++)
        for (int j = 0; j < w; j++) {
            G->rank[i * 32 + j] = -1;
            G->done[i * 32 + j] = 0;
        }
    uint32_t nobj = 0, cells = 0;
    for (int p = 0; p < h * w; p++) {
        int loc = order[p];
        int val = g->cell[(loc >> 5) * GPU_SIDE + (loc & 31)];
        if (G->rank[loc] >= 0 || val == bg)
            continue;
        G->seed[nobj] = (uint16_t)loc;
        G->before[nobj] = (uint16_t)cells;
        G->rank[loc] = (int16_t)nobj;
        int head = 0, tail = 0;
        G->queue[tail++] = (uint16_t)loc;
        while (head < tail) {
            int c = G->queue[head++], ci = c >> 5, cj = c & 31;
            for (int q = 0; q < nd; q++) {
                int ni = ci + T->di[q], nj = cj + T->dj[q];
                if (ni < 0 || ni >= h || nj < 0 || nj >= w)
                    continue;
                int n = ni * 32 + nj, v = g->cell[ni * GPU_SIDE + nj];
                if (G->rank[n] < 0 && OS_JOINS(univalued, val, v, bg)) {
                    G->rank[n] = (int16_t)nobj;
                    G->queue[tail++] = (uint16_t)n;
                }
            }
        }
        cells += (uint32_t)tail;
        nobj++;
    }
    G->before[nobj] = (uint16_t)cells;
    G->nobj = nobj;
}

/* Phase 2: the reference's walk of object r, its cells written out. */
OS_HD static inline void objscan_walk(const GpuGrid *g, int shape, const ObjTables *T, ObjGrid *G,
                                      int r, ObjWalk *s, uint16_t *out)
{
    const int h = g->h, w = g->w, bg = g->p1;
    const bool univalued = g->p0 & OF_UNIVALUED, diagonal = g->p0 & OF_DIAGONAL;
    const int nd = diagonal ? 8 : 4;
    const OHash HL = {OH_TABLE, T->loc, T, g}, HC = {OH_CELL, NULL, T, g};
    uint16_t *hdr = out + 2, *cells = out + 2 + 3 * (size_t)G->nobj + 2 * (size_t)G->before[r];
    OOcc occ = {G->rank, G->done, r, G->before[r]};
    uint32_t ncell = 0;
    int loc = G->seed[r];
    int val = g->cell[(loc >> 5) * GPU_SIDE + (loc & 31)];
    OSet obj, cands, nbhd, tmp;
    os_init(&obj, s->obj);
    if (shape == OBJ_FSET)
        os_add(&obj, &HC, (int16_t)loc, s->spare);
    os_init(&cands, s->cands);
    os_add(&cands, &HL, (int16_t)loc, s->spare);
    while (cands.used > 0) {
        os_init(&nbhd, s->nbhd);
        for (uint32_t c = 0; c <= cands.mask; c++) {
            int16_t cand = cands.t[c];
            if (cand < 0)
                continue;
            int ci = cand >> 5, cj = cand & 31;
            int v = g->cell[ci * GPU_SIDE + cj];
            if (!OS_JOINS(univalued, val, v, bg))
                continue;
            if (shape == OBJ_FSET) {
                os_add(&obj, &HC, cand, s->spare);
            } else {
                cells[2 * ncell] = 0;
                cells[2 * ncell + 1] = (uint16_t)cand;
                ncell++;
            }
            if (!G->done[cand]) {
                G->done[cand] = 1;
                occ.n++;
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
        os_sub_occupied(&cands, s->cands, &nbhd, &occ, &HL, s->spare);
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
        uint64_t fh = os_fset_hash(&fo, &HC);
        uint16_t *hw = out + 2 + 3 * (size_t)G->nobj + 2 * (size_t)G->before[G->nobj] + 4 * (size_t)r;
        G->ohash[r] = fh;
        for (int q = 0; q < 4; q++)
            hw[q] = (uint16_t)(fh >> (16 * q));
        hdr[3 * r + 1] = (uint16_t)fo.mask;
    } else {
        hdr[3 * r + 0] = (uint16_t)r;
        hdr[3 * r + 1] = 0;
    }
    hdr[3 * r + 2] = (uint16_t)ncell;
}

/* Phase 3: frozenset(objs), objs = the objects added in discovery order. */
OS_HD static inline void objscan_objs(const GpuGrid *g, int shape, const ObjTables *T,
                                      const ObjGrid *G, ObjWalk *s, uint16_t *out)
{
    const OHash HO = {OH_TABLE, G->ohash, T, g};
    uint16_t *hdr = out + 2;
    out[0] = (uint16_t)G->nobj;
    out[1] = 0;
    if (shape != OBJ_FSET || G->nobj == 0)
        return;
    OSet objs, fo;
    os_init(&objs, s->obj);
    for (uint32_t r = 0; r < G->nobj; r++)
        os_add(&objs, &HO, (int16_t)r, s->spare);
    os_init(&fo, s->cands);
    os_merge(&fo, &objs, &HO, s->spare);
    out[1] = (uint16_t)fo.mask;
    for (uint32_t k = 0; k <= fo.mask; k++)
        if (fo.t[k] >= 0)
            hdr[3 * fo.t[k]] = (uint16_t)k;
}

#ifndef __CUDACC__
/* Host emulation of gpu_run_objects over the same records (ops_host.c). */
void gpu_emulate_objects(int n, int shape, const ObjTables *T, const GpuGrid *in,
                         const uint32_t *off, uint16_t *out);
#endif

#endif
