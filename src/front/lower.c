/* lower.c -- lowering whole modules: a file or string parsed, its defs
 * lowered (lower_stmt.c), the dialect picked; pinning and freeing.  A def
 * is lowered as soon as it is parsed where nothing later in the file can
 * change what its names mean (load_streamed), else after the whole tree
 * (load_whole). */
#include "lower.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a dialect argument leaves to the file: < 0, or none of ours. */
static bool dialect_open(int d)
{
    return d < 0 || (d >= DIALECT_COUNT && d != IR_DIALECT_REARC);
}

/* The dialect defs pick: a def batt, else a def verify_<id>, else arc-dsl. */
static int dialect_of(bool batt, bool verify)
{
    return batt ? DIALECT_TOKPIDJIN : verify ? IR_DIALECT_REARC : DIALECT_ARCDSL;
}

static bool is_batt(const char *def) { return strcmp(def, "batt") == 0; }
static bool is_verify(const char *def) { return strncmp(def, "verify_", 7) == 0; }

static int pick_dialect(Stmt *body)
{
    bool batt = false, verify = false;
    for (Stmt *s = body; s; s = s->next)
        if (s->kind == S_DEF) {
            batt |= is_batt(s->u.def.name);
            verify |= is_verify(s->u.def.name);
        }
    return dialect_of(batt, verify);
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
    for (int i = 0; i < m->nprogs && !m->parts; i++) lower_program_clear(&m->progs[i]);
    for (int i = 0; i < m->nparts; i++) ir_free(m->parts[i]);
    free(m->parts);
    for (int i = 0; i < m->nbound; i++) v_decref(m->bound[i]);
    for (size_t i = 0; i < m->npinned; i++) v_free_pinned(m->pinned[i]);   /* after the decrefs, which skip them */
    for (int i = 0; i < m->ndefs; i++) def_free(m->defs[i]);
    free(m->defs);
    free(m->bound);
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

int ir_dialect_parse(const char *name)
{
    if (strcmp(name, "arc-dsl") == 0 || strcmp(name, "arcdsl") == 0)
        return DIALECT_ARCDSL;
    if (strcmp(name, "tokpidjin") == 0)
        return DIALECT_TOKPIDJIN;
    if (strcmp(name, "re-arc") == 0 || strcmp(name, "rearc") == 0)
        return IR_DIALECT_REARC;
    return -1;
}

const char *ir_dialect_name(const IrModule *m)
{
    return m->dialect == DIALECT_TOKPIDJIN ? "tokpidjin" : m->rearc ? "re-arc" : "arc-dsl";
}

/* ---- top-level names ------------------------------------------------------ */

static int mod_slot(const ModScope *ms, const char *name, uint32_t *at)
{
    if (!ms->index_cap)
        return *at = 0, -1;
    uint32_t i = name_hash(name) & (ms->index_cap - 1);
    for (; ms->index[i] >= 0; i = (i + 1) & (ms->index_cap - 1))
        if (ms->names[ms->index[i]].name == name)
            break;
    *at = i;
    return ms->index[i];
}

/* The slot of name in the missed table (its own, or the empty one where
 * it would go). */
static uint32_t missed_slot(const ModScope *ms, const char *name)
{
    uint32_t m = ms->missed_cap - 1, i = name_hash(name) & m;
    while (ms->missed[i] && ms->missed[i] != name) i = (i + 1) & m;
    return i;
}

static bool missed_has(const ModScope *ms, const char *name)
{
    return ms->missed_cap && ms->missed[missed_slot(ms, name)];
}

static void missed_add(ModScope *ms, const char *name)
{
    if (2 * (ms->nmissed + 1) > ms->missed_cap) {
        const char **old = ms->missed;
        uint32_t oldcap = ms->missed_cap;
        ms->missed_cap = oldcap ? 2 * oldcap : 256;
        ms->missed = lower_realloc(NULL, ms->missed_cap * sizeof *ms->missed);
        memset(ms->missed, 0, ms->missed_cap * sizeof *ms->missed);
        for (uint32_t i = 0; i < oldcap; i++)
            if (old[i]) ms->missed[missed_slot(ms, old[i])] = old[i];
        free(old);
    }
    uint32_t i = missed_slot(ms, name);
    if (!ms->missed[i]) {
        ms->missed[i] = name;
        ms->nmissed++;
    }
}

/* Bind name (the latest binding of a name is the one code sees). */
static void mod_bind(IrModule *m, ModScope *ms, const char *name, Value *v, int def, int line)
{
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 16;
        ms->names = lower_realloc(ms->names, (size_t)ms->cap * sizeof *ms->names);
        m->bound = lower_realloc(m->bound, (size_t)ms->cap * sizeof *m->bound);
    }
    if (4 * (uint32_t)(ms->n + 1) > ms->index_cap) {
        ms->index_cap = ms->index_cap ? 2 * ms->index_cap : 64;
        ms->index = lower_realloc(ms->index, ms->index_cap * sizeof *ms->index);
        memset(ms->index, -1, ms->index_cap * sizeof *ms->index);
        for (int k = 0; k < ms->n; k++) {       /* the latest binding of a name last */
            uint32_t at;
            mod_slot(ms, ms->names[k].name, &at);
            ms->index[at] = k;
        }
    }
    /* streaming: code lowered before this line took the name for something else */
    if (ms->streaming && missed_has(ms, name))
        ms->doubt = true;
    m->bound[m->nbound++] = v;
    ms->names[ms->n] = (ModName){name, v, def, line};
    uint32_t at;
    mod_slot(ms, name, &at);
    ms->index[at] = ms->n++;
}

