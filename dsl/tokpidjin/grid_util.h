/* grid_util.h -- helpers private to tokpidjin/grid.c: the inner DSL calls
 * the tokpidjin bodies make (toindices, ulcorner, mostcolor_t ...), each
 * with the safe wrapper's error -> default behaviour built in, and colour
 * collection for (i, j, color) cells.
 *
 * Builds on common/grid_util.h (gu_*).  Everything borrows unless it says
 * it returns a new reference.
 */
#ifndef TK_GRID_UTIL_H
#define TK_GRID_UTIL_H

#include <math.h>

#include "common/colours.h"
#include "common/mgrid.h"

/* math.nan: one object, so `is`-based membership (list.count, set keys)
 * treats every nan the reference returns as the same value. */
#define tk_nan_ v_nan_   /* the one math.nan (value.c) */

/* The safe wrapper caught an Exception raised by an inner call: clear it
 * so the caller goes on with the default.  A spent budget is not caught. */
static inline bool tk_catch(Ctx *cx)
{
    if (cx->over_budget)
        return false;
    cx_clear(cx);
    return true;
}

/* hasattr(v, '__len__') among DSL values */
static inline bool tk_has_len(const Value *v)
{
    return v_is_container(v) || v->type == V_STR;
}

/* An int coordinate the bodies do arithmetic on.  Floats and others are
 * refused (TypeError): cells hold ints in every program seen. */
static inline bool tk_coord(Ctx *cx, const Value *v, int64_t *out)
{
    if (v_is_int(v)) {
        *out = v->u.i;
        return true;
    }
    cx_raise(cx, "TypeError", "unsupported coordinate of type '%s'", v_typename(v));
    return false;
}

/* Unpack an element as exactly k items (`i, j = e` / `i, j, c = e`). */
static inline Value **tk_unpack(Ctx *cx, const Value *e, size_t k)
{
    if (!v_is_container(e)) {
        cx_raise(cx, "TypeError", "cannot unpack non-iterable %s object", v_typename(e));
        return NULL;
    }
    size_t n = v_len(e);
    if (n != k) {
        cx_raise(cx, "ValueError", n > k ? "too many values to unpack (expected %zu)"
                                         : "not enough values to unpack (expected %zu)", k);
        return NULL;
    }
    return v_items(e);
}

/* The items of e when it is an interned place (k == 2) or tokpidjin cell
 * (k == 3), told from its address (value.h): sets of cells lie scattered,
 * and loading each to unpack it was most of a pass over them. */
static inline bool tk_interned_items(const Value *e, size_t k, Value *out[3])
{
    int64_t i, j;
    int at = v_interned_at(e, &i, &j);
    if (k == 2 ? at != 0 : at < 11)
        return false;
    out[0] = v_small(i);
    out[1] = v_small(j);
    if (k == 3)
        out[2] = v_small(at - 11);
    return true;
}

/* ---- toindices -----------------------------------------------------------
 * What `for i, j in toindices(patch)` sees: pairs of (i, j) values.
 * toindices returns frozenset() for a patch without len, an empty one, one
 * whose first element has no len, or triples that fail to unpack; pairs
 * from (i, j, _) triples when the first element has 3 items; else the
 * patch itself, whose elements the consumer then unpacks as 2 (an error
 * there is the consumer's: false with the exception raised).  *ij gets
 * 2 * n borrowed values (malloc'd; NULL when n == 0). */
static inline bool tk_patch_indices(Ctx *cx, const Value *patch, Value ***ij, size_t *n)
{
    *ij = NULL;
    *n = 0;
    if (!v_is_container(patch) || v_len(patch) == 0)
        return true;
    Value **it = v_items(patch);
    size_t len = v_len(patch);
    if (!tk_has_len(it[0]))
        return true;
    bool triples = v_is_container(it[0]) && v_len(it[0]) == 3;
    Value *known[3];
    if (triples)
        for (size_t k = 0; k < len; k++)
            if (!tk_interned_items(it[k], 3, known) && (!v_is_container(it[k]) || v_len(it[k]) != 3))
                return true;          /* toindices raised: frozenset() */
    Value **out = gu_alloc(cx, 2 * len, sizeof *out);
    if (!out)
        return false;
    for (size_t k = 0; k < len; k++) {
        Value **e = tk_interned_items(it[k], triples ? 3 : 2, known) ? known
                  : triples ? v_items(it[k]) : tk_unpack(cx, it[k], 2);
        if (!e) {
            free(out);
            return false;
        }
        out[2 * k] = e[0];
        out[2 * k + 1] = e[1];
    }
    *ij = out;
    *n = len;
    return true;
}

/* ---- corners ---------------------------------------------------------------
 * ulcorner / lrcorner: tuple(map(min|max, zip(*toindices(patch)))), with
 * the wrapper: () on any error.  New reference. */
