/* exec.h -- the lockstep executor: every (program x task x sample)
 * instance advances statement by statement together; at each step the
 * pending calls are grouped by op key into batches for the backends. */
#ifndef ARC_EXEC_H
#define ARC_EXEC_H

#include <stdatomic.h>
#include <stdio.h>
#include "backend.h"
#include "task.h"

typedef enum { INST_RUNNING, INST_DONE, INST_ERROR, INST_BUDGET } InstStatus;

struct Instance {
    const IrProgram *prog;
    const Task *task;
    int sample;              /* train samples first, then test */
    Value **env;             /* [prog->nslots] */
    size_t env_cap;          /* env's length as allocated (instance.c reuses envs) */
    int pc;                  /* next statement */
    InstStatus status;
    Value *result;           /* the returned value, once done */
    Value *unpacked;         /* the last unpacking call's whole result (the call cache keeps it) */
    char *error;             /* "TypeError: ..." when status is INST_ERROR/BUDGET */
    Ctx cx;
    void *user;
    bool c_is_output;        /* batt: C is the sample's expected output, else None */
    /* batt records: s.append((...)) -> records[0], o.append -> records[1] */
    Value **records[2];
    int nrecords[2], caprecords[2];
    const int32_t *const *free_after;   /* exec's plan: slots dead after each stmt */
    const uint8_t *varies;   /* exec's plan: statements whose operands depend on
                                I or C, so their cached calls serve no other sample */
    const int32_t *step_at;  /* exec's plan: the lockstep step of each statement
                                (1 + the calls before it), [nstmts] the last */
    uint64_t time_limit_ns;  /* time budget for all its calls, 0 = none */
    uint64_t spent_ns;       /* time spent in its calls so far */
    bool call_memo;          /* its calls keep repeated closure calls (callmemo.h) */
    bool coarse_clock;       /* spent_ns read from the coarse clock (now_coarse_ns):
                                a budget of seconds, and no --stats timing calls */
    uint64_t *cache_filter;  /* cache entries it has taken (callcache.h) */
    long done_step;          /* the step in which it last completed a statement */
    /* --all-pairs: shared by the samples of one (program, task) pair and set
     * once one with a known output fails; the pair cannot be solved then,
     * so the others stop before their next call (NULL: always run on). */
    atomic_bool *pair_failed;
    bool cancelled;          /* stopped that way */
};

typedef struct {
    int verbose;             /* >0: one log line per batch on `log` */
    FILE *log;
    uint64_t work_limit;     /* per-instance work budget, 0 = none */
    uint64_t time_limit_ns;  /* per-instance time budget, 0 = none */
    /* Called once per instance as soon as it finishes (streaming output). */
    void (*on_done)(Instance *in, void *arg);
    void *on_done_arg;
    /* Called after each statement that assigned slots (--trace). */
    void (*on_assign)(Instance *in, const IrStmt *s, void *arg);
    atomic_int *interrupted;     /* set asynchronously (SIGINT) to stop early */
    bool collect_ops;        /* fill ExecStats.ops (timing each batch) */
    int jobs;                /* CPU threads for a step's batches (<= 1: this thread) */
    bool no_cache;           /* compute every call, even repeated ones */
    bool keep_cache;         /* leave this thread's call cache filled at the end
                                (exec_waves: later waves take its results) */
    struct ExecPlans *plans; /* the programs' plans, kept over exec_run and
                                exec_waves calls; NULL: each call plans its own */
} ExecOptions;

/* exec_run's per-program plans (the slots dead after each statement, the
 * statements that read I or C, the step of each): a thread's chunks and
 * their waves share them, where each would plan a batt program's
 * thousands of statements again. */
typedef struct {
    const IrProgram *prog;
    int32_t **free_after;
    uint8_t *varies;
    int32_t *steps;
} ExecPlan;
typedef struct ExecPlans {
    ExecPlan *plan;
    int n, cap;
} ExecPlans;
void exec_plans_free(ExecPlans *p);

/* Per op name ("rot90", "compose.<locals>.<lambda>"): --stats. */
typedef struct {
    const char *name;
    long calls, batches, max_batch;
    long hist[8];            /* batch sizes: 1, 2-3, 4-15, 16-63, 64-255, 256-1023, 1024-4095, more */
    double seconds;
} OpStats;

/* A statement of a program and the time instances spent in its calls
 * (computed ones: an answer from the call cache costs nothing). */
typedef struct {
    const IrProgram *prog;   /* NULL: an empty slot of the table */
    int32_t pc;
    long calls;
    double seconds;
} StmtStats;