const ModName *mod_lookup(Lower *L, const char *name)
{
    ModScope *ms = L->mod;
    uint32_t at;
    int k = ms ? mod_slot(ms, name, &at) : -1;
    if (k < 0) {
        if (ms && ms->streaming) missed_add(ms, name);
        return NULL;
    }
    const ModName *mn = &ms->names[k];
    if (ms->visible_line && mn->line >= ms->visible_line)
        return NULL;           /* a def further down: not bound yet when this runs */
    if (ms->streaming && mn->def >= 0 && L->def_index < 0)
        ms->doubt = true;      /* a constant naming a def: defs are lowered later, in full */
    if (mn->def >= 0 && mn->def != L->def_index)
        ms->called[mn->def] = true;
    return mn;
}

/* NAME = expr at the top level: evaluated once, now, in file order, as
 * the import runs it; defs then read the value. */
static void lower_constant(Lower *L, IrModule *m, ModScope *ms, Stmt *s)
{
    Expr *t = s->u.assign.targets;
    if (s->u.assign.tuple || s->u.assign.ntargets != 1 || t->kind != E_NAME) {
        pc_error(L->pc, s->loc, "at the top level, assign one name at a time (NAME = value)");
        return;
    }
    IrProgram tmp;
    lower_begin(L, &tmp);
    L->def_index = -1;
    ms->visible_line = s->loc.line;
    IrOperand res = op_slot(-1);
    int prim, nerr = L->pc->nerr;
    int rc = lower_value(L, s->u.assign.value, &res, &prim);
    lower_seal(L);
    if (rc == 0 && L->pc->nerr == nerr) {
        Ctx cx;
        ctx_init(&cx, L->dialect);
        Value *v = ir_run(&cx, &tmp, NULL, res);
        if (v)
            mod_bind(m, ms, t->u.name, v, -1, s->loc.line);
        else
            pc_error(L->pc, s->loc, "evaluating '%s' raised %s", t->u.name, cx.errmsg);
    }
    ms->visible_line = 0;
    op_drop(&res);
    lower_program_clear(&tmp);
    lower_locals_reset(L);
}

size_t ir_program_prefix(const char *entry, const char *name)
{
    static const char *const fixed[] = {"solve_", "verify_"};
    for (size_t i = 0; i < (entry ? 1 : sizeof fixed / sizeof fixed[0]); i++) {
        const char *pre = entry ? entry : fixed[i];
        size_t n = strlen(pre);
        if (strncmp(name, pre, n) == 0)
            return n;
    }
    return 0;
}

