/* ast.c -- arena, syntax-tree constructors and located error messages. */
#include "ast.h"
#include "fnv.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ArenaBlock {
    ArenaBlock *next;
    size_t used, cap;
    max_align_t data[];
};

#define ARENA_BLOCK 65536

static ArenaBlock *block_new(size_t cap)
{
    ArenaBlock *b = malloc(sizeof *b + cap);
    if (!b) { fputs("arcrun: out of memory\n", stderr); abort(); }
    b->used = 0;
    b->cap = cap;
    return b;
}

void *arena_alloc(Arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    ArenaBlock *b = a->head;
    if (!b || b->cap - b->used < n) {
        if (a->spare && a->spare->cap >= n) {
            b = a->spare;
            a->spare = b->next;
            b->used = 0;
        } else {
            b = block_new(n > ARENA_BLOCK ? n : ARENA_BLOCK);
        }
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += n;
    memset(p, 0, n);
    return p;
}

/* Strings need no alignment: they are packed in runs of their own, so a
 * name takes its length, not a 16-byte multiple. */
#define ARENA_STR_RUN 16384

/* n bytes in the current string run (or a block of their own when long) */
static char *str_space(Arena *a, size_t n)
{
    char *p;
    if ((size_t)(a->str_end - a->str) < n) {
        size_t cap = n > ARENA_STR_RUN / 4 ? n : ARENA_STR_RUN;
        ArenaBlock *b = block_new(cap);
        b->next = a->strs;
        a->strs = b;
        p = (char *)b->data;
        if (cap == ARENA_STR_RUN) {       /* a long string leaves the run as it was */
            a->str = p + n;
            a->str_end = p + cap;
        }
    } else {
        p = a->str;
        a->str += n;
    }
    return p;
}

char *arena_strndup(Arena *a, const char *s, size_t n)
{
    char *p = str_space(a, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static void blocks_free(ArenaBlock *b)
{
    while (b) {
        ArenaBlock *next = b->next;
        free(b);
        b = next;
    }
}

void arena_free(Arena *a)
{
    blocks_free(a->head);
    blocks_free(a->spare);
    blocks_free(a->strs);
    memset(a, 0, sizeof *a);
}

ArenaMark arena_mark(const Arena *a)
{
    return (ArenaMark){ a->head, a->head ? a->head->used : 0 };
}

void arena_reset(Arena *a, ArenaMark m)
{
    while (a->head != m.block) {
        ArenaBlock *b = a->head;
        a->head = b->next;
        b->next = a->spare;
        a->spare = b;
    }
    if (m.block)
        m.block->used = m.used;
}

void pc_init(ParseCtx *pc, const char *file, const char *src, size_t len, int mode)
{
    memset(pc, 0, sizeof *pc);
    pc->file = file;
    pc->src = src;
    pc->len = len;
    pc->mode = mode;
}

char *pc_intern(ParseCtx *pc, const char *s, size_t n)
{
    uint32_t h = fnv1a32(FNV1A32_BASIS, s, n);
    if (2 * (pc->nsyms + 1) > pc->syms_cap) {
        uint32_t cap = pc->syms_cap ? 2 * pc->syms_cap : 1024, m = cap - 1;
        __typeof__(pc->syms) t = calloc(cap, sizeof *t);
        if (!t) { fputs("arcrun: out of memory\n", stderr); abort(); }
        for (uint32_t k = 0; k < pc->syms_cap; k++) {
            if (!pc->syms[k].s) continue;
            uint32_t i = pc->syms[k].hash & m;
            while (t[i].s) i = (i + 1) & m;
            t[i] = pc->syms[k];
        }
        free(pc->syms);
        pc->syms = t;
        pc->syms_cap = cap;
    }
    uint32_t m = pc->syms_cap - 1, i = h & m;
    for (; pc->syms[i].s; i = (i + 1) & m)
        if (pc->syms[i].hash == h && pc->syms[i].len == n && memcmp(pc->syms[i].s, s, n) == 0)
            return (char *)pc->syms[i].s;
    char *c = str_space(&pc->arena, sizeof h + n + 1) + sizeof h;
    memcpy(c - sizeof h, &h, sizeof h);      /* name_hash reads it back */
    memcpy(c, s, n);
    c[n] = 0;
    pc->syms[i].hash = h;
    pc->syms[i].len = (uint32_t)n;
    pc->syms[i].s = c;
    pc->nsyms++;
    return c;
}

void pc_free(ParseCtx *pc)
{
    arena_free(&pc->arena);
    free(pc->syms);
    pc->syms = NULL;
    pc->syms_cap = pc->nsyms = 0;
    free(pc->err);
    free(pc->warn);
    pc->err = pc->warn = NULL;
    pc->errlen = pc->errcap = pc->warnlen = pc->warncap = 0;
}

typedef struct { char **s; size_t *len, *cap; } MsgBuf;

static void buf_put(MsgBuf b, const char *s, size_t n)
{
    if (*b.len + n + 1 > *b.cap) {
        size_t cap = *b.cap ? *b.cap : 256;
        while (cap < *b.len + n + 1) cap *= 2;
        char *p = realloc(*b.s, cap);
        if (!p) { fputs("arcrun: out of memory\n", stderr); abort(); }
        *b.s = p;
        *b.cap = cap;
    }
    memcpy(*b.s + *b.len, s, n);
    *b.len += n;
    (*b.s)[*b.len] = 0;
}

static MsgBuf errors_of(ParseCtx *pc) { return (MsgBuf){ &pc->err, &pc->errlen, &pc->errcap }; }


/* Source line `line` (1-based): start and length without the newline. */
static const char *src_line(const ParseCtx *pc, int line, size_t *len)
{
    const char *p = pc->src, *end = pc->src + pc->len;
    for (int l = 1; l < line && p < end; l++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl) { p = end; break; }
        p = nl + 1;
    }
    const char *e = p;
    while (e < end && *e != '\n') e++;
    if (e > p && e[-1] == '\r') e--;
    *len = (size_t)(e - p);
    return p;
}

/* "file:line:col: KIND: msg", the source line and a caret under col. */
static void put_located(ParseCtx *pc, MsgBuf b, const char *kind, Loc at, const char *msg)
{
    char head[600];
    int n = snprintf(head, sizeof head, "%s:%d:%d: %s: %s\n", pc->file, at.line, at.col, kind, msg);
    buf_put(b, head, n < (int)sizeof head ? (size_t)n : sizeof head - 1);
    if (!pc->src || at.line < 1) return;

    size_t len;
    const char *line = src_line(pc, at.line, &len);
    /* very long lines: show a window around the column */
    size_t from = 0, col = at.col > 0 ? (size_t)at.col - 1 : 0;
    if (len > 160) {
        from = col > 80 ? col - 80 : 0;
        if (from > len) from = len;
        if (len - from > 160) len = from + 160;
    }
    buf_put(b, from ? "  ..." : "  ", from ? 5 : 2);
    for (size_t i = from; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        char ch = (c < 32 && c != '\t') || c == 127 ? '?' : (char)c;
        buf_put(b, &ch, 1);
    }
    buf_put(b, from ? "\n     " : "\n  ", from ? 6 : 3);
    /* keep tabs so the caret lines up under a tab-indented source line */
    for (size_t i = from; i < col; i++) {
        char ch = i < len && line[i] == '\t' ? '\t' : ' ';
        buf_put(b, &ch, 1);
    }
    buf_put(b, "^\n", 2);
}

void pc_error(ParseCtx *pc, Loc at, const char *fmt, ...)
{
    if (pc->nerr++ >= PC_MAX_ERRORS) {
        if (pc->nerr == PC_MAX_ERRORS + 1) {
            const char *m = "arcrun: too many errors, giving up\n";
            buf_put(errors_of(pc), m, strlen(m));
        }
        return;
    }
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    put_located(pc, errors_of(pc), "error", at, msg);
}

void pc_warning(ParseCtx *pc, Loc at, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    put_located(pc, (MsgBuf){ &pc->warn, &pc->warnlen, &pc->warncap }, "warning", at, msg);
}

char *pc_take_warnings(ParseCtx *pc)
{
    char *w = pc->warn;
    pc->warn = NULL;
    pc->warnlen = pc->warncap = 0;
    return w;
}

char *pc_take_errors(ParseCtx *pc)
{
    char *e = pc->err;
    if (!e) {
        static const char generic[] = "arcrun: error\n";
        e = malloc(sizeof generic);
        if (e) memcpy(e, generic, sizeof generic);
    }
    pc->err = NULL;
    pc->errlen = pc->errcap = 0;
    return e;
}

Expr *ast_expr(ParseCtx *pc, int kind, Loc at)
{
    Expr *e = arena_alloc(&pc->arena, sizeof *e);
    e->kind = kind;
    e->loc = at;
    return e;
}

bool ast_list_nests_deeper(const Expr *it, int levels)
{
    for (; it; it = it->next)
        if (ast_nests_deeper(it, levels))
            return true;
    return false;
}

bool ast_nests_deeper(const Expr *e, int levels)
{
    if (!e)
        return false;
    if (e->kind == E_KEYWORD)           /* a keyword is not an expression */
        return ast_nests_deeper(e->u.kw.value, levels);
    int room = levels - 1 - e->signs;
    if (room < 0)
        return true;
    switch (e->kind) {
    case E_TUPLE: case E_LIST: case E_SET:
        return ast_list_nests_deeper(e->u.list.items, room);
    case E_CALL:
        return ast_nests_deeper(e->u.call.fn, room) || ast_list_nests_deeper(e->u.call.args, room);
    case E_ATTR:
        return ast_nests_deeper(e->u.attr.obj, room);
    case E_NEG: case E_POS: case E_NOT: case E_INVERT:
        return ast_nests_deeper(e->u.neg, room);
    case E_BINOP: {
        int op = e->u.bin.op;
        if (op != PY_AND && op != PY_OR)
            return ast_nests_deeper(e->u.bin.a, room) || ast_nests_deeper(e->u.bin.b, room);
        /* one BoolOp of all the operands: the chain is walked, not descended */
        const Expr *x = e;
        for (; x->kind == E_BINOP && x->u.bin.op == op && (x == e || !x->paren); x = x->u.bin.a)
            if (ast_nests_deeper(x->u.bin.b, room))
                return true;
        return ast_nests_deeper(x, room);
    }
    case E_COMPARE:
        return ast_list_nests_deeper(e->u.cmp.items, room);
    case E_IFEXP:
        return ast_nests_deeper(e->u.ifexp.cond, room) || ast_nests_deeper(e->u.ifexp.a, room) ||
               ast_nests_deeper(e->u.ifexp.b, room);
    case E_LAMBDA:                      /* its parameters are not expressions */
        return ast_nests_deeper(e->u.lambda.body, room);
    case E_SUBSCRIPT:
        return ast_nests_deeper(e->u.sub.obj, room) || ast_nests_deeper(e->u.sub.index, room);
    case E_SLICE:
        return ast_nests_deeper(e->u.slice.lo, room) || ast_nests_deeper(e->u.slice.hi, room) ||
               ast_nests_deeper(e->u.slice.step, room);
    default:
        return false;
    }
}

Stmt *ast_stmt(ParseCtx *pc, int kind, Loc at)
{
    Stmt *s = arena_alloc(&pc->arena, sizeof *s);
    s->kind = kind;
    s->loc = at;
    return s;
}

void el_push(ExprList *l, Expr *e)
{
    e->next = NULL;
    if (l->tail) l->tail->next = e; else l->head = e;
    l->tail = e;
    l->n++;
}

void sl_push(StmtList *l, Stmt *s)
{
    s->next = NULL;
    if (l->tail) l->tail->next = s; else l->head = s;
    l->tail = s;
}
