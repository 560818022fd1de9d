/* utf8.h -- the UTF-8 that Python's str implies: program files must be
 * valid UTF-8 (CPython rejects them otherwise), escapes in string literals
 * name code points, and repr() decides per code point. */
#ifndef ARC_UTF8_H
#define ARC_UTF8_H

#include <stddef.h>
#include <stdint.h>

/* Write cp (< 0x110000, not a surrogate) as UTF-8 into out[4]; the length. */
static inline int utf8_encode(uint32_t cp, char *out)
{
    if (cp < 0x80) { out[0] = (char)cp; return 1; }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

/* The code point at s[0..n): its length, or 0 when the bytes there are
 * not UTF-8 (overlong forms, surrogates and values past U+10FFFF too). */
static inline int utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
    if (n == 0) return 0;
    if (s[0] < 0x80) { *cp = s[0]; return 1; }
    int len = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
    if (!len || s[0] > 0xf4 || (size_t)len > n) return 0;
    uint32_t c = s[0] & (0x3f >> (len - 1));
    for (int k = 1; k < len; k++) {
        if ((s[k] & 0xc0) != 0x80) return 0;
        c = c << 6 | (s[k] & 0x3f);
    }
    static const uint32_t least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[len] || c > 0x10ffff || (c >= 0xd800 && c < 0xe000)) return 0;
    *cp = c;
    return len;
}

#endif
