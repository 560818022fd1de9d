/* jsonout.c -- JSON string literals for the output lines.  A batt line is
 * tens of kilobytes of reprs with nothing to escape, so the bytes are
 * scanned against a table and copied in runs. */
#include "jsonout.h"
#include "sha256.h"
#include "vgrid.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

void *xmalloc_(size_t n);

/* 1 for the bytes a JSON string cannot hold as they are */
static const unsigned char escaped[256] = {
    [0x00] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    [0x10] = 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['"'] = 1, ['\\'] = 1,
};

/* Whether one of x's eight bytes is below 0x20, '"' or '\\' (UTF-8's
 * bytes, all from 0x80 up, never are): the zero-byte tests of
 * Hacker's Delight, exact as a yes or no for the word. */
static inline bool word_escapes(uint64_t x)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    return (((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

static size_t plain_run(const char *s, size_t n)
{
    size_t i = 0;
    for (uint64_t x; i + 8 <= n; i += 8) {      /* a repr is plain but for rare strings */
        memcpy(&x, s + i, 8);
        if (word_escapes(x))
            break;
    }
    while (i < n && !escaped[(unsigned char)s[i]])
        i++;
    return i;
}

static void escape_sb(StrBuf *sb, unsigned char c)
{
    char e[8];
    if (c == '"' || c == '\\')
        e[0] = '\\', e[1] = (char)c, e[2] = '\0';
    else if (c == '\n')
        memcpy(e, "\\n", 3);
    else
        snprintf(e, sizeof e, "\\u%04x", c);
    sb_puts(sb, e);
}

/* s[0..n) escaped onto sb */
static void put_escaped(StrBuf *sb, const char *s, size_t n)
{
    for (;;) {
        size_t run = plain_run(s, n);
        sb_putn(sb, s, run);
        if (run == n)
            return;
        escape_sb(sb, (unsigned char)s[run]);
        s += run + 1, n -= run + 1;
    }
}

void json_string(FILE *f, const char *s)
{
    StrBuf sb;
    sb_init(&sb);
    sb_json_string(&sb, s);
    fwrite(sb.buf, 1, sb.len, f);
    sb_free(&sb);
}

void sb_json_string(StrBuf *sb, const char *s)
{
    sb_putc(sb, '"');
    put_escaped(sb, s, strlen(s));
    sb_putc(sb, '"');
}

void sb_json_str(StrBuf *sb, const Value *str)
{
    if (!(v_memo(str) & V_MEMO_JSON_PLAIN)) {
        sb_json_string(sb, str->u.str.s);
        return;
    }
    char *p = sb_room(sb, str->u.str.len + 2);
    *p++ = '"';
    memcpy(p, str->u.str.s, str->u.str.len);
    p[str->u.str.len] = '"';
    sb->len += str->u.str.len + 2;
    sb->buf[sb->len] = '\0';
}

/* Whether v's repr holds no string, so nothing to escape: numbers, None,
 * and containers of arena values (grids among them) */
static bool repr_plain(const Value *v)
{
    switch (v->type) {
    case V_INT: case V_BOOL: case V_NONE: case V_FLOAT:
        return true;
    case V_TUPLE:
        return (v->flags & V_FLAG_FLAT) || v_rows_flat(v);
    case V_FSET:
        return v->flags & V_FLAG_FLAT;
    default:
        return false;
    }
}

void sb_json_repr(StrBuf *sb, const Value *v)
{
    sb_putc(sb, '"');
    size_t start = sb->len;
    v_repr(sb, v);
    if (repr_plain(v)) {
        sb_putc(sb, '"');
        return;
    }
    /* reprs rarely hold a byte to escape (only strings can): escape in
     * place only from the first one on */
    size_t run = plain_run(sb->buf + start, sb->len - start);
    if (start + run < sb->len) {
        size_t n = sb->len - start - run;
        char *tail = xmalloc_(n);
        memcpy(tail, sb->buf + start + run, n);
        sb->len = start + run;
        put_escaped(sb, tail, n);
        free(tail);
    }
    sb_putc(sb, '"');
}

/* A repr passing through a bounded buffer: kept while it is short, then
 * hashed piece by piece as it is written. */
typedef struct {
    StrBuf sb;               /* first: spill gets it */
    size_t max_chars, chars;
    bool hashing;
    Sha256 sha;
} ReprHash;

/* Characters of UTF-8: the bytes that do not continue one (10xxxxxx).
 * Eight at a time, the marks summed by a multiply, where SSE2 is not
 * there to take sixteen (a portable build makes popcount a library call). */
static size_t utf8_chars(const char *s, size_t n)
{
    size_t c = 0, i = 0;
#ifdef __SSE2__
    /* sixteen at a time: a continuation byte is below -64 as a signed
     * char; each lane counts up to 255 of them, then the lanes are summed */
    const __m128i lead = _mm_set1_epi8(-64);
    while (n - i >= 16) {
        size_t start = i, blocks = (n - i) / 16;
        size_t end = i + 16 * (blocks < 255 ? blocks : 255);
        __m128i acc = _mm_setzero_si128();
        for (; i < end; i += 16)
            acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(_mm_loadu_si128((const __m128i *)(s + i)), lead));
        __m128i sums = _mm_sad_epu8(acc, _mm_setzero_si128());
        size_t cont = (size_t)_mm_cvtsi128_si32(sums) +
                      (size_t)_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
        c += end - start - cont;
    }
#endif
    for (uint64_t x; i + 8 <= n; i += 8) {
        memcpy(&x, s + i, 8);
        uint64_t cont = (x & ~(x << 1) & 0x8080808080808080u) >> 7;
        c += 8 - (size_t)((cont * 0x0101010101010101u) >> 56);
    }
    for (; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

static void repr_hash_take(ReprHash *r)
{
    r->hashing = true;
    r->chars += utf8_chars(r->sb.buf, r->sb.len);
    sha256_update(&r->sha, r->sb.buf, r->sb.len);
    r->sb.len = 0;
}

static void repr_spill(StrBuf *sb)
{
    ReprHash *r = (ReprHash *)sb;
    if (r->hashing || (sb->len > r->max_chars && utf8_chars(sb->buf, sb->len) > r->max_chars))
        repr_hash_take(r);
}

void sb_json_trace_repr(StrBuf *sb, const Value *v, size_t max_chars)
{
    ReprHash r = {.max_chars = max_chars};
    sb_init(&r.sb);
    r.sb.spill = repr_spill;
    sha256_init(&r.sha);
    v_repr(&r.sb, v);
    /* bytes are at least characters: only a long buffer needs counting */
    if (!r.hashing && (r.sb.len <= max_chars || utf8_chars(r.sb.buf, r.sb.len) <= max_chars)) {
        sb_puts(sb, "\"repr\": \"");
        put_escaped(sb, r.sb.buf ? r.sb.buf : "", r.sb.len);
        sb_putc(sb, '"');
    } else {
        char hex[65];
        repr_hash_take(&r);
        sha256_hex(&r.sha, hex);
        sb_puts(sb, "\"sha256\": \"");
        sb_puts(sb, hex);
        sb_puts(sb, "\", \"len\": ");
        sb_int(sb, (long long)r.chars);
    }
    r.sb.spill = NULL;
    sb_free(&r.sb);
}

void sb_int(StrBuf *sb, long long i)
{
    char buf[24], *p = buf + sizeof buf;
    unsigned long long u = i < 0 ? 0 - (unsigned long long)i : (unsigned long long)i;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (i < 0)
        *--p = '-';
    sb_putn(sb, p, (size_t)(buf + sizeof buf - p));
}

bool sb_json_grid(StrBuf *sb, Value *v)
{
    if (!v || !v_is_grid(v))
        return false;
    if (vg_is(v)) {     /* [[...], [...]] written at once */
        size_t h = v->u.tup.len, w = vg_w(v);
        const uint8_t *c = vg_cells(v);
        char *p = sb_room(sb, h * (5 * w + 3) + 2), *p0 = p;
        *p++ = '[';
        for (size_t i = 0; i < h; i++) {
            if (i)
                *p++ = ',', *p++ = ' ';
            *p++ = '[';
            p = vg_row_text(p, c + i * w, w);
            *p++ = ']';
        }
        *p++ = ']';
        sb->len += (size_t)(p - p0);
        sb->buf[sb->len] = '\0';
        return true;
    }
    sb_putc(sb, '[');
    for (size_t i = 0; i < v->u.tup.len; i++) {
        const Value *row = v_titems(v)[i];
        sb_puts(sb, i ? ", [" : "[");
        for (size_t j = 0; j < row->u.tup.len; j++) {
            const Value *c = v_titems(row)[j];
            if (j)
                sb_putn(sb, ", ", 2);
            if (c->type == V_BOOL)
                sb_puts(sb, c->u.i ? "true" : "false");
            else if ((uint64_t)c->u.i <= 9)
                sb_putc(sb, (char)('0' + c->u.i));
            else
                sb_int(sb, c->u.i);
        }
        sb_putc(sb, ']');
    }
    sb_putc(sb, ']');
    return true;
}
