/* connects.c -- connect over many pairs of places at once: prapply's
 * and apply's over a product, each line made once. */
#include <stdlib.h>
#include <string.h>
#include "prim.h"
#include "arcdsl/patch_util.h"
#include "arcdsl/line.h"

/* The n items as places (row, column) into ij; false where one is not an
 * interned place. */
static bool places(Value *const *it, size_t n, int16_t *ij)
{
    for (size_t k = 0; k < n; k++) {
        int64_t i, j;
        if (v_interned_at(it[k], &i, &j) != 0)
            return false;
        ij[2 * k] = (int16_t)i;
        ij[2 * k + 1] = (int16_t)j;
    }
    return true;
}

/* A line key's slot in a table of mask + 1: its low bits are the length
 * and the direction, shared by many keys, so the product's high half is
 * folded in. */
static inline size_t key_slot(uint32_t key, size_t mask)
{
    uint32_t h = key * 0x9E3779B1u;
    return (h ^ h >> 16) & mask;
}

/* Line keys seen, each with an id (its result's index). */
typedef struct {
    uint32_t *key;
    int32_t *id;
    size_t mask, used;
} LineIds;

static bool ids_open(LineIds *t)
{
    t->mask = 1023;
    t->used = 0;
    t->key = calloc(t->mask + 1, sizeof *t->key);
    t->id = malloc((t->mask + 1) * sizeof *t->id);
    return t->key && t->id;
}

static void ids_close(LineIds *t)
{
    free(t->key);
    free(t->id);
}

/* key's id slot: -1 where key is new (then added); false out of memory */
static bool ids_slot(LineIds *t, uint32_t key, int32_t **slot)
{
    if (2 * (t->used + 1) > t->mask + 1) {
        size_t nmask = 2 * t->mask + 1;
        uint32_t *nk = calloc(nmask + 1, sizeof *nk);
        int32_t *ni = malloc((nmask + 1) * sizeof *ni);
        if (!nk || !ni) {
            free(nk);
            free(ni);
            return false;
        }
        for (size_t s = 0; s <= t->mask; s++)
            if (t->key[s]) {
                size_t h = key_slot(t->key[s], nmask);
                while (nk[h])
                    h = (h + 1) & nmask;
                nk[h] = t->key[s];
                ni[h] = t->id[s];
            }
        ids_close(t);
        t->key = nk;
        t->id = ni;
        t->mask = nmask;
    }
    size_t h = key_slot(key, t->mask);
    for (; t->key[h]; h = (h + 1) & t->mask)
        if (t->key[h] == key) {
            *slot = &t->id[h];
            return true;
        }
    t->key[h] = key;
    t->id[h] = -1;
    t->used++;
    *slot = &t->id[h];
    return true;
}

/* x's items by row, column, diagonal and anti-diagonal: bucket k's items
 * are at[off[k] .. off[k + 1]), in x's order.  Only the pairs sharing one
 * of the four make a line; every other pair gives the empty set. */
enum { AXIS_ROW, AXIS_COL, AXIS_DIAG, AXIS_ANTI, AXES };
#define AXIS_KEYS (2 * V_INTERN_SPAN)

typedef struct {
    int32_t off[AXES][AXIS_KEYS + 1];
    int32_t *at[AXES];
} Axes;

static inline int axis_key(int axis, int i, int j)
{
    i -= V_INTERN_MIN;
    j -= V_INTERN_MIN;
    return axis == AXIS_ROW ? i : axis == AXIS_COL ? j
         : axis == AXIS_DIAG ? i - j + V_INTERN_SPAN - 1 : i + j;
}

static bool axes_make(Axes *ax, const int16_t *ij, size_t n)
{
    memset(ax->off, 0, sizeof ax->off);
    if (!(ax->at[0] = malloc(AXES * (n ? n : 1) * sizeof(int32_t))))
        return false;
    for (int a = 0; a < AXES; a++) {
        ax->at[a] = ax->at[0] + a * n;
        for (size_t p = 0; p < n; p++)
            ax->off[a][axis_key(a, ij[2 * p], ij[2 * p + 1]) + 1]++;
        for (int k = 0; k < AXIS_KEYS; k++)
            ax->off[a][k + 1] += ax->off[a][k];
        int32_t fill[AXIS_KEYS];
        memcpy(fill, ax->off[a], sizeof fill);
        for (size_t p = 0; p < n; p++)
            ax->at[a][fill[axis_key(a, ij[2 * p], ij[2 * p + 1])]++] = (int32_t)p;
    }
    return true;
}

/* prapply(connect, x, y): frozenset(connect(a, b) for b in y for a in x)
 * when every item of x and y is an interned place.  Most pairs give the
 * empty set or a line another pair gave already (connect(a, b) is
 * connect(b, a)), so each line is made once, at its first pair, told
 * apart from the others by its canonical start, direction and length.
 * The set is ADD-ALL of the results in pair order; a result equal to an
 * earlier one changes nothing, so it is the distinct ones' layout.
 * Charged as the calls are: 1 a call, a line's length where it has one.
 * NULL, nothing raised, when an item is not an interned place. */
