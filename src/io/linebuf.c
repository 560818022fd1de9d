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

StrBuf *linebuf_sb(LineBuf *b)
{
    b->start = b->whole.len;
    return &b->whole;
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
    sb_free(&b->whole);
    free(b->piece);
    *b = (LineBuf){0};
}
