/* objwalk.c -- objects() of both dialects on grids of any size.
 *
 * The reference's walk over a grid's locations, replayed on location
 * numbers instead of (i, j) tuples: every set it builds iterates as
 * CPython's would, and only the cells and objects it returns are values.
 * gpu/objscan.h replays the same operations for the device; on the host
 * it measured no faster than this walk, so the CPU has this one path.
 * An object whose walk would be replayed may instead wait until its
 * order is read, and replay it then (objlazy.c).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "prim.h"
#include "pyprobe.h"
#include "common/core_util.h"
#include "common/grid_util.h"
#include "common/neighbours.h"
#include "common/objwalk.h"
#include "common/iset.h"
#include "common/objwalk_int.h"

/* The set {(i, j) for i, j in diagfun(cand) if in the grid} as CPython
 * leaves it: its keys in slot order, where they sit, and the table size.
 * It depends on the location alone and on whether that is in the grid's
 * last row and last column (i == 0 and j == 0 tell the first ones), so
 * every grid up to SHAPE_MAX x SHAPE_MAX shares one image per location
 * and case (img_loc_), made the first time a walk visits it.  Tables per
 * shape grew with the shapes a run met. */
typedef struct NbImg {
    _Atomic uint8_t state;      /* in img_loc_: 0 not made, 1 being made, 2 ready */
    uint8_t n, mask;
    uint8_t slot[8];
    uint8_t step[8];            /* each key as a step from cand: (di + 1) * 3 + dj + 1 */
} NbImg;

/* A key one step from cand, in an image: the tables hold a byte per key,
 * not its location number, and stay a third of the size. */
static inline int32_t img_key(int32_t cand, uint8_t step, size_t w)
{
    return cand + (int32_t)((step / 3 - 1) * (int64_t)w) + step % 3 - 1;
}

static void img_of(NbImg *im, int32_t cand, size_t w, const int32_t *keys, int nk,
                   const uint64_t *H)
{
    ISet t;
    is_init(&t);
    for (int q = 0; q < nk; q++)
        is_add(&t, H, keys[q]);
    im->n = 0;
    im->mask = (uint8_t)t.mask;
    for (size_t x = 0; x <= t.mask; x++)
        if (t.t[x] >= 0) {
            int32_t di = t.t[x] / (int32_t)w - cand / (int32_t)w;
            int32_t dj = t.t[x] % (int32_t)w - cand % (int32_t)w;
            im->slot[im->n] = (uint8_t)x;
            im->step[im->n++] = (uint8_t)((di + 1) * 3 + dj + 1);
        }
    is_free(&t);
}

/* MERGE(d, that set) (§3), as is_merge above does with a built one */
static void is_merge_img(ISet *d, const NbImg *im, int32_t cand, size_t w, const uint64_t *H)
{
    size_t n = im->n;
    if (n == 0)
        return;
    if (PY_SET_FULL(d->fill + n, d->mask))
        is_resize(d, H, (d->used + n) * 2);
    if (d->fill == 0) {
        if (d->mask == im->mask)
            for (size_t q = 0; q < n; q++)
                d->t[im->slot[q]] = img_key(cand, im->step[q], w);
        else
            for (size_t q = 0; q < n; q++)
                is_insert_clean(d->t, d->mask, H, img_key(cand, im->step[q], w));
        d->fill = d->used = (uint32_t)n;
    } else {
        for (size_t q = 0; q < n; q++)
            is_add(d, H, img_key(cand, im->step[q], w));
    }
}

/* ---- the walk ---------------------------------------------------------------
 * objwalk() replays the reference's set operations one for one: the outer
 * loop walks asindices(grid) in its set order; `cands` is walked in slot
 * order, `neighborhood |= {setcomp}` merges, `cands = neighborhood -
 * occupied`; objects are `frozenset(obj)` copies added to `objs`, itself
 * copied at the end.  objects_t keeps the same walk but appends to lists.
 * The location sets are ISets; dneighbors/neighbors' own order comes from
 * the hashes (ad_nb_order), kept per location up to 512 x 512 with the
 * neighbour set images, and per shape the walk keeps asindices' order,
 * within a memory cap.  Without them a walk cost 1.45x per cell; tokpidjin's
 * batts walk upscaled grids (test_100_tasks.py: 240 x 240, 270 x 270). */

