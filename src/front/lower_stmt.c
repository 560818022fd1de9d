/* lower_stmt.c -- lowering statements and defs: assignments, batt's
 * records and returns, try blocks; one def into one IrProgram. */
#include "lower.h"

/* ---- statements ------------------------------------------------------------- */

/* After a failed assignment, bind its names to None so later uses do not
 * report the same mistake again. */
static void poison(Lower *L, Stmt *s)
{
    for (Expr *t = s->u.assign.targets; t; t = t->next)
        if (t->kind == E_NAME && !lower_local_find(L, t->u.name))
            lower_local_add(L, t->u.name, L_ALIAS, op_k(v_none()), -1, t->loc);
}

static int check_targets(Lower *L, Stmt *s)
{
    for (Expr *t = s->u.assign.targets; t; t = t->next) {
        if (t->kind != E_NAME)
            return ERR(L, t->loc, "can only assign to names");
        Local *lc = lower_local_find(L, t->u.name);
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
    int dst = lower_new_slot(L, t->u.name);
    IrStmt *st = lower_emit(L, IR_BIND, at);
    st->dst = dst;
    st->nargs = 1;
    st->args[0] = op_copy(o);
    lower_local_add(L, t->u.name, L_ALIAS, o, prim, t->loc);
}

/* a, b = x, f(y): bind each name to its value (all are evaluated first). */
static int lower_parallel(Lower *L, Stmt *s)
{
    Expr *v = s->u.assign.value;
    int n = v->u.list.n, i = 0, prim;
    IrOperand *ops = lower_realloc(NULL, (size_t)n * sizeof *ops);
    int *prims = lower_realloc(NULL, (size_t)n * sizeof *prims);
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
        if (lower_is_plain_call(L, v)) {
            if (lower_call(L, v, &callee, args, &nargs) < 0) { poison(L, s); return -1; }
        } else {
            /* a, b = x  is  a, b = identity(x) */
            int id = prim_lookup(L->dialect, "identity"), prim;
            if (id < 0) { poison(L, s); return ERR(L, v->loc, "unpacking needs a call on the right-hand side"); }
            if (lower_value(L, v, &args[0], &prim) < 0) { poison(L, s); return -1; }
            callee = op_k(prim_value(id));
            nargs = 1;
        }
        int32_t *dsts = lower_realloc(NULL, (size_t)s->u.assign.ntargets * sizeof *dsts);
        int k = 0;
        for (Expr *x = t; x; x = x->next, k++) {
            dsts[k] = lower_new_slot(L, x->u.name);
            lower_local_add(L, x->u.name, L_SLOT, op_slot(dsts[k]), -1, x->loc);
        }
        IrStmt *st = lower_emit(L, IR_UNPACK, s->loc);
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
        IrStmt *st = lower_emit(L, IR_EMPTY_LIST, s->loc);
        st->dst = id;
        lower_local_add(L, t->u.name, L_LIST, op_slot(id), -1, t->loc);
        return 0;
    }
    if (lower_is_plain_call(L, v)) {
        IrOperand callee, args[IR_MAX_ARGS];
        int nargs;
        if (lower_call(L, v, &callee, args, &nargs) < 0) { poison(L, s); return -1; }
        int dst = lower_new_slot(L, t->u.name);
        lower_emit_call(L, s->loc, callee, args, nargs, dst);
        lower_local_add(L, t->u.name, L_SLOT, op_slot(dst), -1, t->loc);
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
    Local *lc = obj->kind == E_NAME ? lower_local_find(L, obj->u.name) : NULL;
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
    IrStmt *st = lower_emit(L, IR_RECORD, s->loc);
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
        Local *lc = e && e->kind == E_NAME ? lower_local_find(L, e->u.name) : NULL;
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
        Local *lc = e->kind == E_NAME ? lower_local_find(L, e->u.name) : NULL;
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
    IrStmt *st = lower_emit(L, IR_RETURN, s->loc);
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
    L->catches = lower_realloc(NULL, len);
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

/* ---- defs ------------------------------------------------------------------ */

void lower_body_clear(IrProgram *p)
{
    for (int i = 0; i < p->nstmts; i++) {
        IrStmt *s = &p->stmts[i];
        v_decref(s->callee.k);
        for (int j = 0; j < s->nargs; j++) v_decref(s->args[j].k);
    }
    free(p->stmts);
    p->stmts = NULL;
    p->nstmts = 0;
    p->slot_names = NULL;
}

void lower_program_clear(IrProgram *p)
{
    free(p->name);
    lower_body_clear(p);
    memset(p, 0, sizeof *p);
}

void lower_begin(Lower *L, IrProgram *p)
{
    memset(p, 0, sizeof *p);
    p->dialect = L->dialect;
    L->p = p;
    L->names_len = 0;
    L->ntemps = 0;
    L->guarded = 0;
}

/* Sized in one pass, filled in a second: statements, then operands, slot
 * names' pointers, unpack targets and characters, each part aligned for
 * what follows it. */
void lower_seal(Lower *L)
{
    IrProgram *p = L->p;
    size_t nargs = 0, ndsts = 0, chars = L->names_len;
    for (int i = 0; i < p->nstmts; i++) {
        const IrStmt *s = &L->stmts[i].s;
        nargs += s->nargs;
        ndsts += s->kind == IR_UNPACK ? s->ndst : 0;
        chars += s->catches ? strlen(s->catches) + 1 : 0;
    }
    size_t at_args = (size_t)p->nstmts * sizeof(IrStmt);
    size_t at_names = at_args + nargs * sizeof(IrOperand);
    size_t at_dsts = at_names + (size_t)p->nslots * sizeof(char *);
    size_t at_chars = at_dsts + ndsts * sizeof(int32_t);
    char *block = lower_realloc(NULL, at_chars + chars);
    IrStmt *stmts = (IrStmt *)block;
    IrOperand *args = (IrOperand *)(block + at_args);
    char **names = (char **)(block + at_names);
    int32_t *dsts = (int32_t *)(block + at_dsts);
    char *text = block + at_chars;
    if (L->names_len)
        memcpy(text, L->names, L->names_len);
    for (int k = 0; k < p->nslots; k++) names[k] = text + L->slot_at[k];
    text += L->names_len;
    for (int i = 0; i < p->nstmts; i++) {
        IrStmt *s = &stmts[i];
        *s = L->stmts[i].s;
        s->args = args;
        memcpy(args, L->stmts[i].args, s->nargs * sizeof *args);
        args += s->nargs;
        if (s->kind == IR_UNPACK) {
            memcpy(dsts, s->dsts, s->ndst * sizeof *dsts);
            free(s->dsts);
            s->dsts = dsts;
            dsts += s->ndst;
        }
        if (s->catches) {
            size_t n = strlen(s->catches) + 1;
            memcpy(text, s->catches, n);
            free(s->catches);
            s->catches = text;
            text += n;
        }
    }
    p->stmts = stmts;
    p->slot_names = names;
}

/* The batt protocol unpacks `o, s = batt(...)` and reads records from both:
 * without `return o, s` last, CPython's caller fails or reads other lists. */
static void batt_check_return(Lower *L, Stmt *d)
{
    Stmt *last = d->u.def.body;
    while (last && last->next) last = last->next;
    bool lists = false;   /* lower_return has said what is wrong with those */
    for (Expr *e = last && last->kind == S_RETURN ? last->u.ret.values : NULL; e; e = e->next) {
        Local *lc = e->kind == E_NAME ? lower_local_find(L, e->u.name) : NULL;
        lists |= lc && lc->kind == L_LIST;
    }
    if (!lists && (!last || last->kind != S_RETURN || !returns_o_s(L, last)))
        pc_error(L->pc, last ? last->loc : d->loc,
                 "batt must end with 'return o, s': its caller unpacks o, s from the result");
}

void lower_def(Lower *L, Stmt *d, IrProgram *p)
{
    lower_begin(L, p);
    L->def = d;
    p->name = lower_strdup(d->u.def.name);
    p->line = d->loc.line;
    for (Expr *a = d->u.def.params; a; a = a->next) {
        if (lower_local_find(L, a->u.name)) {
            pc_error(L->pc, a->loc, "duplicate parameter '%s'", a->u.name);
            continue;
        }
        int k = lower_new_slot(L, a->u.name);
        lower_local_add(L, a->u.name, L_SLOT, op_slot(k), -1, a->loc);
        p->nparams++;
    }
    /* the parameter count is checked once the module knows which defs are
     * helpers (lower.c) */
    lower_targets_collect(L, d);
    for (Stmt *s = d->u.def.body; s && L->pc->nerr <= PC_MAX_ERRORS; s = s->next) lower_stmt(L, s);
    if (L->dialect == DIALECT_TOKPIDJIN && strcmp(p->name, "batt") == 0) batt_check_return(L, d);
    lower_seal(L);
    lower_locals_reset(L);
    L->def = NULL;
}

void lower_done(Lower *L)
{
    imports_free(&L->imports);
    free(L->unbound);
    lower_locals_reset(L);
    free(L->locals);
    free(L->index);
    free(L->targets);
    free(L->stmts);
    free(L->slot_at);
    free(L->names);
    free(L->dsl);
}
