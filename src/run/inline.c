/* inline.c -- which calls the executor runs in its scan (inline.h). */
#include "inline.h"
#include "prim.h"

const bool inline_prim_[PRIM_COUNT] = {
    [PRIM_AD_size] = true, [PRIM_AD_first] = true, [PRIM_AD_last] = true,
    [PRIM_AD_identity] = true, [PRIM_AD_even] = true, [PRIM_AD_flip] = true,
    [PRIM_AD_both] = true, [PRIM_AD_either] = true, [PRIM_AD_positive] = true,
    [PRIM_AD_astuple] = true, [PRIM_AD_add] = true, [PRIM_AD_subtract] = true,
    [PRIM_AD_multiply] = true, [PRIM_AD_increment] = true,
    [PRIM_AD_decrement] = true, [PRIM_AD_double] = true, [PRIM_AD_halve] = true,
    [PRIM_AD_invert] = true, [PRIM_AD_toivec] = true, [PRIM_AD_tojvec] = true,

    [PRIM_TK_size] = true, [PRIM_TK_size_f] = true, [PRIM_TK_size_t] = true,
    [PRIM_TK_get_nth_t] = true, [PRIM_TK_get_nth_f] = true, [PRIM_TK_first] = true,
    [PRIM_TK_last] = true, [PRIM_TK_first_t] = true, [PRIM_TK_last_t] = true,
    [PRIM_TK_identity] = true, [PRIM_TK_even] = true, [PRIM_TK_flip] = true,
    [PRIM_TK_both] = true, [PRIM_TK_either] = true, [PRIM_TK_positive] = true,
    [PRIM_TK_astuple] = true, [PRIM_TK_astriple] = true, [PRIM_TK_add] = true,
    [PRIM_TK_subtract] = true, [PRIM_TK_multiply] = true,
    [PRIM_TK_increment] = true, [PRIM_TK_decrement] = true,
    [PRIM_TK_double] = true, [PRIM_TK_halve] = true, [PRIM_TK_toivec] = true,
    [PRIM_TK_tojvec] = true,
};
