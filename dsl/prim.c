/* prim.c -- the primitive and constant tables, generated from the dialect
 * lists, with name lookup and "did you mean" suggestions. */
#include "prim.h"
#include "fnv.h"
#include "pyexc.h"
#include "common/cells.h"

#include <pthread.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const PrimInfo prim_info_[PRIM_COUNT] = {
#define AD(name, arity, ret, gpu, shape) {#name, arity, DIALECT_ARCDSL, ret, ad_##name, false},
#include "arcdsl/list.h"
#undef AD
#define TK(name, arity, ret, fn, gpu, shape) {#name, arity, DIALECT_TOKPIDJIN, ret, fn, false},
#include "tokpidjin/list.h"
#undef TK
#define RA(name, arity, ret, gpu, shape) {#name, arity, DIALECT_ARCDSL, ret, ra_##name, true},
#include "rearc/list.h"
#undef RA
};
const PrimInfo *const prim_table = prim_info_;

/* safe_callable(*a) -> (): what a Callable-returning call yields on error */
static Value *safe_callable_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    return v_tuple_new(0);
}

static Value safe_callable_ = {
    .refs = -1, .type = V_FUNC,
    .u.fn = {.invoke = safe_callable_invoke, .name = "_get_safe_default.<locals>.safe_callable",
             .prim = -1, .arity = V_ARITY_ANY},
};

/* tokpidjin parameters with defaults: TKOPT(name, min, param, default) */
typedef struct { int prim, min, dflt; } PrimOpt;
static const PrimOpt prim_opts[] = {
#define TK(name, arity, ret, fn, gpu, shape)
#define TKOPT(name, min, param, dflt) {PRIM_TK_##name, min, PRIM_TK_##dflt},
#include "tokpidjin/list.h"
#undef TKOPT
#undef TK
};

int prim_min_arity(int prim)
{
    for (size_t i = 0; i < sizeof prim_opts / sizeof prim_opts[0]; i++)
        if (prim_opts[i].prim == prim)
            return prim_opts[i].min;
    return prim_table[prim].arity;
}

int prim_params(int prim, bool rearc, const char **names, int *lens, int max)
{
    /* the two parameters re-arc's dsl.py renamed */
    const char *sig = prim_signature(prim), *p;
    if (rearc && prim == PRIM_AD_dedupe)
        sig = "(iterable: Tuple) -> Tuple";
    if (rearc && prim == PRIM_AD_branch)
        sig = "(condition: Boolean, if_value: Any, else_value: Any) -> Any";
    p = sig;
    int n = 0;
    if (*p++ != '(')
        return -1;
    while (*p && *p != ')' && n < max) {
        const char *e = p;
        while (*e && *e != ':' && *e != ',' && *e != ')')
            e++;
        names[n] = p, lens[n++] = (int)(e - p);
        while (*e && *e != ',' && *e != ')')
            e++;
        p = *e == ',' ? e + 2 : e;
    }
    return n;
}

bool prim_wrapped(int prim)
{
    return prim >= 0 && prim < PRIM_COUNT && prim_table[prim].dialect == DIALECT_TOKPIDJIN;
}

/* CPython's TypeError for a function of dsl.py called with too few
 * arguments: "crop() missing 2 required positional arguments: 'start' and
 * 'dims'", the names read from the primitive's documented signature.
 * NULL, nothing raised, where the signature does not give them. */
static Value *missing_arguments(Ctx *cx, int prim, int argc)
{
    const char *names[8];
    int lens[8], n = prim_params(prim, cx->rearc, names, lens, 8);
    if (n < 0)
        return NULL;
    int arity = prim_table[prim].arity, k = arity - argc;
    if (n != arity || k <= 0)
        return NULL;
    char msg[512];
    pyexc_arity_words(msg, sizeof msg, prim_table[prim].name, arity, names, lens, argc);
    return cx_raise(cx, "TypeError", "%s", msg);
}

Value *prim_call_mismatch(Ctx *cx, Value *f, int argc, Value *const *argv)
{
    int prim = f->u.fn.prim;
    if (prim < 0 || prim >= PRIM_COUNT || f != prim_value(prim))
        return NULL;
    if (!prim_wrapped(prim))
        return argc < prim_table[prim].arity ? missing_arguments(cx, prim, argc) : NULL;
    for (size_t i = 0; i < sizeof prim_opts / sizeof prim_opts[0]; i++)
        if (prim_opts[i].prim == prim && argc >= prim_opts[i].min && argc < prim_table[prim].arity) {
            Value *full[8];
            for (int k = 0; k < argc; k++)
                full[k] = argv[k];
            full[argc] = prim_value(prim_opts[i].dflt);
            return v_call(cx, f, argc + 1, full);
        }
    return prim_safe_default(prim);
}

