/* mshift.c -- mapply_t(lbind(shift, P), offsets) without its images.
 *
 * merge_t(apply_t(...)) lays out one frozenset per offset, each P's
 * interned cells (or places) moved, only for merge_t to read each in its
 * order into one tuple.  The order of an image follows from its keys
 * alone (an ADD-ALL of P's distinct keys moved, fs_keys_laid), so here
 * each image's keys are laid out and appended straight into the tuple:
 * no image is made.  Only what shift's interned path takes comes here:
 * P all tokpidjin cells or all places, offsets pairs of ints, every
 * image inside the interned span; anything else makes the calls.
 */
#include "prim.h"
#include "fsrecipe.h"
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
    FsKeys d = {0}, moved = {0}, out = {0};
    int64_t box[4];
    bool ok = distinct_keys(p, &d, box) && fs_keys_reserve(&moved, d.n) &&
              fs_keys_reserve(&out, m * d.n);
    for (size_t q = 0; ok && q < m; q++) {      /* the offsets, all checked first */
        const Value *o = offs[q];
        ok = o->type == V_TUPLE && !(o->flags & V_FLAGS_PY) && o->u.tup.len == 2 &&
             v_is_int(v_titems(o)[0]) && v_is_int(v_titems(o)[1]);
        if (ok) {
            int64_t di = v_titems(o)[0]->u.i, dj = v_titems(o)[1]->u.i;
            ok = di >= lo - box[0] && di <= hi - box[2] && dj >= lo - box[1] && dj <= hi - box[3];
        }
    }
    int64_t *ij = ok ? malloc(2 * d.n * sizeof *ij) : NULL;   /* P's places, read once */
    ok = ok && ij;
    for (size_t x = 0; ok && x < d.n; x++)
        v_intern_place(d.k[x] % FS_KEY_TABLE, &ij[2 * x], &ij[2 * x + 1]);
    for (size_t q = 0; ok && q < m; q++) {
        int64_t di = v_titems(offs[q])[0]->u.i, dj = v_titems(offs[q])[1]->u.i;
        for (size_t x = 0; x < d.n; x++)
            moved.k[x] = fs_key_made(d.k[x] / FS_KEY_TABLE * FS_KEY_TABLE +
                                     (uint32_t)v_intern_index(ij[2 * x] + di, ij[2 * x + 1] + dj));
        ok = fs_keys_laid(moved.k, d.n, &out);
    }
    free(ij);
    if (ok) {
        *r = NULL;
        /* what the calls charge: apply_t's and merge_t's calls, each
         * offset's call of the bind and of shift, shift's n images,
         * apply_t's m results, merge_t's items */
        if (cx_charge(cx, 2 + m * (n + 2)) && cx_charge(cx, m) && cx_charge(cx, out.n)) {
            Value *t = v_tuple_new(out.n);
            for (size_t x = 0; x < out.n; x++)
                v_titems(t)[x] = fs_key_value(out.k[x]);
            v_mark_flat_known(t, true);
            *r = t;
        }
    }
    fs_keys_free(&d);
    fs_keys_free(&moved);
    fs_keys_free(&out);
    return ok;
}
