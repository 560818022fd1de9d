/* fanout.c -- see fanout.h. */
#include "fanout.h"

#include <pthread.h>

void fanout(int n, void *(*fn)(void *), void *arg)
{
    pthread_t tid[FANOUT_MAX];
    int started = 0;
    for (int t = 1; t < n && t < FANOUT_MAX; t++)
        started += pthread_create(&tid[started], NULL, fn, arg) == 0;
    fn(arg);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
}
