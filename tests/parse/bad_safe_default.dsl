def solve_try(I):
    try:
        t1 = identity(I)
    except (TypeError, AttributeError, ValueError):
        t1 = _get_safe_default(rot90)
    return t1
