/* fitfilter.c -- sfilter(c, p) for p counting a shifted patch outside a
 * set, no patch made (fitfilter.h). */
#include <stdlib.h>
#include "prim.h"
#include "fsrecipe.h"
#include "fskeys.h"
#include "common/core_util.h"
#include "arcdsl/fitfilter.h"
#include "common/closures.h"

#define PLACES FS_KEY_TABLE

/* A predicate as steps run on one value in turn; a fork runs two step
 * lists on the same value and joins their answers. */
enum { ST_ADD, ST_SHIFT, ST_DIFF, ST_SIZE, ST_EQ, ST_NOT, ST_AND, ST_OR, ST_LIST };
enum { MOST_STEPS = 32, MOST_SHIFTS = 4, MOST_DEPTH = 12 };

typedef struct {
    int kind;
    int64_t a, b;               /* ST_ADD: the vector; ST_EQ: a, the target */
    int shift;                  /* ST_SHIFT: which patch */
    int branch[2];              /* ST_AND, ST_OR: each branch's ST_LIST */
    int end;                    /* ST_LIST: the step after the list's last */
} Step;

/* A shifted patch: its keys as table base and place, and the offsets
 * that keep it in the interned span. */
typedef struct {
    Value *v;
    size_t n;
    uint32_t *base;
    int64_t *i, *j;
    int64_t lo[2], hi[2];
} Patch;

typedef struct {
    Step step[MOST_STEPS];
    int nstep;
    Patch patch[MOST_SHIFTS];
    int npatch;
    Value *d;                   /* the one set differences are taken from */
    uint64_t calls;             /* one run's calls, each charging one */
    Value *pred;
} Fit;

static int new_step(Fit *f, int kind)
{
    if (f->nstep == MOST_STEPS)
        return -1;
    f->step[f->nstep] = (Step){.kind = kind};
    return f->nstep++;
}

static bool closure_of(const Value *f, int prim, int ncap)
{
    return f->u.fn.invoke != prim_invoke && !f->u.fn.path && f->u.fn.prim == prim &&
           f->u.fn.ncap == ncap;
}

/* Two ints, as add's vector. */
static bool vector(const Value *v, int64_t *a, int64_t *b)
{
    if (v->type != V_TUPLE || v->u.tup.len != 2 || v_titems(v)[0]->type != V_INT ||
        v_titems(v)[1]->type != V_INT)
        return false;
    *a = v_titems(v)[0]->u.i;
    *b = v_titems(v)[1]->u.i;
    return *a > -(1 << 20) && *a < 1 << 20 && *b > -(1 << 20) && *b < 1 << 20;
}

static bool list_of(Fit *f, Value *g, int depth);

/* Appends g's steps: compose and chain run theirs inner first, matcher
 * compares last, a bind calls its primitive (two calls), a fork of both
 * or either two lists and its outer primitive. */
