/* main.c -- the arcrun command line. */
#include "config.h"
#include "gpu/backend_gpu.h"
#include "exec.h"
#include "ir.h"
#include "prim.h"
#include "driver.h"
#include "taskread.h"
#include "vmem.h"
#include "show.h"
#include "list.h"
#include "pairing.h"

#include <errno.h>
#include <getopt.h>
#include <stdatomic.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>
#include <sys/stat.h>

/* Exit codes (documented in --help and the README). */
enum {
    EXIT_OK = 0,
    EXIT_DSL_ERROR = 1,   /* eval: the expression raised a Python exception */
    EXIT_USAGE = 2,
    EXIT_INPUT = 3,       /* bad program or task file */
    EXIT_UNSUPPORTED = 4, /* the program needs primitives not implemented yet */
    EXIT_COMPARE_DIFF = 5, /* --compare: a GPU value differed from the CPU's */
    EXIT_NO_DEVICE = 6,   /* calibrate: no GPU to calibrate */
    EXIT_SKIPPED = 7,     /* the run finished; malformed task files were left out */
    EXIT_INTERRUPTED = 130,
};

/* An atomic, not a volatile: worker threads read it, and a lock-free
 * atomic store is safe in a signal handler. */
static atomic_int interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    atomic_store_explicit(&interrupted, 1, memory_order_relaxed);
}