int ir_program_arity(int dialect)
{
    return dialect == DIALECT_TOKPIDJIN ? 5 : 1;
}

static const char *program_entry;

void ir_program_entry(const char *prefix)
{
    program_entry = prefix;
}

/* Whether a def is named as a program, one its harness calls whatever its
 * parameters: arc-dsl's by ir_program_prefix, a batt file's batt. */
static bool program_named(const Lower *L, const char *name)
{
    return L->dialect == DIALECT_TOKPIDJIN ? is_batt(name)
                                           : ir_program_prefix(program_entry, name) > 0;
}

static Value *type_error_invoke(Ctx *cx, Value *self, Value *const *argv)
{
    (void)argv;
    return cx_raise(cx, "TypeError", "%s", self->u.fn.cap[0]->u.str.s);
}

/* p, a program whose parameters do not fit its caller's arguments, as
 * CPython's call of it: lowered again as one statement, at the def, that
 * raises the TypeError CPython's call raises, its slots the caller's
 * want arguments, then that statement's target. */
static void program_raises(Lower *L, IrProgram *p, int want)
{
    char msg[512];
    ir_arity_words(msg, sizeof msg, p, want);
    Value *str = v_str(msg, strlen(msg));
    IrOperand f = op_k(v_func_new(type_error_invoke, "<TypeError>", -1, 0, 0, 1, &str));
    v_decref(str);
    static const char *const batt_params[] = {"task_id", "S", "I", "C", "log_path"};
    IrProgram was = *p;
    lower_body_clear(p);
    lower_begin(L, p);
    p->name = was.name;
    p->file = was.file;
    p->line = was.line;
    for (; p->nparams < want; p->nparams++)
        lower_new_slot(L, want == 1 ? "I" : batt_params[p->nparams]);
    lower_emit_call(L, (Loc){p->line, 1}, f, NULL, 0, lower_new_slot(L, "_tmp"));
    lower_seal(L);
}

/* A def another names is a helper: called with any number of arguments,
 * never handed batt's lists.  The others are programs; one whose
 * parameters do not fit its caller runs as CPython runs it, raising
 * TypeError, where its name makes it a program, and never otherwise. */
static void check_defs(Lower *L, IrModule *m, const Loc *locs)
{
    bool batt = L->dialect == DIALECT_TOKPIDJIN;
    const char *given = batt ? "task_id, S, I, C, log_path" : "the input grid";
    int want = ir_program_arity(L->dialect);
    for (int d = 0; d < m->nprogs; d++) {
        IrProgram *p = &m->progs[d];
        Loc at = locs[d];
        if (p->called) {
            for (int k = 0; k < p->nstmts; k++)
                if (p->stmts[k].kind == IR_EMPTY_LIST || p->stmts[k].guarded) {
                    pc_error(L->pc, (Loc){p->stmts[k].line, p->stmts[k].col},
                             "'%s' is called by another def, and a called def cannot use %s",
                             p->name, p->stmts[k].guarded ? "try" : "the record lists");
                    break;
                }
            if (p->nparams != want && program_named(L, p->name))
                pc_warning(L->pc, at, "'%s' takes %d parameter%s and another def calls it: it runs "
                           "where it is called, and not as a program (CPython's harness, calling it "
                           "with %s, would raise TypeError)", p->name, p->nparams,
                           p->nparams == 1 ? "" : "s", given);
            continue;
        }
        if (p->nparams == want)
            continue;
        if (!program_named(L, p->name)) {
            /* a helper no def calls: CPython's harness never calls it either */
            pc_warning(L->pc, at, "'%s' takes %d parameter%s and no def calls it: not a program "
                       "(a program is called with %s), so it never runs", p->name, p->nparams,
                       p->nparams == 1 ? "" : "s", given);
            continue;
        }
        pc_warning(L->pc, at, "'%s' takes %d parameter%s, and is called with %s: as in CPython, "
                   "every sample raises TypeError", p->name, p->nparams, p->nparams == 1 ? "" : "s",
                   given);
        program_raises(L, p, want);
    }
}

