def batt(task_id, S, I, C, log_path):
    s = []
    o = []
    s.append((1, 'None', I))
    return o, s
