/* fuzz_task.c -- libFuzzer target: load any bytes as an ARC task file.
 * Bad files must be rejected with a message naming the file, never a crash;
 * what the fast reader reads must be the tree cJSON reads, and a task the
 * direct reader (taskscan.h) takes must be the task the cJSON path reads. */
#include "taskread.h"
#include "taskjson.h"
#include "taskscan.h"
#include "tests/json_same.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void same_as_cjson(const uint8_t *data, size_t size)
{
    cJSON *fast = taskjson_parse((const char *)data, size);
    if (!fast)
        return;
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    cJSON *ref = cJSON_ParseWithLengthOpts(text, size + 1, NULL, 1);
    if (!ref || !json_same(fast, ref))
        abort();
    cJSON_Delete(ref);
    cJSON_Delete(fast);
    free(text);
}

/* A task the direct reader takes, against the same file read by cJSON. */
static void scan_as_cjson(const uint8_t *data, size_t size, const char *path)
{
    Task t = {0};
    if (taskscan((const char *)data, size, &t) != 0)
        return;
    TaskSet ref;
    char err[512];
    taskread_use_scan(false);
    int rc = taskset_load(path, NULL, &ref, err, sizeof err);
    taskread_use_scan(true);
    if (rc != 0 || ref.ntasks != 1)
        abort();
    const Task *r = &ref.tasks[0];
    if (r->ntrain != t.ntrain || r->ntest != t.ntest || r->ncells != t.ncells)
        abort();
    /* the same grids; their places in the cells follow each reader's order */
    for (int k = 0; k < task_nsamples(r); k++) {
        const Sample *p = task_sample(&t, k), *q = task_sample(r, k);
        if (p->in.h != q->in.h || p->in.w != q->in.w || p->out.h != q->out.h ||
            p->out.w != q->out.w ||
            memcmp(t.cells + p->in.off, r->cells + q->in.off, (size_t)p->in.h * p->in.w) ||
            (p->out.h && memcmp(t.cells + p->out.off, r->cells + q->out.off,
                                (size_t)p->out.h * p->out.w)))
            abort();
    }
    taskset_free(&ref);
    free(t.train), free(t.test), free(t.cells);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    same_as_cjson(data, size);
    char path[] = "/tmp/arcrun-fuzz-XXXXXX.json";
    int fd = mkstemps(path, 5);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    scan_as_cjson(data, size, path);
    TaskSet ts;
    char err[512];
    if (taskset_load(path, NULL, &ts, err, sizeof err) == 0)
        taskset_free(&ts);
    else if (!strstr(err, "arcrun-fuzz-"))
        abort();              /* the message must name the file */
    unlink(path);
    return 0;
}
