/* lower.h -- what the lowering files share (not a public interface: the
 * front layer's is ir.h).  Syntax tree to IR: name resolution,
 * flattening, checks.
 *
 * Each def becomes one IrProgram.  Names resolve to, in order: the
 * function's own slots and aliases, the dialect's constants, its
 * primitives.  Nested calls are flattened into temporaries (_t1, _t2 ...)
 * in Python's evaluation order (callee, then arguments left to right).
 * `x = y` and `x = <constant>` emit nothing: x becomes another name for
 * the same operand, which is all Python's binding does.
 *
 * Operand conventions beyond ir.h: in IR_RETURN, the lists s and o are
 * operands with slot = IR_SLOT_LIST(id) (-2 for s, -3 for o) and k = NULL.
 * Every operand's k holds its own reference (ir_free drops them).
 *
 * lower_expr.c: locals, slots, expressions; lower_stmt.c: statements and
 * defs; lower.c: modules; lower_eval.c: `arcrun eval`.
 */
#ifndef ARC_LOWER_H
#define ARC_LOWER_H

#include "ast.h"
#include "imports.h"
#include "ir.h"
#include "utf8.h"
#include "prim.h"
#include "pyset.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IR_SLOT_LIST(id) (-2 - (id))

enum { L_SLOT, L_ALIAS, L_LIST };

typedef struct ModScope ModScope;   /* lower.c */

typedef struct {
    const char *name;
    int kind;
    IrOperand op;          /* L_SLOT / L_ALIAS; L_LIST: op.slot = list id */
    int prim;              /* the primitive an alias stands for, or -1 */
    Loc at;
} Local;

/* A statement while its def is lowered: its operands inline, until
 * lower_seal packs the def. */
typedef struct {
    IrStmt s;
    IrOperand args[IR_MAX_ARGS];
} LowerStmt;

typedef struct {
    ParseCtx *pc;
    int dialect;
    IrProgram *p;
    /* the def being lowered, reused from def to def: statements, and slot
     * names as offsets into one run of characters */
    LowerStmt *stmts;
    int stmt_cap;
    uint32_t *slot_at;
    int slot_cap;
    char *names;
    size_t names_len, names_cap;
    Local *locals;
    int nlocals, locals_cap;
    int *index;            /* open addressing over locals; -1 empty */
    int index_cap;
    int ntemps;
    int guarded;
    char *catches;         /* while guarded: the except clause's names */
    long counted;          /* assignments + records + returns */
    Stmt *def;             /* the def being lowered */
    const char **targets;  /* open addressing over the def's assigned names; NULL empty */
    uint32_t targets_cap;  /* a power of two */
    bool eval;             /* lowering for ir_eval_expr */
    ImportScope imports;   /* which DSL names the file's imports bind */
    const char **unbound;  /* DSL names used but not imported (warned once each) */
    int nunbound;
    ModScope *mod;         /* the module's top-level names, or NULL (eval) */
    bool rearc;            /* names as re-arc's dsl.py has them (ir.h) */
    int def_index;         /* the def being lowered, or -1 */
    /* what a DSL name resolved to, by the name's address (names are
     * interned: pc_intern): c, or prim id, or neither */
    struct { const char *name; Value *c; int id; } *dsl;
    uint32_t dsl_cap, ndsl;
} Lower;

#define ERR(L, at, ...) (pc_error((L)->pc, (at), __VA_ARGS__), -1)

void *lower_realloc(void *p, size_t n);    /* aborts when out of memory */
char *lower_strdup(const char *s);

/* ---- operands ------------------------------------------------------------ */

static inline IrOperand op_k(Value *v) { return (IrOperand){ -1, v }; }          /* takes v */
static inline IrOperand op_slot(int s) { return (IrOperand){ s, NULL }; }
static inline IrOperand op_copy(IrOperand o) { v_incref(o.k); return o; }
static inline void op_drop(IrOperand *o) { v_decref(o->k); o->k = NULL; }
static inline bool op_const(IrOperand o) { return o.slot == -1 && o.k; }

