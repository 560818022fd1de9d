/* jsonout.h -- JSON string literals for the output lines (jsonl, traces,
 * stats): '"' and '\\' escaped with a backslash, a newline as \n, other
 * control bytes as \u00XX, everything else (UTF-8 included) as is. */
#ifndef ARC_JSONOUT_H
#define ARC_JSONOUT_H

#include <stdio.h>

#include "value.h"

void json_string(FILE *f, const char *s);           /* s, quotes included */
void sb_json_string(StrBuf *sb, const char *s);
void sb_json_str(StrBuf *sb, const Value *str);     /* a str value as a JSON string */
void sb_json_repr(StrBuf *sb, const Value *v);      /* repr(v) as a JSON string */
void sb_int(StrBuf *sb, long long i);               /* an int as JSON */
/* A grid (a non-empty tuple of equal tuples of ints) as JSON arrays of
 * arrays, bools as json.dumps writes them; false, nothing written, for any
 * other value. */
bool sb_json_grid(StrBuf *sb, Value *v);

#endif
