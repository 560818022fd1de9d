/* ctx.c -- what a call runs in (value.h's Ctx): the exception it raised
 * and the work and time budgets it spends, with the clocks they read. */
#include "value.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void ctx_init(Ctx *cx, int dialect)
{
    memset(cx, 0, sizeof *cx);
    cx->dialect = dialect;
    cx_arm(cx);
}

/* s appended at *at in buf of size cap, cut as snprintf cuts; false when
 * it did not all fit */
static bool msg_put(char *buf, size_t cap, size_t *at, const char *s, size_t n)
{
    size_t room = cap - 1 - *at;
    bool fits = n <= room;
    memcpy(buf + *at, s, fits ? n : room);
    *at += fits ? n : room;
    buf[*at] = '\0';
    return fits;
}

/* Messages are formatted by hand where they hold only %s: a batt run
 * raises (and its wrapper catches) thousands of errors a second, and
 * printf's machinery cost more than the rest of a raise. */
Value *cx_raise(Ctx *cx, const char *exc, const char *fmt, ...)
{
    if (cx->err)        /* keep the first (innermost) exception */
        return NULL;
    cx->err = true;
    size_t at = 0, cap = sizeof cx->errmsg;
    if (!msg_put(cx->errmsg, cap, &at, exc, strlen(exc)) || !msg_put(cx->errmsg, cap, &at, ": ", 2))
        return NULL;
    size_t base = at;
    va_list ap;
    va_start(ap, fmt);
    const char *p = fmt;
    for (;;) {
        const char *pc = strchr(p, '%');
        if (!pc) {
            msg_put(cx->errmsg, cap, &at, p, strlen(p));
            break;
        }
        if (pc[1] != 's') {     /* anything else: printf, from the start */
            va_end(ap);
            va_start(ap, fmt);
            vsnprintf(cx->errmsg + base, cap - base, fmt, ap);
            break;
        }
        const char *arg = va_arg(ap, const char *);
        if (!arg)
            arg = "(null)";     /* as glibc's printf */
        if (!msg_put(cx->errmsg, cap, &at, p, (size_t)(pc - p)) ||
            !msg_put(cx->errmsg, cap, &at, arg, strlen(arg)))
            break;
        p = pc + 2;
    }
    va_end(ap);
    return NULL;
}

static uint64_t clock_ns(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

#ifdef CLOCK_MONOTONIC_COARSE
uint64_t now_coarse_ns(void) { return clock_ns(CLOCK_MONOTONIC_COARSE); }
#else
uint64_t now_coarse_ns(void) { return clock_ns(CLOCK_MONOTONIC); }
#endif

bool cx_budget_spent_(Ctx *cx)
{
    if (cx->work_limit && cx->work > cx->work_limit) {
        cx->over_budget = true;
        cx_raise(cx, "MemoryError", "work budget exceeded");
        return true;
    }
    if (cx->work > CX_WORK_MAX) {
        /* the charge is not made, as CPython's allocation fails and the
         * program may go on: what reaches the cap is cx_mul's CX_WORK_MAX + 1 */
        cx->work -= CX_WORK_MAX + 1;
        cx_raise(cx, "MemoryError", "more work than memory can hold");
        return true;
    }
    cx_arm(cx);
    if (cx->deadline_ns && now_ns() > cx->deadline_ns) {
        cx->over_budget = true;
        cx_raise(cx, "TimeoutError", "time budget exceeded");
        return true;
    }
    return false;
}

void cx_clear(Ctx *cx)
{
    cx->err = false;
    cx->errmsg[0] = '\0';
}
