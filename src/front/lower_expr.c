/* lower_expr.c -- lowering expressions: locals and slots, name
 * resolution, calls flattened into temporaries, tuple and set displays. */
#include "lower.h"
#include "vgrid.h"
#include "setdisplay.h"

void *lower_realloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) { fputs("arcrun: out of memory\n", stderr); abort(); }
    return p;
}

char *lower_strdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(lower_realloc(NULL, n), s, n);
}

/* ---- locals ---------------------------------------------------------------- */

Local *lower_local_find(Lower *L, const char *name)
{
    if (!L->index_cap) return NULL;
    for (uint32_t i = name_hash(name) & (uint32_t)(L->index_cap - 1);; i = (i + 1) & (uint32_t)(L->index_cap - 1)) {
        int k = L->index[i];
        if (k < 0) return NULL;
        if (L->locals[k].name == name) return &L->locals[k];
    }
}

static void index_put(Lower *L, int k)
{
    uint32_t m = (uint32_t)(L->index_cap - 1);
    uint32_t i = name_hash(L->locals[k].name) & m;
    while (L->index[i] >= 0) i = (i + 1) & m;
    L->index[i] = k;
}

void lower_local_add(Lower *L, const char *name, int kind, IrOperand op, int prim, Loc at)
{
    if (L->nlocals == L->locals_cap) {
        L->locals_cap = L->locals_cap ? 2 * L->locals_cap : 32;
        L->locals = lower_realloc(L->locals, (size_t)L->locals_cap * sizeof *L->locals);
    }
    L->locals[L->nlocals] = (Local){ name, kind, op, prim, at };
    if (2 * (L->nlocals + 1) > L->index_cap) {
        L->index_cap = L->index_cap ? 2 * L->index_cap : 64;
        L->index = lower_realloc(L->index, (size_t)L->index_cap * sizeof *L->index);
        for (int i = 0; i < L->index_cap; i++) L->index[i] = -1;
        for (int k = 0; k < L->nlocals; k++) index_put(L, k);
    }
    index_put(L, L->nlocals++);
}

void lower_locals_reset(Lower *L)
{
    for (int k = 0; k < L->nlocals; k++)
        if (L->locals[k].kind != L_LIST) op_drop(&L->locals[k].op);
    L->nlocals = 0;
    for (int i = 0; i < L->index_cap; i++) L->index[i] = -1;
}

/* ---- program building ------------------------------------------------------- */

int lower_new_slot(Lower *L, const char *name)
{
    IrProgram *p = L->p;
    if (p->nslots == L->slot_cap) {
        L->slot_cap = L->slot_cap ? 2 * L->slot_cap : 64;
        L->slot_at = lower_realloc(L->slot_at, (size_t)L->slot_cap * sizeof *L->slot_at);
    }
    size_t n = strlen(name) + 1;
    if (L->names_len + n > L->names_cap) {
        L->names_cap = L->names_cap ? 2 * L->names_cap : 1024;
        while (L->names_cap < L->names_len + n) L->names_cap *= 2;
        L->names = lower_realloc(L->names, L->names_cap);
    }
    memcpy(L->names + L->names_len, name, n);
    L->slot_at[p->nslots] = (uint32_t)L->names_len;
    L->names_len += n;
    return p->nslots++;
}

static int new_temp(Lower *L)
{
    char name[32];
    snprintf(name, sizeof name, "_t%d", ++L->ntemps);
    return lower_new_slot(L, name);
}

IrStmt *lower_emit(Lower *L, int kind, Loc at)
{
    IrProgram *p = L->p;
    if (p->nstmts == L->stmt_cap) {
        L->stmt_cap = L->stmt_cap ? 2 * L->stmt_cap : 64;
        L->stmts = lower_realloc(L->stmts, (size_t)L->stmt_cap * sizeof *L->stmts);
    }
    LowerStmt *ls = &L->stmts[p->nstmts++];
    IrStmt *s = &ls->s;
    memset(s, 0, sizeof *s);
    s->kind = (uint8_t)kind;
    s->guarded = (uint8_t)L->guarded;
    if (L->guarded) s->catches = lower_strdup(L->catches);
    s->callee = op_slot(-1);
    s->args = ls->args;
    s->line = at.line;
    s->col = at.col;
    return s;
}

/* ---- expressions ------------------------------------------------------------ */


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
        if (L->targets[i] == name) return true;
    return false;
}

/* The set of names d assigns: Python makes each local in all of d. */
void lower_targets_collect(Lower *L, Stmt *d)
{
    uint32_t n = 0, cap = 16;
    FOR_TARGETS(d, s, a, t) n++;
    while (cap < 2 * n) cap *= 2;
    L->targets = lower_realloc(L->targets, cap * sizeof *L->targets);
    memset(L->targets, 0, cap * sizeof *L->targets);
    L->targets_cap = cap;
    FOR_TARGETS(d, s, a, t) {
        uint32_t i = name_hash(t->u.name) & (cap - 1);
        while (L->targets[i] && L->targets[i] != t->u.name) i = (i + 1) & (cap - 1);
        L->targets[i] = t->u.name;
    }
}

