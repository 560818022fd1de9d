/* fsline.c -- lines of locations or cells built when read (fsline.h). */
#include "fsline.h"
#include "fsdistinct.h"
#include "fsrecipe.h"
#include "pyprobe.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* The points (i0 + k * di, j0 + k * dj); a coloured line's head holds its
 * colour (src[0]). */
typedef struct {
    FsRecipeHead h;
    int64_t i0, j0;
    int32_t di, dj;
} Tail;

static inline Tail *tail_of(const Value *v)
{
    return fs_extra(v);
}

/* A line is its Value and Tail until read: the arrays come with the
 * build, in a table of their own. */
static size_t line_size(const Value *v)
{
    (void)v;
    return sizeof(Value) + sizeof(Tail);
}

/* The scratch's n items released, and its arrays. */
static void scratch_close(FsScratch *s, size_t n)
{
    for (size_t k = 0; k < n; k++)
        v_decref(s->v[k]);
    fs_scratch_close(s);
}

/* The points in the order connect's generator yields them, and hashes. */
static void points(const Tail *t, size_t n, FsScratch *s)
{
    int64_t i = t->i0, j = t->j0;
    for (size_t k = 0; k < n; k++, i += t->di, j += t->dj) {
        s->v[k] = v_pair_int(i, j);
        s->h[k] = py_hash_int_pair(i, j);
        v_hash_known(s->v[k], s->h[k]);
    }
}

static void line_build(Value *v)
{
    size_t n = v->u.set.len;
    FsScratch s;
    fs_scratch_open(&s, n);
    points(tail_of(v), n, &s);
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, v->u.set.mask, s.v, s.h, n);
    scratch_close(&s, n);
}

/* Same length (v_eq checked it) and canonical forms: same points. */
static bool line_eq(const Value *a, const Value *b)
{
    const Tail *x = tail_of(a), *y = tail_of(b);
    return x->i0 == y->i0 && x->j0 == y->j0 && x->di == y->di && x->dj == y->dj;
}

/* The points' keys in table `table`, for a flat line. */
static bool line_keys_in(const Value *v, int table, FsKeys *o)
{
    const Tail *t = tail_of(v);
    size_t n = v->u.set.len;
    if (!(v->flags & V_FLAG_FLAT) || !fs_keys_reserve(o, n))
        return false;
    uint32_t base = (uint32_t)table * FS_KEY_TABLE;
    int64_t i = t->i0, j = t->j0;
    for (size_t k = 0; k < n; k++, i += t->di, j += t->dj)
        o->k[o->n++] = base + (uint32_t)v_intern_index(i, j);
    return true;
}

static bool line_keys(const Value *v, FsKeys *o) { return line_keys_in(v, 0, o); }

/* A flat line's places in its order; recoloured into `table` (> 0), the
 * cells in the coloured line's order, which recolor's walk of that gives. */
static bool line_ordered_in(const Value *v, int table, FsKeys *o)
{
    FsKeys pts = {0}, laid = {0};
    bool ok = line_keys_in(v, 0, &pts) && fs_keys_laid(pts.k, pts.n, table ? &laid : o);
    if (ok && table) {
        for (size_t x = 0; x < laid.n; x++)
            laid.k[x] += (uint32_t)table * FS_KEY_TABLE;
        ok = fs_keys_laid(laid.k, laid.n, o);
    }
    fs_keys_free(&pts);
    fs_keys_free(&laid);
    return ok;
}

static bool line_ordered(const Value *v, FsKeys *o) { return line_ordered_in(v, 0, o); }

static const FsRecipe coloured_kind;
static const FsRecipe line_kind = {line_build, line_size, line_eq, fs_table_free, line_keys,
                                   line_ordered, NULL, false, false, NULL};

bool fs_line_exact(const Value *v)
{
    const FsRecipe *k = fs_recipe_head(v)->kind;
    return k == &line_kind || k == &coloured_kind;
}

bool fs_is_line(const Value *v)
{
    return v->type == V_FSET && (v_memo(v) & V_MEMO_RECIPE) && fs_recipe_head(v)->kind == &line_kind;
}