Value *prim_safe_default(int prim)
{
    switch (prim < 0 ? RET_TUPLE : prim_table[prim].ret) {
    case RET_FSET: return &v_empty_fset_;
    case RET_INT: return v_int(0);
    case RET_BOOL: return v_bool(false);
    case RET_CALLABLE: return &safe_callable_;
    default: return v_tuple_new(0);
    }
}

bool prim_implemented(int prim)
{
    return prim_table[prim].fn != NULL;
}

Value *prim_failed(Ctx *cx, int prim)
{
    if (!prim_table[prim].fn)
        return cx_raise(cx, "NotImplementedError", "%s is not implemented yet",
                        prim_table[prim].name);
    /* tokpidjin wraps every DSL function: an Exception inside any call,
     * nested ones included, becomes the return type's default.  A spent
     * budget is not an Exception (the reference's timeout is a
     * BaseException), so it still propagates. */
    if (prim_table[prim].dialect == DIALECT_TOKPIDJIN && !cx->over_budget) {
        cx_clear(cx);
        return prim_safe_default(prim);
    }
    return NULL;
}

/* A primitive as a value: invoking it calls its C function (v_call takes
 * the same path without this frame). */
Value *prim_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    return prim_run(cx, self->u.fn.prim, argv);
}

static Value prim_values_[PRIM_COUNT];
static bool prim_values_ready_;

static void prim_values_init(void)
{
    safe_callable_.hash = v_hash_address(0x7f2000000000ull - 160);
    safe_callable_.hashed = 1;
    for (int i = 0; i < PRIM_COUNT; i++) {
        Value *v = &prim_values_[i];
        v->refs = -1;
        v->type = V_FUNC;
        v->u.fn.invoke = prim_invoke;
        v->u.fn.mismatch = prim_call_mismatch;
        v->u.fn.name = prim_table[i].name;
        v->u.fn.prim = (int16_t)i;
        v->u.fn.arity = prim_table[i].arity;
        /* module functions sit in definition order at fixed addresses */
        v->hash = v_hash_address(0x7f2000000000ull + 160 * (uint64_t)i);
        v->hashed = 1;
    }
    prim_values_ready_ = true;
}

void prim_thread_done(void)
{
    cm_occurrences_thread_done();
}

static __attribute__((noinline, cold)) Value *prim_value_first(int prim)
{
    prim_values_init();
    return &prim_values_[prim];
}

Value *prim_value(int prim)     /* a tail call on the first: no frame on the others */
{
    return prim_values_ready_ ? &prim_values_[prim] : prim_value_first(prim);
}

static const char *const tk_aliases[][2] = {
#define TKALIAS(alias, target) {#alias, #target},
#define TK(name, arity, ret, fn, gpu, shape)
#include "tokpidjin/list.h"
#undef TK
#undef TKALIAS
};

/* Names -> primitive ids: the lowering looks up every name a program uses,
 * so the two dialects' names sit in one open-addressed table. */
#define NAME_SLOTS 2048             /* over 2 x PRIM_COUNT: short probes */
static int16_t name_slot[NAME_SLOTS];   /* prim id + 1; 0 empty */
static pthread_once_t name_once = PTHREAD_ONCE_INIT;

static uint32_t name_hash(int dialect, const char *s)
{
    return fnv1a32(FNV1A32_BASIS ^ (uint32_t)dialect, s, strlen(s));
}

static void name_index_init(void)
{
    for (int i = 0; i < PRIM_COUNT; i++) {
        uint32_t k = name_hash(prim_table[i].dialect, prim_table[i].name) & (NAME_SLOTS - 1);
        while (name_slot[k])
            k = (k + 1) & (NAME_SLOTS - 1);
        name_slot[k] = (int16_t)(i + 1);
    }
}

int prim_lookup(int dialect, const char *name)
{
    if (dialect == DIALECT_TOKPIDJIN)
        for (size_t i = 0; i < sizeof tk_aliases / sizeof tk_aliases[0]; i++)
            if (strcmp(tk_aliases[i][0], name) == 0)
                name = tk_aliases[i][1];
    pthread_once(&name_once, name_index_init);
    for (uint32_t k = name_hash(dialect, name) & (NAME_SLOTS - 1); name_slot[k];
         k = (k + 1) & (NAME_SLOTS - 1)) {
        int i = name_slot[k] - 1;
        if (prim_table[i].dialect == dialect && !prim_table[i].rearc &&
            strcmp(prim_table[i].name, name) == 0)
            return i;
    }
    return -1;
}