/* Line where the current def assigns name, or 0. */
static int assigned_later(Lower *L, const char *name)
{
    if (!L->def || !is_target(L, name)) return 0;
    FOR_TARGETS(L->def, s, a, t)
        if (t->u.name == name) return t->loc.line;
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
        L->unbound = lower_realloc(L->unbound, (size_t)(k + 1) * sizeof *L->unbound);
        L->unbound[L->nunbound++] = name;
        pc_warning(L->pc, e->loc, "'%s' is not imported here (imports from: %s); "
                   "as in CPython, this line raises NameError when it runs",
                   name, L->imports.modules);
    }
    Value *str = v_str(name, strlen(name));
    IrOperand f = op_k(v_func_new(name_error_invoke, "<NameError>", -1, 0, 0, 1, &str));
    v_decref(str);
    lower_emit_call(L, e->loc, f, NULL, 0, new_temp(L));
}

static uint32_t dsl_slot(const Lower *L, const char *name)
{
    uint32_t m = L->dsl_cap - 1;
    uint32_t i = name_hash(name) & m;
    while (L->dsl[i].name && L->dsl[i].name != name) i = (i + 1) & m;
    return i;
}

/* The DSL constant (*c) or primitive (*id) name stands for under the
 * file's imports, each name worked out once (by address: names are
 * interned). */
static void dsl_resolve(Lower *L, const char *name, Value **c, int *id)
{
    uint32_t i = L->dsl_cap ? dsl_slot(L, name) : 0;
    if (L->dsl_cap && L->dsl[i].name) {
        *c = L->dsl[i].c;
        *id = L->dsl[i].id;
        return;
    }
    const char *dsl_name = imports_target(&L->imports, name);
    *c = const_lookup(L->dialect, dsl_name);
    *id = *c ? -1 : L->rearc ? prim_lookup_rearc(dsl_name) : prim_lookup(L->dialect, dsl_name);
    if (2 * (L->ndsl + 1) > L->dsl_cap) {
        __typeof__(L->dsl) old = L->dsl;
        uint32_t oldcap = L->dsl_cap;
        L->dsl_cap = oldcap ? 2 * oldcap : 512;
        L->dsl = lower_realloc(NULL, L->dsl_cap * sizeof *L->dsl);
        memset(L->dsl, 0, L->dsl_cap * sizeof *L->dsl);
        for (uint32_t k = 0; k < oldcap; k++)
            if (old[k].name) L->dsl[dsl_slot(L, old[k].name)] = old[k];
        free(old);
        i = dsl_slot(L, name);
    }
    L->dsl[i].name = name;
    L->dsl[i].c = *c;
    L->dsl[i].id = *id;
    L->ndsl++;
}

static int resolve(Lower *L, Expr *e, IrOperand *out, int *prim)
{
    const char *name = e->u.name;
    *prim = -1;
    Local *lc = lower_local_find(L, name);
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
    const ModName *mn = mod_lookup(L, name);
    if (mn) {
        Value *v = mn->v;
        *out = op_k(v_incref(v));
        if (v->type == V_FUNC && v->u.fn.prim >= 0 && v == prim_value(v->u.fn.prim))
            *prim = v->u.fn.prim;
        return 0;
    }
    Value *c;
    int id;
    dsl_resolve(L, name, &c, &id);
    if ((c || id >= 0) &&
        !imports_bind(&L->imports, name, c != NULL, id == PRIM_TK_batch_process_samples_gpu))
        raise_name_error(L, e);
    if (c) { *out = op_k(v_incref(c)); return 0; }
    if (id >= 0) { *out = op_k(prim_value(id)); *prim = id; return 0; }
    char hint[96];
    if (prim_suggest(L->dialect, name, hint, sizeof hint))
        return ERR(L, e->loc, "unknown name '%s' (did you mean %s?)", name, hint);
    return ERR(L, e->loc, "unknown name '%s'", name);
}

/* frozenset(...) is Python's builtin unless the program or DSL names it. */
static bool is_frozenset_call(Lower *L, Expr *e)
{
    if (e->kind != E_CALL || e->u.call.fn->kind != E_NAME) return false;
    const char *n = e->u.call.fn->u.name;
    return strcmp(n, "frozenset") == 0 && !lower_local_find(L, n) &&
           !const_lookup(L->dialect, n) && prim_lookup(L->dialect, n) < 0;
}

bool lower_is_plain_call(Lower *L, Expr *e)
{
    return e->kind == E_CALL && !is_frozenset_call(L, e);
}