static bool steps_of(Fit *f, Value *g, int depth)
{
    int s;
    if (g->type != V_FUNC || depth > MOST_DEPTH)
        return false;
    if (g == prim_value(PRIM_AD_size) || g == prim_value(PRIM_AD_flip)) {
        f->calls += 1;
        return new_step(f, g == prim_value(PRIM_AD_size) ? ST_SIZE : ST_NOT) >= 0;
    }
    if (g == prim_value(PRIM_AD_identity)) {
        f->calls += 1;
        return true;
    }
    if (closure_of(g, PRIM_AD_compose, 2)) {
        f->calls += 1;
        return steps_of(f, CAP(g, 1), depth + 1) && steps_of(f, CAP(g, 0), depth + 1);
    }
    if (closure_of(g, PRIM_AD_chain, 3)) {
        f->calls += 1;
        return steps_of(f, CAP(g, 2), depth + 1) && steps_of(f, CAP(g, 1), depth + 1) &&
               steps_of(f, CAP(g, 0), depth + 1);
    }
    if (closure_of(g, PRIM_AD_matcher, 2)) {
        Value *t = CAP(g, 1);
        f->calls += 1;
        if ((t->type != V_INT && t->type != V_BOOL) || !steps_of(f, CAP(g, 0), depth + 1) ||
            (s = new_step(f, ST_EQ)) < 0)
            return false;
        f->step[s].a = t->u.i;
        return true;
    }
    if (closure_of(g, PRIM_AD_fork, 3) &&
        (CAP(g, 0) == prim_value(PRIM_AD_both) || CAP(g, 0) == prim_value(PRIM_AD_either))) {
        f->calls += 2;          /* the fork's call, then its outer primitive's */
        if ((s = new_step(f, CAP(g, 0) == prim_value(PRIM_AD_both) ? ST_AND : ST_OR)) < 0)
            return false;
        for (int k = 0; k < 2; k++) {
            f->step[s].branch[k] = f->nstep;
            if (!list_of(f, CAP(g, 1 + k), depth + 1))
                return false;
        }
        return true;
    }
    bool lb = closure_of(g, PRIM_AD_lbind, 2), rb = closure_of(g, PRIM_AD_rbind, 2);
    if ((lb || rb) && CAP(g, 0) == prim_value(PRIM_AD_add)) {
        int64_t a, b;
        f->calls += 2;
        if (!vector(CAP(g, 1), &a, &b) || (s = new_step(f, ST_ADD)) < 0)
            return false;
        f->step[s].a = a;
        f->step[s].b = b;
        return true;
    }
    if (lb && CAP(g, 0) == prim_value(PRIM_AD_shift)) {
        f->calls += 2;
        if (f->npatch == MOST_SHIFTS || (s = new_step(f, ST_SHIFT)) < 0)
            return false;
        f->step[s].shift = f->npatch;
        f->patch[f->npatch++].v = CAP(g, 1);
        return true;
    }
    if (rb && CAP(g, 0) == prim_value(PRIM_AD_difference)) {
        f->calls += 2;
        if ((f->d && f->d != CAP(g, 1)) || new_step(f, ST_DIFF) < 0)
            return false;
        f->d = CAP(g, 1);
        return true;
    }
    return false;
}

/* g's steps as a list of their own (a fork's branch), after an ST_LIST
 * step that holds where it ends. */
static bool list_of(Fit *f, Value *g, int depth)
{
    int head = new_step(f, ST_LIST);
    if (head < 0 || !steps_of(f, g, depth))
        return false;
    f->step[head].end = f->nstep;
    return true;
}

/* What a step list gives, run on a place; its charges beyond the calls
 * added to *owed.  false where a step meets what it is not made for (the
 * calls then run as written). */
enum { T_PLACE, T_SHIFTED, T_COUNT, T_INT, T_BOOL };
typedef struct {
    int type;
    int64_t i, j;               /* a place, or a shifted patch's offset */
    int patch;
    int64_t k;                  /* a count, an int, or a bool (0, 1) */
} Val;

static _Thread_local uint64_t in_d_[(V_INTERN_TABLES * PLACES + 63) / 64];
static _Thread_local bool busy_;

static bool run(const Fit *f, int from, int to, Val *v, uint64_t *owed)
{
    for (int s = from; s < to; s++) {
        const Step *st = &f->step[s];
        switch (st->kind) {
        case ST_ADD:
            if (v->type != T_PLACE)
                return false;
            v->i += st->a;
            v->j += st->b;
            break;
        case ST_SHIFT: {
            const Patch *p = &f->patch[st->shift];
            if (v->type != T_PLACE || v->i < p->lo[0] || v->i > p->hi[0] || v->j < p->lo[1] ||
                v->j > p->hi[1])
                return false;
            v->type = T_SHIFTED;
            v->patch = st->shift;
            *owed += p->n;
            break;
        }
        case ST_DIFF: {
            if (v->type != T_SHIFTED)
                return false;
            const Patch *p = &f->patch[v->patch];
            uint64_t out = 0;
            for (size_t q = 0; q < p->n; q++) {
                uint32_t k = p->base[q] + (uint32_t)v_intern_index(p->i[q] + v->i, p->j[q] + v->j);
                out += !(in_d_[k >> 6] >> (k & 63) & 1);
            }
            *owed += out;
            v->type = T_COUNT;
            v->k = (int64_t)out;
            break;
        }
        case ST_LIST:           /* never run: a fork runs its branches */
            return false;
        case ST_SIZE:
            if (v->type == T_SHIFTED)
                v->k = (int64_t)f->patch[v->patch].n;
            else if (v->type != T_COUNT)
                return false;
            v->type = T_INT;
            break;
        case ST_EQ:
            if (v->type != T_INT)
                return false;
            v->k = v->k == st->a;
            v->type = T_BOOL;
            break;
        case ST_NOT:
            if (v->type != T_BOOL)
                return false;
            v->k = !v->k;
            break;
        case ST_AND:
        case ST_OR: {
            Val x[2];
            for (int b = 0; b < 2; b++) {
                int head = st->branch[b];
                x[b] = *v;
                if (!run(f, head + 1, f->step[head].end, &x[b], owed) || x[b].type != T_BOOL)
                    return false;
            }
            v->type = T_BOOL;
            v->k = st->kind == ST_AND ? x[0].k && x[1].k : x[0].k || x[1].k;
            s = f->step[st->branch[1]].end - 1;
            break;
        }
        }
    }
    return true;
}

