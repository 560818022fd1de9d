/* fuzz_run.c -- libFuzzer target: parse any text as a program and run it on
 * a small task, both dialects' executors included (the batt protocol, the
 * statement-level except, unpacking, closures).  Whatever the program does,
 * the run must end with results or errors, never a crash; budgets keep
 * each input quick. */
#include "ir.h"
#include "report.h"
#include "task.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Two demonstrations and a test, 3x3 and 2x4, several colours. */
static const char task_json[] =
    "{\"train\": ["
    "{\"input\": [[0,1,0],[1,2,1],[0,1,0]], \"output\": [[2,1,2],[1,0,1],[2,1,2]]},"
    "{\"input\": [[3,0,0,3],[0,5,5,0]], \"output\": [[0,3,3,0],[5,0,0,5]]}],"
    "\"test\": [{\"input\": [[7,7,0],[0,7,0],[0,0,0]], \"output\": [[0,0,7],[7,0,7],[7,7,7]]}]}";

static TaskSet tasks;
static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc; (void)argv;
    char path[] = "/tmp/arcrun-fuzz-task-XXXXXX.json";
    int fd = mkstemps(path, 5);
    if (fd < 0 || write(fd, task_json, sizeof task_json - 1) != (ssize_t)(sizeof task_json - 1))
        abort();
    close(fd);
    char err[256];
    if (taskset_load(path, NULL, &tasks, err, sizeof err) != 0)
        abort();
    unlink(path);
    sink = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = malloc(size + 1);
    memcpy(src, data, size);
    src[size] = '\0';
    char *err = NULL;
    IrModule *m = ir_load_string("fuzz.py", src, -1, &err);
    StrBuf sb;
    sb_init(&sb);
    if (m && !module_missing_prims(m, &sb)) {
        static volatile int never;
        RunOptions ro = { .format = REPORT_JSONL, .quiet = 1, .work_limit = 100000,
                          .time_limit = 1.0, .interrupted = &never, .jobs = 1 };
        report_run(m, &tasks, &ro, sink);
    }
    sb_free(&sb);
    if (m)
        ir_free(m);
    free(err);
    free(src);
    return 0;
}
