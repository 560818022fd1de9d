from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    try:
        t1 = identity(5)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(identity)
    try:
        t2 = t1(I)
    except (LookupError, ArithmeticError, TypeError):
        t2 = _get_safe_default(t1)
    try:
        t3 = t1(C)
    except Exception:
        t3 = _get_safe_default(t1)
    try:
        t4 = t1(S)
    except:
        t4 = _get_safe_default(t1)
    o.append((1, False, 'aaaa', t2))
    o.append((2, False, 'bbbb', t3))
    o.append((3, False, 'cccc', t4))
    return o, s
