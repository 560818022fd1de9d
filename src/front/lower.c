/* lower.c -- lowering whole modules: a file or string parsed, its defs
 * lowered (lower_stmt.c), the dialect picked; pinning and freeing. */
#include "lower.h"

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
    for (int i = 0; i < m->nprogs; i++) lower_program_clear(&m->progs[i]);
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
    IrModule *m = lower_realloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    m->path = lower_strdup(name);
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
    int *defs = lower_realloc(NULL, dcap * sizeof *defs);
    memset(defs, -1, dcap * sizeof *defs);
    for (Stmt *s = pc.body; s && pc.nerr <= PC_MAX_ERRORS; s = s->next) {
        if (s->kind == S_DEF) {
            uint32_t d = lower_name_hash(s->u.def.name) & (uint32_t)(dcap - 1);
            for (; defs[d] >= 0; d = (d + 1) & (uint32_t)(dcap - 1))
                if (strcmp(m->progs[defs[d]].name, s->u.def.name) == 0) {
                    pc_error(&pc, s->loc, "function '%s' is already defined (line %d)",
                        s->u.def.name, m->progs[defs[d]].line);
                    break;
                }
            if (defs[d] < 0) defs[d] = m->nprogs;
            if (m->nprogs == cap) {
                cap = cap ? 2 * cap : 8;
                m->progs = lower_realloc(m->progs, (size_t)cap * sizeof *m->progs);
            }
            lower_def(&L, s, &m->progs[m->nprogs]);
            m->progs[m->nprogs++].file = m->path;
        } else if (s->kind == S_IMPORT || s->kind == S_PASS ||
                   (s->kind == S_EXPR && s->u.expr->kind == E_STR)) {
            continue;
        } else {
            pc_error(&pc, s->loc, "only imports and function definitions may appear at the top level");
        }
    }
    if (m->nprogs == 0 && !pc.nerr)
        pc_error(&pc, (Loc){1, 1}, "the file defines no program: a def solve_<task id>(I) "
                 "or a def batt(task_id, S, I, C, log_path)");
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
                buf = lower_realloc(buf, cap);
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
            *errmsg = lower_realloc(NULL, n);
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