static void usage(FILE *f)
{
    fputs(
"Usage: arcrun [OPTIONS] PROGRAM... TASKS...  run DSL programs over ARC tasks\n"
"       arcrun eval [OPTIONS] 'EXPR'      evaluate DSL calls and the Python around them\n"
"                                         (lambda, builtins, operators...), print the repr\n"
"       arcrun --check PROGRAM...         parse programs, report counts and errors\n"
"       arcrun show [OPTIONS] TASKS [PROGRAM...]  draw tasks and programs' outputs\n"
"       arcrun list [--dialect=D] [PATTERN]  primitives: signature, what each computes\n"
"                                         (arcrun show --help)\n"
"       arcrun calibrate [OPTIONS] [TASKS...]  measure GPU crossover batch sizes\n"
"\n"
"PROGRAM is a DSL file in Python syntax (solvers.py, a batt .py/.dsl file), or a\n"
"directory of them, where <id>.py's `def solve` runs as solve_<id>.  Each file\n"
"is its own module: its helper defs and NAME = value constants serve its programs.\n"
"TASKS is an ARC task file (.json), a directory of them, a combined\n"
"*_challenges.json file (its *_solutions.json is found beside it), or a\n"
"re-arc task file (an array of examples: the first three train, the rest test).\n"
"Programs come first, then tasks: an argument that is a .json file or a directory\n"
"holding one is TASKS.  '-' reads either from standard input (JSON: tasks, a lone\n"
"task file's task is named stdin; anything else: a program).\n"
"arc-dsl programs named solve_<id> or verify_<id> (re-arc's) run on every\n"
"sample of task <id>, any other on every task; a\n"
"program defining batt(task_id, S, I, C, log_path) runs in the tokpidjin\n"
"dialect on every sample of every task, twice (C=None, then C=the output).\n"
"\n"
"Options:\n"
"  --dialect=arc-dsl|re-arc|tokpidjin  override the dialect picked from the\n"
"                        program (re-arc: arc-dsl as re-arc's dsl.py has it, its\n"
"                        argmax, argmin, occurrences and constants; picked for a\n"
"                        file defining verify_<id>)\n"
"  --solutions=FILE      expected outputs for a combined challenges file\n"
"  --task=ID[,ID...]     run only these tasks of TASKS\n"
"  --entry=PREFIX        programs named PREFIX<id> run on task <id> (instead of\n"
"                        solve_ and verify_); any other program on every task\n"
"  --submission=FILE     write the ARC Prize submission.json: for every test\n"
"                        input of every task, attempt_1 and attempt_2 are the\n"
"                        two most common distinct grids the programs gave (ties:\n"
"                        the program first in the file), [[0, 0], [0, 0]] where\n"
"                        fewer; with --all-pairs only programs that solve every\n"
"                        train pair of the task count\n"
"  --format=text|jsonl   per-task lines (default) or one JSON object per instance\n"
"  --trace=FILE          write every assigned variable of every instance (JSON Lines;\n"
"                        a repr past 20,000 characters as its sha256 and length,\n"
"                        as ../shared/golden's traces hold it)\n"
"  --stats[=table|json]  per-op calls, batches, batch sizes and time, the ten\n"
"                        costliest (program, task) pairs and statements\n"
"                        (file:line), and the wall time of reading the program,\n"
"                        the tasks and the run, on stderr\n"
"  -j, --jobs=N          CPU threads (default: all cores); results are identical for any N\n"
"  --all-pairs           run every program on every task (search mode); a pair\n"
"                        stops at its first failed sample, its smallest sample\n"
"                        running first, and is not run when the program's output\n"
"                        shape cannot be the task's (not with --trace)\n"
"  --no-cache            compute every call, even ones already computed for another instance\n"
"                        or, with the same closure and arguments, earlier in the same call\n"
"  --budget=N            per-instance work budget: DSL calls and elements built\n"
"                        (default 100000000; 5000000 with --all-pairs; 0 = none);\n"
"                        over it: stopped\n"
"  --timeout=SECONDS     per-instance time budget (default 10, 0 = none); over it: timeout\n"
"  --backend=cpu|cuda|auto  where grid ops run (default auto: the GPU past\n"
"                        measured batch sizes; cuda: every supported op; cpu: never)\n"
"  --compare             run GPU-able batches on both backends, compare every value,\n"
"                        print a per-op table (time, speedup, equal) on stderr\n"
"  --calibration=FILE    crossovers for auto / where calibrate writes (default\n"
"                        $XDG_CACHE_HOME/arcrun/calibration.json)\n"
"  --ops=OP,...|all      calibrate: measure and print only these ops, write nothing\n"
"                        (TASKS: take the grids from these tasks, not random ones)\n"
"  -v, --verbose         log every batch (op, size, backend) to stderr\n"
"  -q, --quiet           print only the summary\n"
"  --check               parse only\n"
"  -h, --help            this help\n"
"  -V, --version         version, CUDA build and device status\n"
"\n"
"Exit status: 0 success; 1 eval raised a DSL exception; 2 usage error;\n"
"3 bad program or task input; 4 the program needs primitives not implemented\n"
"yet; 5 --compare found a GPU value different from the CPU's; 6 calibrate\n"
"could not run (no GPU, or FILE not writable); 7 the run finished, but malformed\n"
"task files of a directory were left out (each named on stderr); 130 interrupted\n"
"(what finished was printed).\n", f);
}

static void version(void)
{
    printf("arcrun %s\n", PACKAGE_VERSION);
    backend_gpu_describe(stdout);
}

static int cmd_eval(int dialect, const char *expr)
{
    Ctx cx;
    ctx_init(&cx, dialect < 0 || dialect == IR_DIALECT_REARC ? DIALECT_ARCDSL : dialect);
    char *err = NULL;
    Value *v = ir_eval_expr_as(&cx, expr, dialect == IR_DIALECT_REARC, &err);
    if (!v) {
        if (err) {
            fputs(err, stderr);
            free(err);
            return EXIT_INPUT;
        }
        /* as CPython's traceback ends: "StopIteration", not "StopIteration: " */
        size_t n = strlen(cx.errmsg);
        fprintf(stderr, "%.*s\n", (int)(n >= 2 && strcmp(cx.errmsg + n - 2, ": ") == 0 ? n - 2 : n),
                cx.errmsg);
        return EXIT_DSL_ERROR;
    }
    char *r = v_repr_str(v);
    puts(r);
    free(r);
    v_decref(v);
    return EXIT_OK;
}