/* ad_nb_order's 8 bytes per location, made on first use; 0: not yet
 * (an order never packs to 0: its bytes are distinct or -1) */
static _Atomic uint64_t nb_ord_[2][SHAPE_MAX * SHAPE_MAX];

/* The per-shape orders below stay for the process: past this many bytes a
 * new shape makes its own each call instead (every shape up to 512 x 512
 * would be terabytes). */
enum { SHAPE_CACHE_CAP = 16 << 20 };
static _Atomic size_t shape_cache_bytes_;

static bool shape_cache_take(size_t bytes)
{
    if (atomic_fetch_add(&shape_cache_bytes_, bytes) + bytes <= SHAPE_CACHE_CAP)
        return true;
    atomic_fetch_sub(&shape_cache_bytes_, bytes);
    return false;
}

/* Iteration order of asindices(grid) for an h x w grid (location numbers;
 * H: their hashes), made once per shape and shared between threads; NULL
 * over the cap. */
static _Atomic(int32_t *) ai_cache_[SHAPE_MAX + 1][SHAPE_MAX + 1];

/* asindices(grid)'s order into o: its n locations are distinct keys added
 * in row-major order, so their table is fsdistinct's layout. */
static void ai_lay(size_t n, const uint64_t *H, int32_t *o)
{
    size_t mask = pyset_distinct_mask(n), no = 0;
    int32_t small[1024], *t = mask < 1024 ? small : xmalloc_((mask + 1) * sizeof *t);
    pyset_distinct_slots(t, (const int64_t *)H, n);
    for (size_t x = 0; x <= mask; x++)
        if (t[x] >= 0)
            o[no++] = t[x];
    if (t != small)
        free(t);
}

static const int32_t *ai_order(size_t h, size_t w, const uint64_t *H)
{
    int32_t *o = atomic_load_explicit(&ai_cache_[h][w], memory_order_acquire);
    if (o)
        return o;
    size_t n = h * w, bytes = (n ? n : 1) * sizeof *o;
    if (!shape_cache_take(bytes))
        return NULL;
    o = xmalloc_(bytes);
    ai_lay(n, H, o);
    int32_t *expected = NULL;
    if (!atomic_compare_exchange_strong(&ai_cache_[h][w], &expected, o)) {
        free(o);
        atomic_fetch_sub(&shape_cache_bytes_, bytes);
        return expected;
    }
    return o;
}

/* The in-grid neighbours of location ix (i * w + j) in diagfun's order. */
static int nb_keys(int64_t i, int64_t j, size_t h, size_t w, const int8_t *nb, int nd,
                   int32_t keys[8])
{
    int nk = 0;
    for (int q = 0; q < nd; q++) {
        int64_t ni = i + ad_nb_di[nb[q]], nj = j + ad_nb_dj[nb[q]];
        if (ni >= 0 && (size_t)ni < h && nj >= 0 && (size_t)nj < w)
            keys[nk++] = (int32_t)((size_t)ni * w + (size_t)nj);
    }
    return nk;
}

/* The images by diagonal, case (bit 0: in the grid's last row; bit 1: in
 * its last column) and location (i * SHAPE_MAX + j): untouched pages cost
 * no memory. */
#define IMG_CASE (SHAPE_MAX * SHAPE_MAX)
static NbImg img_loc_[2][4 * IMG_CASE];

/* Whether location k joins an object of colour val (byte vc): the same
 * colour, or for a multicoloured one any but the background. */
static inline bool o_joins(const OScan *s, size_t k, const Value *val, unsigned vc, bool univalued,
                           const Value *bg)
{
    if (s->code)
        return univalued ? s->code[k] == vc : s->code[k] != s->bgcode;
    return univalued ? gu_eq(val, s->val[k]) : !gu_eq(s->val[k], bg);
}

/* s->code from s->val, if every cell and bg can be one; a byte grid's
 * cells (bytes, h x w) are the code already, unless one is 255. */
