/* calldef.c -- a def of the file called as a function: a solver's helper.
 * The call runs the def's statements in order on the calling instance, as
 * CPython runs the helper's frame; the executor batches the caller's
 * statement, not the helper's. */
#include "lower.h"
#include "pyexc.h"

struct IrDef {
    IrModule *m;
    int index;             /* the def: m->progs[index] */
    char name[];           /* the function value's name points here */
};

static IrDef *def_of(const Value *fn)
{
    return (IrDef *)(void *)(fn->u.fn.name - offsetof(IrDef, name));
}

static Value *operand(Value **slots, IrOperand o)
{
    return o.slot >= 0 ? slots[o.slot] : o.k;
}

Value *ir_run(Ctx *cx, const IrProgram *p, Value *const *params, IrOperand result)
{
    Value *local[16], **slots = p->nslots <= 16 ? local
                              : lower_realloc(NULL, (size_t)p->nslots * sizeof *slots);
    for (int i = 0; i < p->nslots; i++)
        slots[i] = i < p->nparams ? v_incref(params[i]) : NULL;
    Value *out = NULL;
    bool returned = false;
    for (int k = 0; k < p->nstmts && !returned; k++) {
        const IrStmt *s = &p->stmts[k];
        Value *argv[IR_MAX_ARGS], *r;
        for (int j = 0; j < s->nargs; j++)
            argv[j] = s->kind == IR_RETURN && s->args[j].slot < -1 ? NULL : operand(slots, s->args[j]);
        switch (s->kind) {
        case IR_CALL:
        case IR_UNPACK:
            r = v_call(cx, operand(slots, s->callee), s->nargs, argv);
            if (!r)
                goto fail;
            if (s->kind == IR_CALL) {
                slots[s->dst] = r;
                break;
            }
            if (!v_unpack_check(cx, r, s->ndst)) {
                v_decref(r);
                goto fail;
            }
            for (int i = 0; i < s->ndst; i++)
                slots[s->dsts[i]] = v_incref(v_items(r)[i]);
            v_decref(r);
            break;
        case IR_BIND:
            slots[s->dst] = v_incref(argv[0]);
            break;
        case IR_RETURN:
            out = s->nargs == 1 ? v_incref(argv[0]) : v_tuple_from(argv, s->nargs);
            returned = true;
            break;
        default:   /* lists: lowering keeps them to batt, which is never called */
            cx_raise(cx, "SystemError", "a called def cannot build lists");
            goto fail;
        }
    }
    if (!returned)
        out = result.slot >= 0 || result.k ? v_incref(operand(slots, result)) : v_none();
fail:
    for (int i = 0; i < p->nslots; i++)
        v_decref(slots[i]);
    if (slots != local)
        free(slots);
    return out;
}

static Value *def_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    IrDef *d = def_of(self);    /* v_call counts it toward V_CALL_DEPTH_MAX */
    return ir_run(cx, &d->m->progs[d->index], argv, op_slot(-1));
}

void ir_arity_words(char *buf, size_t size, const IrProgram *p, int argc)
{
    pyexc_arity_words(buf, size, p->name, p->nparams, (const char *const *)p->slot_names, NULL, argc);
}

/* CPython's words for a call with too few or too many arguments. */
static Value *def_mismatch(Ctx *cx, Value *self, int argc, Value *const *argv)
{
    (void)argv;
    char msg[512];
    ir_arity_words(msg, sizeof msg, &def_of(self)->m->progs[def_of(self)->index], argc);
    return cx_raise(cx, "TypeError", "%s", msg);
}

Value *def_value_new(IrModule *m, int index, const char *name, int nparams)
{
    size_t len = strlen(name) + 1;
    IrDef *d = lower_realloc(NULL, sizeof *d + len);
    d->m = m;
    d->index = index;
    memcpy(d->name, name, len);
    m->defs[index] = d;
    Value *fn = v_func_new(def_invoke, d->name, -1, nparams, 0, 0, NULL);
    fn->u.fn.mismatch = def_mismatch;
    return fn;
}

void def_free(IrDef *d)
{
    free(d);
}
