/* pykeywords.c -- keyword arguments in arcrun eval (pyeval.h): those a
 * builtin or def refuses, in CPython's words, and those a DSL function
 * takes, bound to the parameters the reference's signature names in
 * CPython's order of checks (a name it lacks, a second value, then what
 * is missing).  tokpidjin's functions are wrapped, and the wrapper's
 * default is what a failed binding gives there. */
#include "pyeval.h"
#include "pyexc.h"
#include "prim.h"

#include <stdio.h>
#include <string.h>

enum { PARAMS_MAX = 8 };

static int param_index(const char **names, const int *lens, int np, const char *kw)
{
    size_t n = strlen(kw);
    for (int i = 0; i < np; i++)
        if ((size_t)lens[i] == n && memcmp(names[i], kw, n) == 0)
            return i;
    return -1;
}

/* A keyword the callee does not take, in CPython's words, once every
 * argument is evaluated: a builtin that takes none says so; min, max,
 * sum and sorted count their positional arguments first (sum its
 * keywords too, nkw of them); a def or a DSL function names the keyword. */
Value *py_keyword_refused(Py *py, Value *f, int builtin, Value *const *argv, int n, int nkw,
                          const char *kw)
{
    if (builtin < 0)
        return cx_raise(py->cx, "TypeError", "%s() got an unexpected keyword argument '%s'",
                        f->u.fn.name, kw);
    const PyBuiltin *b = &py_builtins[builtin];
    bool sum = strcmp(b->name, "sum") == 0, sorted = strcmp(b->name, "sorted") == 0;
    if (!b->keywords)
        return cx_raise(py->cx, "TypeError", "%s() takes no keyword arguments", b->name);
    if (sum && n + nkw > 2)
        return cx_raise(py->cx, "TypeError", "sum() takes at most 2 arguments (%d given)", n + nkw);
    if (sorted ? n != 1 : n < 1)
        return b->fn(py, argv, n, NULL, false);     /* its own count's error */
    return cx_raise(py->cx, "TypeError", "'%s' is an invalid keyword argument for %s()", kw,
                    sorted ? "sort" : b->name);
}

int py_bind_keywords(Ctx *cx, Value *f, Value **args, int n, const char *const *kw,
                     Value *const *vals, int nkw, Value **given)
{
    int prim = f->u.fn.prim;
    const char *names[PARAMS_MAX];
    int lens[PARAMS_MAX], np = prim_params(prim, cx->rearc, names, lens, PARAMS_MAX);
    Value *slot[PARAMS_MAX] = {0};
    char msg[320];
    int top = n;
    *given = NULL;
    if (np < 0) {
        snprintf(msg, sizeof msg, "%s() got an unexpected keyword argument '%s'", f->u.fn.name, kw[0]);
        goto refused;
    }
    for (int i = 0; i < n && i < np; i++)
        slot[i] = args[i];
    for (int k = 0; k < nkw; k++) {
        int at = param_index(names, lens, np, kw[k]);
        if (at < 0) {
            snprintf(msg, sizeof msg, "%s() got an unexpected keyword argument '%s'",
                     f->u.fn.name, kw[k]);
            goto refused;
        }
        if (slot[at]) {
            snprintf(msg, sizeof msg, "%s() got multiple values for argument '%s'",
                     f->u.fn.name, kw[k]);
            goto refused;
        }
        slot[at] = vals[k];
        top = at + 1 > top ? at + 1 : top;
    }
    if (n > np) {           /* after the keywords, as CPython's frame setup */
        snprintf(msg, sizeof msg, "%s() takes %d positional argument%s but %d %s given",
                 f->u.fn.name, np, np == 1 ? "" : "s", n, n == 1 ? "was" : "were");
        goto refused;
    }
    /* the required ones unset, in order; an optional one before a bound
     * one would take its default, which only the wrapper knows */
    const char *miss[PARAMS_MAX];
    int miss_lens[PARAMS_MAX], nmiss = 0, required = prim_min_arity(prim);
    for (int i = 0; i < top || i < required; i++)
        if (!slot[i] && i < np) {
            if (i >= required) {
                snprintf(msg, sizeof msg, "%s() lacks an optional argument before a keyword one",
                         f->u.fn.name);
                goto refused;
            }
            miss[nmiss] = names[i], miss_lens[nmiss++] = lens[i];
        }
    if (nmiss) {
        pyexc_arity_words(msg, sizeof msg, f->u.fn.name, nmiss, miss, miss_lens, 0);
        goto refused;
    }
    for (int i = 0; i < top; i++)
        args[i] = slot[i];
    return top;
refused:
    if (prim_wrapped(prim)) {
        *given = prim_safe_default(prim);
        return -1;
    }
    cx_raise(cx, "TypeError", "%s", msg);
    return -1;
}