int prim_lookup_rearc(const char *name)
{
    for (int i = PRIM_RA_argmax; i < PRIM_COUNT; i++)
        if (strcmp(prim_table[i].name, name) == 0)
            return i;
    return prim_lookup(DIALECT_ARCDSL, name);
}

/* ---- constants ---------------------------------------------------------- */

typedef struct {
    const char *name;
    int kind;            /* 0: int, 1: bool, 2: pair */
    int a, b;
} ConstDef;

static const ConstDef arcdsl_consts[] = {
    {"F", 1, 0, 0}, {"T", 1, 1, 0},
    {"ZERO", 0, 0, 0}, {"ONE", 0, 1, 0}, {"TWO", 0, 2, 0}, {"THREE", 0, 3, 0},
    {"FOUR", 0, 4, 0}, {"FIVE", 0, 5, 0}, {"SIX", 0, 6, 0}, {"SEVEN", 0, 7, 0},
    {"EIGHT", 0, 8, 0}, {"NINE", 0, 9, 0}, {"TEN", 0, 10, 0},
    {"NEG_ONE", 0, -1, 0}, {"NEG_TWO", 0, -2, 0},
    {"DOWN", 2, 1, 0}, {"RIGHT", 2, 0, 1}, {"UP", 2, -1, 0}, {"LEFT", 2, 0, -1},
    {"ORIGIN", 2, 0, 0}, {"UNITY", 2, 1, 1}, {"NEG_UNITY", 2, -1, -1},
    {"UP_RIGHT", 2, -1, 1}, {"DOWN_LEFT", 2, 1, -1}, {"ZERO_BY_TWO", 2, 0, 2},
    {"TWO_BY_ZERO", 2, 2, 0}, {"TWO_BY_TWO", 2, 2, 2}, {"THREE_BY_THREE", 2, 3, 3},
};
#define N_ARCDSL_CONSTS (sizeof arcdsl_consts / sizeof arcdsl_consts[0])

static const ConstDef tokpidjin_consts[] = {
#define TKC(name, kind, a, b) {#name, kind, a, b},
#include "tokpidjin/consts.h"
#undef TKC
};
#define N_TOKPIDJIN_CONSTS (sizeof tokpidjin_consts / sizeof tokpidjin_consts[0])

static Value *arcdsl_const_values[N_ARCDSL_CONSTS];
static Value *tokpidjin_const_values[N_TOKPIDJIN_CONSTS];

static const ConstDef *consts_of(int dialect, size_t *n, Value ***cache)
{
    if (dialect == DIALECT_TOKPIDJIN) {
        *n = N_TOKPIDJIN_CONSTS;
        *cache = tokpidjin_const_values;
        return tokpidjin_consts;
    }
    *n = N_ARCDSL_CONSTS;
    *cache = arcdsl_const_values;
    return arcdsl_consts;
}

/* Both dialects' constants by name, as the primitives' names above; the
 * values are made with the index, before any thread can ask for one. */
#define CONST_SLOTS 512
static struct { int16_t dialect, i; } const_slot[CONST_SLOTS];   /* i + 1; 0 empty */
static pthread_once_t const_once = PTHREAD_ONCE_INIT;

static void const_index_init(void)
{
    static const int dialects[] = {DIALECT_ARCDSL, DIALECT_TOKPIDJIN};
    for (int d = 0; d < 2; d++) {
        size_t n;
        Value **cache;
        const ConstDef *defs = consts_of(dialects[d], &n, &cache);
        for (size_t i = 0; i < n; i++) {
            const ConstDef *c = &defs[i];
            Value *v = c->kind == 0 ? v_int(c->a) : c->kind == 1 ? v_bool(c->a)
                                                               : v_pair_int(c->a, c->b);
            if (v->refs >= 0)
                v->refs = -1;   /* constants live for the whole run */
            cache[i] = v;
            uint32_t k = name_hash(dialects[d], c->name) & (CONST_SLOTS - 1);
            while (const_slot[k].i)
                k = (k + 1) & (CONST_SLOTS - 1);
            const_slot[k].dialect = (int16_t)dialects[d];
            const_slot[k].i = (int16_t)(i + 1);
        }
    }
}

Value *const_lookup(int dialect, const char *name)
{
    size_t n;
    Value **cache;
    const ConstDef *defs = consts_of(dialect, &n, &cache);
    pthread_once(&const_once, const_index_init);
    for (uint32_t k = name_hash(dialect, name) & (CONST_SLOTS - 1); const_slot[k].i;
         k = (k + 1) & (CONST_SLOTS - 1)) {
        int i = const_slot[k].i - 1;
        if (const_slot[k].dialect == dialect && strcmp(defs[i].name, name) == 0)
            return cache[i];
    }
    return NULL;
}

