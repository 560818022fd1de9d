/* lower.c -- syntax tree to IR: name resolution, flattening, checks.
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
 */
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

typedef struct {
    const char *name;
    int kind;
    IrOperand op;          /* L_SLOT / L_ALIAS; L_LIST: op.slot = list id */
    int prim;              /* the primitive an alias stands for, or -1 */
    Loc at;
} Local;

typedef struct {
    ParseCtx *pc;
    int dialect;
    IrProgram *p;
    int stmt_cap, slot_cap;
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
} Lower;

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) { fputs("arcrun: out of memory\n", stderr); abort(); }
    return p;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

#define ERR(L, at, ...) (pc_error((L)->pc, (at), __VA_ARGS__), -1)

/* ---- operands ------------------------------------------------------------ */

static IrOperand op_k(Value *v) { return (IrOperand){ -1, v }; }          /* takes v */
static IrOperand op_slot(int s) { return (IrOperand){ s, NULL }; }
static IrOperand op_copy(IrOperand o) { v_incref(o.k); return o; }
static void op_drop(IrOperand *o) { v_decref(o->k); o->k = NULL; }
static bool op_const(IrOperand o) { return o.slot == -1 && o.k; }

/* ---- locals ---------------------------------------------------------------- */

static uint32_t name_hash(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s) h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

static Local *local_find(Lower *L, const char *name)
{
    if (!L->index_cap) return NULL;
    for (uint32_t i = name_hash(name) & (uint32_t)(L->index_cap - 1);; i = (i + 1) & (uint32_t)(L->index_cap - 1)) {
        int k = L->index[i];
        if (k < 0) return NULL;
        if (strcmp(L->locals[k].name, name) == 0) return &L->locals[k];
    }
}

static void index_put(Lower *L, int k)
{
    uint32_t m = (uint32_t)(L->index_cap - 1);
    uint32_t i = name_hash(L->locals[k].name) & m;
    while (L->index[i] >= 0) i = (i + 1) & m;
    L->index[i] = k;
}

static void local_add(Lower *L, const char *name, int kind, IrOperand op, int prim, Loc at)
{
    if (L->nlocals == L->locals_cap) {
        L->locals_cap = L->locals_cap ? 2 * L->locals_cap : 32;
        L->locals = xrealloc(L->locals, (size_t)L->locals_cap * sizeof *L->locals);
    }
    L->locals[L->nlocals] = (Local){ name, kind, op, prim, at };
    if (2 * (L->nlocals + 1) > L->index_cap) {
        L->index_cap = L->index_cap ? 2 * L->index_cap : 64;
        L->index = xrealloc(L->index, (size_t)L->index_cap * sizeof *L->index);
        for (int i = 0; i < L->index_cap; i++) L->index[i] = -1;
        for (int k = 0; k < L->nlocals; k++) index_put(L, k);
    }
    index_put(L, L->nlocals++);
}

static void locals_reset(Lower *L)
{
    for (int k = 0; k < L->nlocals; k++)
        if (L->locals[k].kind != L_LIST) op_drop(&L->locals[k].op);
    L->nlocals = 0;
    for (int i = 0; i < L->index_cap; i++) L->index[i] = -1;
}

/* ---- program building ------------------------------------------------------- */

static int new_slot(Lower *L, const char *name)
{
    IrProgram *p = L->p;
    if (p->nslots == L->slot_cap) {
        L->slot_cap = L->slot_cap ? 2 * L->slot_cap : 16;
        p->slot_names = xrealloc(p->slot_names, (size_t)L->slot_cap * sizeof *p->slot_names);
    }
    p->slot_names[p->nslots] = xstrdup(name);
    return p->nslots++;
}

static int new_temp(Lower *L)
{
    char name[32];
    snprintf(name, sizeof name, "_t%d", ++L->ntemps);
    return new_slot(L, name);
}

static IrStmt *emit(Lower *L, int kind, Loc at)
{
    IrProgram *p = L->p;
    if (p->nstmts == L->stmt_cap) {
        L->stmt_cap = L->stmt_cap ? 2 * L->stmt_cap : 16;
        p->stmts = xrealloc(p->stmts, (size_t)L->stmt_cap * sizeof *p->stmts);
    }
    IrStmt *s = &p->stmts[p->nstmts++];
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->guarded = (uint8_t)L->guarded;
    if (L->guarded) s->catches = xstrdup(L->catches);
    s->callee = op_slot(-1);
    for (int i = 0; i < IR_MAX_ARGS; i++) s->args[i] = op_slot(-1);
    s->line = at.line;
    s->col = at.col;
    return s;
}

/* ---- expressions ------------------------------------------------------------ */

static int lower_value(Lower *L, Expr *e, IrOperand *out, int *prim);
static void emit_call(Lower *L, Loc at, IrOperand callee, IrOperand *args, int nargs, int dst);

/* Each assignment target of a try block or a plain statement of d. */
#define FOR_TARGETS(d, s, a, t) \
    for (Stmt *s = (d)->u.def.body; s; s = s->next) \
        for (Stmt *a = s->kind == S_TRY ? s->u.try_.body : s; a; a = s->kind == S_TRY ? a->next : NULL) \
            if (a->kind == S_ASSIGN) \
                for (Expr *t = a->u.assign.targets; t; t = t->next) \
                    if (t->kind == E_NAME)

static bool is_target(const Lower *L, const char *name)
{
    uint32_t m = L->targets_cap - 1;
    for (uint32_t i = name_hash(name) & m; L->targets[i]; i = (i + 1) & m)
        if (strcmp(L->targets[i], name) == 0) return true;
    return false;
}