/* recolor iterates the line: its cells go in in the line's table order,
 * which the points' layout gives without building the line itself. */
static void coloured_build(Value *v)
{
    const Tail *t = tail_of(v);
    Value *c = t->h.src[0];
    size_t n = v->u.set.len, mask = v->u.set.mask;
    FsScratch p, s;
    fs_scratch_open(&p, n);
    fs_scratch_open(&s, n);
    points(t, n, &p);
    int32_t small[256], *slots = mask < 256 ? small : malloc((mask + 1) * sizeof *slots);
    if (!slots)
        abort();
    pyset_distinct_slots(slots, p.h, n);
    int64_t hc = v_hash(c);
    size_t m = 0;
    for (size_t x = 0; x <= mask; x++) {
        int32_t k = slots[x];
        if (k < 0)
            continue;
        s.v[m] = v_pair_steal(v_incref(c), v_incref(p.v[k]));
        s.h[m] = py_hash_pair(hc, p.h[k]);
        v_hash_known(s.v[m], s.h[m]);
        m++;
    }
    if (slots != small)
        free(slots);
    FsLayout lay = fs_table_alloc(v);
    fs_fill_distinct(&lay, mask, s.v, s.h, n);
    scratch_close(&s, n);
    scratch_close(&p, n);
}

static bool coloured_eq(const Value *a, const Value *b)
{
    return line_eq(a, b) && v_eq(tail_of(a)->h.src[0], tail_of(b)->h.src[0]);
}

/* A flat coloured line's cells' table: its colour is 0..9, the table
 * colour + 1 */
static int colour_table(const Value *v)
{
    return (int)tail_of(v)->h.src[0]->u.i + 1;
}

static bool coloured_keys(const Value *v, FsKeys *o)
{
    return line_keys_in(v, colour_table(v), o);
}

static bool coloured_ordered(const Value *v, FsKeys *o)
{
    return line_ordered_in(v, colour_table(v), o);
}

static const FsRecipe coloured_kind = {coloured_build, line_size, coloured_eq, fs_table_free,
                                       coloured_keys, coloured_ordered, NULL, false, false, NULL};

int fs_line_keys_marked(const Value *v, const uint64_t *bits)
{
    const FsRecipe *kind = fs_recipe_head(v)->kind;
    if ((kind != &line_kind && kind != &coloured_kind) || !(v->flags & V_FLAG_FLAT))
        return -1;
    const Tail *t = tail_of(v);
    uint32_t base = kind == &line_kind ? 0 : (uint32_t)colour_table(v) * FS_KEY_TABLE;
    int64_t i = t->i0, j = t->j0;
    for (size_t k = 0, n = v->u.set.len; k < n; k++, i += t->di, j += t->dj) {
        uint32_t key = base + (uint32_t)v_intern_index(i, j);
        if (!(bits[key >> 6] >> (key & 63) & 1))
            return 0;
    }
    return 1;
}

/* XOR prefixes of the shuffled hashes of the places of the square
 * 0..PRE_SPAN-1 along its rows, columns and both diagonals: a line of
 * places there has its hash's first part in two loads, where connect's
 * many lines over one grid would hash each point of each again.  The
 * places' tables are made on first use; a colour's (for its cells
 * (c, place), recolor's lines) once that colour's lines have hashed
 * PRE_COLOUR_AFTER points one by one, so that a short run never makes
 * tables it would not repay. */
#define PRE_SPAN 64
#define PRE_COLOUR_AFTER 16384
typedef struct {
    uint64_t row[PRE_SPAN][PRE_SPAN + 1], col[PRE_SPAN][PRE_SPAN + 1];
    uint64_t diag[PRE_SPAN + 1][PRE_SPAN + 1];
    uint64_t anti[PRE_SPAN + 1][PRE_SPAN + 2];  /* column j at j + 1 */
} PreXor;

static PreXor pre_places;
static pthread_once_t pre_once = PTHREAD_ONCE_INIT;
static _Atomic(PreXor *) pre_colour[10];
static _Atomic uint64_t pre_colour_points[10];