static void o_code(OScan *s, uint8_t *code, const Value *bg, const uint8_t *bytes)
{
    if (bg->type == V_NONE)
        s->bgcode = 255;
    else if (v_is_int(bg) && bg->u.i >= 0 && bg->u.i < 255)
        s->bgcode = (uint8_t)bg->u.i;
    else
        return;
    if (bytes && !memchr(bytes, 255, s->n)) {
        memcpy(code, bytes, s->n);
        s->code = code;
        return;
    }
    for (size_t k = 0; k < s->n; k++) {
        const Value *v = s->val[k];
        if (!v_is_int(v) || v->u.i < 0 || v->u.i >= 255)
            return;
        code[k] = (uint8_t)v->u.i;
    }
    s->code = code;
}

static inline const int8_t *o_nb(OScan *s, size_t ix, bool diag, int8_t buf[8])
{
    int64_t i, j;
    ow_place(s, ix, &i, &j);
    if (s->nbx) {
        if (s->nbx[ix][0] < 0)
            ad_nb_order(i, j, diag, s->nbx[ix]);
        return s->nbx[ix];
    }
    _Atomic uint64_t *e = &nb_ord_[diag][i * SHAPE_MAX + j];
    uint64_t packed = atomic_load_explicit(e, memory_order_relaxed);
    if (!packed) {
        memset(buf, -1, 8);
        ad_nb_order(i, j, diag, buf);
        memcpy(&packed, buf, 8);
        atomic_store_explicit(e, packed, memory_order_relaxed);
    }
    memcpy(buf, &packed, 8);
    return buf;
}

struct NbImg *ow_img_table(size_t h, size_t w, bool diag)
{
    return h <= SHAPE_MAX && w <= SHAPE_MAX ? img_loc_[diag] : NULL;
}

/* The image of cand's neighbour set: tab's (ow_img_table), once made
 * there; else made in *local (and copied there unless another thread is
 * at it).  A window's cand (objlazy.c) is a member of its object, whose
 * in-grid neighbours all lie in the window: its image is the grid's
 * (gh x gw). */
static const NbImg *nb_img(OScan *s, NbImg *tab, size_t gh, size_t gw, NbImg *local,
                           int32_t cand, bool diag, int nd)
{
    if (tab) {
        size_t i = (size_t)(s->i0 + cand / (int64_t)s->w), j = (size_t)(s->j0 + cand % (int64_t)s->w);
        tab += (size_t)(i + 1 == gh) * IMG_CASE + (size_t)(j + 1 == gw) * 2 * IMG_CASE +
               i * SHAPE_MAX + j;
        if (atomic_load_explicit(&tab->state, memory_order_acquire) == 2)
            return tab;
    }
    int32_t keys[8];
    int8_t order[8];
    int nk = nb_keys(cand / (int64_t)s->w, cand % (int64_t)s->w, s->h, s->w,
                     o_nb(s, (size_t)cand, diag, order), nd, keys);
    img_of(local, cand, s->w, keys, nk, s->H);
    uint8_t none = 0;
    if (tab && atomic_compare_exchange_strong(&tab->state, &none, 1)) {
        NbImg *t = tab;
        t->n = local->n;
        t->mask = local->mask;
        memcpy(t->slot, local->slot, sizeof t->slot);
        memcpy(t->step, local->step, sizeof t->step);
        atomic_store_explicit(&t->state, 2, memory_order_release);
    }
    return local;
}

/* CPython's COPY of src (keys probed by H) laid out in L, a table of
 * mask + 1: src's own slots when the sizes agree (src has no dummies),
 * else its keys inserted in its slot order into tab, then walked in slot
 * order, item(ud, k) putting key k's value in.  Returns the xor of the
 * keys' shuffled hashes.  Inlined into each caller with its item. */
static inline __attribute__((always_inline)) uint64_t
copy_laid(const ISet *src, const uint64_t *H, int32_t *tab, size_t mask, FsLayout *L,
          Value *(*item)(void *ud, int32_t k), void *ud)
{
    const int32_t *from = src->t;
    if (mask != src->mask) {
        memset(tab, 0xff, (mask + 1) * sizeof *tab);
        for (size_t i = 0; i <= src->mask; i++)
            if (src->t[i] >= 0)
                is_insert_clean(tab, mask, H, src->t[i]);
        from = tab;
    }
    int32_t m = 0;
    uint64_t x = 0;
    for (size_t i = 0; i <= mask; i++) {
        int32_t k = from[i];
        if (k < 0)
            continue;
        L->items[m] = item(ud, k);
        L->hashes[m] = (int64_t)H[k];
        L->slots[i] = m++;
        x ^= py_fset_shuffle(H[k]);
    }
    return x;
}