static IrModule *module_new(const char *name, int dialect)
{
    IrModule *m = lower_realloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    m->path = lower_strdup(name);
    m->rearc = dialect == IR_DIALECT_REARC;
    m->dialect = m->rearc ? DIALECT_ARCDSL : dialect;
    return m;
}

static void lower_init(Lower *L, ParseCtx *pc, const IrModule *m, ModScope *ms)
{
    memset(L, 0, sizeof *L);
    L->pc = pc;
    L->dialect = m->dialect;
    L->rearc = m->rearc;
    L->mod = ms;
}

/* Room for def number d in m and ms (and locs, its location). */
static void defs_room(IrModule *m, ModScope *ms, Loc **locs, int *cap, int d)
{
    if (d < *cap) return;
    int old = *cap;
    *cap = old ? 2 * old : 64;
    while (*cap <= d) *cap *= 2;
    m->progs = lower_realloc(m->progs, (size_t)*cap * sizeof *m->progs);
    memset(m->progs + old, 0, (size_t)(*cap - old) * sizeof *m->progs);
    m->defs = lower_realloc(m->defs, (size_t)*cap * sizeof *m->defs);
    ms->called = lower_realloc(ms->called, (size_t)*cap * sizeof *ms->called);
    memset(ms->called + old, 0, (size_t)(*cap - old) * sizeof *ms->called);
    *locs = lower_realloc(*locs, (size_t)*cap * sizeof **locs);
}

static void bind_def(IrModule *m, ModScope *ms, Stmt *s)
{
    int d = m->ndefs;
    mod_bind(m, ms, s->u.def.name, def_value_new(m, d, s->u.def.name, s->u.def.nparams), d,
             s->loc.line);
    m->ndefs = d + 1;
}

static void lower_next_def(Lower *L, IrModule *m, Stmt *s)
{
    L->def_index = m->nprogs;
    lower_def(L, s, &m->progs[m->nprogs]);
    m->progs[m->nprogs++].file = m->path;
}

/* After the defs are lowered: which are helpers, the checks that needs,
 * the counts; NULL with the messages in *errmsg on an error. */
static IrModule *module_done(Lower *L, IrModule *m, ModScope *ms, const Loc *locs, char **errmsg)
{
    ParseCtx *pc = L->pc;
    for (int k = 0; k < m->nprogs; k++)
        m->progs[k].called = ms->called[k];
    if (!pc->nerr)
        check_defs(L, m, locs);
    if (m->ndefs == 0 && !pc->nerr)
        pc_error(pc, (Loc){1, 1}, "the file defines no program: a def solve_<task id>(I) "
                 "or a def batt(task_id, S, I, C, log_path)");
    lower_done(L);
    free(ms->names);
    free(ms->index);
    free(ms->called);
    free(ms->missed);
    m->nstmts_total = L->counted;
    m->warnings = pc_take_warnings(pc);
    if (pc->nerr) {
        if (errmsg) *errmsg = pc_take_errors(pc);
        ir_free(m);
        return NULL;
    }
    return m;
}

/* The whole tree first, then every def bound, the top level run in order
 * (constants), and the defs' bodies lowered: any file, and the messages. */
