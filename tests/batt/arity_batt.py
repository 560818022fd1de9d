# Primitives called with the wrong number of arguments where the file
# writes the call: tokpidjin's safe wrapper catches the TypeError and gives
# the primitive's default, inside try or not.  arcrun warns when it loads
# the file and gives the same.
from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    try:
        t1 = o_g(I)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(o_g)
    o.append((1, False, 'aaaa', t1))
    t2 = rot90(I, I)
    o.append((2, False, 'bbbb', t2))
    t3 = size(t1, t2)
    s.append((3, 'None', 'differ_a', t3))
    t4 = add(size(I), size(I, I))
    s.append((4, 'None', 'differ_b', t4))
    t5 = rot90(I)
    o.append((5, False, 'cccc', t5))
    t6 = rot90(I, I, I, I, I, I, I, I, I, I)
    o.append((6, False, 'dddd', t6))
    t7 = size(rot90(I), t5, t5, t5, t5, t5, t5, t5, t5, t5, t5)
    s.append((7, 'None', 'differ_c', t7))
    return o, s
