/* pyeval.h -- what `arcrun eval`'s Python walk (pyeval.c) and its builtins
 * (pybuiltins.c) share; not for the rest of the front layer (lower.h has
 * py_needed and py_eval). */
#ifndef ARC_PYEVAL_H
#define ARC_PYEVAL_H

#include "lower.h"

/* the arguments of the lambdas around an expression, innermost first */
typedef struct Env {
    const struct Env *up;
    const Expr *params;          /* E_NAME items */
    Value *const *vals;
} Env;

typedef struct {
    Ctx *cx;
    int dialect;
    bool rearc;
} Py;

typedef Value *(*Builtin)(Py *py, Value *const *a, int n, Value *key, bool reverse);
enum { PY_KW_KEY = 1, PY_KW_REVERSE = 2, PY_KW_DEFAULT = 4, PY_KW_START = 8 };
/* cls: a class (tuple, range), not a function, to CPython */
typedef struct { const char *name; Builtin fn; int keywords; bool cls; } PyBuiltin;
enum { PY_BUILTINS_MAX = 16 };
extern const PyBuiltin py_builtins[];
extern const int py_nbuiltins;
int py_builtin_index(const char *name);      /* -1: not one */
/* min/max(..., default=...): the call sets it around the builtin's */
extern _Thread_local Value *py_default;

/* values (new references; items borrowed) */
Value *py_new_list(Value *const *items, size_t n);
Value *py_new_set(Ctx *cx, Value *const *items, size_t n, bool mutable);
/* an iterable's items as a tuple: containers, a range, a str's characters */
Value *py_items_of(Ctx *cx, Value *v);
/* -x for an int, OverflowError past 64 bits (ints are 64-bit). */
Value *py_int_neg(Ctx *cx, int64_t x);
/* x OP y for the arithmetic operators (pyops.c) */
Value *py_binop(Py *py, int op, Value *x, Value *y);
/* a OP b for the comparison operators and in / not in (pyops.c): 1/0, or
 * -1 with an exception raised */
int py_compare(Py *py, int op, Value *a, Value *b);
/* DSL function f called with n positional args and nkw keywords kw[k] =
 * vals[k] (borrowed): the keywords put in args by the names of f's
 * parameters (args has room for them), the new count; -1 where CPython's
 * binding fails: raised, or for a wrapped (tokpidjin) function *given is
 * its wrapper's default, nothing raised (pykeywords.c). */
enum { PY_DSL_KEYWORDS_MAX = 8 };
/* The TypeError for keyword kw that callee f does not take, once every
 * argument is evaluated; builtin: f's index in py_builtins, -1 for a def
 * or DSL function (pykeywords.c). */
Value *py_keyword_refused(Py *py, Value *f, int builtin, Value *const *argv, int n, int nkw,
                          const char *kw);
int py_bind_keywords(Ctx *cx, Value *f, Value **args, int n, const char *const *kw,
                     Value *const *vals, int nkw, Value **given);

#endif
