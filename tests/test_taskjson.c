/* test_taskjson.c -- TAP tests of the fast task JSON reader: texts it must
 * decline (cJSON then judges them), texts it must read into cJSON's own
 * tree, and every task file under tests/tasks and ../shared's ARC sets,
 * which it must read, each into the tree cJSON builds. */
#define _XOPEN_SOURCE 700
#include "taskjson.h"
#include "json_same.h"
#include "tap_c.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* 1: read, and alike to cJSON's tree; 0: declined; -1: read, but unlike
 * (or cJSON rejects what was read) */
static int check_text(const char *text, size_t len)
{
    cJSON *fast = taskjson_parse(text, len);
    if (!fast)
        return 0;
    char *copy = malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    cJSON *ref = cJSON_ParseWithLengthOpts(copy, len + 1, NULL, 1);
    int r = ref && json_same(fast, ref) ? 1 : -1;
    cJSON_Delete(ref);
    cJSON_Delete(fast);
    free(copy);
    return r;
}

static const struct { const char *text; int want; } texts[] = {
    {"{\"train\": [{\"input\": [[1, 2], [3, 4]], \"output\": [[0]]}], \"test\": []}", 1},
    {" \t\r\n{}\n", 1},
    {"[]", 1},
    {"[0, 7, 10, 123456789]", 1},
    {"{\"a\": {\"b\": [[[]]]}, \"a\": \"x y\"}", 1},   /* duplicate keys: both kept, in order */
    {"{\"name\": \"caf\xc3\xa9\"}", 1},
    {"[1234567890]", 0},        /* ten digits: past an int */
    {"[01]", 0},
    {"[-1]", 0},
    {"[1.5]", 0},
    {"[1.0]", 0},
    {"[1e2]", 0},
    {"[true]", 0},
    {"[null]", 0},
    {"{\"a\\u0041\": 1}", 0},   /* escapes: cJSON decodes them */
    {"{\"a\tb\": 1}", 0},       /* a control character in a string */
    {"\xef\xbb\xbf{}", 0},      /* a byte-order mark */
    {"{} x", 0},
    {"{}\v", 0},                /* cJSON skips any byte below 0x21 */
    {"[1, ]", 0},
    {"[1 2]", 0},
    {"{\"a\" 1}", 0},
    {"{\"a\": 1,}", 0},
    {"{\"a\": [1, 2}", 0},
    {"[[[", 0},
    {"\"abc", 0},
    {"", 0},
};

/* The text on one TAP line: control and non-ASCII bytes as \xHH. */
static const char *shown(const char *text)
{
    static char buf[512];
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p && n + 5 < sizeof buf; p++)
        n += (size_t)(*p >= 0x20 && *p < 0x7f ? snprintf(buf + n, 2, "%c", *p)
                                                : snprintf(buf + n, 5, "\\x%02x", *p));
    buf[n] = '\0';
    return buf;
}

static void test_texts(void)
{
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        int got = check_text(texts[i].text, strlen(texts[i].text));
        ok(got == texts[i].want, "%s: %s", texts[i].want ? "read as cJSON does" : "declined",
           shown(texts[i].text));
    }
    static const char nul[] = "[1, 2]\0";
    ok(check_text(nul, sizeof nul - 1) == 0, "a NUL byte before the end: declined");
    char deep[512];
    memset(deep, '[', 250);
    memset(deep + 250, ']', 250);
    ok(check_text(deep, 500) == 0, "nesting past 100: declined");
    ok(check_text(deep + 150, 200) == 1, "nesting of 100: read");
}

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    struct stat st;
    char *buf = NULL;
    if (fstat(fileno(f), &st) == 0 && (buf = malloc((size_t)st.st_size + 1)))
        *len = fread(buf, 1, (size_t)st.st_size, f);
    fclose(f);
    return buf;
}

/* Every .json under dir (recursively): how many were read alike, declined,
 * read unlike; the first few read unlike named, and declined ones too
 * where none should be. */
static void walk(const char *dir, bool name_declined, int counts[3], int *named)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (stat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path, name_declined, counts, named);
            continue;
        }
        size_t n = strlen(e->d_name), len = 0;
        if (n < 5 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char *text = slurp(path, &len);
        if (!text)
            continue;
        int r = check_text(text, len);
        counts[r == 1 ? 0 : r == 0 ? 1 : 2]++;
        if ((r == -1 || (r == 0 && name_declined)) && (*named)++ < 5)
            printf("# %s: %s\n", path, r ? "read unlike cJSON" : "declined");
        free(text);
    }
    closedir(d);
}

static void test_files(const char *dir, bool all_read)
{
    int counts[3] = {0}, named = 0;
    walk(dir, all_read, counts, &named);
    ok(counts[2] == 0, "%s: every file read is read as cJSON reads it (%d read, %d declined)",
       dir, counts[0], counts[1]);
    if (all_read)
        ok(counts[0] > 0 && counts[1] == 0, "%s: every one of its %d files read fast", dir,
           counts[0] + counts[1]);
}

int main(void)
{
    const char *srcdir = getenv("srcdir"), *shared = getenv("SHARED");
    char dir[4096];
    test_texts();
    snprintf(dir, sizeof dir, "%s/tests/tasks", srcdir && *srcdir ? srcdir : ".");
    test_files(dir, false);
    const char *sets[] = {"arc-agi-1", "arc-agi-2"};
    for (int i = 0; i < 2; i++) {
        snprintf(dir, sizeof dir, "%s/%s", shared && *shared ? shared : "../shared", sets[i]);
        struct stat st;
        if (stat(dir, &st) == 0)
            test_files(dir, true);
        else
            printf("ok %d - # SKIP %s absent\n", ++ntest, dir);
    }
    printf("1..%d\n", ntest);
    return nfail != 0;
}