/* The set of names d assigns: Python makes each local in all of d. */
static void targets_collect(Lower *L, Stmt *d)
{
    uint32_t n = 0, cap = 16;
    FOR_TARGETS(d, s, a, t) n++;
    while (cap < 2 * n) cap *= 2;
    L->targets = xrealloc(L->targets, cap * sizeof *L->targets);
    memset(L->targets, 0, cap * sizeof *L->targets);
    L->targets_cap = cap;
    FOR_TARGETS(d, s, a, t) {
        uint32_t i = name_hash(t->u.name) & (cap - 1);
        while (L->targets[i] && strcmp(L->targets[i], t->u.name) != 0) i = (i + 1) & (cap - 1);
        L->targets[i] = t->u.name;
    }
}

/* Line where the current def assigns name, or 0. */
static int assigned_later(Lower *L, const char *name)
{
    if (!L->def || !is_target(L, name)) return 0;
    FOR_TARGETS(L->def, s, a, t)
        if (strcmp(t->u.name, name) == 0) return t->loc.line;
    return 0;
}

static Value *name_error_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    (void)argv;
    return cx_raise(cx, "NameError", "name '%s' is not defined", self->u.fn.cap[0]->u.str.s);
}

/* A DSL name the file's imports do not bind: CPython raises NameError
 * where it is evaluated, so a call that raises goes there.  The name's
 * value stays in the expression, which that call keeps from running. */
static void raise_name_error(Lower *L, Expr *e)
{
    const char *name = e->u.name;
    int k = 0;
    while (k < L->nunbound && strcmp(L->unbound[k], name) != 0) k++;
    if (k == L->nunbound) {
        L->unbound = xrealloc(L->unbound, (size_t)(k + 1) * sizeof *L->unbound);
        L->unbound[L->nunbound++] = name;
        pc_warning(L->pc, e->loc, "'%s' is not imported here (imports from: %s); "
                   "as in CPython, this line raises NameError when it runs",
                   name, L->imports.modules);
    }
    Value *str = v_str(name, strlen(name));
    IrOperand f = op_k(v_func_new(name_error_invoke, "<NameError>", -1, 0, 0, 1, &str));
    v_decref(str);
    emit_call(L, e->loc, f, NULL, 0, new_temp(L));
}

static int resolve(Lower *L, Expr *e, IrOperand *out, int *prim)
{
    const char *name = e->u.name;
    *prim = -1;
    Local *lc = local_find(L, name);
    if (lc) {
        if (lc->kind == L_LIST)
            return ERR(L, e->loc, "'%s' is a list: it can only be appended to or returned", name);
        *out = op_copy(lc->op);
        *prim = lc->prim;
        return 0;
    }
    /* a name assigned anywhere in the function is local in all of it, so a
     * constant or primitive of that name is hidden (CPython: UnboundLocalError) */
    int later = assigned_later(L, name);
    if (later && (const_lookup(L->dialect, name) || prim_lookup(L->dialect, name) >= 0))
        return ERR(L, e->loc, "'%s' is used before it is assigned (line %d), which hides the DSL's '%s' "
                              "in the whole function", name, later, name);
    if (later)
        return ERR(L, e->loc, "'%s' is used before it is assigned (line %d)", name, later);
    const char *dsl_name = imports_target(&L->imports, name);
    Value *c = const_lookup(L->dialect, dsl_name);
    int id = c ? -1 : prim_lookup(L->dialect, dsl_name);
    if ((c || id >= 0) &&
        !imports_bind(&L->imports, name, c != NULL, id == PRIM_TK_batch_process_samples_gpu))
        raise_name_error(L, e);
    if (c) { *out = op_k(v_incref(c)); return 0; }
    if (id >= 0) { *out = op_k(prim_value(id)); *prim = id; return 0; }
    const char *hint = prim_suggest(L->dialect, name);
    if (hint)
        return ERR(L, e->loc, "unknown name '%s' (did you mean '%s'?)", name, hint);
    return ERR(L, e->loc, "unknown name '%s'", name);
}

/* frozenset(...) is Python's builtin unless the program or DSL names it. */
static bool is_frozenset_call(Lower *L, Expr *e)
{
    if (e->kind != E_CALL || e->u.call.fn->kind != E_NAME) return false;
    const char *n = e->u.call.fn->u.name;
    return strcmp(n, "frozenset") == 0 && !local_find(L, n) &&
           !const_lookup(L->dialect, n) && prim_lookup(L->dialect, n) < 0;
}

static bool is_plain_call(Lower *L, Expr *e)
{
    return e->kind == E_CALL && !is_frozenset_call(L, e);
}

/* Lower items into constants (tuple and set displays). */
static int const_items(Lower *L, Expr *items, int n, Value ***out)
{
    Value **vs = xrealloc(NULL, (size_t)n * sizeof *vs);
    int i = 0, rc = 0;
    for (Expr *it = items; it; it = it->next) {
        IrOperand o;
        int prim;
        if (lower_value(L, it, &o, &prim) < 0) { rc = -1; break; }
        if (!op_const(o)) {
            rc = ERR(L, it->loc, "only constants can go in frozenset(...) here "
                                 "(this value is computed at run time)");
            break;
        }
        vs[i++] = o.k;
    }
    if (rc < 0) {
        while (i > 0) v_decref(vs[--i]);
        free(vs);
        return -1;
    }
    *out = vs;
    return 0;
}

