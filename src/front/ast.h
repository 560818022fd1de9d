/* ast.h -- the syntax tree the parser builds and the lowering (lower.h)
 * turns into IR.
 *
 * The tree mirrors the Python subset loosely (assignment targets are
 * expressions, method calls are attribute calls) so that the grammar stays
 * conflict-free and the checks that give good messages live in the
 * lowering.
 * Nodes live in an arena owned by the ParseCtx: no per-node frees, and a
 * parse abandoned half-way leaks nothing.  A hook may take each top-level
 * statement as it is parsed (ParseCtx.on_stmt) and give the nodes' memory
 * back to the arena for the next one (arena_reset).
 */
#ifndef ARC_AST_H
#define ARC_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct { int line, col; } Loc;

/* Nodes in blocks (head, newest first); strings in blocks of their own
 * (strs), which outlive arena_reset: names stay valid for the module. */
typedef struct ArenaBlock ArenaBlock;
typedef struct {
    ArenaBlock *head, *spare, *strs;   /* spare: blocks a reset gave back, reused */
    char *str, *str_end;               /* the current string run */
} Arena;
typedef struct { ArenaBlock *block; size_t used; } ArenaMark;

void *arena_alloc(Arena *a, size_t n);            /* zeroed */
char *arena_strndup(Arena *a, const char *s, size_t n);
void arena_free(Arena *a);
/* Nodes allocated after the mark are dropped; their memory serves the
 * next ones (warm pages, not new ones). */
ArenaMark arena_mark(const Arena *a);
void arena_reset(Arena *a, ArenaMark m);

typedef enum {
    E_NAME, E_INT, E_FLOAT, E_STR, E_TRUE, E_FALSE, E_NONE,
    E_TUPLE,     /* (a, b)  (a,)  () */
    E_LIST,      /* []  (only `s = []` is meaningful) */
    E_SET,       /* {a, b}  (only as frozenset's argument) */
    E_CALL,      /* fn(args) */
    E_ATTR,      /* obj.name  (only as s.append / o.append) */
    E_NEG,       /* -x where x is not a number literal */
    E_POS,       /* +x where x is not a number literal */
    /* `arcrun eval` only (its grammar alone makes them; src/front/pyeval.c) */
    E_BINOP,     /* a OP b, OP a PY_* below; also a and b, a or b */
    E_NOT,       /* not x (u.neg) */
    E_COMPARE,   /* a < b <= c ...: operands in u.cmp.items, ops[n - 1] */
    E_IFEXP,     /* a if cond else b */
    E_LAMBDA,    /* lambda params: body (params: E_NAME items) */
    E_SUBSCRIPT, /* obj[index] */
    E_SLICE,     /* lo:hi:step inside a subscript; NULL parts absent */
    E_KEYWORD,   /* name=value among a call's arguments */
    E_INVERT,    /* ~x (eval) */
} ExprKind;

/* eval's operators: E_BINOP's and E_COMPARE's op */
enum {
    PY_ADD, PY_SUB, PY_MUL, PY_DIV, PY_FLOORDIV, PY_MOD, PY_POW, PY_BITOR, PY_BITXOR, PY_BITAND,
    PY_AND, PY_OR,
    PY_LT, PY_LE, PY_GT, PY_GE, PY_EQ, PY_NE, PY_IN, PY_NOT_IN, PY_IS, PY_IS_NOT,
};

typedef struct Expr Expr;
struct Expr {
    int kind;
    uint8_t paren;                                     /* eval: written in parentheses */
    uint16_t signs;                                    /* unary signs folded into this
                                                          number literal (-1), at most 65535 */
    Loc loc;
    Expr *next;                                        /* sibling in a list */
    union {
        char *name;                                    /* E_NAME */
        int64_t i;                                     /* E_INT */
        double f;                                      /* E_FLOAT */
        struct { char *s; size_t len; } str;           /* E_STR */
        struct { Expr *items; int n; } list;           /* E_TUPLE, E_LIST, E_SET */
        struct { Expr *fn; Expr *args; int nargs; } call;
        struct { Expr *obj; char *name; } attr;
        Expr *neg;                                     /* E_NEG, E_POS, E_NOT, E_INVERT */
        struct { int op; Expr *a, *b; } bin;           /* E_BINOP */
        struct { Expr *items; int n; int *ops; } cmp;  /* E_COMPARE */
        struct { Expr *cond, *a, *b; } ifexp;          /* E_IFEXP: a if cond else b */
        struct { Expr *params; int n; Expr *body; } lambda;   /* E_LAMBDA */
        struct { Expr *obj, *index; } sub;             /* E_SUBSCRIPT */
        struct { Expr *lo, *hi, *step; } slice;        /* E_SLICE */
        struct { char *name; Expr *value; } kw;        /* E_KEYWORD */
    } u;
};

/* A comma-separated list while parsing; comma: a comma was seen (so a
 * single item still makes a tuple). */
typedef struct { Expr *head, *tail; int n; int comma; } ExprList;

