# The default budgets: about 7 M work units, which a plain run finishes and
# search mode (--all-pairs, 5 M) stops.
def heavy(I):
    x1 = canvas(ZERO, astuple(30, 30))
    x2 = asindices(x1)
    x3 = product(x2, x2)
    x4 = apply(first, x3)
    x5 = apply(last, x3)
    x6 = apply(identity, x3)
    x7 = apply(size, x3)
    O = size(x7)
    return O