/* A compile-time constant to CPython: literals and tuples of them. */
static bool is_literal(const Expr *e)
{
    switch (e->kind) {
    case E_INT: case E_FLOAT: case E_STR: case E_TRUE: case E_FALSE: case E_NONE:
        return true;
    case E_TUPLE:
        for (const Expr *it = e->u.list.items; it; it = it->next)
            if (!is_literal(it)) return false;
        return true;
    }
    return false;
}

static int lower_frozenset(Lower *L, Expr *e, IrOperand *out)
{
    Expr *a = e->u.call.args;
    if (e->u.call.nargs == 0) { *out = op_k(fs_from_items(NULL, 0)); return 0; }
    if (e->u.call.nargs > 1)
        return ERR(L, e->loc, "frozenset expected at most 1 argument, got %d", e->u.call.nargs);
    if (a->kind == E_SET || a->kind == E_TUPLE || a->kind == E_LIST) {
        Value **vs;
        size_t n = (size_t)a->u.list.n;
        if (const_items(L, a->u.list.items, a->u.list.n, &vs) < 0) return -1;
        if (a->kind != E_SET) {
            *out = op_k(fs_from_items(vs, n));           /* frozenset(iterable) */
        } else {
            /* what CPython 3.11 compiles a set display to: more than two
             * literals become a constant frozenset (built from the items,
             * then rebuilt in its own order by the compiler's constant
             * merging) that is merged into an empty set; otherwise the items
             * are added one by one.  frozenset(set) then copies the table. */
            PySet s;
            bool folded = n > 2;
            for (Expr *it = a->u.list.items; it && folded; it = it->next) folded = is_literal(it);
            if (folded) {
                Value *k1 = fs_from_items(vs, n);
                Value *k2 = fs_from_items(k1->u.set.items, k1->u.set.len);
                pyset_from_frozenset(&s, k2);
                v_decref(k1);
                v_decref(k2);
            } else {
                pyset_init(&s);
                for (size_t i = 0; i < n; i++) pyset_add(&s, vs[i]);
            }
            *out = op_k(pyset_to_frozenset(&s));
            pyset_clear(&s);
        }
        for (size_t i = 0; i < n; i++) v_decref(vs[i]);
        free(vs);
        return 0;
    }
    IrOperand o;
    int prim;
    if (lower_value(L, a, &o, &prim) < 0) return -1;
    if (!op_const(o) || !v_is_container(o.k)) {
        op_drop(&o);
        return ERR(L, a->loc, "frozenset() takes a constant tuple, set or frozenset here");
    }
    *out = op_k(fs_from_container(o.k));
    op_drop(&o);
    return 0;
}

/* Lower a call's callee and arguments (emitting their temporaries). */
static int lower_call(Lower *L, Expr *e, IrOperand *callee, IrOperand *args, int *nargs)
{
    Expr *fn = e->u.call.fn;
    int n = e->u.call.nargs, prim = -1;
    if (fn->kind == E_ATTR)
        return ERR(L, fn->loc, "method calls are only supported as statements: s.append(...) / o.append(...)");
    if (lower_value(L, fn, callee, &prim) < 0) return -1;
    if (prim >= 0 && (n > prim_table[prim].arity || n < prim_min_arity(prim))) {
        op_drop(callee);
        int ar = prim_table[prim].arity, lo = prim_min_arity(prim);
        if (lo < ar)
            return ERR(L, fn->loc, "'%s' takes %d or %d arguments, %d given",
                       prim_table[prim].name, lo, ar, n);
        return ERR(L, fn->loc, "'%s' takes %d argument%s, %d given",
                   prim_table[prim].name, ar, ar == 1 ? "" : "s", n);
    }
    if (n > IR_MAX_ARGS) {
        op_drop(callee);
        return ERR(L, e->loc, "too many arguments (%d; at most %d)", n, IR_MAX_ARGS);
    }
    int i = 0;
    for (Expr *a = e->u.call.args; a; a = a->next, i++) {
        int ap;
        if (lower_value(L, a, &args[i], &ap) < 0) {
            while (i > 0) op_drop(&args[--i]);
            op_drop(callee);
            return -1;
        }
    }
    *nargs = n;
    return 0;
}

static void emit_call(Lower *L, Loc at, IrOperand callee, IrOperand *args, int nargs, int dst)
{
    IrStmt *s = emit(L, IR_CALL, at);
    s->callee = callee;
    s->nargs = (uint8_t)nargs;
    for (int i = 0; i < nargs; i++) s->args[i] = args[i];
    s->dst = dst;
}

/* `arcrun eval` may pack computed values: (x, f(y)) calls a builder. */
static Value *tuple_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    (void)cx;
    return v_tuple_from(argv, self->u.fn.arity);
}