/* ---- lower_expr.c ------------------------------------------------------------ */

/* Names here are the tree's, interned (pc_intern): the tables below hash
 * them with name_hash and compare them by address. */
Local *lower_local_find(Lower *L, const char *name);
void lower_local_add(Lower *L, const char *name, int kind, IrOperand op, int prim, Loc at);
void lower_locals_reset(Lower *L);
int lower_new_slot(Lower *L, const char *name);
IrStmt *lower_emit(Lower *L, int kind, Loc at);
/* The set of names d assigns: Python makes each local in all of d. */
void lower_targets_collect(Lower *L, Stmt *d);
bool lower_is_plain_call(Lower *L, Expr *e);
/* Lower a call's callee and arguments (emitting their temporaries). */
int lower_call(Lower *L, Expr *e, IrOperand *callee, IrOperand *args, int *nargs);
void lower_emit_call(Lower *L, Loc at, IrOperand callee, IrOperand *args, int nargs, int dst);
/* e into an operand (a slot or a constant); prim: the primitive it names, or -1 */
int lower_value(Lower *L, Expr *e, IrOperand *out, int *prim);

/* ---- lower.c: the names a module binds at the top level --------------------- */

typedef struct {
    const char *name;
    Value *v;              /* borrowed from IrModule.bound */
    int def;               /* the def's index, or -1 for a constant */
    int line;
} ModName;

struct ModScope {
    ModName *names;
    int n, cap;
    int *index;            /* open addressing over names: latest binding, -1 empty */
    uint32_t index_cap;
    bool *called;          /* [ndefs]: named by another def or a constant */
    int visible_line;      /* > 0: only names bound before this line (module code
                              runs top to bottom); 0: all (defs run after import) */
    /* lowering as the parse goes (lower.c): names looked up and not found,
     * and whether an assumption of that way has failed */
    bool streaming, doubt;
    const char **missed;   /* open addressing; NULL empty */
    uint32_t missed_cap, nmissed;
};

/* The binding of name at the top level that the code being lowered sees, or
 * NULL; marks a def named from elsewhere as called. */
const ModName *mod_lookup(Lower *L, const char *name);

/* ---- calldef.c ----------------------------------------------------------------- */

/* The function value a def is called through (its name, its arity); m
 * owns the target, which finds the def once m->progs[index] is lowered. */
Value *def_value_new(IrModule *m, int index, const char *name, int nparams);
void def_free(IrDef *d);
/* CPython's TypeError message for p called with argc positional arguments
 * where it takes another number. */
void ir_arity_words(char *buf, size_t size, const IrProgram *p, int argc);
/* Run p's statements in order for one caller: params are p's first slots
 * (borrowed).  Returns what its `return` gives, else result's value (a
 * slot of p or a constant), else None; NULL with an exception in cx. */
Value *ir_run(Ctx *cx, const IrProgram *p, Value *const *params, IrOperand result);

/* ---- pyeval.c: `arcrun eval`'s Python ---------------------------------------- */

/* Whether e holds Python beyond literals and DSL calls (operators, lambda,
 * builtins, lists, subscripts...): then py_eval walks it, else it is
 * lowered and run as a program's expressions are. */
bool py_needed(const Expr *e);
Value *py_eval(Ctx *cx, const Expr *e, bool rearc);

/* ---- lower_stmt.c ------------------------------------------------------------ */

void lower_program_clear(IrProgram *p);
/* p's statements and slot names let go of; the rest of p kept. */
void lower_body_clear(IrProgram *p);
void lower_begin(Lower *L, IrProgram *p);
/* The program being lowered into its own block, sized to fit: before it
 * runs, and before the next lower_begin. */
void lower_seal(Lower *L);
void lower_def(Lower *L, Stmt *d, IrProgram *p);
void lower_done(Lower *L);

#endif
