/* fuzz_run.c -- libFuzzer target: parse any text as a program and run it on
 * a small task, both dialects' executors included (the batt protocol, the
 * statement-level except, unpacking, closures).  Whatever the program does,
 * the run must end with results or errors, never a crash; budgets keep
 * each input quick.  The GPU path runs too, emulated on the host and
 * compared with the CPU value by value (--backend=emulate --compare): a
 * difference aborts. */
#include "gpu/backend_gpu.h"
#include "ir.h"
#include "fuzz_text.h"
#include "driver.h"
#include "taskread.h"

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
    /* task id "fuzz": seeds.sh names its solver seeds solve_fuzz */
    char dir[] = "/tmp/arcrun-fuzz-XXXXXX", path[64];
    if (!mkdtemp(dir))
        abort();
    snprintf(path, sizeof path, "%s/fuzz.json", dir);
    FILE *f = fopen(path, "w");
    if (!f || fwrite(task_json, 1, sizeof task_json - 1, f) != sizeof task_json - 1 || fclose(f) != 0)
        abort();
    char err[256];
    if (taskset_load(path, NULL, &tasks, err, sizeof err) != 0)
        abort();
    unlink(path);
    rmdir(dir);
    sink = fopen("/dev/null", "w");
    GpuOptions g = {.mode = BACKEND_EMULATE, .compare = true, .log = sink, .jobs = 1};
    if (backend_gpu_setup(&g) != 0)
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *src = fuzz_text(data, size);
    char *err = NULL;
    IrModule *m = ir_load_string("fuzz.py", src, -1, &err);
    StrBuf sb;
    sb_init(&sb);
    if (m && !module_missing_prims(m, &sb)) {
        static atomic_int never;
        RunOptions ro = { .format = REPORT_JSONL, .quiet = 1, .work_limit = 100000,
                          .time_limit = 1.0, .interrupted = &never, .jobs = 1 };
        report_run(m, &tasks, &ro, sink);
        static long differ;
        long now = backend_gpu_finish(sink, false);
        if (now != differ)
            abort();          /* the emulated GPU path gave another value */
        differ = now;
    }
    sb_free(&sb);
    if (m)
        ir_free(m);
    free(err);
    free(src);
    return 0;
}
