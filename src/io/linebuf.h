/* linebuf.h -- lines written in pieces, each under a key, in any order,
 * and read out sorted by key (pieces of one key in the order written):
 * a group's output, whatever order its instances finish in. */
#ifndef ARC_LINEBUF_H
#define ARC_LINEBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "value.h"

typedef struct {
    int64_t key;
    size_t start, end;
    int seq;                 /* pieces of a key stay in the order written */
    bool whole;              /* in `whole`, not the stream's memory */
} LinePiece;

typedef struct {
    char *mem;
    size_t len;
    FILE *f;                 /* NULL until the first piece */
    StrBuf whole;            /* pieces appended (linebuf_sb) */
    LinePiece *piece;
    int npiece, cappiece;
    size_t start;            /* of the piece being written, in either */
} LineBuf;

/* The stream to write the next piece to, until linebuf_end. */
FILE *linebuf_begin(LineBuf *b);
void linebuf_end(LineBuf *b, int64_t key);
/* The buffer to append the next piece to, until linebuf_sb_end: no
 * stream between (a batt line is tens of kilobytes, and a memory stream
 * zeroes and copies as it grows). */
StrBuf *linebuf_sb(LineBuf *b);
void linebuf_sb_end(LineBuf *b, int64_t key);
/* Write the pieces to `to` (NULL: drop them) sorted by key, and empty b. */
void linebuf_flush(LineBuf *b, FILE *to);
/* Free the buffers this thread keeps for its next groups. */
void linebuf_thread_done(void);

#endif