/* An object's cell, made on demand and held by the layout. */
static inline Value *cell_item(void *ud, int32_t k)
{
    return v_incref(ow_cell(ud, (size_t)k));
}

/* `obj`, the set of an object's cells, is an ISet of locations probed by
 * the cells' hashes (HC); frozenset(obj) is CPython's COPY of it (pyset.c
 * copy_to_fs): a table presized for its count, its keys inserted in obj's
 * slot order, verbatim when the sizes agree (obj has no dummies).  Only
 * then are the cells put in a frozen value.  tab: room for 4n + 8. */
uint64_t ow_fill(OScan *s, const ISet *obj, const uint64_t *HC, int32_t *tab, size_t mask,
                 FsLayout *L)
{
    return copy_laid(obj, HC, tab, mask, L, cell_item, s);
}

static Value *obj_frozen(OScan *s, const ISet *obj, const uint64_t *HC, int32_t *tab)
{
    size_t n = obj->used, mask = pyset_copy_mask(n);
    FsLayout L;
    Value *v = fs_layout(n, mask, &L);
    uint64_t x = ow_fill(s, obj, HC, tab, mask, &L);
    v_mark_flat(v, L.items, n);
    v->hash = py_fset_end(x, n);        /* objs takes it next: its cells' hashes are here */
    v->hashed = 1;
    if (n && ow_pairs(s, L.items[0])) {     /* arc-dsl's cells: what ow_lazy's keep too */
        int64_t i0 = INT64_MAX, j0 = INT64_MAX, i1 = INT64_MIN, j1 = INT64_MIN;
        for (size_t q = 0; q <= obj->mask; q++) {
            int32_t k = obj->t[q];
            if (k < 0)
                continue;
            int64_t i, j;
            ow_place(s, (size_t)k, &i, &j);
            i0 = i < i0 ? i : i0;
            i1 = i > i1 ? i : i1;
            j0 = j < j0 ? j : j0;
            j1 = j > j1 ? j : j1;
        }
        v_box_keep(v, i0, j0, i1, j1);
        v->memo |= V_MEMO_CELLS;
    }
    return v;
}

/* obj_frozen of a one-cell object, without its table: COPY leaves a
 * lone key at its home in a table of 8, as the walk's obj had it.  Most
 * objects of noisy grids are single cells. */
static Value *obj_single(OScan *s, int32_t k, uint64_t hc)
{
    FsLayout L;
    Value *v = fs_layout(1, 7, &L);
    L.items[0] = cell_item(s, k);
    L.hashes[0] = (int64_t)hc;
    L.slots[hc & 7] = 0;
    v_mark_flat(v, L.items, 1);
    v->hash = py_fset_end(py_fset_shuffle(hc), 1);
    v->hashed = 1;
    if (ow_pairs(s, L.items[0])) {
        int64_t i, j;
        ow_place(s, (size_t)k, &i, &j);
        v_box_keep(v, i, j, i, j);
        v->memo |= V_MEMO_CELLS;
    }
    return v;
}

/* An object of ov, moved into the layout (ov lets go of them all). */
static inline Value *moved_item(void *ud, int32_t k)
{
    return ((VBuf *)ud)->v[k];
}

/* frozenset(objs), CPython's COPY of the set the n objects of ov were
 * added to (oset: their indices, probed by their hashes oh; only adds, so
 * no dummies), laid out as ow_fill lays out an object; the objects move
 * from ov into it.  tab: room for the copy's table. */
static Value *objs_frozen(VBuf *ov, const uint64_t *oh, const ISet *oset, int32_t *tab)
{
    size_t n = ov->n, mask = pyset_copy_mask(n);
    if (n == 0)
        return v_incref(&v_empty_fset_);
    FsLayout L;
    Value *v = fs_layout(n, mask, &L);
    uint64_t x = copy_laid(oset, oh, tab, mask, &L, moved_item, ov);
    ov->n = 0;
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    return v;
}

