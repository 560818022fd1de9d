/* fuzz_task.c -- libFuzzer target: load any bytes as an ARC task file.
 * Bad files must be rejected with a message naming the file, never a crash;
 * what the fast reader reads must be the tree cJSON reads. */
#include "taskread.h"
#include "taskjson.h"
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
    TaskSet ts;
    char err[512];
    if (taskset_load(path, NULL, &ts, err, sizeof err) == 0)
        taskset_free(&ts);
    else if (!strstr(err, "arcrun-fuzz-"))
        abort();              /* the message must name the file */
    unlink(path);
    return 0;
}