static IrModule *load_whole(const char *name, const char *src, size_t len, int dialect,
                            char **errmsg)
{
    ParseCtx pc;
    pc_init(&pc, name, src, len, PARSE_FILE);
    if (ast_parse(&pc) < 0) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        return NULL;
    }
    if (dialect_open(dialect))
        dialect = pick_dialect(pc.body);
    IrModule *m = module_new(name, dialect);
    Lower L;
    ModScope ms = {0};
    lower_init(&L, &pc, m, &ms);
    imports_scan(&L.imports, pc.body, m->rearc);

    Loc *locs = NULL;
    int cap = 0;
    for (Stmt *s = pc.body; s; s = s->next) {
        if (s->kind != S_DEF)
            continue;
        uint32_t at;
        int k = mod_slot(&ms, s->u.def.name, &at);
        if (k >= 0)
            pc_error(&pc, s->loc, "function '%s' is already defined (line %d)",
                     s->u.def.name, ms.names[k].line);
        defs_room(m, &ms, &locs, &cap, m->ndefs);
        locs[m->ndefs] = s->loc;
        bind_def(m, &ms, s);
    }
    for (Stmt *s = pc.body; s && pc.nerr <= PC_MAX_ERRORS; s = s->next) {
        if (s->kind == S_ASSIGN)
            lower_constant(&L, m, &ms, s);
        else if (s->kind != S_DEF && s->kind != S_IMPORT && s->kind != S_PASS &&
                 !(s->kind == S_EXPR && s->u.expr->kind == E_STR))
            pc_error(&pc, s->loc, "only imports, constants (NAME = value) and function "
                                  "definitions may appear at the top level");
    }
    for (Stmt *s = pc.body; s && pc.nerr <= PC_MAX_ERRORS; s = s->next)
        if (s->kind == S_DEF)
            lower_next_def(&L, m, s);
    m = module_done(&L, m, &ms, locs, errmsg);
    free(locs);
    pc_free(&pc);
    return m;
}

/* ---- lowering as the parse goes ---------------------------------------------
 * Each def is lowered as soon as it is parsed and its tree dropped, so the
 * tree of a large file never exists whole.  That holds when what a def's
 * names meant at that point is what they mean in the whole file: the
 * imports all come first, no later line binds a name that earlier code
 * looked up (or rebinds one), no constant names a def, and the dialect
 * guessed from the first def is the one the whole file picks.  Anything
 * else -- and any message at all, so that messages come from one place --
 * and the file is read again by load_whole. */

typedef struct {
    IrModule *m;
    Lower L;
    ModScope ms;
    Loc *locs;
    int cap;
    int dialect;              /* as given; < 0: guessed at the first def */
    bool started;             /* past the imports: the scope is fixed, the mark set */
    bool any_batt, any_verify;
    ArenaMark mark;
} Stream;

static void stream_start(Stream *st, ParseCtx *pc, Stmt *first)
{
    int d = st->dialect;
    if (dialect_open(d)) {
        const char *n = first->kind == S_DEF ? first->u.def.name : "";
        d = dialect_of(is_batt(n), is_verify(n));
    }
    st->m = module_new(pc->file, d);
    lower_init(&st->L, pc, st->m, &st->ms);
    st->ms.streaming = true;
    imports_scan(&st->L.imports, pc->body, st->m->rearc);
    st->mark = arena_mark(&pc->arena);
    st->started = true;
}

static int stream_stmt(ParseCtx *pc, Stmt *chain)
{
    Stream *st = pc->hook;
    for (Stmt *s = chain, *next; s; s = next) {
        next = s->next;
        bool preamble = s->kind == S_IMPORT || s->kind == S_PASS ||
                        (s->kind == S_EXPR && s->u.expr->kind == E_STR);
        if (preamble && !st->started) {
            s->next = NULL;                  /* imports_scan reads them from body */
            *(pc->body_end ? pc->body_end : &pc->body) = s;
            pc->body_end = &s->next;
            continue;
        }
        if (s->kind == S_IMPORT || (s->kind != S_DEF && s->kind != S_ASSIGN && !preamble))
            return -1;
        if (!st->started) stream_start(st, pc, s);
        Lower *L = &st->L;
        if (s->kind == S_DEF) {
            const char *n = s->u.def.name;
            st->any_batt |= is_batt(n);
            st->any_verify |= is_verify(n);
            uint32_t at;
            if (mod_slot(&st->ms, n, &at) >= 0) return -1;
            defs_room(st->m, &st->ms, &st->locs, &st->cap, st->m->ndefs);
            st->locs[st->m->ndefs] = s->loc;
            bind_def(st->m, &st->ms, s);
            lower_next_def(L, st->m, s);
        } else if (s->kind == S_ASSIGN) {
            Expr *t = s->u.assign.targets;
            uint32_t at;
            if (t->kind == E_NAME && mod_slot(&st->ms, t->u.name, &at) >= 0)
                return -1;
            lower_constant(L, st->m, &st->ms, s);
        }
        if (pc->nerr || pc->warnlen || st->ms.doubt) return -1;
    }
    if (st->started) arena_reset(&pc->arena, st->mark);
    return 0;
}

