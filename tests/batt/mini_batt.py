from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(identity)
    try:
        t2 = t1(I)
    except (TypeError, AttributeError, ValueError):
        t2 = _get_safe_default(t1)
    t3 = size(I)
    t4 = astuple(t3, C)
    t5 = dedupe(t2)
    t6 = compose(size, identity)
    t7 = t6(S)
    try:
        t8 = t6(S, S)
    except (TypeError, AttributeError, ValueError):
        t8 = _get_safe_default(t6)
    t9 = astuple(t7, t8)
    s.append((4, 'None', 'differ_x', t4))
    s.append((9, 'None', 'differ_y', t9))
    o.append((1, False, 'aaaa', t1))
    o.append((5, True, 'bbbb', t5))
    return o, s
