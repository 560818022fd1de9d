/* taskjson.h -- the JSON that ARC task files are written in, read fast.
 *
 * cJSON reads a number through strtod (a locale lookup and three keyword
 * compares first): most of the time of loading a task directory, whose
 * files are mostly one-digit cells.  This reader takes the subset ARC files
 * use -- objects, arrays, strings without escapes, small non-negative
 * integers, JSON whitespace -- and builds the very tree cJSON would build
 * (same nodes, same order, same values), allocated through cJSON's hooks.
 * Anything else, errors included, it declines: the caller then asks cJSON,
 * which alone judges and locates what is wrong. */
#ifndef ARC_TASKJSON_H
#define ARC_TASKJSON_H

#include <cjson/cJSON.h>
#include <stddef.h>

/* The tree of buf[0..len), or NULL when the text leaves the subset (what
 * was built is then released with cJSON_Delete). */
cJSON *taskjson_parse(const char *buf, size_t len);

#endif
