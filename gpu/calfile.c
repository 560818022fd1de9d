/* calfile.c -- the calibration file (docs/gpu.md): where it is by
 * default, what `arcrun calibrate` writes to it, and the crossovers auto
 * reads back. */
#include "backend_gpu_int.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

const char *backend_gpu_default_calibration(char *buf, size_t len)
{
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(buf, len, "%s/arcrun/calibration.json", xdg);
    else
        snprintf(buf, len, "%s/.cache/arcrun/calibration.json", home && *home ? home : ".");
    return buf;
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    for (size_t k; s && (k = fread(s + n, 1, cap - n - 1, f)) > 0;) {
        n += k;
        if (cap - n < 2) {
            char *t = realloc(s, cap *= 2);
            if (!t) {
                free(s);
                s = NULL;
            }
            s = t;
        }
    }
    fclose(f);
    if (s)
        s[n] = 0;
    return s;
}

int gpu_calfile_load(const char *path, int crossover[GOP_COUNT], char *why, size_t whylen)
{
    char *text = slurp(path);
    if (!text) {
        snprintf(why, whylen, "%s: %s", path, strerror(errno));
        return errno == ENOENT ? 1 : -1;
    }
    cJSON *root = cJSON_Parse(text);
    free(text);
    cJSON *ops = root ? cJSON_GetObjectItemCaseSensitive(root, "ops") : NULL;
    if (!cJSON_IsObject(ops) ||
        !cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(root, "arcrun_calibration"))) {
        snprintf(why, whylen, "%s: not an arcrun calibration file (see docs/gpu.md)", path);
        cJSON_Delete(root);
        return -1;
    }
    for (int op = 0; op < GOP_COUNT; op++) {
        cJSON *e = cJSON_GetObjectItemCaseSensitive(ops, gpu_ops[op].name);
        cJSON *x = e ? cJSON_GetObjectItemCaseSensitive(e, "crossover") : NULL;
        if (cJSON_IsNumber(x) && x->valuedouble >= 1)
            crossover[op] = x->valuedouble > 1e9 ? 1000000000 : (int)x->valuedouble;
        else if (cJSON_IsNull(x))
            crossover[op] = 0;          /* measured: the GPU never pays */
    }
    cJSON_Delete(root);
    return 0;
}

cJSON *gpu_calfile_new(const char *backend, const char *device, int jobs, const char *grids)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "arcrun_calibration", 1);
    cJSON_AddStringToObject(root, "backend", backend);
    cJSON_AddStringToObject(root, "device", device);
    cJSON_AddNumberToObject(root, "jobs", jobs);
    cJSON_AddStringToObject(root, "cpu_time", "measured on jobs threads");
    cJSON_AddStringToObject(root, "grids", grids);
    cJSON_AddItemToObject(root, "ops", cJSON_CreateObject());
    return root;
}

void gpu_calfile_add_op(cJSON *doc, const char *op, int crossover, const int *sizes,
                        const double *cpu_s, const double *gpu_s, int n)
{
    cJSON *e = cJSON_CreateObject(), *js = cJSON_CreateArray(), *jc = cJSON_CreateArray(),
          *jg = cJSON_CreateArray();
    for (int k = 0; k < n; k++) {
        cJSON_AddItemToArray(js, cJSON_CreateNumber(sizes[k]));
        cJSON_AddItemToArray(jc, cJSON_CreateNumber(cpu_s[k]));
        cJSON_AddItemToArray(jg, cJSON_CreateNumber(gpu_s[k]));
    }
    if (crossover)
        cJSON_AddNumberToObject(e, "crossover", crossover);
    else
        cJSON_AddNullToObject(e, "crossover");
    cJSON_AddItemToObject(e, "sizes", js);
    cJSON_AddItemToObject(e, "cpu_seconds", jc);
    cJSON_AddItemToObject(e, "gpu_seconds", jg);
    cJSON_AddItemToObject(cJSON_GetObjectItemCaseSensitive(doc, "ops"), op, e);
}

int gpu_calfile_write(const char *path, const cJSON *doc)
{
    /* create the directories of the default path */
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", path);
    for (char *p = dir + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(dir, 0777);
            *p = '/';
        }
    char *text = cJSON_Print(doc);
    FILE *f = fopen(path, "w");
    bool ok = f && fputs(text, f) >= 0 && fputc('\n', f) != EOF;
    if (f && fclose(f) != 0)
        ok = false;
    int err = errno;
    free(text);
    errno = err;
    return ok ? 0 : -1;
}