static int cmd_check(int dialect, const char *entry, char **files, int n)
{
    int bad = 0;
    long progs = 0, helpers = 0, stmts = 0;
    for (int i = 0; i < n; i++) {
        char *err = NULL;
        IrModule *m = ir_load_paths(&files[i], 1, NULL, dialect, &err);
        if (!m) {
            fputs(err ? err : "error\n", stderr);
            free(err);
            bad++;
            continue;
        }
        if (m->warnings)
            fputs(m->warnings, stderr);
        int alone = 0;
        for (int p = 0; p < m->nprogs; p++)
            alone += pairing_runs_alone(entry, &m->progs[p]);
        printf("%s: %s, %d program%s", files[i], ir_dialect_name(m), alone, alone == 1 ? "" : "s");
        if (m->nprogs > alone)
            printf(", %d helper%s", m->nprogs - alone, m->nprogs - alone == 1 ? "" : "s");
        printf(", %ld statements\n", m->nstmts_total);
        StrBuf sb;
        sb_init(&sb);
        int missing = module_missing_prims(m, &sb);
        if (missing)
            printf("  note: %d primitive%s not implemented yet, so it cannot run: %s\n",
                   missing, missing == 1 ? "" : "s", sb.buf);
        sb_free(&sb);
        progs += alone;
        helpers += m->nprogs - alone;
        stmts += m->nstmts_total;
        ir_free(m);
    }
    if (n > 1) {
        printf("total: %d file%s, %ld programs", n, n == 1 ? "" : "s", progs);
        if (helpers)
            printf(", %ld helper%s", helpers, helpers == 1 ? "" : "s");
        printf(", %ld statements, %d with errors\n", stmts, bad);
    }
    return bad ? EXIT_INPUT : EXIT_OK;
}

/* Loading the tasks, on a thread of its own beside the program's parse. */
typedef struct {
    char **paths;            /* one or more TASKS arguments */
    int npaths;
    const char *solutions;
    int jobs, rc;
    TaskSet ts;
    uint64_t ns;
    char err[1024];
} TaskLoad;

static void *load_tasks(void *arg)
{
    TaskLoad *tl = arg;
    uint64_t t0 = now_ns();
    tl->rc = 0;
    for (int i = 0; i < tl->npaths && tl->rc == 0; i++) {
        TaskSet one;
        tl->rc = taskset_load_jobs(tl->paths[i], tl->solutions, tl->jobs, &one, tl->err, sizeof tl->err);
        if (tl->rc == 0)
            taskset_append(&tl->ts, &one);
    }
    if (tl->rc != 0)
        taskset_free(&tl->ts);
    tl->ns = now_ns() - t0;
    return NULL;
}

/* Standard input, whole (NUL-terminated); NULL on a read error.  Freed at
 * exit, whichever way main leaves. */
static char *stdin_text_;
static void free_stdin_text(void) { free(stdin_text_); }

static char *read_stdin(void)
{
    size_t len = 0, cap = 65536;
    char *buf = malloc(cap);
    for (size_t n; buf && (n = fread(buf + len, 1, cap - len - 1, stdin)) > 0;) {
        len += n;
        if (len + 1 == cap && !(buf = realloc(buf, cap *= 2)))
            return NULL;
    }
    if (!buf || ferror(stdin)) {
        free(buf);
        return NULL;
    }
    buf[len] = '\0';
    stdin_text_ = buf;
    atexit(free_stdin_text);
    return buf;
}

/* '-' holds tasks when it is JSON (an object or re-arc's array), else a program. */
static bool stdin_is_tasks(const char *text)
{
    while (*text == ' ' || *text == '\t' || *text == '\r' || *text == '\n')
        text++;
    return *text == '{' || *text == '[';
}

/* Tasks from standard input go to DIR/stdin/stdin.json, a private directory
 * (so a task file's id and split read "stdin"), removed at exit whichever
 * way main leaves.  The file's path, or NULL with errno set. */
