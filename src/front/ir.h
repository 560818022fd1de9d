/* ir.h -- programs after parsing and name resolution: straight-line SSA.
 *
 * Every program is a list of statements over numbered slots.  Slots
 * 0..nparams-1 are the parameters (I for arc-dsl; task_id, S, I, C,
 * log_path for batt), the rest are assigned exactly once, in order.
 * Nested calls in the source are flattened into temporaries, so a
 * statement is always one call of operands.
 */
#ifndef ARC_IR_H
#define ARC_IR_H

#include "value.h"

/* An operand: a slot, or a constant value (a DSL constant, a literal, or
 * a primitive as a function value).  Constants are owned by the module. */
typedef struct {
    int32_t slot;    /* >= 0: read this slot; -1: use k */
    Value *k;
} IrOperand;

typedef enum {
    IR_CALL,         /* dst = callee(args...) */
    IR_UNPACK,       /* dsts... = callee(args...), result unpacked */
    IR_EMPTY_LIST,   /* s = [] / o = []  (records a list name; no value) */
    IR_RECORD,       /* s.append((k, a, b, tK)) / o.append(...): args[0..3] */
    IR_RETURN,       /* return args... */
    IR_BIND,         /* dst = args[0]: `x = y`, `x = CONST`, `a, b = y, z`; no
                        computation (uses of x read args[0] directly), a
                        statement so that --trace records the assignment */
} IrKind;

#define IR_MAX_ARGS 8

typedef struct {
    uint8_t kind;            /* IrKind */
    uint8_t guarded;         /* inside try/except: errors give the safe default */
    uint8_t nargs;
    uint8_t ndst;            /* IR_UNPACK: number of targets */
    int32_t dst;             /* IR_CALL, IR_BIND: target slot; IR_RECORD: list id (0 = s, 1 = o) */
    int32_t *dsts;           /* IR_UNPACK targets (ndst of them) */
    char *catches;           /* guarded: the except clause's names, comma-separated
                                ("" for a bare except), looked up when it catches */
    IrOperand callee;        /* IR_CALL / IR_UNPACK */
    IrOperand *args;         /* [nargs] */
    int32_t line, col;       /* source location of the statement */
} IrStmt;

typedef struct {
    char *name;              /* "solve_67a3c6ac", "batt" */
    const char *file;        /* the module's path (IrModule.path) */
    int dialect;             /* DIALECT_* */
    int nparams;
    int nslots;
    char **slot_names;       /* [nslots]: "I", "x1", "t12", "_tmp3" ... */
    IrStmt *stmts;           /* one block with the statements' args, dsts,
                                catches and the slot names (lower_seal) */
    int nstmts;
    int line;                /* line of the def */
    bool called;             /* another def or a module constant names it: a
                                helper, run as a program only when its name
                                pairs it with a task */
} IrProgram;

/* A def as a function value's target (calldef.c): what a call runs. */
typedef struct IrDef IrDef;

/* The length of the prefix that names an arc-dsl def as task <id>'s
 * program -- entry (--entry), or when NULL solve_ and re-arc's verify_ --
 * 0 when none. */
size_t ir_program_prefix(const char *entry, const char *name);
/* The number of arguments a dialect's harness calls a program with: 1 (the
 * input grid), or batt's 5. */
int ir_program_arity(int dialect);
/* The prefix that names an arc-dsl def as a program in what loads next
 * (--entry), or NULL for solve_ and verify_: a def so named whose
 * parameters do not fit raises TypeError when run; another, never runs. */
void ir_program_entry(const char *prefix);

/* ir_load_*'s dialect: DIALECT_*, -1 to pick it from the program, or
 * this: arc-dsl's dialect with names resolved as in re-arc's dsl.py (its
 * own argmax, argmin, occurrences; `from dsl import *` binds the
 * constants).  Picked for a file that defines verify_<id> functions. */
enum { IR_DIALECT_REARC = 16 };
/* A dialect's name as users write it ("arc-dsl", "re-arc", "tokpidjin",
 * or "arcdsl", "rearc") as ir_load_*'s dialect; -1 for any other. */
int ir_dialect_parse(const char *name);


typedef struct IrModule {
    char *path;
    int dialect;
    bool rearc;              /* names resolved as re-arc's dsl.py (IR_DIALECT_REARC) */
    IrProgram *progs;
    int nprogs;
    long nstmts_total;       /* assignments + records + returns, for --check */
    char *warnings;          /* located warnings for stderr, or NULL (malloc'd) */
    Value **pinned;          /* constants made immortal for runs (ir_pin_constants) */
    size_t npinned, cappinned;
    Value **bound;           /* what the top level binds: defs' function values, constants */
    int nbound;
    IrDef **defs;            /* [ndefs]: each def's call target */
    int ndefs;
    struct IrModule **parts; /* a run's modules (ir_merge): progs are views of theirs */
    int nparts;
} IrModule;

/* Parse and lower a file.  dialect < 0: pick it from the program (def batt
 * -> tokpidjin, otherwise arc-dsl).  On error returns NULL and writes a
 * located message ("file:line:col: error: ...\n  source line\n  ^") to
 * *errmsg (malloc'd). */
IrModule *ir_load_file(const char *path, int dialect, char **errmsg);
IrModule *ir_load_string(const char *name, const char *src, int dialect, char **errmsg);
void ir_free(IrModule *m);
/* The name of the dialect m was read in. */
const char *ir_dialect_name(const IrModule *m);
/* The programs of several paths -- program files, and directories of them
 * (*.py, *.dsl, by name; a file's `def solve` runs as solve_<file name>) --
 * as one module whose programs are side by side; each file keeps its own
 * top-level names.  One file path: ir_load_file.  NULL with every file's
 * errors in *errmsg.  The path "-" is stdin_text, named <stdin>. */
IrModule *ir_load_paths(char *const *paths, int npaths, const char *stdin_text, int dialect,
                        char **errmsg);
/* parts as one module, which owns them from now on (freed on failure). */
IrModule *ir_merge(IrModule **parts, int nparts, char **errmsg);
/* Before running m on several threads: its constants stop being reference
 * counted until ir_free (v_pin). */
void ir_pin_constants(IrModule *m);

/* Primitives the module references that cannot run yet: their count, and
 * their names comma-separated in sb. */
int module_missing_prims(const IrModule *m, StrBuf *sb);

/* Evaluate one expression (Python literals and nested DSL calls) for
 * `arcrun eval`.  Returns a new reference, or NULL with either *errmsg set
 * (syntax/name error, malloc'd) or an exception pending in cx. */
Value *ir_eval_expr(Ctx *cx, const char *src, char **errmsg);
/* For tests: constant grids of ints 0..255 in what is lowered next are
 * made as byte grids (vgrid.h), so that one case checks both forms. */
void ir_grids_as_bytes(bool on);
/* The same, names resolved as in re-arc's dsl.py when rearc. */
Value *ir_eval_expr_as(Ctx *cx, const char *src, bool rearc, char **errmsg);

#endif
