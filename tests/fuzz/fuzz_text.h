/* fuzz_text.h -- a fuzzer's bytes as the C string the loaders take. */
#ifndef ARC_FUZZ_TEXT_H
#define ARC_FUZZ_TEXT_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* data[0..size) and a NUL, malloc'd (an embedded NUL ends the text early,
 * as it would for a file read by ir_load_file) */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
