/* spool.c -- lines that wait for their turn, in a temporary file (spool.h). */
#include "spool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

struct Spool {
    FILE *f;
    int fd;
    off_t end;               /* where the next region starts */
    int regions;             /* begun and not copied out yet */
};

static _Noreturn void spool_fail(const char *what)
{
    fprintf(stderr, "arcrun: %s the temporary file of waiting lines: %s\n", what,
            strerror(errno));
    abort();
}

Spool *spool_new(void)
{
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/arcrun-lines-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    unlink(path);
    Spool *s = calloc(1, sizeof *s);
    FILE *f = s ? fdopen(fd, "w") : NULL;
    if (!f) {
        free(s);
        close(fd);
        return NULL;
    }
    *s = (Spool){.f = f, .fd = fd};
    return s;
}

FILE *spool_begin(Spool *s, size_t *off)
{
    if (s->regions == 0 && s->end > 0) {    /* all copied out: reuse the file */
        if (fseeko(s->f, 0, SEEK_SET) != 0)
            spool_fail("rewinding");
        s->end = 0;
    }
    s->regions++;
    *off = (size_t)s->end;
    return s->f;
}

size_t spool_end(Spool *s, size_t off)
{
    if (fflush(s->f) != 0 || ferror(s->f))
        spool_fail("writing");
    off_t at = ftello(s->f);
    if (at < 0)
        spool_fail("reading the position in");
    s->end = at;
    return (size_t)at - off;
}

void spool_copy(Spool *s, size_t off, size_t len, FILE *out)
{
    char buf[1 << 16];
    const size_t from = off, whole = len;
    while (len > 0) {
        ssize_t got = pread(s->fd, buf, len < sizeof buf ? len : sizeof buf, (off_t)off);
        if (got <= 0) {
            if (got < 0 && errno == EINTR)
                continue;
            if (got == 0)
                errno = EIO;
            spool_fail("reading");
        }
        fwrite(buf, 1, (size_t)got, out);
        off += (size_t)got;
        len -= (size_t)got;
    }
    s->regions--;
#ifdef FALLOC_FL_PUNCH_HOLE
    /* a thread whose regions are never all out at once never starts its
     * file again: what was copied out gives its blocks back (where the
     * file system cannot, they stay until the run ends) */
    if (whole > 0)
        (void)fallocate(s->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)from, (off_t)whole);
#endif
}

void spool_free(Spool *s)
{
    if (s) {
        fclose(s->f);
        free(s);
    }
}
