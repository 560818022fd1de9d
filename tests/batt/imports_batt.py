# Names come from what the file imports: dsl's functions by *, two
# constants by name, one of them renamed, and a function renamed.
from dsl import *
from dsl import rot90 as turn
from constants import ONE, F0 as NTH
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    t1 = astuple(ONE, NTH)
    t2 = turn(I)
    try:
        t3 = add(t1, ONE)
    except (TypeError, AttributeError, ValueError):
        t3 = _get_safe_default(add)
    s.append((1, 'None', 'differ_a', t1))
    o.append((2, False, 'aaaa', t2))
    o.append((3, False, 'bbbb', t3))
    return o, s
