/* taskjson.c -- ARC task JSON into cJSON's tree, without cJSON's number
 * parsing (see taskjson.h for what it takes and what it declines). */
#include "taskjson.h"

#include <stdbool.h>
#include <string.h>

enum { DEPTH_MAX = 100 };       /* ARC files nest 5 deep; cJSON allows 1000 */

typedef struct {
    const char *p, *end;
} Reader;

static void skip_ws(Reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t'))
        r->p++;
}

/* Bytes up to the closing quote, copied NUL-terminated through the hooks;
 * NULL at an escape, a control character or the end of the text. */
static char *string_copy(Reader *r)
{
    const char *s = ++r->p;
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c == '\\' || c < 0x20)
            return NULL;
        r->p++;
    }
    if (r->p == r->end)
        return NULL;
    size_t n = (size_t)(r->p++ - s);
    char *copy = cJSON_malloc(n + 1);
    if (copy) {
        memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

/* A number node as cJSON_CreateNumber makes it, without its calls: grids
 * are a node per cell. */
static cJSON *new_number(int v)
{
    cJSON *n = cJSON_malloc(sizeof *n);
    if (n) {
        memset(n, 0, sizeof *n);
        n->type = cJSON_Number;
        n->valuedouble = v;
        n->valueint = v;
    }
    return n;
}

/* cJSON_AddItemToArray's links: the first child's prev is the last. */
static void append(cJSON *c, cJSON *item)
{
    cJSON *first = c->child;
    if (!first) {
        c->child = item;
        item->prev = item;
        return;
    }
    first->prev->next = item;
    item->prev = first->prev;
    first->prev = item;
}

/* 0 or a non-zero digit and up to eight more, then a delimiter: exact in
 * a double and an int alike, so strtod could not give another value. */
static cJSON *number(Reader *r)
{
    int v = *r->p++ - '0', ndigits = 1;
    if (v != 0)
        while (r->p < r->end && *r->p >= '0' && *r->p <= '9' && ndigits < 9)
            v = v * 10 + (*r->p++ - '0'), ndigits++;
    if (r->p < r->end) {
        char c = *r->p;
        if ((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-')
            return NULL;        /* 01, 1.5, 1e3, a tenth digit: cJSON's to read */
    }
    return new_number(v);
}

static cJSON *value(Reader *r, int depth);

/* The items of an array or the members of an object, up to `close`. */
static cJSON *container(Reader *r, int depth, bool object)
{
    char close = object ? '}' : ']';
    cJSON *c = object ? cJSON_CreateObject() : cJSON_CreateArray();
    if (!c || depth > DEPTH_MAX)
        goto fail;
    r->p++;
    skip_ws(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
        return c;
    }
    for (;;) {
        char *key = NULL;
        if (object) {
            if (r->p == r->end || *r->p != '"' || !(key = string_copy(r)))
                goto fail;
            skip_ws(r);
            if (r->p == r->end || *r->p != ':') {
                cJSON_free(key);
                goto fail;
            }
            r->p++;
            skip_ws(r);
        }
        cJSON *item = value(r, depth + 1);
        if (!item) {
            cJSON_free(key);
            goto fail;
        }
        item->string = key;     /* as cJSON's parse_object leaves a member */
        append(c, item);
        skip_ws(r);
        if (r->p == r->end)
            goto fail;
        if (*r->p == close) {
            r->p++;
            return c;
        }
        if (*r->p++ != ',')
            goto fail;
        skip_ws(r);
    }
fail:
    cJSON_Delete(c);
    return NULL;
}

static cJSON *value(Reader *r, int depth)
{
    if (r->p == r->end)
        return NULL;
    char c = *r->p;
    if (c == '{' || c == '[')
        return container(r, depth, c == '{');
    if (c >= '0' && c <= '9')
        return number(r);
    if (c == '"') {
        char *s = string_copy(r);
        if (!s)
            return NULL;
        cJSON *item = cJSON_CreateString(s);
        cJSON_free(s);
        return item;
    }
    return NULL;                /* true, false, null, negative numbers: rare in tasks */
}

cJSON *taskjson_parse(const char *buf, size_t len)
{
    Reader r = {buf, buf + len};
    skip_ws(&r);
    cJSON *j = value(&r, 0);
    skip_ws(&r);
    if (j && r.p != r.end) {
        cJSON_Delete(j);
        return NULL;
    }
    return j;
}