/* A (program, task) pair and the time its instances spent in calls. */
typedef struct {
    const char *prog, *task;
    int instances;
    double seconds;
} SlowPair;

typedef struct {
    long steps, batches, calls;
    long inlined;            /* of the calls, those run in the scan (inline.h) */
    long max_batch;
    long cache_hits;         /* calls answered by the cache (earlier steps) */
    long cache_waits;        /* calls answered by an identical call in the same step */
    long cache_twins;        /* calls answered by a twin of the instance's own earlier result */
    long cache_misses;       /* cached calls that were computed */
    long cancelled;          /* instances stopped because their pair had failed */
    long ruled_out;          /* search pairs not run: output shape (shape.h) */
    OpStats *ops;            /* when collect_ops was set; caller frees */
    int nops, capops;
    SlowPair *slow;          /* the report's costliest (program, task) pairs */
    int nslow;
    StmtStats *stmts;        /* when collect_ops was set: open addressing on */
    size_t stmt_mask, nstmts;   /* (prog, pc); caller frees (exec_stats_free) */
    const char *path;        /* the program file, for the report */
    int shown;               /* costliest pairs and statements the report names */
    double parse_s, load_s, run_s;   /* whole-run phases, filled in by the report */
} ExecStats;

/* exec_run over insts in waves, first narrow, then as wide as the memory
 * the last wave kept live per instance allows, so a pair with many
 * samples and large values never holds all of them at once.  After each
 * wave, after(wave, m, arg) with its m >= 1 instances (NULL: nothing), which
 * may release them and hand their lines on.  The call cache lasts over
 * the waves.  Returns 0, or -1 if interrupted. */
int exec_waves(Instance **insts, int n, const ExecOptions *opt, ExecStats *st,
               void (*after)(Instance **wave, int m, void *arg), void *arg);

/* Run all instances to completion.  Returns 0, or -1 if interrupted. */
int exec_run(Instance **insts, int n, const ExecOptions *opt, ExecStats *st);

/* exec_stats.c: the entries of op name and of statement pc of prog, made
 * on first use; one run's counts added to another's (runs of separate
 * chunks). */
OpStats *exec_op_stats(ExecStats *st, const char *name);
StmtStats *exec_stmt_stats(ExecStats *st, const IrProgram *prog, int32_t pc);
void exec_stats_merge(ExecStats *into, const ExecStats *from);
void exec_stats_free(ExecStats *st);   /* ops, stmts, slow */

/* instance.c: an instance's life */
/* Whether parameter k of a dialect's programs differs from sample to
 * sample (I, C) rather than from task to task (task_id, S). */
bool param_varies(int dialect, int k);
void instance_init(Instance *in, const IrProgram *p, const Task *t, int sample,
                   int dialect, bool c_is_output);
void instance_release(Instance *in);   /* frees env, result, error */
void instance_thread_done(void);       /* frees the envs this thread keeps for reuse */
/* in ends with status st: its env released, then opt's on_done told */
void instance_finish(Instance *in, InstStatus st, const ExecOptions *opt);

/* A finished instance's output against its sample's: 1 equal, 0 not (or
 * no output), -1 when the sample has no expected output. */
int instance_correct(const Instance *in);
/* A budget stop by the clock (TimeoutError), not by the work count. */
bool stopped_by_clock(const Instance *in);

/* Operand value for the instance's current statement (borrowed). */
static inline Value *operand_value(const Instance *in, const IrOperand *o)
{
    return o->slot >= 0 ? in->env[o->slot] : o->k;
}
/* Finish the current statement with a result (stolen) or an error. */
void instance_complete(Instance *in, Value *result);
/* Whether another sample of in's pair has failed, and stopping in (an
 * error, its statement not run) when it has. */
static inline bool instance_doomed(const Instance *in)
{
    return in->pair_failed && atomic_load_explicit(in->pair_failed, memory_order_relaxed);
}
void instance_cancel(Instance *in);
/* Where an instance that raised or spent its budget stopped: "FILE:LINE: x3
 * = extract(...)", the statement's line, what it assigns and what it calls
 * (a DSL primitive or closure by name); "" when it stopped elsewhere. */
void instance_where(const Instance *in, char *buf, size_t len);
/* Where an event of the instance falls in the lockstep order of its
 * program, whatever waves it ran in: statement s's assignment, or (s
 * NULL) its end.  Events of a step's statements that are not calls come
 * before its calls'; ties between instances go by their order. */
int64_t instance_event_order(const Instance *in, const IrStmt *s);
/* Mark in's pair failed when in failed where the output is known. */
void instance_note_failure(Instance *in);

#endif