/* p's prefixes (p zeroed) of the places' hashes, each paired with colour
 * hash hc first where c (else the places' own) */
static void pre_fill_of(PreXor *p, bool c, int64_t hc)
{
    v_loc_hashes_make();
#define S(i, j) py_fset_shuffle((uint64_t)(c ? py_hash_pair(hc, v_loc_hashes_[i][j]) \
                                                  : v_loc_hashes_[i][j]))
    for (int i = 0; i < PRE_SPAN; i++)
        for (int j = 0; j < PRE_SPAN; j++) {
            p->row[i][j + 1] = p->row[i][j] ^ S(i, j);
            p->col[j][i + 1] = p->col[j][i] ^ S(i, j);
        }
    for (int i = 1; i <= PRE_SPAN; i++) {
        for (int j = 1; j <= PRE_SPAN; j++)
            p->diag[i][j] = p->diag[i - 1][j - 1] ^ S(i - 1, j - 1);
        for (int j = -1; j + 1 < PRE_SPAN; j++)     /* (i - 1, j + 1) is a place */
            p->anti[i][j + 1] = p->anti[i - 1][j + 2] ^ S(i - 1, j + 1);
    }
#undef S
}

static void pre_fill(void)
{
    pre_fill_of(&pre_places, false, 0);
}

/* Colour c's tables, or NULL while its lines are few; n: the points of
 * the line asking. */
static const PreXor *pre_of_colour(int64_t c, size_t n)
{
    PreXor *p = atomic_load_explicit(&pre_colour[c], memory_order_acquire);
    if (p || atomic_fetch_add_explicit(&pre_colour_points[c], n, memory_order_relaxed) + n <
                 PRE_COLOUR_AFTER)
        return p;
    if (!(p = calloc(1, sizeof *p)))
        return NULL;
    pre_fill_of(p, true, c);        /* hash(c) is c for a small int */
    PreXor *none = NULL;
    if (!atomic_compare_exchange_strong(&pre_colour[c], &none, p)) {
        free(p);
        return none;
    }
    return p;
}

/* The xor of the shuffled hashes of the n points of t, ending at (i1, j1),
 * from p, where all lie in the square; false elsewhere. */
static bool pre_xor(const PreXor *p, const Tail *t, size_t n, int64_t i1, int64_t j1, uint64_t *x)
{
    if ((uint64_t)t->i0 >= PRE_SPAN || (uint64_t)t->j0 >= PRE_SPAN || (uint64_t)i1 >= PRE_SPAN ||
        (uint64_t)j1 >= PRE_SPAN)
        return false;
    size_t i = (size_t)t->i0, j = (size_t)t->j0;
    if (t->di == 0 && t->dj == 1)
        *x = p->row[i][j + n] ^ p->row[i][j];
    else if (t->di == 1 && t->dj == 0)
        *x = p->col[j][i + n] ^ p->col[j][i];
    else if (t->di == 1 && t->dj == 1)
        *x = p->diag[i + n][j + n] ^ p->diag[i][j];
    else if (t->di == 1 && t->dj == -1)
        *x = p->anti[i + n][j + 1 - n] ^ p->anti[i][j + 1];
    else
        return false;
    return true;
}

/* The same over the places' tables, made first if not yet. */
static bool pre_xor_places(const Tail *t, size_t n, int64_t i1, int64_t j1, uint64_t *x)
{
    if ((uint64_t)t->i0 >= PRE_SPAN || (uint64_t)t->j0 >= PRE_SPAN || (uint64_t)i1 >= PRE_SPAN ||
        (uint64_t)j1 >= PRE_SPAN)
        return false;
    pthread_once(&pre_once, pre_fill);
    return pre_xor(&pre_places, t, n, i1, j1, x);
}

/* Whether (i, j) is an interned place: inside the span */
static inline bool in_span(int64_t i, int64_t j)
{
    return (uint64_t)i - (uint64_t)V_INTERN_MIN < V_INTERN_SPAN &&
           (uint64_t)j - (uint64_t)V_INTERN_MIN < V_INTERN_SPAN;
}