/* cands = neighborhood - occupied without the neighbourhood's table, when
 * its order cannot show.  Only the set's members and size decide which way
 * `-` goes (§4): while occupied is large beside it, the difference is a
 * fresh set the survivors are added to, one by one.  Adds of distinct keys
 * to an empty set leave each key at home when the homes in the final
 * table (pyset_distinct_mask) are distinct, whatever their order (the
 * argument of direct_layout below): then the neighbourhood's slot order,
 * the one thing its table decides, is not read, and the set is laid at
 * once.  False, with *r untouched, where the table must be replayed.
 * stamp: a word per location, equal to `layer` where the location is in
 * this layer's neighbourhood already. */
static bool cands_direct(const OScan *s, const int32_t *matched, size_t nm, const Occ *occupied,
                         uint32_t *stamp, uint32_t layer, int nd, int32_t *surv, ISet *r)
{
    size_t used = 0, m = 0;
    for (size_t q = 0; q < nm; q++) {
        unsigned in = s->inb[matched[q]];
        for (int d = 0; d < nd; d++) {
            if (!(in >> d & 1))
                continue;
            int32_t k = matched[q] + s->off[d];
            if (stamp[k] == layer)
                continue;
            stamp[k] = layer;
            used++;
            surv[m] = k;
            m += !occ_has(occupied, k);
        }
    }
    if ((used >> 2) > occupied->used)
        return false;           /* a copy of the neighbourhood, less dummies */
    size_t mask = pyset_distinct_mask(m);
    int32_t inl[ISET_INLINE], *t = mask < ISET_INLINE ? inl : xmalloc_((mask + 1) * sizeof *t);
    memset(t, 0xff, (mask + 1) * sizeof *t);
    for (size_t q = 0; q < m; q++) {
        size_t home = (size_t)s->H[surv[q]] & mask;
        if (t[home] >= 0) {
            if (t != inl)
                free(t);
            return false;
        }
        t[home] = surv[q];
    }
    is_init(r);
    if (t != inl)
        r->t = t;
    else
        memcpy(r->inl, inl, (mask + 1) * sizeof *inl);
    r->mask = (uint32_t)mask;
    r->fill = r->used = (uint32_t)m;
    return true;
}

/* ---- objects whose order needs no replay --------------------------------
 * `obj` only ever grows (no dummies), so once its cells' home slots in its
 * final table are distinct, every cell sits at home whatever the order of
 * insertion was: at each resize the reinserted cells find their homes
 * empty, and so do the later ones.  frozenset(obj) copies that table in
 * slot order, so it too follows from the cells alone.  Most objects are a
 * few cells (test_batt: 92% of them have distinct homes, half the objects'
 * cells), and for them the walk's replay of cands and neighbourhoods is
 * replaced by a flood fill, which finds the same cells. */

#define DIRECT_MAX 64           /* larger objects nearly always collide */
#define DIRECT_TRY 16           /* cands_direct for layers up to this many matches:
                                   past them, homes nearly always collide */

/* The object through `start`: its cells (up to cap) into cells[], start
 * first, claimed in `claim`.  Returns their number, or 0 when the object
 * is larger (its claims are taken back: the replay will visit it). */
static size_t flood(OScan *s, int32_t start, Value *val, unsigned vc, bool univalued, Value *bg,
                    bool diagonal, Occ *claim, int32_t *cells, size_t cap)
{
    size_t n = 0;
    cells[n++] = start;
    occ_add(claim, start);
    for (size_t q = 0; q < n; q++) {
        unsigned in = s->inb[cells[q]];
        for (int d = 0; d < (diagonal ? 8 : 4); d++) {
            if (!(in >> d & 1))
                continue;
            int32_t k = cells[q] + s->off[d];
            if (occ_has(claim, k))
                continue;
            if (!o_joins(s, (size_t)k, val, vc, univalued, bg))
                continue;
            if (n == cap) {
                for (size_t x = 0; x < n; x++) {
                    claim->bits[cells[x] >> 6] &= ~((uint64_t)1 << (cells[x] & 63));
                    claim->used--;
                }
                return 0;
            }
            cells[n++] = k;
            occ_add(claim, k);
        }
    }
    return n;
}

