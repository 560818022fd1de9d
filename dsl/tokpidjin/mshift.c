/* mshift.c -- mapply_t(lbind(shift, P), offsets) without its images.
 *
 * merge_t(apply_t(...)) lays out one frozenset per offset, each P's
 * interned cells (or places) moved, only for merge_t to read each in its
 * order into one tuple.  The order of an image follows from its keys
 * alone (an ADD-ALL of P's distinct keys moved, fs_keys_laid), so here
 * each image's keys are laid out and appended straight into the tuple:
 * no image is made.  Only what shift's interned path takes comes here:
 * P all tokpidjin cells or all places, interned, and offsets pairs of
 * ints; anything else makes the calls.  An image that leaves the interned
 * span is laid out from its items' hashes, found by arithmetic, and only
 * its items are made.
 */
#include "prim.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"
#include "tokpidjin/core_util.h"

/* P's distinct keys in first-occurrence order into d (the keys its image
 * is added in), with their box; false where P is not all cells or all
 * places, interned. */
static bool distinct_keys(const Value *p, FsKeys *d, int64_t box[4])
{
    size_t n = v_len(p);
    Value *const *it = v_items(p);
    int64_t i, j;
    int at0 = v_interned_at(it[0], &i, &j);
    if (at0 != 0 && at0 < 11)
        return false;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    uint32_t *seen = calloc(cap, sizeof *seen);     /* key + 1; 0 empty */
    if (!seen || !fs_keys_reserve(d, n)) {
        free(seen);
        return false;
    }
    box[0] = box[1] = INT64_MAX;
    box[2] = box[3] = INT64_MIN;
    bool ok = true;
    for (size_t x = 0; ok && x < n; x++) {
        int at = v_interned_at(it[x], &i, &j);
        if (at0 == 0 ? at != 0 : at < 11) {
            ok = false;
            break;
        }
        uint32_t k = (uint32_t)fs_arena_key(it[x]);
        size_t s = (k * 0x9E3779B1u) & (cap - 1);
        while (seen[s] && seen[s] != k + 1)
            s = (s + 1) & (cap - 1);
        if (seen[s])
            continue;
        seen[s] = k + 1;
        d->k[d->n++] = k;
        if (i < box[0]) box[0] = i;
        if (j < box[1]) box[1] = j;
        if (i > box[2]) box[2] = i;
        if (j > box[3]) box[3] = j;
    }
    free(seen);
    return ok;
}

bool tk_mapply_shifts(Ctx *cx, Value *f, Value *c, Value **r)
{
    if (f->type != V_FUNC || f->u.fn.prim != PRIM_TK_lbind || f->u.fn.ncap != 2 ||
        f->u.fn.cap[0] != prim_value(PRIM_TK_shift) || !v_is_container(c) || v_len(c) == 0)
        return false;
    Value *p = f->u.fn.cap[1];
    if (!v_is_container(p) || v_len(p) == 0)
        return false;
    size_t m = v_len(c), n = v_len(p);
    Value *const *offs = v_items(c);
    const int64_t lo = V_INTERN_MIN, hi = V_INTERN_MIN + V_INTERN_SPAN - 1;
    FsKeys d = {0}, moved = {0}, laid = {0};
    int64_t box[4];
    bool ok = distinct_keys(p, &d, box) && fs_keys_reserve(&moved, d.n);
    for (size_t q = 0; ok && q < m; q++) {      /* the offsets, all checked first */
        const Value *o = offs[q];
        ok = o->type == V_TUPLE && !(o->flags & V_FLAGS_PY) && o->u.tup.len == 2 &&
             v_is_int(v_titems(o)[0]) && v_is_int(v_titems(o)[1]);
    }
    size_t mask = ok ? pyset_distinct_mask(d.n) : 0;
    int64_t *ij = ok ? malloc(2 * d.n * sizeof *ij) : NULL;   /* P's places, read once */
    int64_t *h = ok ? malloc(d.n * sizeof *h) : NULL;
    int32_t *slots = ok ? malloc((mask + 1) * sizeof *slots) : NULL;
    Value **items = ok ? malloc(m * d.n * sizeof *items) : NULL;
    ok = ok && ij && h && slots && items;
    for (size_t x = 0; ok && x < d.n; x++)
        v_intern_place(d.k[x] % FS_KEY_TABLE, &ij[2 * x], &ij[2 * x + 1]);
    size_t ni = 0;
    bool flat = true;
    for (size_t q = 0; ok && q < m; q++) {
        int64_t di = v_titems(offs[q])[0]->u.i, dj = v_titems(offs[q])[1]->u.i;
        if (di >= lo - box[0] && di <= hi - box[2] && dj >= lo - box[1] && dj <= hi - box[3]) {
            for (size_t x = 0; x < d.n; x++)
                moved.k[x] = fs_key_made(d.k[x] / FS_KEY_TABLE * FS_KEY_TABLE +
                                         (uint32_t)v_intern_index(ij[2 * x] + di, ij[2 * x + 1] + dj));
            laid.n = 0;
            if (!(ok = fs_keys_laid(moved.k, d.n, &laid)))
                break;
            for (size_t x = 0; x < laid.n; x++)
                items[ni++] = fs_key_value(laid.k[x]);
            continue;
        }
        /* past the span: the image's cells by their hashes, made in its order */
        flat = false;
        for (size_t x = 0; x < d.n; x++) {
            int64_t i = ij[2 * x] + di, j = ij[2 * x + 1] + dj, t = d.k[x] / FS_KEY_TABLE;
            h[x] = t == 0 ? py_hash_int_pair(i, j) : py_hash_int_triple(i, j, t - 11);
        }
        pyset_distinct_slots(slots, h, d.n);
        for (size_t s = 0; s <= mask; s++) {
            int32_t x = slots[s];
            if (x < 0)
                continue;
            int64_t i = ij[2 * x] + di, j = ij[2 * x + 1] + dj, t = d.k[x] / FS_KEY_TABLE;
            Value *cell = t == 0 ? v_pair_int(i, j) : v_cell3_interned(i, j, v_small(t - 11));
            items[ni++] = cell ? cell : v_triple_steal(v_int(i), v_int(j), v_small(t - 11));
        }
    }
    if (ok) {
        *r = NULL;
        /* what the calls charge: apply_t's and merge_t's calls, each
         * offset's call of the bind and of shift, shift's n images,
         * apply_t's m results, merge_t's items */
        if (cx_charge(cx, 2 + m * (n + 2)) && cx_charge(cx, m) && cx_charge(cx, ni)) {
            Value *t = v_tuple_new(ni);
            memcpy(v_titems(t), items, ni * sizeof *items);
            ni = 0;
            if (flat)
                v_mark_flat_known(t, true);
            *r = t;
        }
    }
    for (size_t x = 0; x < ni; x++)     /* made and not handed on */
        v_decref(items[x]);
    free(ij);
    free(h);
    free(slots);
    free(items);
    fs_keys_free(&d);
    fs_keys_free(&moved);
    fs_keys_free(&laid);
    return ok;
}
