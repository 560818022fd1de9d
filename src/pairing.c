/* pairing.c -- which task a program is for: PREFIX<id> runs on task <id>
 * (pairing.h). */
#include "pairing.h"

#include <stdlib.h>
#include <string.h>

static int cmp_task_id(const void *a, const void *b)
{
    return strcmp((*(const Task *const *)a)->id, (*(const Task *const *)b)->id);
}

bool pairing_named(const char *entry, const char *name)
{
    return ir_program_prefix(entry, name) != 0;
}

bool pairing_runs_alone(const char *entry, const IrProgram *p)
{
    return p->nparams == ir_program_arity(p->dialect) && (!p->called || pairing_named(entry, p->name));
}

int *own_tasks(const IrModule *m, const TaskSet *ts, const char *entry, int **next)
{
    int *own = xmalloc_(sizeof(int) * (size_t)(m->nprogs + 1));
    const Task **by_id = xmalloc_(sizeof(Task *) * (size_t)(ts->ntasks + 1));
    int *idno = xmalloc_(sizeof(int) * (size_t)(ts->ntasks + 1));
    int *first = xmalloc_(sizeof(int) * (size_t)(ts->ntasks + 1));
    *next = xmalloc_(sizeof(int) * (size_t)(ts->ntasks + 1));
    for (int k = 0; k < ts->ntasks; k++)
        by_id[k] = &ts->tasks[k];
    qsort(by_id, (size_t)ts->ntasks, sizeof *by_id, cmp_task_id);
    for (int i = 0, no = 0; i < ts->ntasks; i++) {
        no += i > 0 && strcmp(by_id[i - 1]->id, by_id[i]->id) != 0;
        idno[by_id[i] - ts->tasks] = no;
    }
    /* each id's tasks chained in task order */
    for (int k = 0; k <= ts->ntasks; k++)
        first[k] = -1;
    for (int k = ts->ntasks - 1; k >= 0; k--) {
        (*next)[k] = first[idno[k]];
        first[idno[k]] = k;
    }
    for (int p = 0; p < m->nprogs; p++) {
        const char *name = m->progs[p].name;
        size_t pre = ir_program_prefix(entry, name);
        own[p] = -2;
        if (!pre)
            continue;
        Task key = {.id = (char *)name + pre};
        const Task *kp = &key, **hit = bsearch(&kp, by_id, (size_t)ts->ntasks, sizeof *by_id, cmp_task_id);
        own[p] = hit ? first[idno[*hit - ts->tasks]] : -1;
    }
    free(by_id);
    free(idno);
    free(first);
    return own;
}
