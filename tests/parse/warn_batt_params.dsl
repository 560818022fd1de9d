# A batt of four parameters: its caller gives five, and CPython raises
# TypeError at each call.  A warning, and the file runs.
from pile import *

def batt(task_id, S, I, C):
    s = []
    o = []
    o.append((1, False, '00000000', I))
    return o, s
