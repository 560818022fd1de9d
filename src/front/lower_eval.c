/* lower_eval.c -- `arcrun eval`: one expression lowered and run on the
 * spot. */
#include "lower.h"

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
        lower_program_clear(&p);
        return NULL;
    }
    pc_free(&pc);

    Value **slots = lower_realloc(NULL, (size_t)(p.nslots ? p.nslots : 1) * sizeof *slots);
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
    lower_program_clear(&p);
    return out;
}