static int lower_tuple(Lower *L, Expr *e, IrOperand *out)
{
    int n = e->u.list.n, i = 0, prim;
    bool all_const = true;
    Expr *bad = NULL;
    IrOperand *ops = xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *ops);
    for (Expr *it = e->u.list.items; it; it = it->next, i++) {
        if (lower_value(L, it, &ops[i], &prim) < 0) {
            while (i > 0) op_drop(&ops[--i]);
            free(ops);
            return -1;
        }
        if (!op_const(ops[i]) && all_const) { all_const = false; bad = it; }
    }
    int rc = 0;
    if (all_const) {
        Value *t = v_tuple_new((size_t)n);
        for (i = 0; i < n; i++) { t->u.tup.items[i] = ops[i].k; ops[i].k = NULL; }
        *out = op_k(t);
    } else if (L->eval && n <= IR_MAX_ARGS) {
        IrOperand f = op_k(v_func_new(tuple_invoke, "tuple", -1, n, 0, 0, NULL));
        int dst = new_temp(L);
        emit_call(L, e->loc, f, ops, n, dst);
        for (i = 0; i < n; i++) ops[i].k = NULL;      /* moved */
        *out = op_slot(dst);
    } else {
        rc = ERR(L, bad->loc, "only constants can go in a tuple display here "
                              "(this value is computed at run time)");
    }
    for (i = 0; i < n; i++) op_drop(&ops[i]);
    free(ops);
    return rc;
}

static int lower_value(Lower *L, Expr *e, IrOperand *out, int *prim)
{
    *prim = -1;
    switch (e->kind) {
    case E_NAME:  return resolve(L, e, out, prim);
    case E_INT:   *out = op_k(v_int(e->u.i)); return 0;
    case E_FLOAT: *out = op_k(v_float(e->u.f)); return 0;
    case E_STR:   *out = op_k(v_str(e->u.str.s, e->u.str.len)); return 0;
    case E_TRUE:  *out = op_k(v_bool(true)); return 0;
    case E_FALSE: *out = op_k(v_bool(false)); return 0;
    case E_NONE:  *out = op_k(v_none()); return 0;
    case E_TUPLE:
        return lower_tuple(L, e, out);
    case E_LIST:
        return ERR(L, e->loc, "lists are only supported as 's = []' and 'o = []'");
    case E_SET:
        return ERR(L, e->loc, "set displays are only supported as the argument of frozenset()");
    case E_ATTR:
        return ERR(L, e->loc, "attribute access is only supported as s.append(...) / o.append(...)");
    case E_NEG: case E_POS: {
        IrOperand o;
        int p, sign = e->kind == E_NEG ? -1 : 1;
        if (lower_value(L, e->u.neg, &o, &p) < 0) return -1;
        if (op_const(o) && v_is_int(o.k)) {
            *out = op_k(v_int(sign * o.k->u.i));
        } else if (op_const(o) && o.k->type == V_FLOAT) {
            *out = op_k(v_float(sign * o.k->u.f));
        } else {
            op_drop(&o);
            /* CPython: TypeError at run time for a container or function */
            return ERR(L, e->loc, "unary %s needs a number constant", sign < 0 ? "minus" : "plus");
        }
        op_drop(&o);
        return 0;
    }
    case E_CALL: {
        if (is_frozenset_call(L, e)) return lower_frozenset(L, e, out);
        IrOperand callee, args[IR_MAX_ARGS];
        int nargs;
        if (lower_call(L, e, &callee, args, &nargs) < 0) return -1;
        int dst = new_temp(L);
        emit_call(L, e->loc, callee, args, nargs, dst);
        *out = op_slot(dst);
        return 0;
    }
    }
    return ERR(L, e->loc, "unsupported expression");
}

/* ---- statements ------------------------------------------------------------- */

/* After a failed assignment, bind its names to None so later uses do not
 * report the same mistake again. */
static void poison(Lower *L, Stmt *s)
{
    for (Expr *t = s->u.assign.targets; t; t = t->next)
        if (t->kind == E_NAME && !local_find(L, t->u.name))
            local_add(L, t->u.name, L_ALIAS, op_k(v_none()), -1, t->loc);
}

static int check_targets(Lower *L, Stmt *s)
{
    for (Expr *t = s->u.assign.targets; t; t = t->next) {
        if (t->kind != E_NAME)
            return ERR(L, t->loc, "can only assign to names");
        Local *lc = local_find(L, t->u.name);
        if (lc)
            return ERR(L, t->loc, "'%s' is already assigned (line %d): "
                                  "programs assign each name once", t->u.name, lc->at.line);
        for (Expr *u = s->u.assign.targets; u != t; u = u->next)
            if (strcmp(u->u.name, t->u.name) == 0)
                return ERR(L, t->loc, "'%s' appears twice in the targets", t->u.name);
    }
    return 0;
}

/* name = o as an alias (its uses read o), with an IR_BIND that gives the
 * name a slot of its own for --trace. */
static void bind_alias(Lower *L, Expr *t, IrOperand o, int prim, Loc at)
{
    int dst = new_slot(L, t->u.name);
    IrStmt *st = emit(L, IR_BIND, at);
    st->dst = dst;
    st->nargs = 1;
    st->args[0] = op_copy(o);
    local_add(L, t->u.name, L_ALIAS, o, prim, t->loc);
}

/* a, b = x, f(y): bind each name to its value (all are evaluated first). */
static int lower_parallel(Lower *L, Stmt *s)
{
    Expr *v = s->u.assign.value;
    int n = v->u.list.n, i = 0, prim;
    IrOperand *ops = xrealloc(NULL, (size_t)n * sizeof *ops);
    int *prims = xrealloc(NULL, (size_t)n * sizeof *prims);
    for (Expr *it = v->u.list.items; it; it = it->next, i++) {
        if (lower_value(L, it, &ops[i], &prim) < 0) {
            while (i > 0) op_drop(&ops[--i]);
            free(ops);
            free(prims);
            poison(L, s);
            return -1;
        }
        prims[i] = prim;
    }
    i = 0;
    for (Expr *t = s->u.assign.targets; t; t = t->next, i++)
        bind_alias(L, t, ops[i], prims[i], s->loc);
    free(ops);
    free(prims);
    L->counted++;
    return 0;
}

