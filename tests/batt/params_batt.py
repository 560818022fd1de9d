# A batt whose parameters do not fit its caller's batt(task_id, S, I, C,
# log_path): CPython loads the file, and every call raises TypeError, which
# the harness records as the sample's error.  arcrun warns when it loads
# the file and gives the same.  A def nothing calls, of one parameter, is
# no program: a warning, and it never runs.
from pile import *


def unused(x):
    t1 = rot90(x)
    return t1


def batt(task_id, S, I, C):
    s = []
    o = []
    t1 = rot90(I)
    o.append((1, False, 'aaaa', t1))
    return o, s
