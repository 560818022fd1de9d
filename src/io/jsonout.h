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
/* The trace's value (the schema of ../shared/golden's traces):
 * "repr": "<repr(v)>", or, for a repr of more than max_chars characters,
 * "sha256": "<hex of its UTF-8>", "len": <characters>, hashed as it is
 * made, so that a value of any size never has its repr held whole. */
void sb_json_trace_repr(StrBuf *sb, const Value *v, size_t max_chars);
void sb_int(StrBuf *sb, long long i);               /* an int as JSON */
/* A grid (a non-empty tuple of equal tuples of ints) as JSON arrays of
 * arrays, bools as json.dumps writes them; false, nothing written, for any
 * other value. */
bool sb_json_grid(StrBuf *sb, Value *v);

#endif