const char *const_name_at(int dialect, int i)
{
    size_t n;
    Value **cache;
    const ConstDef *defs = consts_of(dialect, &n, &cache);
    if (i < 0 || (size_t)i >= n)
        return NULL;
    return defs[i].name;
}

/* ---- suggestions -------------------------------------------------------- */

static int edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 1000;
    int row[65];
    for (size_t j = 0; j <= lb; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int up = row[j];
            int best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

/* Python builtins people type for a DSL primitive: "did you mean" names
 * the primitives that do the job, where the dialect has them. */
static const struct { const char *python, *dsl[3]; } builtin_for[] = {
    {"len", {"size"}},
    {"max", {"maximum", "valmax", "argmax"}},
    {"min", {"minimum", "valmin", "argmin"}},
    {"range", {"interval"}},
    {"sum", {"add", "merge"}},
    {"sorted", {"order"}},
    {"tuple", {"totuple"}},
    {"list", {"totuple"}},
    {"map", {"apply", "rapply", "papply"}},
    {"filter", {"sfilter", "mfilter"}},
    {"zip", {"pair"}},
    {"next", {"first"}},
    {"abs", {"absdiff"}},
    {"divmod", {"divide"}},
    {"reversed", {"vmirror", "hmirror"}},
    {"all", {"both"}},
    {"any", {"either"}},
    {"set", {"initset", "insert"}},
};

static bool dialect_names(int dialect, const char *name)
{
    return prim_lookup(dialect, name) >= 0 || const_lookup(dialect, name);
}

bool prim_suggest(int dialect, const char *name, char *buf, size_t n)
{
    for (size_t b = 0; b < sizeof builtin_for / sizeof builtin_for[0]; b++) {
        if (strcmp(name, builtin_for[b].python) != 0)
            continue;
        const char *have[3];
        int k = 0;
        for (int i = 0; i < 3 && builtin_for[b].dsl[i]; i++)
            if (dialect_names(dialect, builtin_for[b].dsl[i]))
                have[k++] = builtin_for[b].dsl[i];
        size_t len = 0;
        buf[0] = '\0';
        for (int i = 0; i < k && len < n; i++)
            len += (size_t)snprintf(buf + len, n - len, "%s'%s'", i == 0 ? "" : i == k - 1 ? " or " : ", ",
                                    have[i]);
        return k > 0;       /* a builtin the dialect has no stand-in for: no guess */
    }
    const char *best = NULL;
    int bestd = 1000;
    for (int i = 0; i < PRIM_COUNT; i++) {
        if (prim_table[i].dialect != dialect)
            continue;
        int d = edit_distance(name, prim_table[i].name);
        if (d < bestd) {
            bestd = d;
            best = prim_table[i].name;
        }
    }
    for (int i = 0; const_name_at(dialect, i); i++) {
        int d = edit_distance(name, const_name_at(dialect, i));
        if (d < bestd) {
            bestd = d;
            best = const_name_at(dialect, i);
        }
    }
    /* a suggestion farther than half the name is noise; x1, I, C are too
     * short for a guess to mean anything */
    size_t len = strlen(name);
    if (len <= 2 || bestd > (int)(len / 2 + 1))
        return false;
    snprintf(buf, n, "'%s'", best);
    return true;
}

/* ---- documentation (arcrun list) ------------------------------------------ */

typedef struct { const char *name, *signature, *description; } PrimDoc;

enum { PRIM_TK_FIRST = 0
#define AD(name, arity, ret, gpu, shape) + 1
#include "arcdsl/list.h"
#undef AD
};

/* the doc.h files list the primitives in their list.h order, aliases after */
static const PrimDoc docs_ad[] = {
#define DOC(name, sig, desc) {#name, sig, desc},
#include "arcdsl/doc.h"
};
static const PrimDoc docs_tk[] = {
#include "tokpidjin/doc.h"
};
static const PrimDoc docs_ra[] = {
#include "rearc/doc.h"
#undef DOC
};

static const PrimDoc *prim_doc(int prim)
{
    const PrimDoc *d = prim < PRIM_TK_FIRST ? &docs_ad[prim]
                     : prim < PRIM_RA_argmax ? &docs_tk[prim - PRIM_TK_FIRST]
                     : &docs_ra[prim - PRIM_RA_argmax];
    return strcmp(d->name, prim_table[prim].name) == 0 ? d : NULL;
}

const char *prim_signature(int prim)
{
    const PrimDoc *d = prim_doc(prim);
    return d ? d->signature : "";
}

const char *prim_description(int prim)
{
    const PrimDoc *d = prim_doc(prim);
    return d ? d->description : "";
}