/* Lower items into constants (tuple and set displays). */
static int const_items(Lower *L, Expr *items, int n, Value ***out)
{
    Value **vs = lower_realloc(NULL, (size_t)n * sizeof *vs);
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
            /* frozenset(set) copies the display's table */
            PySet s;
            set_display_table(&s, vs, n, set_display_folded(a->u.list.items, a->u.list.n));
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

/* A primitive called with the wrong number of arguments: CPython loads
 * the file and the call fails only when it runs (TypeError in arc-dsl;
 * tokpidjin's wrapper gives the default), so the call is kept, for v_call
 * to answer as they do, and the file's other lines still run. */
static void warn_arity(Lower *L, const Expr *fn, int prim, int n)
{
    int ar = prim_table[prim].arity, lo = prim_min_arity(prim);
    char takes[64];
    if (lo < ar)
        snprintf(takes, sizeof takes, "%d or %d arguments", lo, ar);
    else
        snprintf(takes, sizeof takes, "%d argument%s", ar, ar == 1 ? "" : "s");
    pc_warning(L->pc, fn->loc, "'%s' takes %s, %d given; %s", prim_table[prim].name, takes, n,
               prim_table[prim].dialect == DIALECT_TOKPIDJIN
                   ? "as tokpidjin's wrapper does, the call gives its default when it runs"
                   : "as in CPython, this line raises TypeError when it runs");
}

/* The primitive's own answer to n arguments, whatever they are: CPython's
 * TypeError, or tokpidjin's default (v_call asks its mismatch rule). */
static Value *overfull_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    (void)argv;
    int n = (int)self->u.fn.cap[1]->u.i;
    Value **nones = xmalloc_(sizeof *nones * (size_t)n);
    for (int i = 0; i < n; i++)
        nones[i] = v_none();
    Value *r = v_call(cx, self->u.fn.cap[0], n, nones);
    free(nones);
    return r;
}

/* A primitive given more arguments than a statement holds (every one
 * takes fewer): the arguments are evaluated, as CPython does before the
 * call fails, then a call of no arguments gives what the primitive's
 * call would. */
static int lower_overfull_call(Lower *L, Expr *e, IrOperand *callee, int *nargs)
{
    for (Expr *a = e->u.call.args; a; a = a->next) {
        IrOperand o;
        int ap;
        if (lower_value(L, a, &o, &ap) < 0) {
            op_drop(callee);
            return -1;
        }
        op_drop(&o);
    }
    Value *cap[2] = {callee->k, v_int(e->u.call.nargs)};
    Value *f = v_func_new(overfull_invoke, callee->k->u.fn.name, -1, 0, 0, 2, cap);
    v_decref(cap[1]);
    op_drop(callee);
    *callee = op_k(f);
    *nargs = 0;
    return 0;
}

/* Lower a call's callee and arguments (emitting their temporaries). */
int lower_call(Lower *L, Expr *e, IrOperand *callee, IrOperand *args, int *nargs)
{
    Expr *fn = e->u.call.fn;
    int n = e->u.call.nargs, prim = -1;
    if (fn->kind == E_ATTR)
        return ERR(L, fn->loc, "method calls are only supported as statements: s.append(...) / o.append(...)");
    if (lower_value(L, fn, callee, &prim) < 0) return -1;
    if (prim >= 0 && (n > prim_table[prim].arity || n < prim_min_arity(prim)))
        warn_arity(L, fn, prim, n);
    if (n > IR_MAX_ARGS && prim >= 0)
        return lower_overfull_call(L, e, callee, nargs);
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

void lower_emit_call(Lower *L, Loc at, IrOperand callee, IrOperand *args, int nargs, int dst)
{
    IrStmt *s = lower_emit(L, IR_CALL, at);
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

static bool grids_as_bytes;
void ir_grids_as_bytes(bool on) { grids_as_bytes = on; }

static int lower_tuple(Lower *L, Expr *e, IrOperand *out)
{
    int n = e->u.list.n, i = 0, prim;
    bool all_const = true;
    Expr *bad = NULL;
    IrOperand *ops = lower_realloc(NULL, (size_t)(n ? n : 1) * sizeof *ops);
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
        for (i = 0; i < n; i++) { v_titems(t)[i] = ops[i].k; ops[i].k = NULL; }
        Value *b = grids_as_bytes ? vg_from_tuple(t) : NULL;
        if (b) {
            v_decref(t);
            t = b;
        }
        *out = op_k(t);
    } else if (L->eval && n <= IR_MAX_ARGS) {
        IrOperand f = op_k(v_func_new(tuple_invoke, "tuple", -1, n, 0, 0, NULL));
        int dst = new_temp(L);
        lower_emit_call(L, e->loc, f, ops, n, dst);
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

int lower_value(Lower *L, Expr *e, IrOperand *out, int *prim)
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
        lower_emit_call(L, e->loc, callee, args, nargs, dst);
        *out = op_slot(dst);
        return 0;
    }
    }
    return ERR(L, e->loc, "unsupported expression");
}
