"""Calls an instance makes twice with the same arguments.  The call cache
answers the second with a twin of the first result (src/run/callcache.h):
a new object laid out as the first, which is what CPython's second
computation makes.  The results are read where identity shows: `a & b`
copies a when b is a and walks b otherwise, `a | b` likewise, and a set's
repr shows its order.  twins.expected is CPython's result
(tests/programs/expected.py)."""
from dsl import *
from constants import *


def program_places(I):
    # sets of places, large enough to have resized
    x1 = asindices(I)
    x2 = asindices(I)
    x3 = intersection(x1, x2)
    x4 = combine(x2, x1)
    x5 = difference(x1, x2)
    return (x3, x4, x5, equality(x1, x2))


def program_cells(I):
    x1 = asobject(I)
    x2 = asobject(I)
    x3 = ofcolor(I, ZERO)
    x4 = ofcolor(I, ZERO)
    x5 = intersection(x2, x1)
    x6 = combine(x3, x4)
    return (x5, x6, intersection(x4, x3))


def program_objects(I):
    # sets of sets: each member is a twin too
    x1 = objects(I, T, F, F)
    x2 = objects(I, T, F, F)
    x3 = intersection(x1, x2)
    x4 = combine(x2, x1)
    x5 = first(x1)
    x6 = first(x2)
    return (x3, x4, intersection(x5, x6), combine(x6, x5))


def program_partitions(I):
    x1 = partition(I)
    x2 = partition(I)
    x3 = fgpartition(I)
    x4 = fgpartition(I)
    x5 = apply(toindices, x1)
    x6 = apply(toindices, x2)
    return (intersection(x1, x2), combine(x4, x3), intersection(x5, x6))


def program_tuples(I):
    # grids and tuples of places: one object may serve both calls
    x1 = vmirror(I)
    x2 = vmirror(I)
    x3 = totuple(asindices(I))
    x4 = asobject(x1)
    x5 = asobject(x2)
    return (equality(x1, x2), intersection(x4, x5), x3)