Value *ad_connect_all(Ctx *cx, Value *x, Value *y)
{
    size_t n = v_len(x), m = v_len(y);
    int16_t *ij = malloc((n + m) * 2 * sizeof *ij);
    if (!ij)
        return cx_raise(cx, "MemoryError", "out of memory");
    int16_t *xi = ij, *yi = ij + 2 * n;
    if (!places(v_items(x), n, xi) || !places(v_items(y), m, yi)) {
        free(ij);
        return NULL;
    }
    /* every pair's call, charged at once: a pair that makes no line costs
     * nothing more, so only the aligned pairs are visited */
    Axes ax;
    LineIds seen;
    VBuf b = {0};
    bool empty = false, opened = ids_open(&seen);
    bool ok = opened && axes_make(&ax, xi, n) && charge(cx, (uint64_t)n * m);
    for (size_t q = 0; ok && q < m; q++) {
        int bi = yi[2 * q], bj = yi[2 * q + 1];
        const int32_t *it[AXES], *end[AXES];
        for (int a = 0; a < AXES; a++) {
            int k = axis_key(a, bi, bj);
            it[a] = ax.at[a] + ax.off[a][k];
            end[a] = ax.at[a] + ax.off[a][k + 1];
        }
        /* the aligned items in x's order, once each (one at b's own place
         * is in all four); before the first unaligned one, the empty set */
        size_t expect = 0;
        for (;;) {
            int32_t p = INT32_MAX;
            for (int a = 0; a < AXES; a++)
                if (it[a] < end[a] && *it[a] < p)
                    p = *it[a];
            if (!empty && (size_t)p > expect && expect < n) {
                ok = vb_push(cx, &b, v_incref(&v_empty_fset_));
                empty = true;
            }
            if (p == INT32_MAX || !ok)
                break;
            for (int a = 0; a < AXES; a++)
                it[a] += it[a] < end[a] && *it[a] == p;
            expect = (size_t)p + 1;
            int64_t ai = xi[2 * p], aj = xi[2 * p + 1];
            Line l = {0};
            int32_t *id;
            line_of(ai, aj, bi, bj, &l);
            if (!(ok = ids_slot(&seen, line_key(&l), &id)))
                break;
            if (*id < 0) {
                Value *line = ad_connect_line(cx, v_items(v_items(x)[p]), ai, aj, bi, bj);
                ok = line && vb_push(cx, &b, line);
                *id = 0;
            } else {
                ok = charge(cx, (uint64_t)l.n);
            }
        }
    }
    if (opened)
        free(ax.at[0]);
    free(ij);
    ids_close(&seen);
    if (!ok) {
        vb_drop(&b);
        if (!cx->err)
            cx_raise(cx, "MemoryError", "out of memory");
        return NULL;
    }
    if (!core_work(cx, (uint64_t)n * m)) {      /* core_set_finish's charge */
        vb_drop(&b);
        return NULL;
    }
    return vb_take_distinct(&b);
}

/* The places (row, column) an argument of connect takes, for each of
 * its items: side 0 A's n, side 1 B's m (ij from n); false where one is
 * not an interned place. */
static bool pair_places(const ForkPairs *fp, int k, size_t m, int16_t *ij)
{
    const PairLeaf *l = &fp->leaf[k];
    size_t lo = l->side ? fp->n : 0, n = l->side ? m : fp->n;
    return places(l->val, n, ij + 2 * lo);
}

int ad_connect_pairs(Ctx *cx, const ForkPairs *fp, size_t len, int32_t *map, VBuf *mem)
{
    size_t n = fp->n, m = n ? len / n : 0, x = 0;
    int16_t *ij = malloc(4 * (n + m + 1) * sizeof *ij);
    int16_t *at[2] = {ij, ij + 2 * (n + m + 1)};
    if (!ij || !pair_places(fp, 0, m, at[0]) || !pair_places(fp, 1, m, at[1])) {
        free(ij);
        return ij ? 0 : -1;
    }
    LineIds ids;
    bool ok = ids_open(&ids);
    int32_t empty = -1;
    for (size_t jb = n; ok && jb < n + m; jb++)
        for (size_t i = 0; ok && i < n; i++, x++) {
            size_t s0 = fp->leaf[0].side ? jb : i, s1 = fp->leaf[1].side ? jb : i;
            int64_t ai = at[0][2 * s0], aj = at[0][2 * s0 + 1], bi = at[1][2 * s1], bj = at[1][2 * s1 + 1];
            Line l;
            uint32_t key = line_of(ai, aj, bi, bj, &l) ? line_key(&l) : 0;
            int32_t *id = &empty;
            if (!(ok = cx_charge(cx, fp->charge + 1) && (!key || ids_slot(&ids, key, &id))))
                break;
            if (*id < 0) {
                Value *r = key ? ad_connect_line(cx, v_items(ad_fork_pair_arg(fp, 0, i, jb)), ai, aj, bi, bj)
                               : v_incref(&v_empty_fset_);
                if (!(ok = r && vb_push(cx, mem, r)))
                    break;
                *id = (int32_t)mem->n - 1;
            } else if (key) {
                ok = charge(cx, (uint64_t)l.n);
            }
            map[x] = *id;
        }
    free(ij);
    ids_close(&ids);
    return ok ? 1 : -1;
}

