def batt(task_id, S, I, C, log_path):
    o = []
    o.append((1, True, '60b61512, I))
    return o
