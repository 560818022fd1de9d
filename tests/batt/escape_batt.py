from pile import *
from safe_dsl import _get_safe_default

def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    t1 = astuple('say "hi"', 'it\'s')
    t2 = astuple('back\\slash', 'tab\tnew\nline\x01')
    t3 = astuple(t1, 'both \' and "')
    s.append((1, 'id "quoted"', 'differ\\x', t1))
    s.append((2, 'None', 'differ_y', t2))
    o.append((3, False, 'q"q', t3))
    return o, s