static int lower_assign(Lower *L, Stmt *s)
{
    if (check_targets(L, s) < 0) return -1;
    Expr *v = s->u.assign.value, *t = s->u.assign.targets;
    if (s->u.assign.tuple) {
        if (s->u.assign.ntargets > 255) return ERR(L, t->loc, "too many targets");
        if (v->kind == E_TUPLE && v->u.list.n == s->u.assign.ntargets)
            return lower_parallel(L, s);
        IrOperand callee, args[IR_MAX_ARGS];
        int nargs;
        if (is_plain_call(L, v)) {
            if (lower_call(L, v, &callee, args, &nargs) < 0) { poison(L, s); return -1; }
        } else {
            /* a, b = x  is  a, b = identity(x) */
            int id = prim_lookup(L->dialect, "identity"), prim;
            if (id < 0) { poison(L, s); return ERR(L, v->loc, "unpacking needs a call on the right-hand side"); }
            if (lower_value(L, v, &args[0], &prim) < 0) { poison(L, s); return -1; }
            callee = op_k(prim_value(id));
            nargs = 1;
        }
        int32_t *dsts = xrealloc(NULL, (size_t)s->u.assign.ntargets * sizeof *dsts);
        int k = 0;
        for (Expr *x = t; x; x = x->next, k++) {
            dsts[k] = new_slot(L, x->u.name);
            local_add(L, x->u.name, L_SLOT, op_slot(dsts[k]), -1, x->loc);
        }
        IrStmt *st = emit(L, IR_UNPACK, s->loc);
        st->callee = callee;
        st->nargs = (uint8_t)nargs;
        for (int i = 0; i < nargs; i++) st->args[i] = args[i];
        st->ndst = (uint8_t)k;
        st->dsts = dsts;
        st->dst = dsts[0];
        L->counted++;
        return 0;
    }
    if (v->kind == E_LIST) {
        int id = strcmp(t->u.name, "s") == 0 ? 0 : strcmp(t->u.name, "o") == 0 ? 1 : -1;
        if (id < 0 || v->u.list.n) {
            poison(L, s);
            return ERR(L, v->loc, "lists are only supported as 's = []' and 'o = []'");
        }
        if (L->guarded) return ERR(L, s->loc, "a list cannot be created inside try");
        IrStmt *st = emit(L, IR_EMPTY_LIST, s->loc);
        st->dst = id;
        local_add(L, t->u.name, L_LIST, op_slot(id), -1, t->loc);
        return 0;
    }
    if (is_plain_call(L, v)) {
        IrOperand callee, args[IR_MAX_ARGS];
        int nargs;
        if (lower_call(L, v, &callee, args, &nargs) < 0) { poison(L, s); return -1; }
        int dst = new_slot(L, t->u.name);
        emit_call(L, s->loc, callee, args, nargs, dst);
        local_add(L, t->u.name, L_SLOT, op_slot(dst), -1, t->loc);
        L->counted++;
        return 0;
    }
    IrOperand o;
    int prim;
    if (lower_value(L, v, &o, &prim) < 0) { poison(L, s); return -1; }
    bind_alias(L, t, o, prim, s->loc);
    L->counted++;
    return 0;
}

static int lower_record(Lower *L, Stmt *s)
{
    Expr *e = s->u.expr, *fn = e->u.call.fn, *obj = fn->u.attr.obj;
    if (strcmp(fn->u.attr.name, "append") != 0)
        return ERR(L, fn->loc, "only .append(...) is supported on lists");
    Local *lc = obj->kind == E_NAME ? local_find(L, obj->u.name) : NULL;
    if (!lc || lc->kind != L_LIST) {
        if (obj->kind == E_NAME && !lc && (strcmp(obj->u.name, "s") == 0 || strcmp(obj->u.name, "o") == 0))
            return ERR(L, obj->loc, "'%s' is used before '%s = []'", obj->u.name, obj->u.name);
        return ERR(L, obj->loc, "only the lists s and o can be appended to");
    }
    Expr *a = e->u.call.args;
    if (e->u.call.nargs != 1 || a->kind != E_TUPLE || a->u.list.n != 4)
        return ERR(L, e->u.call.nargs == 1 ? a->loc : e->loc,
                   "a record must be one 4-tuple: %s.append((k, flag, name, value))", obj->u.name);
    IrOperand ops[4];
    int i = 0, prim;
    for (Expr *it = a->u.list.items; it; it = it->next, i++) {
        if (lower_value(L, it, &ops[i], &prim) < 0) {
            while (i > 0) op_drop(&ops[--i]);
            return -1;
        }
    }
    IrStmt *st = emit(L, IR_RECORD, s->loc);
    st->dst = lc->op.slot;
    st->nargs = 4;
    for (i = 0; i < 4; i++) st->args[i] = ops[i];
    L->counted++;
    return 0;
}

/* `return o, s` with o and s the record lists: the one form in which the
 * records are the result (values hold no lists). */
static bool returns_o_s(Lower *L, Stmt *ret)
{
    Expr *e = ret->u.ret.values;
    for (int id = 1; id >= 0; id--, e = e->next) {
        Local *lc = e && e->kind == E_NAME ? local_find(L, e->u.name) : NULL;
        if (!lc || lc->kind != L_LIST || lc->op.slot != id) return false;
    }
    return ret->u.ret.n == 2;
}