/* hash, FLAT and box of a line (c NULL) or coloured line from t */
static Value *line_new(const FsRecipe *kind, const Tail *t, size_t n, Value *c)
{
    Value *v = fs_alloc_bare(n, pyset_distinct_mask(n), sizeof(Tail));
    fs_recipe_init(v, kind, c ? v_incref(c) : NULL, NULL, true);
    Tail *vt = tail_of(v);
    vt->i0 = t->i0, vt->j0 = t->j0, vt->di = t->di, vt->dj = t->dj;
    int64_t hc = c ? v_hash(c) : 0, i = t->i0, j = t->j0;
    int64_t i1 = t->i0 + (int64_t)(n - 1) * t->di, j1 = t->j0 + (int64_t)(n - 1) * t->dj;
    bool tabled = v_loc_hashed(i, j) && v_loc_hashed(i1, j1);   /* the ends bound the points */
    if (tabled)
        v_loc_hashes_make();
    uint64_t x = 0;
    /* connect's and recolor's lines over a grid: two loads; else one a point */
    const PreXor *pc = NULL;
    bool pre = c ? v_is_int(c) && c->u.i >= 0 && c->u.i <= 9 &&
                       (pc = pre_of_colour(c->u.i, n)) && pre_xor(pc, t, n, i1, j1, &x)
                 : pre_xor_places(t, n, i1, j1, &x);
    if (!pre) {
        if (tabled && !c) {
            const int64_t *flat = &v_loc_hashes_[0][0];
            int64_t at = i * V_LOC_HASHED + j, step = (int64_t)t->di * V_LOC_HASHED + t->dj;
            for (size_t k = 0; k < n; k++, at += step)
                x ^= py_fset_shuffle((uint64_t)flat[at]);
        } else if (!c && !tabled) {
            /* past the table: each point's two lanes; a row's first is
             * the same for every point */
            uint64_t lane = py_pair_lane(py_hash_int(i));
            for (size_t k = 0; k < n; k++, i += t->di, j += t->dj) {
                if (t->di)
                    lane = py_pair_lane(py_hash_int(i));
                x ^= py_fset_shuffle((uint64_t)py_hash_pair_from(lane, py_hash_int(j)));
            }
        } else {
            for (size_t k = 0; k < n; k++, i += t->di, j += t->dj) {
                int64_t h = tabled ? v_loc_hashes_[i][j] : py_hash_int_pair(i, j);
                x ^= py_fset_shuffle((uint64_t)(c ? py_hash_pair(hc, h) : h));
            }
        }
    }
    v->hash = py_fset_end(x, n);
    v->hashed = 1;
    /* interned locations span a square: both ends in it, every point is,
     * and (c, point) is an interned cell for a colour 0..9 */
    if (in_span(t->i0, t->j0) && in_span(i1, j1) && (!c || (c->u.i >= 0 && c->u.i <= 9)))
        v->flags |= V_FLAG_FLAT;
    if (!c)
        v->memo |= V_MEMO_PLACES;
    v_box_keep(v, t->i0, t->dj < 0 ? j1 : t->j0, i1, t->dj < 0 ? t->j0 : j1);
    return v;
}

bool fs_line_past_span(const Value *v, FsLineSteps *t)
{
    if (!fs_is_line(v) || (v->flags & V_FLAG_FLAT) ||
        !(__atomic_load_n(&v->memo, __ATOMIC_ACQUIRE) & V_MEMO_UNBUILT))
        return false;
    const Tail *l = tail_of(v);
    *t = (FsLineSteps){.i0 = l->i0, .j0 = l->j0, .di = l->di, .dj = l->dj};
    return true;
}

Value *fs_line(int64_t i0, int64_t j0, int di, int dj, size_t n)
{
    Tail t = {.i0 = i0, .j0 = j0, .di = di, .dj = dj};
    return line_new(&line_kind, &t, n, NULL);
}

Value *fs_line_recolor(Value *c, Value *line)
{
    return line_new(&coloured_kind, tail_of(line), line->u.set.len, c);
}
