/* prim.h -- the primitive table: every DSL primitive is named once, in its
 * dialect's X-macro list (dsl/arcdsl/list.h, dsl/tokpidjin/list.h), with
 * its C function (bound at compile time), its GPU op (gpu/ops.h GOP_*, or
 * NONE) and its output-shape rule (src/run/shape.c, or NONE); everything
 * else (the enum, name lookup, dispatch, the GPU and shape maps) is
 * generated from those lists.
 *
 * A primitive's C function receives exactly `arity` borrowed arguments and
 * returns a new reference, or NULL with an exception raised in cx (the
 * arc-dsl reference raises TypeError/IndexError/... there too).
 */
#ifndef ARC_PRIM_H
#define ARC_PRIM_H

#include "value.h"

typedef Value *(*PrimFn)(Ctx *cx, Value *const *args);

/* What the tokpidjin safe wrapper returns on error, by return annotation. */
typedef enum { RET_TUPLE, RET_FSET, RET_INT, RET_BOOL, RET_CALLABLE } RetDefault;

typedef struct {
    const char *name;
    uint8_t arity;
    uint8_t dialect;      /* DIALECT_* */
    uint8_t ret;          /* RetDefault */
    PrimFn fn;            /* NULL: declared, not implemented yet */
    bool rearc;           /* re-arc's version of an arc-dsl name (dsl/rearc/list.h) */
} PrimInfo;

/* Primitive ids: arc-dsl first, then tokpidjin, then re-arc's own versions. */
enum {
#define AD(name, arity, ret, gpu, shape) PRIM_AD_##name,
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) PRIM_TK_##name,
#include "tokpidjin/list.h"
#undef TK
#define RA(name, arity, ret, gpu, shape) PRIM_RA_##name,
#include "rearc/list.h"
#undef RA
    PRIM_COUNT
};

extern const PrimInfo *const prim_table;

/* A primitive value's invoke hook; prim_run is its body, for callers that
 * know the value is a primitive (v_call: one indirect call fewer). */
Value *prim_invoke(Ctx *cx, Value *self, Value *const *argv);
/* After a primitive returned NULL, or has no C function: the exception
 * stands, or tokpidjin's wrapper turns it into the return type's default. */
Value *prim_failed(Ctx *cx, int prim);
static inline Value *prim_run(Ctx *cx, int prim, Value *const *argv)
{
    PrimFn fn = prim_table[prim].fn;
    Value *r = fn ? fn(cx, argv) : NULL;
    return r ? r : prim_failed(cx, prim);
}

/* Whether f is a primitive called with its own arity: one prim_run can
 * make the call, without v_call. */
static inline bool prim_direct(const Value *f, int argc)
{
    return f->type == V_FUNC && f->u.fn.invoke == prim_invoke && f->u.fn.arity == argc;
}

/* v_call, with a primitive called with its own arity run straight from
 * here: closures call primitives millions of times, one indirect call
 * fewer each.  The same charge, the same errors. */
static inline Value *prim_call(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    if (prim_direct(f, argc)) {
        if (!cx_charge(cx, 1))
            return NULL;
        return prim_run(cx, f->u.fn.prim, argv);
    }
    return v_call(cx, f, argc, argv);
}

/* Whether a primitive can run.  Every row names its function, so a
 * misspelt one fails to compile or link; this stays for the exit status
 * of a program needing one that is not (4), should a row ever be added
 * with a function that returns NotImplementedError. */
bool prim_implemented(int prim);

/* A primitive value called with the wrong number of arguments: tokpidjin's
 * wrapper fills a defaulted trailing parameter or returns the default.
 * NULL (no exception) when the ordinary TypeError applies. */
Value *prim_call_mismatch(Ctx *cx, Value *f, int argc, Value *const *argv);
/* Fewest arguments a direct call may pass (trailing defaults). */
int prim_min_arity(int prim);

/* The value the tokpidjin safe wrapper returns when a call raises. */
Value *prim_safe_default(int prim);
/* Whether the reference wraps the primitive so that a call that raises
 * gives prim_safe_default (tokpidjin's). */
bool prim_wrapped(int prim);
/* The parameter names of the primitive's documented signature (re-arc's
 * where it renamed them), at most max: names[k] with lens[k] bytes; their
 * count, -1 where the signature gives none. */
int prim_params(int prim, bool rearc, const char **names, int *lens, int max);

/* Look up a primitive by dialect and name; -1 if unknown. */
int prim_lookup(int dialect, const char *name);
/* The same in re-arc's dsl.py: its own version where it has one. */
int prim_lookup_rearc(const char *name);
/* The primitive as a function value (immortal; same object every time, so
 * identity hashing is stable within a run). */
Value *prim_value(int prim);
/* What the primitives keep per thread between calls, released: a thread
 * that ran instances calls it as it ends. */
void prim_thread_done(void);
/* A named constant of the dialect (ZERO, DOWN, T ...); NULL if unknown.
 * Borrowed (immortal). */
Value *const_lookup(int dialect, const char *name);
/* "Did you mean": into buf, the quoted primitives a Python builtin's job
 * is done by ('size' for len), or the closest known name; false when
 * nothing comes close. */
bool prim_suggest(int dialect, const char *name, char *buf, size_t n);
/* What `arcrun list` prints for a primitive (each dialect's doc.h): its Python
 * signature, "(grid: Grid) -> Grid", and a one-line description. */
const char *prim_signature(int prim);
const char *prim_description(int prim);

/* Names of a dialect, for --list and docs; NULL-terminated iteration. */
const char *const_name_at(int dialect, int i);

/* Each arc-dsl primitive NAME is implemented by: Value *ad_NAME(Ctx *, Value *const *);
 * a tokpidjin row names its function (tk_NAME, or arc-dsl's ad_NAME where
 * the body is the same). */
#define AD(name, arity, ret, gpu, shape) Value *ad_##name(Ctx *cx, Value *const *a);
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) Value *fn(Ctx *cx, Value *const *a);
#include "tokpidjin/list.h"
#undef TK
#define RA(name, arity, ret, gpu, shape) Value *ra_##name(Ctx *cx, Value *const *a);
#include "rearc/list.h"
#undef RA

#endif