static char stdin_dir_[64], stdin_file_[96];

static void remove_stdin_file(void)
{
    char sub[128];
    remove(stdin_file_);
    snprintf(sub, sizeof sub, "%s/stdin", stdin_dir_);
    rmdir(sub);
    rmdir(stdin_dir_);
}

static const char *stdin_to_file(const char *text)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(stdin_dir_, sizeof stdin_dir_, "%s/arcrun-XXXXXX", tmp && *tmp && strlen(tmp) < 32 ? tmp : "/tmp");
    if (!mkdtemp(stdin_dir_))
        return NULL;
    atexit(remove_stdin_file);
    snprintf(stdin_file_, sizeof stdin_file_, "%s/stdin", stdin_dir_);
    if (mkdir(stdin_file_, 0700) != 0)
        return NULL;
    snprintf(stdin_file_, sizeof stdin_file_, "%s/stdin/stdin.json", stdin_dir_);
    FILE *f = fopen(stdin_file_, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    return fclose(f) == 0 ? stdin_file_ : NULL;
}

/* Whether a run's argument names tasks: a .json file, or a directory that
 * holds some.  Everything else names programs (a .py or .dsl file, a
 * directory of them). */
static bool names_tasks(const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return n > 5 && strcmp(path + n - 5, ".json") == 0;
    DIR *d = opendir(path);
    bool json = false;
    for (struct dirent *e; d && !json && (e = readdir(d));) {
        size_t k = strlen(e->d_name);
        json = k > 5 && strcmp(e->d_name + k - 5, ".json") == 0;
    }
    if (d)
        closedir(d);
    return json;
}

/* Why --submission cannot be written for this run, or NULL: batt programs
 * give records, not outputs; and the file must be writable before the
 * run, not only after it. */
static const char *submission_refusal(const IrModule *m, const char *path)
{
    if (m->dialect != DIALECT_ARCDSL)
        return "a submission takes arc-dsl programs' outputs (a batt program gives records)";
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return strerror(errno);
    fclose(f);
    remove(tmp);
    return NULL;
}

