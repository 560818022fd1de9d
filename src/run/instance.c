/* instance.c -- an instance's life: its parameters as CPython's caller
 * passes them, a statement's result or exception (with try/except), its
 * end, and what it holds released. */
#include "exec.h"
#include "pyexc.h"
#include "prim.h"

#include <stdlib.h>
#include <string.h>

/* The demonstration pairs as the batt protocol passes them: S, one value
 * per task (task.h). */
static Value *task_pairs(const Task *t)
{
    return v_incref(t->pairs);
}

/* The k-th argument of the call CPython's caller makes: solve(I) for arc-dsl,
 * batt(task_id, S, I, C, log_path) for tokpidjin (positional, whatever the
 * parameters are named; lower_stmt.c checks their count). */
static Value *param_value(int dialect, int k, const Task *t, int sample, bool c_out)
{
    const Sample *s = task_sample(t, sample);
    if (dialect == DIALECT_ARCDSL)
        k = 2;
    switch (k) {
    case 0: return v_str(t->id, strlen(t->id));
    case 1: return task_pairs(t);
    case 2: return v_incref(s->input);
    case 3: return c_out && s->output ? v_incref(s->output) : v_none();
    default: return v_str("pile.log", 8);
    }
}

bool param_varies(int dialect, int k)
{
    return dialect == DIALECT_ARCDSL || k == 2 || k == 3;   /* I, C */
}

/* Envs of released instances, kept for the thread's next ones: they come
 * back zeroed (release_env clears each slot as it lets go), so a batt
 * sample's hundreds of slots are neither allocated nor zeroed again, and
 * the memory is the cache's already. */
#define ENV_POOL 32
typedef struct { Value **env; size_t n; } PooledEnv;
static _Thread_local PooledEnv env_pool[ENV_POOL];
static _Thread_local int nenv_pool;

/* An env of at least n slots, all NULL; *cap its length */
static Value **env_take(size_t n, size_t *cap)
{
    for (int k = nenv_pool; k-- > 0;)
        if (env_pool[k].n >= n) {
            Value **env = env_pool[k].env;
            *cap = env_pool[k].n;
            env_pool[k] = env_pool[--nenv_pool];
            return env;
        }
    Value **env = calloc(n, sizeof *env);
    if (!env)
        abort();
    *cap = n;
    return env;
}

/* env, every slot NULL, of n slots */
static void env_give(Value **env, size_t n)
{
    if (nenv_pool < ENV_POOL)
        env_pool[nenv_pool++] = (PooledEnv){env, n};
    else
        free(env);
}

void instance_thread_done(void)
{
    while (nenv_pool)
        free(env_pool[--nenv_pool].env);
}

static size_t env_slots(const IrProgram *p)
{
    return p->nslots ? (size_t)p->nslots : 1;
}

void instance_init(Instance *in, const IrProgram *p, const Task *t, int sample,
                   int dialect, bool c_is_output)
{
    memset(in, 0, sizeof *in);
    in->prog = p;
    in->task = t;
    in->sample = sample;
    in->c_is_output = c_is_output;
    in->env = env_take(env_slots(p), &in->env_cap);
    for (int i = 0; i < p->nparams; i++)
        in->env[i] = param_value(dialect, i, t, sample, c_is_output);
    ctx_init(&in->cx, dialect);
    in->status = INST_RUNNING;
}

static void release_env(Instance *in)
{
    v_decref(in->unpacked);
    in->unpacked = NULL;
    if (!in->env)
        return;
    for (int i = 0; i < in->prog->nslots; i++) {
        v_decref(in->env[i]);
        in->env[i] = NULL;
    }
    env_give(in->env, in->env_cap);
    in->env = NULL;
}

#define RECORDS_AHEAD 8

void instance_release(Instance *in)
{
    release_env(in);
    for (int l = 0; l < 2; l++) {
        for (int i = 0; i < in->nrecords[l]; i++) {
            if (i + RECORDS_AHEAD < in->nrecords[l])     /* cold: made long before */
                __builtin_prefetch(in->records[l][i + RECORDS_AHEAD], 1);
            v_decref(in->records[l][i]);
        }
        free(in->records[l]);
        in->records[l] = NULL;
        in->nrecords[l] = in->caprecords[l] = 0;
    }
    v_decref(in->result);
    in->result = NULL;
    free(in->error);
    in->error = NULL;
    free(in->cache_filter);
    in->cache_filter = NULL;
}

void instance_finish(Instance *in, InstStatus st, const ExecOptions *opt)
{
    in->status = st;
    release_env(in);   /* peak memory: only live instances hold values */
    if (opt->on_done)
        opt->on_done(in, opt->on_done_arg);
}

/* Whether `except (catches)` catches the pending exception, as CPython
 * decides when the body raises: it evaluates the names first (an unknown
 * one raises NameError, a DSL name TypeError, replacing the exception),
 * then looks for the exception's class or an ancestor among them. */
