/* neighbours.c -- hash((i, j)) and the iteration order of the tiny
 * dneighbors/neighbors frozensets, computed from the hashes instead of
 * built: objects() of both dialects (common/objwalk.c) and the GPU's
 * objects path (gpu/gpu_objects.c) walk them in this order.  Then the
 * sets themselves, both dialects', made once per place of small ints.
 */
#include <string.h>

#include "pyprobe.h"
#include "pyset.h"
#include "common/neighbours.h"

/* ---- neighbour order -----------------------------------------------------
 * dneighbors(loc) is a 4-item set copied verbatim into an 8-slot frozenset;
 * neighbors(loc) = dneighbors | ineighbors: the copy grows to 32 slots
 * before the ineighbors are added.  All keys are distinct and there are no
 * dummies, so every insert just takes the first empty slot on its probe
 * path (cpython-set-order.md §2.2, §3). */

uint64_t ad_pair_hash(int64_t a, int64_t b)
{
    return (uint64_t)py_hash_int_pair(a, b);
}

static void slot_insert(int8_t *tab, size_t mask, uint64_t h, int8_t key)
{
    PY_PROBE(size_t, mask, h, {
        if (tab[j] < 0) {
            tab[j] = key;
            return;
        }
    });
}

const int8_t ad_nb_di[8] = {-1, 1, 0, 0, -1, -1, 1, 1};
const int8_t ad_nb_dj[8] = {0, 0, -1, 1, -1, 1, -1, 1};

/* Iteration order of dneighbors((i, j)) (4) or neighbors((i, j)) (8), as
 * indices into ad_nb_di/ad_nb_dj. */
int ad_nb_order(int64_t i, int64_t j, bool diag, int8_t out[8])
{
    uint64_t h[8];
    int8_t d[8], e[8], t[32];
    int n = diag ? 8 : 4, o = 0;
    for (int k = 0; k < n; k++)
        h[k] = ad_pair_hash(i + ad_nb_di[k], j + ad_nb_dj[k]);
    memset(d, -1, sizeof d);
    for (int k = 0; k < 4; k++)
        slot_insert(d, 7, h[k], (int8_t)k);
    if (!diag) {
        for (int s = 0; s < 8; s++)
            if (d[s] >= 0)
                out[o++] = d[s];
        return 4;
    }
    memset(e, -1, sizeof e);
    for (int k = 4; k < 8; k++)
        slot_insert(e, 7, h[k], (int8_t)k);
    memset(t, -1, sizeof t);
    for (int s = 0; s < 8; s++)
        if (d[s] >= 0)
            slot_insert(t, 31, h[d[s]], d[s]);
    for (int s = 0; s < 8; s++)
        if (e[s] >= 0)
            slot_insert(t, 31, h[e[s]], e[s]);
    for (int s = 0; s < 32; s++)
        if (t[s] >= 0)
            out[o++] = t[s];
    return 8;
}

/* ---- the built sets ------------------------------------------------------- */

Value *ad_nb_set4(Value *p[4])
{
    PySet s;
    pyset_init(&s);
    for (int k = 0; k < 4; k++) {
        pyset_add(&s, p[k]);
        v_decref(p[k]);
    }
    Value *r = pyset_to_frozenset(&s);
    pyset_clear(&s);
    return r;
}

/* ---- neighbourhoods made once ------------------------------------------- */

#define NB_MIN (-2)
#define NB_SPAN 64
static Value *nb_made[AD_NB_ALL + 1][NB_SPAN * NB_SPAN];
_Static_assert(NB_MIN >= V_INTERN_MIN && NB_MIN + NB_SPAN <= V_INTERN_MIN + V_INTERN_SPAN,
               "a kept neighbourhood holds interned places only");

Value **ad_nb_kept(const Value *loc, int kind)
{
    int64_t i, j;
    if (loc->type != V_TUPLE || loc->u.tup.len != 2 || !v_small_of(v_titems(loc)[0], &i) ||
        !v_small_of(v_titems(loc)[1], &j))
        return NULL;
    if ((uint64_t)(i - NB_MIN - 1) >= NB_SPAN - 2 || (uint64_t)(j - NB_MIN - 1) >= NB_SPAN - 2)
        return NULL;
    return &nb_made[kind][(i - NB_MIN) * NB_SPAN + (j - NB_MIN)];
}

Value *cm_nbrs4(Ctx *cx, Value *loc, int first, NbPlus plus)
{
    Value **slot = ad_nb_kept(loc, first ? AD_NB_I : AD_NB_D), *r;
    if (slot && (r = fs_kept(slot)))
        return r;
    Value **ij = v_titems(loc), *c[4][2] = { { NULL } };
    for (int k = 0; k < 4; k++)
        for (int x = 0; x < 2; x++) {
            int d = (x ? ad_nb_dj : ad_nb_di)[first + k];
            if (!(c[k][x] = d ? plus(cx, ij[x], d) : v_incref(ij[x]))) {
                for (int m = 0; m < 8; m++)
                    v_decref(c[m / 2][m % 2]);
                return NULL;
            }
        }
    Value *p[4];
    for (int k = 0; k < 4; k++)
        p[k] = v_pair_steal(c[k][0], c[k][1]);
    r = ad_nb_set4(p);
    if (slot)
        fs_keep(slot, r);
    return r;
}

Value *cm_neighbors(Ctx *cx, Value *loc, NbHalf half, bool charge)
{
    Value **slot = ad_nb_kept(loc, AD_NB_ALL), *r;
    if (slot && (r = fs_kept(slot))) {
        if (!charge || (cx_charge(cx, 4) && cx_charge(cx, 4)))
            return r;
        v_decref(r);
        return NULL;
    }
    Value *d = half(cx, loc, 0), *i = d ? half(cx, loc, 4) : NULL;
    r = i ? fs_or(d, i) : NULL;
    v_decref(d);
    v_decref(i);
    if (r && slot)
        fs_keep(slot, r);
    return r;
}