static int lower_return(Lower *L, Stmt *s)
{
    int n = s->u.ret.n, i = 0;
    if (n > IR_MAX_ARGS) return ERR(L, s->loc, "too many return values (at most %d)", IR_MAX_ARGS);
    IrOperand ops[IR_MAX_ARGS];
    for (Expr *e = s->u.ret.values; e; e = e->next, i++) {
        Local *lc = e->kind == E_NAME ? local_find(L, e->u.name) : NULL;
        int prim;
        if (lc && lc->kind == L_LIST) {
            if (!returns_o_s(L, s)) {
                while (i > 0) op_drop(&ops[--i]);
                return ERR(L, e->loc, "a list can only be returned as 'return o, s'");
            }
            ops[i] = op_slot(IR_SLOT_LIST(lc->op.slot));
        } else if (lower_value(L, e, &ops[i], &prim) < 0) {
            while (i > 0) op_drop(&ops[--i]);
            return -1;
        }
    }
    IrStmt *st = emit(L, IR_RETURN, s->loc);
    st->nargs = (uint8_t)n;
    for (i = 0; i < n; i++) st->args[i] = ops[i];
    L->counted++;
    return 0;
}

static bool single(Stmt *s, int kind) { return s && !s->next && s->kind == kind; }

static int lower_try(Lower *L, Stmt *s)
{
    Stmt *body = s->u.try_.body, *h = s->u.try_.handler;
    if (!single(body, S_ASSIGN))
        return ERR(L, body ? body->loc : s->loc, "a try block must hold exactly one assignment");
    Expr *exc = s->u.try_.exc;
    if (exc && exc->kind != E_NAME) {
        bool ok = exc->kind == E_TUPLE;
        for (Expr *x = ok ? exc->u.list.items : NULL; x; x = x->next) ok &= x->kind == E_NAME;
        if (!ok) return ERR(L, exc->loc, "except needs exception class names");
    }
    /* the clause's names, evaluated by CPython only when the body raises */
    size_t len = 1;
    Expr *names = exc && exc->kind == E_TUPLE ? exc->u.list.items : exc;
    for (Expr *x = names; x; x = exc->kind == E_TUPLE ? x->next : NULL) len += strlen(x->u.name) + 1;
    L->catches = xrealloc(NULL, len);
    L->catches[0] = '\0';
    for (Expr *x = names; x; x = exc->kind == E_TUPLE ? x->next : NULL) {
        if (L->catches[0]) strcat(L->catches, ",");
        strcat(L->catches, x->u.name);
    }
    L->guarded = 1;
    int rc = lower_assign(L, body);
    L->guarded = 0;
    free(L->catches);
    L->catches = NULL;
    if (rc < 0) return -1;

    /* the handler only restates the safe default: check it says so */
    Expr *target = body->u.assign.targets, *v = body->u.assign.value;
    if (!single(h, S_ASSIGN) || h->u.assign.tuple || body->u.assign.tuple ||
        strcmp(h->u.assign.targets->kind == E_NAME ? h->u.assign.targets->u.name : "",
               target->u.name) != 0)
        return ERR(L, h ? h->loc : s->u.try_.except,
                   "the except branch must be '%s = _get_safe_default(...)'",
                   body->u.assign.tuple ? "..." : target->u.name);
    Expr *hv = h->u.assign.value;
    if (hv->kind != E_CALL || hv->u.call.fn->kind != E_NAME ||
        strcmp(hv->u.call.fn->u.name, "_get_safe_default") != 0 || hv->u.call.nargs != 1)
        return ERR(L, hv->loc, "the except branch must be '%s = _get_safe_default(...)'",
                   target->u.name);
    Expr *arg = hv->u.call.args;
    if (v->kind == E_CALL && v->u.call.fn->kind == E_NAME &&
        (arg->kind != E_NAME || strcmp(arg->u.name, v->u.call.fn->u.name) != 0))
        return ERR(L, arg->loc, "the safe default must name the callee '%s'", v->u.call.fn->u.name);
    return 0;
}

static int lower_stmt(Lower *L, Stmt *s)
{
    switch (s->kind) {
    case S_ASSIGN: return lower_assign(L, s);
    case S_RETURN: return lower_return(L, s);
    case S_TRY:    return lower_try(L, s);
    case S_PASS: case S_IMPORT: return 0;
    case S_DEF:    return ERR(L, s->loc, "nested function definitions are not supported");
    case S_EXPR: {
        Expr *e = s->u.expr;
        if (e->kind == E_STR) return 0;                       /* docstring */
        if (e->kind == E_CALL && e->u.call.fn->kind == E_ATTR) return lower_record(L, s);
        return ERR(L, e->loc, "this statement has no effect: assign its value to a name");
    }
    }
    return ERR(L, s->loc, "unsupported statement");
}

static void program_clear(IrProgram *p)
{
    free(p->name);
    for (int i = 0; i < p->nslots; i++) free(p->slot_names[i]);
    free(p->slot_names);
    for (int i = 0; i < p->nstmts; i++) {
        IrStmt *s = &p->stmts[i];
        free(s->dsts);
        free(s->catches);
        v_decref(s->callee.k);
        for (int j = 0; j < s->nargs; j++) v_decref(s->args[j].k);
    }
    free(p->stmts);
    memset(p, 0, sizeof *p);
}

static void lower_begin(Lower *L, IrProgram *p)
{
    memset(p, 0, sizeof *p);
    p->dialect = L->dialect;
    L->p = p;
    L->stmt_cap = L->slot_cap = 0;
    L->ntemps = 0;
    L->guarded = 0;
}