int main(int argc, char **argv)
{
    vmem_setup();
    enum { OPT_DIALECT = 256, OPT_SOLUTIONS, OPT_FORMAT, OPT_CHECK, OPT_BUDGET, OPT_TRACE, OPT_STATS, OPT_ALL_PAIRS, OPT_TIMEOUT, OPT_NO_CACHE,
           OPT_BACKEND, OPT_COMPARE, OPT_CALIBRATION, OPT_OPS, OPT_ENTRY, OPT_TASK, OPT_SUBMISSION };
    static const struct option longopts[] = {
        {"dialect", required_argument, NULL, OPT_DIALECT},
        {"solutions", required_argument, NULL, OPT_SOLUTIONS},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"timeout", required_argument, NULL, OPT_TIMEOUT},
        {"check", no_argument, NULL, OPT_CHECK},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"stats", optional_argument, NULL, OPT_STATS},
        {"jobs", required_argument, NULL, 'j'},
        {"all-pairs", no_argument, NULL, OPT_ALL_PAIRS},
        {"entry", required_argument, NULL, OPT_ENTRY},
        {"task", required_argument, NULL, OPT_TASK},
        {"submission", required_argument, NULL, OPT_SUBMISSION},
        {"no-cache", no_argument, NULL, OPT_NO_CACHE},
        {"backend", required_argument, NULL, OPT_BACKEND},
        {"compare", no_argument, NULL, OPT_COMPARE},
        {"calibration", required_argument, NULL, OPT_CALIBRATION},
        {"ops", required_argument, NULL, OPT_OPS},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    int dialect = -1, verbose = 0, quiet = 0, check = 0, stats = 0, all_pairs = 0, no_cache = 0;
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    int jobs = ncpu > 0 ? (int)(ncpu > 64 ? 64 : ncpu) : 1;
    const char *solutions = NULL, *trace_path = NULL, *entry = NULL, *submission = NULL;
    char *task_ids[256];     /* --task: the ids a run keeps */
    int ntask_ids = 0;
    ReportFormat format = REPORT_TEXT;
    /* Search stops a runaway pair soon (it only decides "not solved");
     * a plain run must finish what CPython finishes: one batt instance runs
     * every solver of its file (test_100_tasks.py takes up to 6 M units on
     * calls CPython ends in about a second). */
    enum { BUDGET_SEARCH = 5000000, BUDGET_RUN = 100000000 };
    long long budget = -1;
    double timeout = 10.0;
    GpuOptions gopt = {.mode = BACKEND_AUTO, .log = stderr};
    int c;
    while ((c = getopt_long(argc, argv, "+vqhVj:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DIALECT:
            dialect = ir_dialect_parse(optarg);
            if (dialect < 0) {
                fprintf(stderr, "arcrun: unknown dialect '%s' (arc-dsl, re-arc or tokpidjin)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_SOLUTIONS: solutions = optarg; break;
        case OPT_FORMAT:
            if (strcmp(optarg, "text") == 0) format = REPORT_TEXT;
            else if (strcmp(optarg, "jsonl") == 0 || strcmp(optarg, "json") == 0) format = REPORT_JSONL;
            else {
                fprintf(stderr, "arcrun: unknown format '%s' (text or jsonl)\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case OPT_BUDGET: {
            char *end;
            budget = strtoll(optarg, &end, 10);
            if (*end || !*optarg || budget < 0) {
                fprintf(stderr, "arcrun: --budget wants a number, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_TIMEOUT: {
            char *end;
            timeout = strtod(optarg, &end);
            if (*end || !*optarg || timeout < 0 || timeout != timeout) {
                fprintf(stderr, "arcrun: --timeout wants seconds, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        }
        case OPT_CHECK: check = 1; break;
        case OPT_TRACE: trace_path = optarg; break;
        case OPT_STATS:
            if (!optarg || strcmp(optarg, "table") == 0) stats = 1;
            else if (strcmp(optarg, "json") == 0) stats = 2;
            else {
                fprintf(stderr, "arcrun: --stats takes 'table' or 'json', not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            break;
        case 'j': {
            char *end;
            long j = strtol(optarg, &end, 10);
            if (*end || j < 1 || j > 64) {
                fprintf(stderr, "arcrun: --jobs wants a number from 1 to 64, not '%s'\n", optarg);
                return EXIT_USAGE;
            }
            jobs = (int)j;
            break;
        }
        case OPT_ALL_PAIRS: all_pairs = 1; break;
        case OPT_TASK:
            for (char *id = strtok(optarg, ","); id; id = strtok(NULL, ","))
                if (ntask_ids < 256)
                    task_ids[ntask_ids++] = id;
            if (!ntask_ids) {
                fputs("arcrun: --task wants task ids, e.g. --task=007bbfb7,00d62c1b\n", stderr);
                return EXIT_USAGE;
            }
            break;
        case OPT_SUBMISSION:
            if (!*optarg) {
                fputs("arcrun: --submission wants a file name, e.g. --submission=submission.json\n", stderr);
                return EXIT_USAGE;
            }
            submission = optarg;
            break;
        case OPT_ENTRY:
            if (!*optarg) {
                fputs("arcrun: --entry wants a prefix, e.g. --entry=verify_\n", stderr);
                return EXIT_USAGE;
            }
            entry = optarg;
            ir_program_entry(entry);   /* lowering names programs by it too */
            break;
        case OPT_NO_CACHE: no_cache = 1; break;
        case OPT_BACKEND:
            if (backend_mode_parse(optarg) < 0) {
                fprintf(stderr, "arcrun: unknown backend '%s' (cpu, cuda or auto)\n", optarg);
                return EXIT_USAGE;
            }
            gopt.mode = (BackendMode)backend_mode_parse(optarg);
            break;
        case OPT_COMPARE: gopt.compare = true; break;
        case OPT_CALIBRATION: gopt.calibration = optarg; break;
        case 'v': verbose++; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return EXIT_OK;
        case 'V': version(); return EXIT_OK;
        default:
            fputs("Try 'arcrun --help'.\n", stderr);
            return EXIT_USAGE;
        }
    }
    int nargs = argc - optind;
    char **args = argv + optind;

    if (gopt.compare && gopt.mode == BACKEND_CPU) {
        fputs("arcrun: --compare needs a GPU backend, not --backend=cpu\n", stderr);
        return EXIT_USAGE;
    }
    if (nargs >= 1 && strcmp(args[0], "calibrate") == 0) {
        optind = 1;
        int ec = argc - (int)(args - argv);
        char **ev = args;
        const char *only = NULL;
        while ((c = getopt_long(ec, ev, "+j:", longopts, NULL)) != -1) {
            if (c == OPT_BACKEND && backend_mode_parse(optarg) >= 0) {
                gopt.mode = (BackendMode)backend_mode_parse(optarg);
                continue;
            }
            if (c == OPT_CALIBRATION) {
                gopt.calibration = optarg;
                continue;
            }
            if (c == OPT_OPS) {
                only = optarg;
                continue;
            }
            if (c == 'j' && atoi(optarg) >= 1 && atoi(optarg) <= 64) {
                jobs = atoi(optarg);
                continue;
            }
            fputs("Usage: arcrun calibrate [--backend=cuda|emulate] [--calibration=FILE] [-j N]\n"
                  "                        [--ops=OP,...] [TASKS...]\n", stderr);
            return EXIT_USAGE;
        }
        /* TASKS: draw the grids from real tasks instead of random ones */
        TaskSet cts = {0};
        for (int k = optind; k < ec; k++) {
            TaskSet one;
            char terr[512];
            if (taskset_load(ev[k], NULL, &one, terr, sizeof terr) != 0) {
                fprintf(stderr, "arcrun: %s\n", terr);
                taskset_free(&cts);
                return EXIT_INPUT;
            }
            Task *grown = realloc(cts.tasks, sizeof *cts.tasks * (size_t)(cts.ntasks + one.ntasks));
            if (!grown) {
                fputs("arcrun: out of memory\n", stderr);
                return EXIT_INPUT;
            }
            cts.tasks = grown;
            memcpy(cts.tasks + cts.ntasks, one.tasks, sizeof *one.tasks * (size_t)one.ntasks);
            cts.ntasks += one.ntasks;
            free(one.tasks);
        }
        int crc = backend_gpu_calibrate(&gopt, jobs, cts.ntasks ? &cts : NULL, only);
        taskset_free(&cts);
        return crc == 0 ? EXIT_OK : crc == -2 ? EXIT_USAGE : EXIT_NO_DEVICE;
    }
    if (nargs >= 1 && strcmp(args[0], "show") == 0)
        return cmd_show(nargs, args);
    if (nargs >= 1 && strcmp(args[0], "list") == 0)
        return cmd_list(nargs, args);
    if (nargs >= 1 && strcmp(args[0], "eval") == 0) {
        /* options may also follow the subcommand */
        optind = 1;
        int ec = argc - (int)(args - argv);
        char **ev = args;
        while ((c = getopt_long(ec, ev, "+", longopts, NULL)) != -1) {
            if (c == OPT_DIALECT && (dialect = ir_dialect_parse(optarg)) < 0) {
                fprintf(stderr, "arcrun: unknown dialect '%s'\n", optarg);
                return EXIT_USAGE;
            } else if (c != OPT_DIALECT) {
                fputs("Try 'arcrun --help'.\n", stderr);
                return EXIT_USAGE;
            }
        }
        if (ec - optind != 1) {
            fputs("arcrun: eval takes one expression, e.g. arcrun eval 'rot90(((1, 2), (3, 4)))'\n", stderr);
            return EXIT_USAGE;
        }
        return cmd_eval(dialect, ev[optind]);
    }
    if (check) {
        if (nargs < 1) {
            fputs("arcrun: --check needs at least one program file\n", stderr);
            return EXIT_USAGE;
        }
        return cmd_check(dialect, entry, args, nargs);
    }
    /* PROGRAM... TASKS...: each argument is one or the other (names_tasks) */
    if (nargs < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    char **progs = args;
    int nprogs = 0, ntask_paths = 0;
    char *stdin_text = NULL;
    const char *stdin_tasks = NULL;
    for (int i = 0; i < nargs; i++) {
        struct stat st;
        if (strcmp(args[i], "-") == 0) {
            if (stdin_text) {
                fputs("arcrun: '-' (standard input) can be given once\n", stderr);
                return EXIT_USAGE;
            }
            if (!(stdin_text = read_stdin())) {
                fprintf(stderr, "arcrun: cannot read standard input: %s\n", strerror(errno));
                return EXIT_INPUT;
            }
            if (!stdin_is_tasks(stdin_text)) {
                if (ntask_paths) {
                    fputs("arcrun: '-' reads a program here, after the tasks: programs come first\n", stderr);
                    return EXIT_USAGE;
                }
                nprogs++;
                continue;
            }
            /* a task set is read from a file: its tasks stream from it */
            if (!(stdin_tasks = stdin_to_file(stdin_text))) {
                fprintf(stderr, "arcrun: cannot keep standard input's tasks: %s\n", strerror(errno));
                return EXIT_INPUT;
            }
            args[i] = (char *)stdin_tasks;
            ntask_paths++;
            continue;
        }
        if (stat(args[i], &st) != 0) {
            fprintf(stderr, "arcrun: %s: %s\n", args[i], strerror(errno));
            return EXIT_INPUT;
        }
        if (names_tasks(args[i])) {
            ntask_paths++;
        } else if (ntask_paths) {
            fprintf(stderr, "arcrun: '%s' comes after the tasks, but is not tasks "
                    "(a .json file or a directory of them): programs come first\n", args[i]);
            return EXIT_USAGE;
        } else {
            nprogs++;
        }
    }
    if (nprogs == 0 || ntask_paths == 0) {
        if (nargs > 0)
            fprintf(stderr, "arcrun: %s\n", nprogs ? "no TASKS given (a .json file, or a directory of them)"
                                                    : "no PROGRAM given (a .py or .dsl file, or a directory of them)");
        usage(stderr);
        return EXIT_USAGE;
    }

    char **task_paths = args + nprogs;
    /* the tasks load on their own thread(s) while the program parses */
    TaskLoad tl = {.paths = task_paths, .npaths = ntask_paths, .solutions = solutions, .jobs = jobs};
    pthread_t loader;
    bool loading = jobs > 1 && pthread_create(&loader, NULL, load_tasks, &tl) == 0;
    char *err = NULL;
    uint64_t t_parse = now_ns();
    IrModule *m = ir_load_paths(progs, nprogs, stdin_text, dialect, &err);
    t_parse = now_ns() - t_parse;
    if (loading)
        pthread_join(loader, NULL);
    if (!m) {
        fputs(err ? err : "arcrun: cannot load program\n", stderr);
        free(err);
        if (loading && tl.rc == 0)
            taskset_free(&tl.ts);
        return EXIT_INPUT;
    }
    if (m->warnings)
        fputs(m->warnings, stderr);
    StrBuf sb;
    sb_init(&sb);
    if (module_missing_prims(m, &sb)) {
        fprintf(stderr, "arcrun: %s uses primitives not implemented yet: %s\n", m->path, sb.buf);
        sb_free(&sb);
        ir_free(m);
        if (loading && tl.rc == 0)
            taskset_free(&tl.ts);
        return EXIT_UNSUPPORTED;
    }
    sb_free(&sb);
    if (!loading)
        load_tasks(&tl);
    TaskSet ts = tl.ts;
    if (tl.rc != 0) {
        char *at = stdin_tasks ? strstr(tl.err, stdin_tasks) : NULL;
        if (at)     /* the file standard input went to is named as what it was */
            fprintf(stderr, "arcrun: %.*s<stdin>%s\n", (int)(at - tl.err), tl.err, at + strlen(stdin_tasks));
        else
            fprintf(stderr, "arcrun: %s\n", tl.err);
        ir_free(m);
        return EXIT_INPUT;
    }
    /* a malformed file of a directory: said, left out, and the exit says so */
    int skipped = ts.nskipped;
    for (char *l = ts.skipped, *e; l && *l; l = e + 1) {
        e = strchr(l, '\n');
        fprintf(stderr, "arcrun: %.*s (skipped)\n", (int)(e - l), l);
    }
    const char *missing;
    if (ntask_ids && taskset_select(&ts, task_ids, ntask_ids, &missing) != 0) {
        fprintf(stderr, "arcrun: --task: no task '%s' in %s%s\n", missing, task_paths[0],
                ntask_paths > 1 ? " and the other TASKS" : "");
        taskset_free(&ts);
        ir_free(m);
        return EXIT_INPUT;
    }
    FILE *trace = NULL;
    if (trace_path && !(trace = fopen(trace_path, "w"))) {
        fprintf(stderr, "arcrun: cannot write %s: %s\n", trace_path, strerror(errno));
        taskset_free(&ts);
        ir_free(m);
        return EXIT_INPUT;
    }
    Submission *sub = NULL;
    if (submission) {
        const char *why = submission_refusal(m, submission);
        if (why) {
            fprintf(stderr, "arcrun: --submission=%s: %s\n", submission, why);
            if (trace)
                fclose(trace);
            taskset_free(&ts);
            ir_free(m);
            return EXIT_INPUT;
        }
        sub = sub_new(&ts);
    }
    signal(SIGINT, on_sigint);
    RunOptions ro = {
        .submission = sub,
        .format = format, .verbose = verbose, .quiet = quiet,
        .work_limit = budget >= 0 ? (uint64_t)budget : all_pairs ? BUDGET_SEARCH : BUDGET_RUN,
        .time_limit = timeout, .interrupted = &interrupted, .trace = trace,
        .stats = stats ? stderr : NULL, .stats_json = stats == 2,
        .jobs = jobs, .all_pairs = all_pairs, .no_cache = no_cache, .entry = entry,
        .parse_s = (double)t_parse / 1e9, .load_s = (double)tl.ns / 1e9,
    };
    gopt.verbose = verbose;
    gopt.jobs = jobs;
    backend_register(&backend_gpu);
    if (backend_gpu_setup(&gopt) != 0) {
        taskset_free(&ts);
        ir_free(m);
        return EXIT_INPUT;
    }
    int rc = report_run(m, &ts, &ro, stdout);
    /* --stats=json's stderr is one JSON object: the GPU table only when asked
     * for otherwise (-v, --compare) */
    long differ = backend_gpu_finish(stderr, verbose || stats == 1);
    if (trace)
        fclose(trace);
    /* written after an interruption too: what finished is in it */
    bool sub_failed = sub && sub_write(sub, &ts, submission) != 0;
    if (sub_failed)
        fprintf(stderr, "arcrun: cannot write %s: %s\n", submission, strerror(errno));
    else if (sub && !quiet)
        fprintf(stderr, "arcrun: wrote %s (%d task%s)\n", submission, ts.ntasks,
                ts.ntasks == 1 ? "" : "s");
    sub_free(sub);
    taskset_free(&ts);
    ir_free(m);
    if (sub_failed)
        return EXIT_INPUT;
    if (rc < 0)
        return EXIT_INTERRUPTED;
    if (gopt.compare && differ)
        return EXIT_COMPARE_DIFF;
    return skipped ? EXIT_SKIPPED : EXIT_OK;
}
