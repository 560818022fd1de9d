/* callmemo.h -- a closure called again with the same arguments, within one
 * top-level call, gives its first result instead of running again.
 *
 * Programs build closures that do the same costly work for each item of
 * an outer loop (solve_d22278a0 finds, for every place and again for
 * every object, the object nearest that place).  DSL functions are pure:
 * a call of the same closure object on the same argument objects gives an
 * equal result and charges the same work, which a kept call charges again.
 * Keys are identities, and the memo holds what it keys on, so no address
 * is reused while it lives.
 *
 * What a kept call gives must also be what CPython's second call would be
 * where identity shows (`a & b` copies a when b is a): an int, string or
 * tuple with no frozenset, function or NaN in it is given again; a
 * frozenset or function that existed before the call (held elsewhere
 * when it returned) is given again, as CPython's call would return that
 * same object; a frozenset the call made is given as a new copy where its
 * items are arena values (fs_clone_flat), and otherwise not kept.  So
 * are calls that failed or cost little.
 *
 * Only closures made before the current top-level call, given arguments
 * that existed before it, are kept (callmemo_wants): closures a call makes
 * as it goes, one per item of its loop, are seldom called twice with the
 * same arguments, and would fill the table.
 *
 * The owner of a Ctx points cx->memo at a CallMemo for the length of a
 * top-level call, counts the call in v_call_serial, and clears the memo
 * after (the executor: cpu_call_at). */
#ifndef ARC_CALLMEMO_H
#define ARC_CALLMEMO_H

#include "value.h"

typedef struct CallMemoEntry CallMemoEntry;
typedef struct CallMemo {
    CallMemoEntry *e;       /* kept calls, in the order kept; NULL until one is */
    uint32_t *slot;         /* open addressing: 1 + an index into e, 0 empty */
    size_t mask, used;
    size_t held;            /* items of the kept results */
} CallMemo;

/* A value something besides the caller holds, so it existed before the
 * call; an argument the caller made is held by it alone, and can neither
 * be a key (keys are held by the memo too) nor come again. */
static inline bool callmemo_existed(const Value *v)
{
    return v_in_arena(v) || v_shareable(v) || v->refs >= 2;
}
/* Whether v_call runs f's call through callmemo_call: a closure made
 * before this top-level call, given one or two arguments that existed. */
static inline bool callmemo_wants(const Ctx *cx, const Value *f, int argc, Value *const *argv)
{
    return cx->memo && f->u.fn.ncap && f->u.fn.born != v_call_serial && argc >= 1 && argc <= 2 &&
           callmemo_existed(argv[0]) && (argc == 1 || callmemo_existed(argv[1]));
}
/* f called as callmemo_wants allows, after v_call's checks and charge:
 * the kept result, or the call, kept where it qualifies. */
Value *callmemo_call(Ctx *cx, Value *f, int argc, Value *const *argv);
/* Drop every kept call and the table. */
void callmemo_clear(CallMemo *m);

#endif
