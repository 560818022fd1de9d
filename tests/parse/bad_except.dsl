def solve_try(task_id, S, I, C, log_path):
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError):
        t2 = _get_safe_default(identity)
    return t1