/* The batt protocol unpacks `o, s = batt(...)` and reads records from both:
 * without `return o, s` last, CPython's caller fails or reads other lists. */
static void batt_check_return(Lower *L, Stmt *d)
{
    Stmt *last = d->u.def.body;
    while (last && last->next) last = last->next;
    bool lists = false;   /* lower_return has said what is wrong with those */
    for (Expr *e = last && last->kind == S_RETURN ? last->u.ret.values : NULL; e; e = e->next) {
        Local *lc = e->kind == E_NAME ? local_find(L, e->u.name) : NULL;
        lists |= lc && lc->kind == L_LIST;
    }
    if (!lists && (!last || last->kind != S_RETURN || !returns_o_s(L, last)))
        pc_error(L->pc, last ? last->loc : d->loc,
                 "batt must end with 'return o, s': its caller unpacks o, s from the result");
}

static void lower_def(Lower *L, Stmt *d, IrProgram *p)
{
    lower_begin(L, p);
    L->def = d;
    p->name = xstrdup(d->u.def.name);
    p->line = d->loc.line;
    for (Expr *a = d->u.def.params; a; a = a->next) {
        if (local_find(L, a->u.name)) {
            pc_error(L->pc, a->loc, "duplicate parameter '%s'", a->u.name);
            continue;
        }
        int k = new_slot(L, a->u.name);
        local_add(L, a->u.name, L_SLOT, op_slot(k), -1, a->loc);
        p->nparams++;
    }
    /* the caller passes arguments by position: solve(I), batt(task_id, S, I, C, log_path) */
    targets_collect(L, d);
    int want = L->dialect == DIALECT_TOKPIDJIN ? 5 : 1;
    if (p->nparams != want)
        pc_error(L->pc, d->loc, L->dialect == DIALECT_TOKPIDJIN
                 ? "'%s' takes %d parameters; a batt program is called with 5 (task_id, S, I, C, log_path)"
                 : "'%s' takes %d parameters; an arc-dsl program is called with 1, the input grid",
                 p->name, p->nparams);
    for (Stmt *s = d->u.def.body; s && L->pc->nerr <= PC_MAX_ERRORS; s = s->next) lower_stmt(L, s);
    if (L->dialect == DIALECT_TOKPIDJIN && strcmp(p->name, "batt") == 0) batt_check_return(L, d);
    locals_reset(L);
    L->def = NULL;
}

static void lower_done(Lower *L)
{
    imports_free(&L->imports);
    free(L->unbound);
    locals_reset(L);
    free(L->locals);
    free(L->index);
    free(L->targets);
}

/* ---- modules ---------------------------------------------------------------- */

static int pick_dialect(Stmt *body)
{
    for (Stmt *s = body; s; s = s->next)
        if (s->kind == S_DEF && strcmp(s->u.def.name, "batt") == 0) return DIALECT_TOKPIDJIN;
    return DIALECT_ARCDSL;
}

void ir_pin_constants(IrModule *m)
{
    for (int p = 0; p < m->nprogs; p++)
        for (int k = 0; k < m->progs[p].nstmts; k++) {
            IrStmt *s = &m->progs[p].stmts[k];
            v_pin(s->callee.k, &m->pinned, &m->npinned, &m->cappinned);
            for (int a = 0; a < s->nargs; a++)
                v_pin(s->args[a].k, &m->pinned, &m->npinned, &m->cappinned);
        }
}

void ir_free(IrModule *m)
{
    if (!m) return;
    for (int i = 0; i < m->nprogs; i++) program_clear(&m->progs[i]);
    for (size_t i = 0; i < m->npinned; i++) v_free_pinned(m->pinned[i]);   /* after the decrefs, which skip them */
    free(m->pinned);
    free(m->progs);
    free(m->warnings);
    free(m->path);
    free(m);
}

/* CPython decodes a program as UTF-8 and rejects the file otherwise.
 * ASCII is skipped eight bytes at a time; the location is worked out only
 * for a bad byte. */
static bool utf8_source(ParseCtx *pc, const char *src, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint64_t w;
        if (i + 8 <= len && (memcpy(&w, src + i, 8), !(w & 0x8080808080808080ull))) {
            i += 8;
            continue;
        }
        uint32_t cp;
        int n = utf8_decode((const unsigned char *)src + i, len - i, &cp);
        if (!n) break;
        i += (size_t)n;
    }
    if (i >= len)
        return true;
    int line = 1;
    size_t bol = 0;
    for (size_t k = 0; k < i; k++)
        if (src[k] == '\n') { line++; bol = k + 1; }
    pc_error(pc, (Loc){ line, (int)(i - bol) + 1 },
             "the file is not valid UTF-8 here (byte 0x%02x); Python reads programs as UTF-8",
             (unsigned char)src[i]);
    return false;
}

