from pile import *
from safe_dsl import _get_safe_default

# tokpidjin names the GPU backend takes where they bind arc-dsl's function
# (same=1 in dsl/tokpidjin/list.h); tests/gpu_emulate.test checks their
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
    return o, s