/* obj as the walk would leave it, when its n cells' homes are distinct
 * (HC made for them); false otherwise. */
static bool direct_layout(ISet *obj, const int32_t *cells, size_t n, const uint64_t *HC)
{
    size_t mask = pyset_distinct_mask(n);
    uint64_t taken[(511 + 64) / 64] = {0};
    if (mask > 511)
        return false;
    for (size_t x = 0; x < n; x++) {
        size_t h = (size_t)HC[cells[x]] & mask;
        if (taken[h >> 6] >> (h & 63) & 1)
            return false;
        taken[h >> 6] |= (uint64_t)1 << (h & 63);
    }
    is_init(obj);
    if (mask + 1 > ISET_INLINE)
        obj->t = xmalloc_((mask + 1) * sizeof *obj->t);
    memset(obj->t, 0xff, (mask + 1) * sizeof *obj->t);
    obj->mask = (uint32_t)mask;
    for (size_t x = 0; x < n; x++)
        obj->t[(size_t)HC[cells[x]] & mask] = cells[x];
    obj->fill = obj->used = (uint32_t)n;
    return true;
}

/* Rows indexable as grid[i][j] for j < w, or the error on the way. */
static bool o_rows(Ctx *cx, const Value *grid, size_t h, size_t w, Value **val)
{
    size_t bh, bw;
    const uint8_t *b = gu_bytes(grid, &bh, &bw);
    if (b) {
        for (size_t k = 0; k < h * w; k++)
            val[k] = v_small(b[k]);
        return true;
    }
    for (size_t i = 0; i < h; i++) {
        Value *r = v_titems(grid)[i];
        if (r->type != V_TUPLE) {
            cx_raise(cx, "TypeError", "'%s' object is not subscriptable", v_typename(r));
            return false;
        }
        if (r->u.tup.len < w) {
            cx_raise(cx, "IndexError", "tuple index out of range");
            return false;
        }
        if (w)
            memcpy(val + i * w, v_titems(r), w * sizeof *val);
    }
    return true;
}

/* Inlined into objwalk's loop; objlazy.c calls it through ow_replay. */
static inline __attribute__((always_inline)) void replay(OWalk *w, int32_t loc, Value *val,
                                                       unsigned vc, ISet *obj, Ctx *cx, VBuf *cl)
{
    OScan *s = w->s;
    uint64_t *HC = w->HC;
    int32_t *cells = w->cells;
    int nd = w->diagonal ? 8 : 4;
    ISet cands, nbhd;
    is_init(obj);
    if (!cl) {
        HC[loc] = ow_cell_hash(s, (size_t)loc);
        is_add(obj, HC, loc);
    }
    is_init(&cands);
    is_add(&cands, s->H, loc);
    while (cands.used > 0) {
        /* the layer's matches in cands' order: they decide the object's
         * order; the neighbourhood they span is merged after them (nothing
         * in between reads it) */
        size_t nm = 0;
        for (size_t slot = 0; slot <= cands.mask; slot++) {
            int32_t cand = cands.t[slot];
            if (cand < 0)
                continue;
            if (w->member ? !occ_has(w->member, cand)
                          : !o_joins(s, (size_t)cand, val, vc, w->univalued, w->bg))
                continue;
            if (cl)
                vb_push(cx, cl, v_incref(ow_cell(s, (size_t)cand)));
            else {
                HC[cand] = ow_cell_hash(s, (size_t)cand);
                is_add(obj, HC, cand);
            }
            occ_add(w->occupied, cand);
            cells[nm++] = cand;
        }
        is_free(&cands);
        if (nm <= DIRECT_TRY && cands_direct(s, cells, nm, w->occupied, w->stamp, ++w->layer, nd,
                                             w->keep, &cands))
            continue;
        is_init(&nbhd);
        for (size_t q = 0; q < nm; q++) {
            NbImg local;
            const NbImg *im = nb_img(s, w->imgs, w->imgs_h, w->imgs_w, &local, cells[q],
                                     w->diagonal, nd);
            is_merge_img(&nbhd, im, cells[q], s->w, s->H);
        }
        is_sub(&cands, &nbhd, w->occupied, s->H, w->keep);
        is_free(&nbhd);
    }
    is_free(&cands);
}