IrModule *ir_load_string(const char *name, const char *src, int dialect, char **errmsg)
{
    size_t len = strlen(src);
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) { src += 3; len -= 3; }  /* BOM */
    ParseCtx pc;
    pc_init(&pc, name, src, len, PARSE_FILE);
    if (!utf8_source(&pc, src, len) || ast_parse(&pc) < 0) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        return NULL;
    }
    IrModule *m = xrealloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    m->path = xstrdup(name);
    m->dialect = dialect >= 0 && dialect < DIALECT_COUNT ? dialect : pick_dialect(pc.body);

    Lower L;
    memset(&L, 0, sizeof L);
    L.pc = &pc;
    L.dialect = m->dialect;
    imports_scan(&L.imports, pc.body);
    int cap = 0;
    /* program names, open-addressed: a batt file defines thousands */
    size_t ndefs = 0, dcap = 16;
    for (Stmt *s = pc.body; s; s = s->next)
        ndefs += s->kind == S_DEF;
    while (dcap < 2 * ndefs) dcap *= 2;
    int *defs = xrealloc(NULL, dcap * sizeof *defs);
    memset(defs, -1, dcap * sizeof *defs);
    for (Stmt *s = pc.body; s && pc.nerr <= PC_MAX_ERRORS; s = s->next) {
        if (s->kind == S_DEF) {
            uint32_t d = name_hash(s->u.def.name) & (uint32_t)(dcap - 1);
            for (; defs[d] >= 0; d = (d + 1) & (uint32_t)(dcap - 1))
                if (strcmp(m->progs[defs[d]].name, s->u.def.name) == 0) {
                    pc_error(&pc, s->loc, "function '%s' is already defined (line %d)",
                        s->u.def.name, m->progs[defs[d]].line);
                    break;
                }
            if (defs[d] < 0) defs[d] = m->nprogs;
            if (m->nprogs == cap) {
                cap = cap ? 2 * cap : 8;
                m->progs = xrealloc(m->progs, (size_t)cap * sizeof *m->progs);
            }
            lower_def(&L, s, &m->progs[m->nprogs++]);
        } else if (s->kind == S_IMPORT || s->kind == S_PASS ||
                   (s->kind == S_EXPR && s->u.expr->kind == E_STR)) {
            continue;
        } else {
            pc_error(&pc, s->loc, "only imports and function definitions may appear at the top level");
        }
    }
    lower_done(&L);
    free(defs);
    m->nstmts_total = L.counted;
    m->warnings = pc_take_warnings(&pc);
    if (pc.nerr) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        ir_free(m);
        return NULL;
    }
    pc_free(&pc);
    return m;
}

IrModule *ir_load_file(const char *path, int dialect, char **errmsg)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t len = 0, cap = 0;
    int e = 0;
    if (!f) {
        e = errno;
    } else {
        for (;;) {
            if (len + 1 >= cap) {
                cap = cap ? 2 * cap : 65536;
                buf = xrealloc(buf, cap);
            }
            size_t n = fread(buf + len, 1, cap - len - 1, f);
            len += n;
            if (n == 0) break;
        }
        if (ferror(f)) e = errno ? errno : EIO;
        fclose(f);
    }
    if (e) {
        free(buf);
        if (errmsg) {
            const char *why = strerror(e);
            size_t n = strlen(path) + strlen(why) + 32;
            *errmsg = xrealloc(NULL, n);
            snprintf(*errmsg, n, "%s: error: cannot read: %s\n", path, why);
        }
        return NULL;
    }
    buf[len] = 0;
    if (memchr(buf, 0, len)) {
        /* NUL bytes: still parse (and report) everything before the first */
        ParseCtx pc;
        pc_init(&pc, path, buf, len, PARSE_FILE);
        size_t nul = strlen(buf);
        int line = 1, col = 1;
        for (size_t i = 0; i < nul; i++) {
            if (buf[i] == '\n') { line++; col = 1; } else col++;
        }
        pc_error(&pc, (Loc){ line, col }, "source contains a NUL byte");
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        free(buf);
        return NULL;
    }
    IrModule *m = ir_load_string(path, buf, dialect, errmsg);
    free(buf);
    return m;
}

/* ---- eval ---------------------------------------------------------------------- */

static Value *operand_value(Value **slots, IrOperand o)
{
    return o.slot >= 0 ? slots[o.slot] : o.k;
}

Value *ir_eval_expr(Ctx *cx, const char *src, char **errmsg)
{
    if (errmsg) *errmsg = NULL;
    ParseCtx pc;
    pc_init(&pc, "<expr>", src, strlen(src), PARSE_EXPR);
    if (ast_parse(&pc) < 0) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        return NULL;
    }
    Lower L;
    memset(&L, 0, sizeof L);
    L.pc = &pc;
    L.dialect = cx->dialect;
    L.eval = true;
    IrProgram p;
    lower_begin(&L, &p);
    IrOperand res = op_slot(-1);
    int prim;
    int rc = lower_value(&L, pc.expr, &res, &prim);
    lower_done(&L);
    if (rc < 0 || pc.nerr) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        op_drop(&res);
        program_clear(&p);
        return NULL;
    }
    pc_free(&pc);

    Value **slots = xrealloc(NULL, (size_t)(p.nslots ? p.nslots : 1) * sizeof *slots);
    for (int i = 0; i < p.nslots; i++) slots[i] = NULL;
    Value *out = NULL;
    bool ok = true;
    for (int i = 0; i < p.nstmts && ok; i++) {
        IrStmt *s = &p.stmts[i];
        Value *argv[IR_MAX_ARGS];
        for (int j = 0; j < s->nargs; j++) argv[j] = operand_value(slots, s->args[j]);
        Value *r = v_call(cx, operand_value(slots, s->callee), s->nargs, argv);
        if (!r) ok = false;
        else slots[s->dst] = r;
    }
    if (ok) out = v_incref(operand_value(slots, res));
    for (int i = 0; i < p.nslots; i++) v_decref(slots[i]);
    free(slots);
    op_drop(&res);
    program_clear(&p);
    return out;
}
