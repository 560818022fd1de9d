from pile import *
from safe_dsl import _get_safe_default

# tokpidjin names the GPU backend takes where they bind arc-dsl's function
# (rows naming an ad_ function and a GPU op in dsl/tokpidjin/list.h);
# tests/gpu_emulate.test checks their
# counters.  Names with their own tokpidjin body stay on the CPU.
def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    t1 = rot180(I)
    t2 = rot270(I)
    t3 = tophalf(I)
    t4 = bottomhalf(I)
    t5 = lefthalf(I)
    t6 = righthalf(I)
    t7 = replace(I, ZERO, FIVE)
    t8 = trim(I)
    t9 = rot90(I)
    t10 = upscale_t(I, TWO)
    t11 = o_g(I, R0)
    t12 = o_g(I, R1)
    t13 = o_g(I, R2)
    t14 = o_g(I, R3)
    t15 = o_g(I, R4)
    t16 = o_g(I, R5)
    t17 = o_g(I, R6)
    t18 = o_g(I, R7)
    t19 = o_g_t(I, R5)
    t20 = o_g_t(I, R2)
    t21 = objects(I, T, F, T)
    t22 = objects_t(I, F, T, F)
    t23 = o_g(t9, R5)
    s.append((1, 'None', 'rot180', t1))
    s.append((2, 'None', 'rot270', t2))
    s.append((3, 'None', 'tophalf', t3))
    s.append((4, 'None', 'bottomhalf', t4))
    o.append((5, False, 'lefthalf', t5))
    o.append((6, False, 'righthalf', t6))
    o.append((7, False, 'replace', t7))
    o.append((8, False, 'trim', t8))
    o.append((9, False, 'rot90', t9))
    o.append((10, False, 'upscale_t', t10))
    o.append((11, False, 'o_g', t11))
    o.append((12, False, 'o_g', t12))
    o.append((13, False, 'o_g', t13))
    o.append((14, False, 'o_g', t14))
    o.append((15, False, 'o_g', t15))
    o.append((16, False, 'o_g', t16))
    o.append((17, False, 'o_g', t17))
    o.append((18, False, 'o_g', t18))
    o.append((19, False, 'o_g_t', t19))
    o.append((20, False, 'o_g_t', t20))
    o.append((21, False, 'objects', t21))
    o.append((22, False, 'objects_t', t22))
    o.append((23, False, 'o_g', t23))
    return o, s