void ow_replay(OWalk *w, int32_t loc, Value *val, unsigned vc, ISet *obj, Ctx *cx, VBuf *cl)
{
    replay(w, loc, val, vc, obj, cx, cl);
}

Value *objwalk(Ctx *cx, Value *grid, bool univalued, bool diagonal, Value *bg, bool as_tuple,
                ObjCell cell)
{
    GView g;
    if (!gu_view_hw(cx, grid, &g))
        return NULL;
    gu_view_free(&g);
    if (g.h && g.w > SIZE_MAX / g.h / 64)
        return cx_raise(cx, "MemoryError", "grid too large");
    v_loc_hashes_make();
    OScan s = {.h = g.h, .w = g.w, .n = g.h * g.w, .make = cell};
    size_t n = s.n;
    Value *out = NULL;
    VBuf objl = {0}, cl = {0};
    int32_t *order = NULL, *keep = NULL, *ftab = NULL, *cells = NULL;
    uint32_t *stamp = NULL;
    bool stamped = false;
    uint64_t *HC = NULL;
    Occ occupied = {0}, claim = {0};
    /* the walk's arrays in one block, 8-byte ones first.  Only the cells
     * (made on demand) and the bitmaps start zeroed: the rest is written
     * before it is read, and zeroing all of it was 3% of test_batt. */
    size_t bitwords = n / 64 + 1;
    size_t words = 4 * n + 2 * bitwords;
    size_t halves = (n + 1) + n + (4 * n + 8) + (n + 1) + n + 2 * ((n + 3) / 4);
    uint64_t *block = malloc((words + (halves + 1) / 2) * sizeof(uint64_t));
    if (!block)
        cx_raise(cx, "MemoryError", "out of memory");
    if (block) {
        memset(block + n, 0, n * sizeof *block);
        memset(block + 4 * n, 0, 2 * bitwords * sizeof *block);
        s.val = (Value **)block;
        s.cell = (Value **)(block + n);
        s.H = block + 2 * n;
        HC = block + 3 * n;                     /* hash of each location's cell */
        occupied.bits = block + 4 * n;
        occupied.used = 0;
        claim.bits = block + 4 * n + bitwords;   /* the flood fills' cells */
        claim.used = 0;
        keep = (int32_t *)(block + words);      /* is_sub's survivors */
        order = keep + n + 1;
        ftab = order + n;                       /* obj_frozen's table */
        cells = ftab + 4 * n + 8;               /* flood's cells, a layer's matches */
        stamp = (uint32_t *)(cells + n + 1);    /* cands_direct's; zeroed at first use */
        s.inb = (uint8_t *)(stamp + n);
    }
    uint8_t *code = block ? s.inb + n : NULL;
    for (int d = 0; d < 8; d++)
        s.off[d] = ad_nb_di[d] * (int32_t)s.w + ad_nb_dj[d];
    bool small = s.h <= SHAPE_MAX && s.w <= SHAPE_MAX;
    bool hashed = s.h <= V_LOC_HASHED && s.w <= V_LOC_HASHED;
    if (block && !small && (s.nbx = gu_alloc(cx, n, sizeof *s.nbx)))
        memset(s.nbx, -1, n * sizeof *s.nbx);
    if (!block || (!small && !s.nbx) || !gu_work(cx, 16 * n) || !o_rows(cx, grid, s.h, s.w, s.val))
        goto done;
    /* rows of the tables: the inner rows' sides are row 1's */
    for (size_t i = 0; i < s.h; i++) {
        uint64_t *H = s.H + i * s.w;
        uint8_t *inb = s.inb + i * s.w;
        if (hashed)
            memcpy(H, v_loc_hashes_[i], s.w * sizeof *H);
        else
            for (size_t j = 0; j < s.w; j++)
                H[j] = ad_pair_hash((int64_t)i, (int64_t)j);
        if (i >= 2 && i + 1 < s.h)
            memcpy(inb, s.inb + s.w, s.w);
        else
            for (size_t j = 0; j < s.w; j++)
                inb[j] = ow_sides(i > 0, i + 1 < s.h, j > 0, j + 1 < s.w);
    }
    size_t bh, bw;
    const uint8_t *bytes = gu_bytes(grid, &bh, &bw);
    o_code(&s, code, bg, bytes && bh == s.h && bw == s.w ? bytes : NULL);
    /* asindices(grid): frozenset of the pairs in row-major order */
    const int32_t *cached = small ? ai_order(s.h, s.w, s.H) : NULL;
    if (cached) {
        memcpy(order, cached, n * sizeof *order);
    } else {
        ai_lay(n, s.H, order);
    }

    ISet obj, objs;             /* objs: the objects' indices in objl, as CPython's set of them */
    uint64_t *oh = NULL;        /* ... and their hashes */
    size_t ohcap = 0;
    is_init(&objs);
    OWalk w = {.s = &s, .imgs = ow_img_table(s.h, s.w, diagonal), .imgs_h = s.h, .imgs_w = s.w,
               .univalued = univalued,
               .diagonal = diagonal, .bg = bg, .member = as_tuple ? NULL : &claim,
               .occupied = &occupied, .HC = HC, .stamp = stamp, .cells = cells, .keep = keep};
    bool lazy = !as_tuple && small;
    for (size_t k = 0; k < n; k++) {
        int32_t loc = order[k];
        if (occ_has(&occupied, loc))
            continue;
        Value *val = s.val[loc];
        unsigned vc = s.code ? s.code[loc] : 0;
        if (s.code ? vc == s.bgcode : gu_eq(val, bg))
            continue;
        /* laid: the object's cells known without the replay.  objects_t
         * lists cells as the walk visits them: the start, then (for two
         * cells) the other, whatever the sets' layouts.  A frozenset's
         * flood finds all its cells: the replay then asks the flood which
         * locations join, and an object it leaves unlaid may wait to be
         * read (ow_lazy). */
        size_t nc = flood(&s, loc, val, vc, univalued, bg, diagonal, &claim, cells,
                          as_tuple ? 2 : n);
        bool laid = false;
        Value *fo = NULL;
        if (nc && as_tuple) {
            for (size_t x = 0; x < nc; x++)
                vb_push(cx, &cl, v_incref(ow_cell(&s, (size_t)cells[x])));
            laid = true;
        } else if (nc == 1) {
            HC[loc] = ow_cell_hash(&s, (size_t)loc);
            fo = obj_single(&s, loc, HC[loc]);
            laid = true;
        } else if (nc) {
            for (size_t x = 0; x < nc; x++)
                HC[cells[x]] = ow_cell_hash(&s, (size_t)cells[x]);
            laid = nc <= DIRECT_MAX && direct_layout(&obj, cells, nc, HC);
            if (!laid && lazy && (fo = ow_lazy(&s, grid, diagonal, cells, nc, &occupied, HC)))
                laid = true;
        }
        if (laid) {
            for (size_t x = 0; x < nc; x++)
                occ_add(&occupied, cells[x]);
        } else {
            if (!stamped)
                memset(stamp, 0, n * sizeof *stamp);
            stamped = true;
            replay(&w, loc, val, vc, &obj, cx, as_tuple ? &cl : NULL);
        }
        if (as_tuple) {
            Value *t = vb_tuple_reuse(cx, &cl);
            if (!t || !vb_push(cx, &objl, t))
                break;
        } else {
            if (!fo) {
                fo = obj_frozen(&s, &obj, HC, ftab);
                is_free(&obj);
            }
            if (objl.n == ohcap) {
                ohcap = ohcap ? 2 * ohcap : 64;
                if (!(oh = realloc(oh, ohcap * sizeof *oh)))
                    abort();
            }
            oh[objl.n] = (uint64_t)v_hash(fo);
            if (!vb_push(cx, &objl, fo))
                break;
            /* distinct: no two objects share a cell, so none is equal to another */
            is_add(&objs, oh, (int32_t)objl.n - 1);
        }
    }
    if (!cx->err)
        out = as_tuple ? vb_finish(cx, &objl, V_TUPLE) : objs_frozen(&objl, oh, &objs, ftab);
    is_free(&objs);
    free(oh);
done:
    vb_drop(&objl);
    vb_drop(&cl);
    if (s.cell && s.owned)
        for (size_t k = 0; k < n; k++)
            v_decref(s.cell[k]);
    free(block);
    free(s.nbx);
    return out;
}

