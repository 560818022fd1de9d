def solve_try(I):
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError):
        t2 = _get_safe_default(identity)
    return t1
