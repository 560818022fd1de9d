/* anyorder.c -- unbuilt sets read in no order (anyorder.h). */
#include "prim.h"
#include "fsrecipe.h"
#include "fsfar.h"
#include "common/anyorder.h"
#include "common/rings.h"

#define PLACES FS_KEY_TABLE

/* The keys of an unbuilt set that lists them, all in one class: places
 * or arc-dsl cells (*cells), in v's order or none: true, or false with
 * nothing held. */
static bool keys_of(const Value *v, FsKeys *o, bool *cells, bool ordered)
{
    if (v->type != V_FSET ||
        !(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT) ||
        !fs_recipe_head(v)->kind->keys || v->u.set.len == 0)
        return false;
    if (!(ordered ? fs_ordered_keys(v, o) : fs_arena_keys(v, o)))
        return false;
    bool place = false, cell = false;
    for (size_t x = 0; x < o->n; x++) {
        place |= o->k[x] < PLACES;
        cell |= o->k[x] >= PLACES && o->k[x] < FS_KEY_ARCDSL * PLACES;
        if (o->k[x] >= FS_KEY_ARCDSL * PLACES)
            place = cell = true;
    }
    if (place == cell) {
        fs_keys_free(o);
        return false;
    }
    *cells = cell;
    return true;
}

int ao_locs(Ctx *cx, const Value *patch, GLoc **out, size_t *n)
{
    int rings = cm_rings_locs(cx, patch, out, n);     /* anywhere, from the corners */
    if (rings)
        return rings;
    FsKeys o = {0};
    bool cells;
    if (!keys_of(patch, &o, &cells, false))
        return 0;
    GLoc *l = gu_alloc_raw(cx, o.n, sizeof *l);
    if (!l) {
        fs_keys_free(&o);
        return -1;
    }
    for (size_t x = 0; x < o.n; x++)
        v_intern_place(o.k[x] % PLACES, &l[x].i, &l[x].j);
    *out = l;
    *n = o.n;
    fs_keys_free(&o);
    return 1;
}

int ao_cells(Ctx *cx, const Value *obj, GCell **out, size_t *n, bool ordered)
{
    FsKeys o = {0};
    bool cells;
    if (!keys_of(obj, &o, &cells, ordered))
        return 0;
    if (!cells) {
        fs_keys_free(&o);
        return 0;
    }
    GCell *c = gu_alloc_raw(cx, o.n, sizeof *c);
    if (!c) {
        fs_keys_free(&o);
        return -1;
    }
    for (size_t x = 0; x < o.n; x++) {
        c[x].c = v_small(o.k[x] / PLACES - 1);
        v_intern_place(o.k[x] % PLACES, &c[x].i, &c[x].j);
    }
    *out = c;
    *n = o.n;
    fs_keys_free(&o);
    return 1;
}

/* The codes of far set v inside h x w (malloc'd, *n of them), or NULL
 * with the exception raised. */
static uint64_t *far_in(Ctx *cx, const Value *v, size_t h, size_t w, size_t *n)
{
    uint64_t *k = gu_alloc_raw(cx, v_len(v), sizeof *k);
    if (k)
        *n = fs_far_in(v, (int64_t)h, (int64_t)w, k);
    return k;
}

int ao_locs_in(Ctx *cx, const Value *patch, size_t h, size_t w, GLoc **out, size_t *n)
{
    if (!fs_far_unbuilt(patch))
        return ao_locs(cx, patch, out, n);
    uint64_t *k = far_in(cx, patch, h, w, n);
    GLoc *l = k ? gu_alloc_raw(cx, *n ? *n : 1, sizeof *l) : NULL;
    if (l)
        for (size_t x = 0; x < *n; x++)
            l[x] = (GLoc){fs_far_i(k[x]), fs_far_j(k[x])};
    free(k);
    *out = l;
    return l ? 1 : -1;
}

int ao_cells_in(Ctx *cx, const Value *obj, size_t h, size_t w, GCell **out, size_t *n)
{
    if (!fs_far_unbuilt(obj))
        return ao_cells(cx, obj, out, n, false);
    if (!fs_far_cells(obj))
        return 0;
    uint64_t *k = far_in(cx, obj, h, w, n);
    GCell *c = k ? gu_alloc_raw(cx, *n ? *n : 1, sizeof *c) : NULL;
    if (c)
        for (size_t x = 0; x < *n; x++)
            c[x] = (GCell){v_small((int64_t)fs_far_table(k[x]) - 1), fs_far_i(k[x]), fs_far_j(k[x])};
    free(k);
    *out = c;
    return c ? 1 : -1;
}

bool ao_clash(const GCell *c, size_t n, size_t h, size_t w)
{
    uint8_t small[1024], *at = h * w <= sizeof small ? small : calloc(h * w, 1);
    if (!at)
        return true;            /* the ordered read decides */
    if (at == small)
        memset(small, 0, h * w);
    bool clash = false;
    for (size_t x = 0; x < n && !clash; x++) {
        if (c[x].i < 0 || (uint64_t)c[x].i >= h || c[x].j < 0 || (uint64_t)c[x].j >= w)
            continue;
        uint8_t *p = &at[(size_t)c[x].i * w + (size_t)c[x].j];
        uint8_t col = (uint8_t)(c[x].c->u.i + 1);
        clash = *p && *p != col;
        *p = col;
    }
    if (at != small)
        free(at);
    return clash;
}
