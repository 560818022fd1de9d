# `from dsl import *` binds no constant: TWO raises NameError when its line
# runs, which the except clause does not catch, so every call fails.
from dsl import *
from constants import ONE
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    t1 = astuple(ONE, ONE)
    s.append((1, 'None', 'differ_a', t1))
    try:
        t2 = add(t1, TWO)
    except (TypeError, AttributeError, ValueError):
        t2 = _get_safe_default(add)
    o.append((2, False, 'aaaa', t2))
    return o, s
