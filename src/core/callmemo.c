/* callmemo.c -- closure calls kept within a top-level call (callmemo.h). */
#include "callmemo.h"
#include "pyset.h"
#include "fsline.h"

#include <math.h>
#include <stdlib.h>

/* Calls charging less are cheaper to run again than to keep. */
#define MEMO_MIN_WORK 8
/* Entries per top-level call, and the items their results may hold: a
 * kept result lives to the end of the call. */
#define MEMO_MOST 4096
#define MEMO_HELD_MOST (1u << 18)

enum { GIVE_SAME = 1, GIVE_CLONE };

struct CallMemoEntry {
    Value *f, *a0, *a1;         /* held; a1 NULL for one argument */
    Value *r;                   /* held */
    uint64_t work;
    int give;
};

static size_t home(const Value *f, const Value *a0, const Value *a1, size_t mask)
{
    uint64_t h = (uintptr_t)f * 0x9E3779B97F4A7C15u ^ (uintptr_t)a0 * 0xC2B2AE3D27D4EB4Fu ^
                 (uintptr_t)a1 * 0x165667B19E3779F9u;
    return (size_t)(h ^ h >> 29) & mask;
}

/* Whether v can be given again where CPython makes a new value: it holds
 * no frozenset and no function (whose identities show), looked at down to
 * a bounded depth and size. */
static bool identity_free(const Value *v, int depth, size_t *budget)
{
    switch (v->type) {
    case V_NONE: case V_BOOL: case V_INT: case V_STR:
        return true;
    case V_FLOAT:           /* a NaN made twice is two objects, told apart in tuples */
        return !isnan(v->u.f) || v == &v_nan_;
    case V_TUPLE:
        if (v->flags & V_FLAG_FLAT || __atomic_load_n(&v->memo, __ATOMIC_RELAXED) & V_MEMO_BYTES)
            return true;
        if (depth == 0 || *budget < v->u.tup.len)
            return false;
        *budget -= v->u.tup.len;
        for (size_t i = 0; i < v->u.tup.len; i++)
            if (!identity_free(v_titems(v)[i], depth - 1, budget))
                return false;
        return true;
    default:
        return false;
    }
}

static bool arena_items(const Value *fs)
{
    FsLineSteps past;
    if (fs->flags & V_FLAG_FLAT)
        return true;
    if (fs_line_past_span(fs, &past))    /* known without laying it out */
        return false;
    Value **it = v_items(fs);
    for (size_t i = 0; i < fs->u.set.len; i++)
        if (!v_in_arena(it[i]))
            return false;
    return true;
}

/* How a kept r is given again; 0: not kept. */
static int give_of(const Value *r)
{
    size_t budget = 256;
    if ((r->type == V_FSET || r->type == V_FUNC) && callmemo_existed(r))
        return GIVE_SAME;
    if (r->type == V_FSET)
        return r->u.set.len <= 4096 && arena_items(r) ? GIVE_CLONE : 0;
    return identity_free(r, 4, &budget) ? GIVE_SAME : 0;
}

/* Entries are appended; the table holds 1 + an entry's index, 0 where
 * empty (a table of ints is cheap to clear and grow). */
static bool grow(CallMemo *m)
{
    size_t mask = m->slot ? 2 * m->mask + 1 : 63, cap = (mask + 1) / 2;
    uint32_t *slot = calloc(mask + 1, sizeof *slot);
    CallMemoEntry *e = realloc(m->e, cap * sizeof *e);
    if (!slot || !e) {
        free(slot);
        if (e)
            m->e = e;
        return false;
    }
    for (size_t k = 0; k < m->used; k++) {
        size_t h = home(e[k].f, e[k].a0, e[k].a1, mask);
        while (slot[h])
            h = (h + 1) & mask;
        slot[h] = (uint32_t)k + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->e = e;
    m->mask = mask;
    return true;
}

static void keep(CallMemo *m, Value *f, Value *a0, Value *a1, Value *r, uint64_t work)
{
    int give = give_of(r);
    size_t items = r->type == V_TUPLE || r->type == V_FSET ? v_len(r) : 0;
    if (!give || m->used >= MEMO_MOST || m->held + items > MEMO_HELD_MOST ||
        (2 * (m->used + 1) > (m->slot ? m->mask + 1 : 0) && !grow(m)))
        return;
    m->held += items;
    size_t s = home(f, a0, a1, m->mask);
    while (m->slot[s])
        s = (s + 1) & m->mask;
    m->e[m->used] = (CallMemoEntry){v_incref(f), v_incref(a0), v_incref(a1), v_incref(r), work, give};
    m->slot[s] = (uint32_t)++m->used;
}

Value *callmemo_call(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    CallMemo *m = cx->memo;
    Value *a0 = argv[0], *a1 = argc == 2 ? argv[1] : NULL;
    if (m->used)
        for (size_t s = home(f, a0, a1, m->mask); m->slot[s]; s = (s + 1) & m->mask) {
            CallMemoEntry *e = &m->e[m->slot[s] - 1];
            if (e->f == f && e->a0 == a0 && e->a1 == a1) {
                if (!cx_charge(cx, e->work))
                    return NULL;
                return e->give == GIVE_CLONE ? fs_clone_flat(e->r) : v_incref(e->r);
            }
        }
    uint64_t before = cx->work;
    Value *r = f->u.fn.invoke(cx, f, argv);
    if (r && !cx->err && cx->work - before >= MEMO_MIN_WORK)
        keep(m, f, a0, a1, r, cx->work - before);
    return r;
}

void callmemo_clear(CallMemo *m)
{
    for (size_t k = 0; k < m->used; k++) {
        v_decref(m->e[k].f);
        v_decref(m->e[k].a0);
        v_decref(m->e[k].a1);
        v_decref(m->e[k].r);
    }
    free(m->e);
    free(m->slot);
    m->e = NULL;
    m->slot = NULL;
    m->mask = m->used = m->held = 0;
}
