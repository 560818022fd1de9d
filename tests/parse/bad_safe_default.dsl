def solve_try(task_id, S, I, C, log_path):
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(rot90)
    return t1
