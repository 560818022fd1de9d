/* run_cases.c -- data-driven expression tests (TAP).
 *
 *   run_cases [--byte-grids] [--dialect=arc-dsl|re-arc|tokpidjin] FILE.cases... [--dialect=...] ...
 *
 * Each case line is EXPR<TAB>EXPECTED: EXPECTED is the Python repr of the
 * result, or !ExcClass when the reference raises (!ExcClass: message, and
 * the message must be CPython's too).  The expected column was
 * made by CPython with the reference DSL (tests/cases/gen_expected.py).
 * --byte-grids: in the files after it, the grids the expressions write are
 * byte grids (vgrid.h), as a task's grids are; the expected reprs are the
 * same.
 */
#include "ir.h"
#include "value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int ntest;

static void check_line(int dialect, bool rearc, const char *file, int lineno, char *line)
{
    char *tab = strchr(line, '\t');
    if (!tab) {
        printf("not ok %d - %s:%d: no tab between expression and expected value\n",
               ++ntest, file, lineno);
        return;
    }
    *tab = '\0';
    const char *expr = line, *want = tab + 1;
    Ctx cx;
    ctx_init(&cx, dialect);
    char *err = NULL;
    Value *v = ir_eval_expr_as(&cx, expr, rearc, &err);
    char *got;
    if (v) {
        got = v_repr_str(v);
        v_decref(v);
    } else if (err) {
        got = malloc(strlen(err) + 16);
        sprintf(got, "!ParseError %s", err);
        free(err);
    } else {
        /* "!Class" compares the class; "!Class: message" the words too */
        size_t n = want[0] == '!' && strchr(want, ':') ? strlen(cx.errmsg) : strcspn(cx.errmsg, ":");
        got = malloc(n + 2);
        got[0] = '!';
        memcpy(got + 1, cx.errmsg, n);
        got[n + 1] = '\0';
    }
    bool ok = strcmp(got, want) == 0;
    printf("%s %d - %s:%d %.60s\n", ok ? "ok" : "not ok", ++ntest, file, lineno, expr);
    if (!ok) {
        printf("#   expected: %.400s\n", want);
        printf("#   got:      %.400s\n", got);
        if (!v && !err)
            printf("#   (%s)\n", cx.errmsg);
    }
    free(got);
}

int main(int argc, char **argv)
{
    int dialect = DIALECT_ARCDSL;
    bool rearc = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--byte-grids") == 0) {
            ir_grids_as_bytes(true);
            continue;
        }
        if (strcmp(argv[i], "--dialect=tokpidjin") == 0) {
            dialect = DIALECT_TOKPIDJIN;
            rearc = false;
            continue;
        }
        if (strcmp(argv[i], "--dialect=arc-dsl") == 0) {
            dialect = DIALECT_ARCDSL;
            rearc = false;
            continue;
        }
        if (strcmp(argv[i], "--dialect=re-arc") == 0) {
            dialect = DIALECT_ARCDSL;
            rearc = true;
            continue;
        }
        FILE *f = fopen(argv[i], "r");
        if (!f) {
            printf("not ok %d - cannot open %s\n", ++ntest, argv[i]);
            continue;
        }
        const char *base = strrchr(argv[i], '/');
        base = base ? base + 1 : argv[i];
        char *line = NULL;
        size_t cap = 0;
        ssize_t n;
        int lineno = 0;
        while ((n = getline(&line, &cap, f)) != -1) {
            lineno++;
            while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
                line[--n] = '\0';
            const char *p = line;
            while (*p == ' ')
                p++;
            if (!*p || *p == '#')
                continue;
            check_line(dialect, rearc, base, lineno, line);
        }
        free(line);
        fclose(f);
    }
    printf("1..%d\n", ntest);
    return 0;
}