/* The module, or NULL where load_whole must read the file. */
static IrModule *load_streamed(const char *name, const char *src, size_t len, bool padded,
                               int dialect)
{
    ParseCtx pc;
    pc_init(&pc, name, src, len, PARSE_FILE);
    pc.src_padded = padded;
    Stream st = {.dialect = dialect};
    pc.on_stmt = stream_stmt;
    pc.hook = &st;
    bool ok = ast_parse(&pc) == 0 && st.started && !pc.nerr && !pc.warnlen && !st.ms.doubt;
    if (ok && dialect_open(dialect))
        ok = dialect_of(st.any_batt, st.any_verify) ==
             (st.m->rearc ? IR_DIALECT_REARC : st.m->dialect);
    IrModule *m = NULL;
    if (st.started) {
        m = module_done(&st.L, st.m, &st.ms, st.locs, NULL);
        if (m && (!ok || m->warnings)) {
            ir_free(m);
            m = NULL;
        }
    }
    free(st.locs);
    pc_free(&pc);
    return m;
}

/* padded: as ParseCtx.src_padded, for the streamed parse, whose
 * messages are never shown */
static IrModule *load_text(const char *name, const char *src, size_t len, bool padded, int dialect,
                           char **errmsg)
{
    ParseCtx pc;
    pc_init(&pc, name, src, len, PARSE_FILE);
    if (!utf8_source(&pc, src, len)) {
        if (errmsg) *errmsg = pc_take_errors(&pc);
        pc_free(&pc);
        return NULL;
    }
    pc_free(&pc);
    IrModule *m = load_streamed(name, src, len, padded, dialect);
    /* a message quotes its source line, which must not be scanned in place */
    return m ? m : load_whole(name, src, len, dialect, errmsg);
}

IrModule *ir_load_string(const char *name, const char *src, int dialect, char **errmsg)
{
    size_t len = strlen(src);
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) { src += 3; len -= 3; }  /* BOM */
    return load_text(name, src, len, false, dialect, errmsg);
}

/* open, fstat, one read of a regular file into a buffer two bytes longer
 * (the lexer's padding); NULL with *e set on failure. */
static char *read_source(const char *path, size_t *lenp, int *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { *e = errno; return NULL; }
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0
                 ? (size_t)st.st_size + 3 : 65536;
    size_t len = 0;
    char *buf = lower_realloc(NULL, cap);
    for (;;) {
        if (len + 3 > cap)
            buf = lower_realloc(buf, cap *= 2);
        ssize_t n = read(fd, buf + len, cap - len - 2);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { *e = errno; close(fd); free(buf); return NULL; }
        if (n == 0) break;
        len += (size_t)n;
    }
    close(fd);
    buf[len] = buf[len + 1] = 0;
    *lenp = len;
    return buf;
}

IrModule *ir_load_file(const char *path, int dialect, char **errmsg)
{
    size_t len = 0;
    int e = 0;
    char *buf = read_source(path, &len, &e);
    if (!buf) {
        if (errmsg) {
            const char *why = strerror(e);
            size_t n = strlen(path) + strlen(why) + 32;
            *errmsg = lower_realloc(NULL, n);
            snprintf(*errmsg, n, "%s: error: cannot read: %s\n", path, why);
        }
        return NULL;
    }
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
    char *src = buf;
    if (len >= 3 && memcmp(src, "\xef\xbb\xbf", 3) == 0) { src += 3; len -= 3; }  /* BOM */
    IrModule *m = load_text(path, src, len, true, dialect, errmsg);
    free(buf);
    return m;
}
