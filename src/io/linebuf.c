/* linebuf.c -- pieces of output read out by key (linebuf.h). */
#include "linebuf.h"

#include <stdlib.h>
#include <string.h>

static void out_of_memory(void)
{
    fputs("arcrun: out of memory\n", stderr);
    abort();
}

FILE *linebuf_begin(LineBuf *b)
{
    if (!b->f && !(b->f = open_memstream(&b->mem, &b->len)))
        out_of_memory();
    fflush(b->f);
    b->start = b->len;
    return b->f;
}

static void add_piece(LineBuf *b, LinePiece p)
{
    if (b->npiece == b->cappiece) {
        b->cappiece = b->cappiece ? 2 * b->cappiece : 16;
        b->piece = realloc(b->piece, sizeof *b->piece * (size_t)b->cappiece);
        if (!b->piece)
            out_of_memory();
    }
    p.seq = b->npiece;
    b->piece[b->npiece++] = p;
}

void linebuf_end(LineBuf *b, int64_t key)
{
    fflush(b->f);
    add_piece(b, (LinePiece){key, b->start, b->len, 0, false});
}

/* Buffers of flushed groups, kept for the thread's next groups: a batt
 * group's lines come to hundreds of kilobytes, and a buffer grown anew
 * for each copied itself over at every doubling into memory never
 * touched.  A few per thread, none past SPARE_MAX bytes. */
#define SPARES 4
#define SPARE_MAX ((size_t)8 << 20)
static _Thread_local StrBuf spare[SPARES];
static _Thread_local int nspare;

StrBuf *linebuf_sb(LineBuf *b)
{
    if (!b->whole.buf && nspare)
        b->whole = spare[--nspare];
    b->start = b->whole.len;
    return &b->whole;
}

void linebuf_thread_done(void)
{
    while (nspare)
        sb_free(&spare[--nspare]);
}

void linebuf_sb_end(LineBuf *b, int64_t key)
{
    add_piece(b, (LinePiece){key, b->start, b->whole.len, 0, true});
}

static int by_key(const void *a, const void *b)
{
    const LinePiece *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

void linebuf_flush(LineBuf *b, FILE *to)
{
    if (b->f)
        fclose(b->f);
    if (b->npiece)
        qsort(b->piece, (size_t)b->npiece, sizeof *b->piece, by_key);
    for (int i = 0; to && i < b->npiece; i++)
        fwrite((b->piece[i].whole ? b->whole.buf : b->mem) + b->piece[i].start, 1,
               b->piece[i].end - b->piece[i].start, to);
    free(b->mem);
    if (b->whole.buf && nspare < SPARES && b->whole.cap <= SPARE_MAX) {
        b->whole.len = 0;
        b->whole.buf[0] = '\0';
        spare[nspare++] = b->whole;
    } else {
        sb_free(&b->whole);
    }
    free(b->piece);
    *b = (LineBuf){0};
}
