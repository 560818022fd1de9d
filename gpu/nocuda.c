/* nocuda.c -- the GPU interface in a build without CUDA. */
#include <stdio.h>
#include "gpu.h"

bool gpu_built(void) { return false; }

bool gpu_available(char *why, size_t whylen)
{
    snprintf(why, whylen, "built without CUDA");
    return false;
}

int gpu_selftest(char *why, size_t whylen)
{
    snprintf(why, whylen, "built without CUDA");
    return -1;
}
