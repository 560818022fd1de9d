from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError, I6dexError):
        t1 = _get_safe_default(identity)
    try:
        t2 = t1(I)
    except (TypeError, AttributeError, ValueError, I6dexError):
        t2 = _get_safe_default(t1)
    o.append((1, False, 'aaaa', t1))
    return o, s
