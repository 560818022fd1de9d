/* json_same.h -- two cJSON trees alike node for node: type, key, values
 * (doubles bit for bit) and member order, and each list's first->prev on
 * its last as cJSON's parser leaves it. */
#ifndef ARC_JSON_SAME_H
#define ARC_JSON_SAME_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <string.h>

static inline bool json_str_same(const char *a, const char *b)
{
    return a == b || (a && b && strcmp(a, b) == 0);
}

static inline bool json_same(const cJSON *a, const cJSON *b)
{
    if (a->type != b->type || a->valueint != b->valueint ||
        memcmp(&a->valuedouble, &b->valuedouble, sizeof a->valuedouble) != 0 ||
        !json_str_same(a->string, b->string) || !json_str_same(a->valuestring, b->valuestring))
        return false;
    const cJSON *x = a->child, *y = b->child, *xl = NULL, *yl = NULL;
    for (; x && y; xl = x, x = x->next, yl = y, y = y->next)
        if (!json_same(x, y))
            return false;
    if (x || y)
        return false;
    return !a->child || (a->child->prev == xl && b->child->prev == yl);
}

#endif
