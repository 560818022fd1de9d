/* tap_c.h -- TAP output for the C test programs: ok() prints one
 * assertion; the program prints "1..ntest" and exits non-zero on nfail. */
#ifndef ARC_TAP_C_H
#define ARC_TAP_C_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int ntest, nfail;

__attribute__((format(printf, 2, 3)))
static bool ok(bool cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%sok %d - ", cond ? "" : "not ", ++ntest);
    vprintf(fmt, ap);
    putchar('\n');
    va_end(ap);
    if (!cond)
        nfail++;
    return cond;
}

#endif
