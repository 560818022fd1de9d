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

void linebuf_put(LineBuf *b, int64_t key, const char *s, size_t n)
{
    if (b->wlen + n > b->wcap) {
        size_t cap = b->wcap ? b->wcap : 4096;
        while (cap < b->wlen + n)
            cap *= 2;
        if (!(b->whole = realloc(b->whole, cap)))
            out_of_memory();
        b->wcap = cap;
    }
    memcpy(b->whole + b->wlen, s, n);
    add_piece(b, (LinePiece){key, b->wlen, b->wlen + n, 0, true});
    b->wlen += n;
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
    if (!b->npiece) {
        if (b->f)
            fclose(b->f);
        free(b->mem);
        free(b->whole);
        free(b->piece);
        *b = (LineBuf){0};
        return;
    }
    if (b->f)
        fclose(b->f);
    qsort(b->piece, (size_t)b->npiece, sizeof *b->piece, by_key);
    for (int i = 0; to && i < b->npiece; i++)
        fwrite((b->piece[i].put ? b->whole : b->mem) + b->piece[i].start, 1,
               b->piece[i].end - b->piece[i].start, to);
    free(b->mem);
    free(b->whole);
    free(b->piece);
    *b = (LineBuf){0};
}
