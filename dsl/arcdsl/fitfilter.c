/* fitfilter.c -- sfilter(c, p) for p counting a shifted patch outside a
 * set, no patch made (fitfilter.h). */
#include <stdlib.h>
#include "prim.h"
#include "fsrecipe.h"
#include "fskeys.h"
#include "common/core_util.h"
#include "arcdsl/fitfilter.h"

#define CAP(self, i) ((self)->u.fn.cap[i])
#define PLACES FS_KEY_TABLE

enum { ST_SHIFT, ST_DIFF, ST_SIZE, ST_EQ, ST_MOST = 8 };

/* A unary closure as the steps it applies, in order, and the calls one
 * run of it makes (each charges one). */
typedef struct {
    int n;
    int step[ST_MOST];
    Value *arg[ST_MOST];
    uint64_t calls;
} Steps;

static bool add(Steps *s, int step, Value *arg)
{
    if (s->n == ST_MOST)
        return false;
    s->step[s->n] = step;
    s->arg[s->n++] = arg;
    return true;
}

static bool closure_of(const Value *f, int prim, int ncap)
{
    return f->u.fn.prim == prim && f->u.fn.ncap == ncap;
}

/* Appends f's steps: compose and chain run theirs inner first, matcher
 * compares last; a bind calls its primitive (two calls). */
static bool steps_of(const Value *f, Steps *s, int depth)
{
    if (f->type != V_FUNC || depth > ST_MOST)
        return false;
    if (f == prim_value(PRIM_AD_size)) {
        s->calls += 1;
        return add(s, ST_SIZE, NULL);
    }
    if (f->u.fn.invoke == prim_invoke || f->u.fn.path)
        return false;
    if (closure_of(f, PRIM_AD_compose, 2)) {
        s->calls += 1;
        return steps_of(CAP(f, 1), s, depth + 1) && steps_of(CAP(f, 0), s, depth + 1);
    }
    if (closure_of(f, PRIM_AD_chain, 3)) {
        s->calls += 1;
        return steps_of(CAP(f, 2), s, depth + 1) && steps_of(CAP(f, 1), s, depth + 1) &&
               steps_of(CAP(f, 0), s, depth + 1);
    }
    if (closure_of(f, PRIM_AD_matcher, 2)) {
        s->calls += 1;
        return steps_of(CAP(f, 0), s, depth + 1) && add(s, ST_EQ, CAP(f, 1));
    }
    if (closure_of(f, PRIM_AD_lbind, 2) && CAP(f, 0) == prim_value(PRIM_AD_shift)) {
        s->calls += 2;
        return add(s, ST_SHIFT, CAP(f, 1));
    }
    if (closure_of(f, PRIM_AD_rbind, 2) && CAP(f, 0) == prim_value(PRIM_AD_difference)) {
        s->calls += 2;
        return add(s, ST_DIFF, CAP(f, 1));
    }
    return false;
}

typedef struct {
    Value *pred;
    size_t n;                   /* S's keys: table base and place of each */
    uint32_t *base;
    int64_t *i, *j;
    int64_t lo[2], hi[2];       /* the offsets that keep S in the span */
    int64_t target;
    uint64_t calls;
} Fit;

/* D's keys, for one filter at a time per thread (cleared after). */
static _Thread_local uint64_t in_d_[(V_INTERN_TABLES * PLACES + 63) / 64];
static _Thread_local bool busy_;

static inline bool in_d(uint32_t k)
{
    return in_d_[k >> 6] >> (k & 63) & 1;
}

static int keep_fit(Ctx *cx, Value *e, void *ud)
{
    const Fit *f = ud;
    int64_t key = fs_arena_key(e), di, dj;
    if (key >= 0 && key < PLACES) {
        v_intern_place((size_t)key, &di, &dj);
        if (di >= f->lo[0] && di <= f->hi[0] && dj >= f->lo[1] && dj <= f->hi[1]) {
            uint64_t out = 0;
            for (size_t q = 0; q < f->n; q++)
                out += !in_d(f->base[q] + (uint32_t)v_intern_index(f->i[q] + di, f->j[q] + dj));
            if (!cx_charge(cx, f->calls + f->n + out))
                return -1;
            return (int64_t)out == f->target;
        }
    }
    Value *r = core_gen_call(cx, f->pred, 1, &e);      /* as written */
    if (!r)
        return -1;
    int k = v_truthy(r);
    v_decref(r);
    return k;
}

bool ad_fit_filter(Ctx *cx, Value *c, Value *pred, Value **r)
{
    Steps s = {0};
    if (!steps_of(pred, &s, 0) || s.n != 4 || s.step[0] != ST_SHIFT || s.step[1] != ST_DIFF ||
        s.step[2] != ST_SIZE || s.step[3] != ST_EQ)
        return false;
    Value *S = s.arg[0], *D = s.arg[1], *t = s.arg[3];
    if ((t->type != V_INT && t->type != V_BOOL) || S->type != V_FSET || v_len(S) == 0 ||
        D->type != V_FSET || busy_)
        return false;
    FsKeys sk = {0}, dk = {0};
    FsMoveSrc m;
    Fit f = {.pred = pred, .target = t->u.i, .calls = s.calls};
    bool ok = fs_arena_keys(S, &sk) && sk.n == v_len(S) && fs_keys_move_from(sk.k, sk.n, &m) &&
              fs_arena_keys(D, &dk);
    if (ok) {
        f.n = sk.n;
        f.base = malloc(f.n * sizeof *f.base);
        f.i = malloc(2 * f.n * sizeof *f.i);
        ok = f.base && f.i;
    }
    if (!ok) {
        fs_keys_free(&sk);
        fs_keys_free(&dk);
        free(f.base);
        free(f.i);
        return false;
    }
    f.j = f.i + f.n;
    for (size_t q = 0; q < f.n; q++) {
        f.base[q] = sk.k[q] / PLACES * PLACES;
        v_intern_place(sk.k[q] % PLACES, &f.i[q], &f.j[q]);
    }
    /* the bounds moved, not the offset: an offset near INT64_MAX must not wrap */
    const int64_t lo = V_INTERN_MIN, hi = V_INTERN_MIN + V_INTERN_SPAN - 1;
    f.lo[0] = lo - m.box[0], f.hi[0] = hi - m.box[2];
    f.lo[1] = lo - m.box[1], f.hi[1] = hi - m.box[3];
    for (size_t q = 0; q < dk.n; q++)
        in_d_[dk.k[q] >> 6] |= (uint64_t)1 << (dk.k[q] & 63);
    busy_ = true;
    *r = core_filter(cx, c, keep_fit, &f, c->type);
    busy_ = false;
    for (size_t q = 0; q < dk.n; q++)
        in_d_[dk.k[q] >> 6] = 0;
    fs_keys_free(&sk);
    fs_keys_free(&dk);
    free(f.base);
    free(f.i);
    return true;
}
