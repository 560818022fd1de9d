/* fanout.h -- run one function on several threads at once, this one among
 * them, and wait for all: the shape of every parallel loop here whose
 * threads take work from a shared counter until none is left. */
#ifndef ARC_FANOUT_H
#define ARC_FANOUT_H

#define FANOUT_MAX 256

/* fn(arg) on the calling thread and on up to n - 1 new ones (at most
 * FANOUT_MAX in all; a thread that cannot start is simply not there). */
void fanout(int n, void *(*fn)(void *), void *arg);

#endif
