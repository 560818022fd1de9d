/* stats.h -- the --stats report of a run's ExecStats. */
#ifndef ARC_STATS_H
#define ARC_STATS_H

#include <stdio.h>
#include "exec.h"

/* The ops sorted by time, as a table or one JSON object. */
void stats_print(FILE *f, ExecStats *st, bool json);

#endif
