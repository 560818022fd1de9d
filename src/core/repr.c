/* repr.c -- Python's repr() of values, byte for byte. */
#include "value.h"
#include "vgrid.h"
#include "utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc_(size_t n);

void sb_init(StrBuf *sb)
{
    sb->buf = NULL;
    sb->len = sb->cap = 0;
    sb->spill = NULL;
}

void sb_free(StrBuf *sb)
{
    free(sb->buf);
    sb_init(sb);
}

char *sb_grow(StrBuf *sb, size_t more)
{
    if (sb->spill) {
        sb->spill(sb);
        if (sb->len + more + 1 <= sb->cap)
            return sb->buf + sb->len;
    }
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + more + 1)
        cap *= 2;
    char *p = realloc(sb->buf, cap);
    if (!p) {
        fputs("arcrun: out of memory\n", stderr);
        abort();
    }
    sb->buf = p;
    sb->cap = cap;
    return p + sb->len;
}

void sb_printf(StrBuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *p = sb_room(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

/* float repr: the shortest digits that round-trip, laid out as Python's
 * float_repr_style 'short' does (fixed notation for 1e-4 <= |x| < 1e16). */
static void repr_float(StrBuf *sb, double x)
{
    if (isnan(x)) { sb_puts(sb, "nan"); return; }
    if (isinf(x)) { sb_puts(sb, x < 0 ? "-inf" : "inf"); return; }
    char buf[40];
    int prec;
    for (prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    /* buf = [-]d.ddde[+-]XX : split digits and exponent */
    char digits[24];
    int nd = 0, exp10;
    const char *p = buf;
    bool neg = *p == '-';
    if (neg)
        p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.')
            digits[nd++] = *p;
    exp10 = atoi(p + 1);
    while (nd > 1 && digits[nd - 1] == '0')
        nd--;
    if (neg)
        sb_putc(sb, '-');
    if (exp10 >= -4 && exp10 < 16) {
        if (exp10 < 0) {
            sb_puts(sb, "0.");
            for (int i = -1; i > exp10; i--)
                sb_putc(sb, '0');
            sb_putn(sb, digits, (size_t)nd);
        } else {
            for (int i = 0; i <= exp10; i++)
                sb_putc(sb, i < nd ? digits[i] : '0');
            sb_putc(sb, '.');
            if (nd > exp10 + 1)
                sb_putn(sb, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
            else
                sb_putc(sb, '0');
        }
    } else {
        sb_putc(sb, digits[0]);
        if (nd > 1) {
            sb_putc(sb, '.');
            sb_putn(sb, digits + 1, (size_t)(nd - 1));
        }
        sb_printf(sb, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
    }
}

/* grids are mostly ints: printf's format parsing cost more than the rest
 * of a repr */
static void repr_int(StrBuf *sb, int64_t i)
{
    char buf[24], *p = buf + sizeof buf;
    uint64_t u = i < 0 ? 0 - (uint64_t)i : (uint64_t)i;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (i < 0)
        *--p = '-';
    sb_putn(sb, p, (size_t)(buf + sizeof buf - p));
}

static void repr_str(StrBuf *sb, const Value *v)
{
    const char *s = v->u.str.s;
    size_t n = v->u.str.len;
    bool sq = memchr(s, '\'', n) != NULL, dq = memchr(s, '"', n) != NULL;
    char q = (sq && !dq) ? '"' : '\'';
    sb_putc(sb, q);
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp;
        int len;
        if (c == (unsigned char)q || c == '\\') {
            sb_putc(sb, '\\');
            sb_putc(sb, (char)c);
        } else if (c == '\n') sb_puts(sb, "\\n");
        else if (c == '\t') sb_puts(sb, "\\t");
        else if (c == '\r') sb_puts(sb, "\\r");
        else if (c < 0x20 || c == 0x7f) sb_printf(sb, "\\x%02x", c);
        else if (c < 0x80) sb_putc(sb, (char)c);
        else if (!(len = utf8_decode((const unsigned char *)s + i, n - i, &cp))) {
            sb_printf(sb, "\\x%02x", c);   /* not made by the lexer: never valid text */
        } else {
            /* str.isprintable() in Latin-1: C1 controls, NBSP and the soft
             * hyphen are escaped; above U+00FF everything is taken as
             * printable (Python's Unicode tables are not reproduced) */
            if (cp < 0xa1 || cp == 0xad)
                sb_printf(sb, "\\x%02x", (unsigned)cp);
            else
                sb_printf(sb, "%.*s", len, s + i);
            i += (size_t)len - 1;
        }
    }
    sb_putc(sb, q);
}

/* A byte grid (vgrid.h), from its bytes: its rows are not made. */
static void repr_byte_grid(StrBuf *sb, const Value *v)
{
    size_t h = v->u.tup.len, w = vg_w(v);
    const uint8_t *c = vg_cells(v);
    sb_putc(sb, '(');
    for (size_t i = 0; i < h; i++) {
        if (i)
            sb_putn(sb, ", ", 2);
        char *p = sb_room(sb, 5 * w + 3);
        *p++ = '(';
        p = vg_row_text(p, c + i * w, w);
        if (w == 1)
            *p++ = ',';
        *p++ = ')';
        sb->len = (size_t)(p - sb->buf);
        sb->buf[sb->len] = '\0';
    }
    if (h == 1)
        sb_putc(sb, ',');
    sb_putc(sb, ')');
}

/* A grid row of one-digit ints, the bulk of every output, written at
 * once; false (nothing written) for any other tuple. */
static bool repr_digit_row(StrBuf *sb, const Value *v)
{
    size_t n = v->u.tup.len;
    if (n < 2)
        return false;
    for (size_t i = 0; i < n; i++) {
        const Value *x = v_titems(v)[i];
        if (x->type != V_INT || (uint64_t)x->u.i > 9)
            return false;
    }
    char *p = sb_room(sb, 3 * n);
    *p++ = '(';
    for (size_t i = 0; i < n; i++) {
        if (i)
            *p++ = ',', *p++ = ' ';
        *p++ = (char)('0' + v_titems(v)[i]->u.i);
    }
    *p++ = ')';
    sb->len = (size_t)(p - sb->buf);
    sb->buf[sb->len] = '\0';
    return true;
}

/* A container whose items are being written: what comes after them */
typedef struct {
    Value *const *items;
    size_t len, next;           /* next: the item to write next */
    char close, close2;         /* written after the last item (close2 if not NUL) */
} ReprOpen;

/* v written whole, or, for a container with items, its opening written and
 * *o set up: false then. */
static bool repr_leaf(StrBuf *sb, const Value *v, ReprOpen *o)
{
    switch (v->type) {
    case V_NONE: sb_puts(sb, "None"); return true;
    case V_BOOL: sb_puts(sb, v->u.i ? "True" : "False"); return true;
    case V_INT: repr_int(sb, v->u.i); return true;
    case V_FLOAT: repr_float(sb, v->u.f); return true;
    case V_STR: repr_str(sb, v); return true;
    case V_TUPLE:
        if (v->flags & V_FLAG_RANGE) {
            const Value *const *r = (const Value *const *)v_titems(v);
            if (r[2]->u.i == 1)
                sb_printf(sb, "range(%lld, %lld)", (long long)r[0]->u.i, (long long)r[1]->u.i);
            else
                sb_printf(sb, "range(%lld, %lld, %lld)", (long long)r[0]->u.i,
                          (long long)r[1]->u.i, (long long)r[2]->u.i);
            return true;
        }
        if (v->flags & V_FLAG_LIST) {
            sb_putc(sb, '[');
            *o = (ReprOpen){ v_titems(v), v->u.tup.len, 0, ']', 0 };
            return v->u.tup.len ? false : (sb_putc(sb, ']'), true);
        }
        if (vg_is(v)) {
            repr_byte_grid(sb, v);
            return true;
        }
        if (repr_digit_row(sb, v))
            return true;
        sb_putc(sb, '(');
        *o = v->u.tup.len == 1 ? (ReprOpen){ v_titems(v), 1, 0, ',', ')' }
                               : (ReprOpen){ v_titems(v), v->u.tup.len, 0, ')', 0 };
        return v->u.tup.len ? false : (sb_putc(sb, ')'), true);
    case V_FSET: {
        bool set = v->flags & V_FLAG_SET;
        if (v->u.set.len == 0) {
            sb_puts(sb, set ? "set()" : "frozenset()");
            return true;
        }
        sb_puts(sb, set ? "{" : "frozenset({");
        *o = (ReprOpen){ v_items(v), v->u.set.len, 0, '}', set ? 0 : ')' };
        return false;
    }
    case V_FUNC:
        sb_printf(sb, v->u.fn.prim == V_PRIM_CLASS ? "<class '%s'>"
                      : v->u.fn.prim == V_PRIM_BUILTIN ? "<built-in function %s>" : "<function %s>",
                  v->u.fn.name);
        return true;
    }
    return true;
}

/* Containers are walked with a stack of their own, not C's: a value nested
 * a million deep (a program of as many lines can build one) is written as
 * one a few deep is. */
void v_repr(StrBuf *sb, const Value *v)
{
    ReprOpen local[32], *open = local, o;
    size_t n = 0, cap = 32;
    for (;;) {
        if (!repr_leaf(sb, v, &o)) {
            if (n == cap)
                open = xstack_grow(open, local, &cap, sizeof *open);
            open[n++] = o;
        }
        for (;;) {              /* the next item of the innermost container left */
            if (!n)
                goto done;
            ReprOpen *t = &open[n - 1];
            if (t->next < t->len) {
                if (t->next)
                    sb_putn(sb, ", ", 2);
                v = t->items[t->next++];
                break;
            }
            sb_putc(sb, t->close);
            if (t->close2)
                sb_putc(sb, t->close2);
            n--;
        }
    }
done:
    if (open != local)
        free(open);
}

char *v_repr_str(const Value *v)
{
    StrBuf sb;
    sb_init(&sb);
    v_repr(&sb, v);
    if (!sb.buf)
        sb_puts(&sb, "");
    return sb.buf;
}
