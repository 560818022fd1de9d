/* prim.h -- the primitive table: every DSL primitive is named once, in its
 * dialect's X-macro list (dsl/arcdsl/list.h), and everything else (the enum,
 * name lookup, dispatch, docs) is generated from that list.
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
    uint8_t same_as_arcdsl; /* tokpidjin: body identical to arc-dsl's */
    PrimFn fn;            /* NULL: declared, not implemented yet */
} PrimInfo;

/* Primitive ids: arc-dsl first, then tokpidjin. */
enum {
#define AD(name, arity, ret) PRIM_AD_##name,
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, same) PRIM_TK_##name,
#include "tokpidjin/list.h"
#undef TK
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

/* Whether a primitive can run (tokpidjin's are being implemented). */
bool prim_implemented(int prim);

/* tokpidjin implementations register here, one table per file, each
 * ended by {NULL, NULL}; names absent from every table fall back to the
 * arc-dsl function when the body is the same, else stay unimplemented. */
typedef struct { const char *name; PrimFn fn; } PrimImpl;
extern const PrimImpl tk_impls_core[], tk_impls_patch[], tk_impls_grid[], tk_impls_compose[];

/* A primitive value called with the wrong number of arguments: tokpidjin's
 * wrapper fills a defaulted trailing parameter or returns the default.
 * NULL (no exception) when the ordinary TypeError applies. */
Value *prim_call_mismatch(Ctx *cx, Value *f, int argc, Value *const *argv);
/* Fewest arguments a direct call may pass (trailing defaults). */
int prim_min_arity(int prim);

/* The value the tokpidjin safe wrapper returns when a call raises. */
Value *prim_safe_default(int prim);

/* Look up a primitive by dialect and name; -1 if unknown. */
int prim_lookup(int dialect, const char *name);
/* The primitive as a function value (immortal; same object every time, so
 * identity hashing is stable within a run). */
Value *prim_value(int prim);
/* A named constant of the dialect (ZERO, DOWN, T ...); NULL if unknown.
 * Borrowed (immortal). */
Value *const_lookup(int dialect, const char *name);
/* Closest known name (primitive or constant) for "did you mean". */
const char *prim_suggest(int dialect, const char *name);
/* Names of a dialect, for --list and docs; NULL-terminated iteration. */
const char *const_name_at(int dialect, int i);

/* Each arc-dsl primitive NAME is implemented by: Value *ad_NAME(Ctx *, Value *const *) */
#define AD(name, arity, ret) Value *ad_##name(Ctx *cx, Value *const *a);
#include "arcdsl/list.h"
#undef AD

#endif
