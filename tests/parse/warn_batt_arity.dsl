from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    try:
        t1 = o_g(I)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(o_g)
    o.append((1, False, '00000000', t1))
    return o, s