static bool except_catches(Ctx *cx, const char *catches)
{
    const char *colon = strchr(cx->errmsg, ':');
    size_t cls_len = colon ? (size_t)(colon - cx->errmsg) : strlen(cx->errmsg);
    if (!*catches)
        return true;                     /* a bare except */
    bool caught = false;
    for (const char *p = catches; *p;) {
        size_t n = strcspn(p, ",");
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, p);
        if (!pyexc_is_class(name)) {
            bool dsl = prim_lookup(cx->dialect, name) >= 0 || const_lookup(cx->dialect, name);
            cx_clear(cx);
            if (dsl)
                cx_raise(cx, "TypeError", "catching classes that do not inherit from BaseException is not allowed");
            else
                cx_raise(cx, "NameError", "name '%s' is not defined", name);
            return false;
        }
        caught |= pyexc_catches(name, cx->errmsg, cls_len);
        p += n + (p[n] == ',');
    }
    return caught;
}

/* _get_safe_default(callee): a DSL function's annotated default; anything
 * else (closures have no annotations, ints are not functions) gives (). */
static Value *safe_default_of(const Value *callee)
{
    if (callee->type == V_FUNC && callee->refs < 0 && callee->u.fn.prim >= 0 &&
        callee == prim_value(callee->u.fn.prim))
        return prim_safe_default(callee->u.fn.prim);
    return v_tuple_new(0);
}

int instance_correct(const Instance *in)
{
    const Sample *s = task_sample(in->task, in->sample);
    if (!s->output)
        return -1;
    return in->status == INST_DONE && v_eq(in->result, s->output);
}

bool stopped_by_clock(const Instance *in)
{
    return in->status == INST_BUDGET && in->error && strncmp(in->error, "TimeoutError", 12) == 0;
}

void instance_note_failure(Instance *in)
{
    if (in->pair_failed && task_sample(in->task, in->sample)->output)
        atomic_store_explicit(in->pair_failed, true, memory_order_relaxed);
}

void instance_cancel(Instance *in)
{
    in->error = strdup("cancelled: another sample of this program and task failed");
    in->status = INST_ERROR;
    in->cancelled = true;
}

void instance_where(const Instance *in, char *buf, size_t len)
{
    *buf = '\0';
    if (in->status != INST_ERROR && in->status != INST_BUDGET)
        return;
    if (in->pc < 0 || in->pc >= in->prog->nstmts)
        return;
    const IrStmt *s = &in->prog->stmts[in->pc];
    const char *dst = s->kind == IR_CALL || s->kind == IR_BIND ? in->prog->slot_names[s->dst]
                    : s->kind == IR_UNPACK && s->ndst ? in->prog->slot_names[s->dsts[0]] : NULL;
    /* a finished instance's slots are released: a callee held in one is
     * named by its variable */
    const char *callee = NULL;
    if (s->kind == IR_CALL || s->kind == IR_UNPACK) {
        if (s->callee.slot >= 0)
            callee = in->prog->slot_names[s->callee.slot];
        else if (s->callee.k && s->callee.k->type == V_FUNC)
            callee = s->callee.k->u.fn.name;
    }
    int n = snprintf(buf, len, "%s:%d", in->prog->file ? in->prog->file : in->prog->name, s->line);
    if (dst && callee && n >= 0 && (size_t)n < len)
        snprintf(buf + n, len - (size_t)n, ": %s%s = %s(...)", dst,
                 s->kind == IR_UNPACK ? ", ..." : "", callee);
}

int64_t instance_event_order(const Instance *in, const IrStmt *s)
{
    int32_t j = s ? (int32_t)(s - in->prog->stmts) : in->pc;
    if (j < 0 || j > in->prog->nstmts || !in->step_at)
        return 0;
    /* an assignment by a call, or an end at one (an error, a spent budget),
     * comes in the step's second half */
    bool call = j < in->prog->nstmts && (in->prog->stmts[j].kind == IR_CALL ||
                                         in->prog->stmts[j].kind == IR_UNPACK) &&
                (s || in->status == INST_ERROR || in->status == INST_BUDGET);
    return (int64_t)in->step_at[j] * 2 + call;
}

/* A failed call (caught by the statement's try, or the instance's end)
 * or an unpacking: out of line, so that a plain result's store keeps no
 * registers. */
static __attribute__((noinline)) void complete_rest(Instance *in, Value *result, const IrStmt *s)
{
    if (!result && s->guarded && !in->cx.over_budget && except_catches(&in->cx, s->catches)) {
        cx_clear(&in->cx);
        result = safe_default_of(operand_value(in, &s->callee));
    }
    if (!result) {
        in->error = strdup(in->cx.err ? in->cx.errmsg : "SystemError: no result");
        in->status = in->cx.over_budget ? INST_BUDGET : INST_ERROR;
        instance_note_failure(in);
        return;
    }
    if (s->kind == IR_UNPACK) {
        if (!v_unpack_check(&in->cx, result, s->ndst)) {
            v_decref(result);
            in->error = strdup(in->cx.errmsg);
            in->status = INST_ERROR;
            instance_note_failure(in);
            return;
        }
        for (int i = 0; i < s->ndst; i++)
            in->env[s->dsts[i]] = v_incref(v_items(result)[i]);
        v_decref(in->unpacked);
        in->unpacked = result;
    } else {
        in->env[s->dst] = result;
    }
    in->pc++;
}

void instance_complete(Instance *in, Value *result)
{
    const IrStmt *s = &in->prog->stmts[in->pc];
    if (__builtin_expect(result && s->kind != IR_UNPACK, 1)) {
        in->env[s->dst] = result;
        in->pc++;
        return;
    }
    complete_rest(in, result, s);
}