static int keep_fit(Ctx *cx, Value *e, void *ud)
{
    const Fit *f = ud;
    int64_t key = fs_arena_key(e);
    if (key >= 0 && key < PLACES) {
        Val v = {.type = T_PLACE};
        uint64_t owed = 0;
        v_intern_place((size_t)key, &v.i, &v.j);
        if (run(f, 0, f->nstep, &v, &owed) && (v.type == T_BOOL || v.type == T_INT)) {
            if (!cx_charge(cx, f->calls + owed))
                return -1;
            return v.k != 0;
        }
    }
    Value *r = core_gen_call(cx, f->pred, 1, &e);      /* as written */
    if (!r)
        return -1;
    int k = v_truthy(r);
    v_decref(r);
    return k;
}

/* p's keys and bounds; false where p is not a non-empty frozenset of
 * interned places or of arc-dsl cells. */
static bool patch_open(Patch *p)
{
    FsKeys k = {0};
    FsMoveSrc m;
    bool ok = p->v->type == V_FSET && v_len(p->v) && fs_arena_keys(p->v, &k) &&
              k.n == v_len(p->v) && fs_keys_move_from(k.k, k.n, &m);
    if (ok) {
        p->n = k.n;
        p->base = malloc(p->n * sizeof *p->base);
        p->i = malloc(2 * p->n * sizeof *p->i);
        ok = p->base && p->i;
    }
    if (!ok) {                  /* patch_close is for opened patches only */
        free(p->base);
        free(p->i);
        p->base = NULL, p->i = NULL;
    } else {
        p->j = p->i + p->n;
        for (size_t q = 0; q < p->n; q++) {
            p->base[q] = k.k[q] / PLACES * PLACES;
            v_intern_place(k.k[q] % PLACES, &p->i[q], &p->j[q]);
        }
        /* the bounds moved, not the offset: no sum can wrap */
        const int64_t lo = V_INTERN_MIN, hi = V_INTERN_MIN + V_INTERN_SPAN - 1;
        p->lo[0] = lo - m.box[0], p->hi[0] = hi - m.box[2];
        p->lo[1] = lo - m.box[1], p->hi[1] = hi - m.box[3];
    }
    fs_keys_free(&k);
    return ok;
}

static void patch_close(Patch *p)
{
    free(p->base);
    free(p->i);
}

bool ad_fit_filter(Ctx *cx, Value *c, Value *pred, Value **r)
{
    Fit f = {.pred = pred};
    if (busy_ || !steps_of(&f, pred, 0) || !f.d || f.d->type != V_FSET)
        return false;
    FsKeys dk = {0};
    int open = 0;
    while (open < f.npatch && patch_open(&f.patch[open]))
        open++;
    bool ok = open == f.npatch && fs_arena_keys(f.d, &dk);
    if (ok) {
        for (size_t q = 0; q < dk.n; q++)
            in_d_[dk.k[q] >> 6] |= (uint64_t)1 << (dk.k[q] & 63);
        busy_ = true;
        *r = core_filter(cx, c, keep_fit, &f, c->type);
        busy_ = false;
        for (size_t q = 0; q < dk.n; q++)
            in_d_[dk.k[q] >> 6] = 0;
    }
    while (open--)
        patch_close(&f.patch[open]);
    fs_keys_free(&dk);
    return ok;
}