static inline Value *tk_patch_corner(Ctx *cx, Value *patch, bool max)
{
    if (!v_is_container(patch) || v_len(patch) == 0)
        return v_tuple_new(0);
    Value **it = v_items(patch);
    size_t len = v_len(patch);
    if (!tk_has_len(it[0]))
        return v_tuple_new(0);
    bool triples = v_is_container(it[0]) && v_len(it[0]) == 3;
    size_t m = 2;
    for (size_t k = 0; k < len; k++) {
        if (triples) {
            if (!v_is_container(it[k]) || v_len(it[k]) != 3)
                return v_tuple_new(0);       /* toindices failed */
        } else if (!v_is_container(it[k])) {
            return v_tuple_new(0);           /* zip(*patch): not iterable */
        } else if (k == 0 || v_len(it[k]) < m) {
            m = v_len(it[k]);
        }
    }
    Value *out = v_tuple_new(m);
    for (size_t c = 0; c < m; c++) {
        Value *best = v_items(it[0])[c];
        for (size_t k = 1; k < len; k++) {
            Value *x = v_items(it[k])[c];
            int r;
            if (v_is_int(x) && v_is_int(best))
                r = max ? x->u.i > best->u.i : x->u.i < best->u.i;
            else if ((r = v_richcmp(cx, x, best, max ? CMP_GT : CMP_LT)) < 0) {
                v_tuple_abandon(out, c);
                tk_catch(cx);
                return cx->err ? NULL : v_tuple_new(0);
            }
            if (r)
                best = x;
        }
        v_titems(out)[c] = v_incref(best);
    }
    return out;
}

/* ---- colours -------------------------------------------------------------
 * The colour list a body builds: rows = `[v for r in grid for v in r]`,
 * else `[c for _, _, c in obj]`. */
static inline bool tk_colors(Ctx *cx, const Value *e, bool rows, GColors *k)
{
    memset(k, 0, sizeof *k);
    if (!gu_iterable(cx, e))
        return false;
    int done = rows && e->type == V_TUPLE ? gu_colors_rows(cx, e, k) : 0;
    if (done)
        return done > 0 ? true : (gu_colors_free(k), false);
    Value **it = v_items(e);
    for (size_t x = 0, n = v_len(e); x < n; x++) {
        if (rows) {
            if (!gu_iterable(cx, it[x]))
                goto fail;
            Value **r = v_items(it[x]);
            for (size_t j = 0, w = v_len(it[x]); j < w; j++)
                if (!gu_colors_add(cx, k, r[j]))
                    goto fail;
        } else {
            Value *known[3], **c = tk_interned_items(it[x], 3, known) ? known
                                 : tk_unpack(cx, it[x], 3);
            if (!c || !gu_colors_add(cx, k, c[2]))
                goto fail;
        }
    }
    return true;
fail:
    gu_colors_free(k);
    return false;
}

/* max/min(set(values), key=values.count) over collected colours: the
 * first extreme in set order; nan for no values.  Borrowed. */
static inline Value *tk_extreme(GColors *k, bool most)
{
    return k->n == 0 ? &tk_nan_ : gu_colors_pick(k, most);
}

/* mostcolor_t(grid) as an inner call: nan when empty, 0 on error.
 * Borrowed (or NULL when the budget ran out). */
static inline Value *tk_mostcolor_inner(Ctx *cx, const Value *grid)
{
    GColors k;
    if (!tk_colors(cx, grid, true, &k))
        return tk_catch(cx) ? v_int(0) : NULL;
    Value *r = tk_extreme(&k, true);
    gu_colors_free(&k);
    return r;
}

/* `type == k` for the small selector constants; -1 matches none */
static inline int selector(const Value *t)
{
    int k = gu_byte_equal_to(t);
    return k < 16 ? k : -1;
}

/* height_f / width_f of a patch as inner calls (0 on error), int coords */
static inline int64_t extent(Ctx *cx, Value *patch, int axis)
{
    if (!tk_has_len(patch) || v_len(patch) == 0)
        return 0;
    Value **ij;
    size_t n;
    if (!tk_patch_indices(cx, patch, &ij, &n)) {
        tk_catch(cx);
        return 1;                  /* 0 - 0 + 1 */
    }
    int64_t lo = 0, hi = 0;
    for (size_t k = 0; k < n; k++) {
        Value *v = ij[2 * k + axis];
        if (!v_is_int(v)) {
            /* tuples: min/max work, the subtraction fails (0); mixed
             * values: lowermost and uppermost fail (0 - 0 + 1) */
            bool tuples = true;
            for (size_t x = 0; x < n; x++)
                tuples = tuples && ij[2 * x + axis]->type == V_TUPLE;
            free(ij);
            return tuples ? 0 : 1;
        }
        if (k == 0 || v->u.i < lo) lo = v->u.i;
        if (k == 0 || v->u.i > hi) hi = v->u.i;
    }
    free(ij);
    /* past 64 bits held at INT64_MAX: its callers only set it against a
     * grid's sides, which it passes either way */
    if (n && !gu_span_fits(lo, hi))
        return INT64_MAX;
    return n ? hi - lo + 1 : 1;
}

/* frozenset(colours) (ADD-ALL: the distinct values in first-seen order
 * give the same table), or, as_tuple, tuple({set comprehension}). */
static inline Value *colors_set(Ctx *cx, Value *e, bool rows, bool as_tuple)
{
    GColors k;
    if (!tk_colors(cx, e, rows, &k))
        return NULL;
    Value *fs = fs_from_items(k.v, k.n);
    gu_colors_free(&k);
    if (!as_tuple)
        return fs;
    Value *t = v_tuple_from(v_items(fs), v_len(fs));
    v_decref(fs);
    return t;
}


#endif
