/* submission.c -- the ARC Prize submission file (submission.h). */
#include "submission.h"
#include "jsonout.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *xmalloc_(size_t n);

typedef struct {
    char *json;            /* the grid as JSON */
    int prog;              /* the first program that gave it */
    int count;             /* how many gave it */
} Candidate;

typedef struct {
    Candidate *c;
    int n, cap;
} Offers;

struct Submission {
    Offers **by_task;      /* [ntasks][ntest] */
    int *ntest;
    int ntasks;
};

Submission *sub_new(const TaskSet *ts)
{
    Submission *s = xmalloc_(sizeof *s);
    s->ntasks = ts->ntasks;
    s->by_task = xmalloc_(sizeof *s->by_task * (size_t)(ts->ntasks + 1));
    s->ntest = xmalloc_(sizeof *s->ntest * (size_t)(ts->ntasks + 1));
    for (int t = 0; t < ts->ntasks; t++) {
        size_t n = (size_t)ts->tasks[t].ntest + 1;
        s->ntest[t] = ts->tasks[t].ntest;
        s->by_task[t] = xmalloc_(sizeof **s->by_task * n);
        memset(s->by_task[t], 0, sizeof **s->by_task * n);
    }
    return s;
}

void sub_free(Submission *s)
{
    if (!s)
        return;
    for (int t = 0; t < s->ntasks; t++) {
        Offers *o = s->by_task[t];
        for (int k = 0; k < s->ntest[t]; k++) {
            for (int i = 0; i < o[k].n; i++)
                free(o[k].c[i].json);
            free(o[k].c);
        }
        free(o);
    }
    free(s->by_task);
    free(s->ntest);
    free(s);
}

void sub_offer_json(Submission *s, int task, int k, int prog, char *json)
{
    Offers *o = &s->by_task[task][k];
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->c[i].json, json) == 0) {
            o->c[i].count++;
            if (prog < o->c[i].prog)
                o->c[i].prog = prog;
            free(json);
            return;
        }
    if (o->n == o->cap) {
        o->cap = o->cap ? 2 * o->cap : 2;
        o->c = realloc(o->c, sizeof *o->c * (size_t)o->cap);
        if (!o->c)
            abort();
    }
    o->c[o->n++] = (Candidate){json, prog, 1};
}

/* more offers first, then the earlier program */
static int by_rank(const void *a, const void *b)
{
    const Candidate *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->prog > y->prog) - (x->prog < y->prog);
}

int sub_write(Submission *s, const TaskSet *ts, const char *path)
{
    size_t n = strlen(path) + 5;
    char *tmp = xmalloc_(n);
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        int e = errno;
        free(tmp);
        errno = e;
        return -1;
    }
    fputc('{', f);
    for (int t = 0; t < ts->ntasks; t++) {
        const Task *task = &ts->tasks[t];
        fputs(t ? ",\n" : "\n", f);
        json_string(f, task->id);
        fputs(": [", f);
        for (int k = 0; k < task->ntest; k++) {
            Offers *o = &s->by_task[t][k];
            if (o->n > 1)
                qsort(o->c, (size_t)o->n, sizeof *o->c, by_rank);
            fprintf(f, "%s{\"attempt_1\": %s, \"attempt_2\": %s}", k ? ", " : "",
                    o->n > 0 ? o->c[0].json : SUBMISSION_BLANK,
                    o->n > 1 ? o->c[1].json : SUBMISSION_BLANK);
        }
        fputc(']', f);
    }
    fputs("\n}\n", f);
    int bad = ferror(f);
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path) != 0) {
        int e = errno ? errno : EIO;
        remove(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return 0;
}