typedef enum {
    S_EXPR,      /* expression statement: s.append(...), docstrings */
    S_ASSIGN,    /* targets = value */
    S_RETURN,
    S_PASS,
    S_IMPORT,
    S_DEF,
    S_TRY,       /* try: body  except exc: handler */
} StmtKind;

/* A name of `from M import a, b as c`: as is NULL without `as`. */
typedef struct ImportName ImportName;
struct ImportName {
    char *name, *as;
    Loc loc;
    ImportName *next;
};

typedef struct Stmt Stmt;
struct Stmt {
    int kind;
    Loc loc;
    Stmt *next;
    union {
        Expr *expr;                                        /* S_EXPR */
        struct { Expr *targets; int ntargets; int tuple; Expr *value; } assign;
        struct { Expr *values; int n; } ret;               /* S_RETURN */
        struct { char *name; Expr *params; int nparams; Stmt *body; } def;
        struct { Stmt *body; Stmt *handler; Expr *exc; Loc except; } try_;
        /* S_IMPORT: `from module import names` (names NULL for `*`);
         * module NULL for `import m, ...`, which binds no DSL name */
        struct { char *module; ImportName *names; } import;
    } u;
};

typedef struct { Stmt *head, *tail; } StmtList;

enum { PARSE_FILE, PARSE_EXPR };

/* Everything one parse needs and produces. */
typedef struct ParseCtx {
    const char *file;          /* name used in messages */
    const char *src;
    size_t len;
    bool src_padded;           /* src[len] and src[len + 1] are NULs and writable:
                                  the lexer scans it in place, and leaves it as it was */
    Arena arena;
    int mode;                  /* PARSE_FILE / PARSE_EXPR */
    Stmt *body;                /* PARSE_FILE: top-level statements */
    Stmt **body_end;           /* where the next one links (NULL: &body) */
    Expr *expr;                /* PARSE_EXPR: the expression */
    char *err;                 /* accumulated messages (malloc'd) */
    size_t errlen, errcap;
    char *warn;                /* accumulated warnings (malloc'd) */
    size_t warnlen, warncap;
    int nerr;
    int lex_failed;            /* the lexer reported the error already */
    /* names, one copy each (pc_intern): lookups of a name compare addresses first */
    struct { uint32_t hash, len; const char *s; } *syms;
    uint32_t syms_cap, nsyms;
    /* PARSE_FILE: when set, each top-level statement goes here as it is
     * parsed instead of into body; < 0 stops the parse */
    int (*on_stmt)(struct ParseCtx *pc, Stmt *s);
    void *hook;
} ParseCtx;

/* Past this many errors, messages are dropped and lowering stops. */
#define PC_MAX_ERRORS 20

void pc_init(ParseCtx *pc, const char *file, const char *src, size_t len, int mode);
void pc_free(ParseCtx *pc);    /* arena and messages */
/* Append "file:line:col: error: msg", the source line and a caret. */
void pc_error(ParseCtx *pc, Loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same with "warning:": reported, nothing refused. */
void pc_warning(ParseCtx *pc, Loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Hand the accumulated messages to the caller (malloc'd) and forget them. */
char *pc_take_errors(ParseCtx *pc);
/* The warnings, or NULL when there are none (malloc'd). */
char *pc_take_warnings(ParseCtx *pc);

/* The one copy of the name s[0..n) in this parse (in the arena's strings),
 * its hash stored before it.  Every name in the tree is one (the lexer
 * makes them): equal names are one pointer, and lowering compares them so. */
char *pc_intern(ParseCtx *pc, const char *s, size_t n);
/* The hash of a name pc_intern made. */
static inline uint32_t name_hash(const char *name)
{
    uint32_t h;
    __builtin_memcpy(&h, name - sizeof h, sizeof h);
    return h;
}

/* Node constructors (arena-allocated). */
Expr *ast_expr(ParseCtx *pc, int kind, Loc at);
Stmt *ast_stmt(ParseCtx *pc, int kind, Loc at);
void el_push(ExprList *l, Expr *e);
void sl_push(StmtList *l, Stmt *s);

/* CPython's compiler refuses an expression nested deeper than about 3,000
 * levels ("maximum recursion depth exceeded during compilation"); the
 * limit falls by three for each Python frame below the compile, and this
 * is its value for a script's function calling eval. */
#define AST_NEST_MAX 2994
/* Whether e nests deeper than `levels`, counted as CPython's AST counts:
 * every expression one level, a keyword's value none more, `a and b and c`
 * one level for the chain, a folded sign one each.  It looks no deeper than
 * that, so it can run before anything that walks e recursively. */
bool ast_nests_deeper(const Expr *e, int levels);
/* The same for any of a list of expressions (linked by next). */
bool ast_list_nests_deeper(const Expr *it, int levels);

/* Lex and parse pc->src (lexer.l); 0 on success, else messages in pc. */
int ast_parse(ParseCtx *pc);

#endif
