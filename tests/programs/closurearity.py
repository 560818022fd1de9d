"""Closures the combinators return, called with too few or too many
arguments: CPython's TypeError names the lambda's missing parameters
(x, y, z; lbind's y, z, a) or says how many it takes.
tests/programs.test runs it on tasks/demo; closurearity.expected is
CPython's result (tests/programs/expected.py)."""
from dsl import *
from constants import *


def program_lbind_two_missing(I):
    x1 = lbind(fill, I)
    x2 = apply(x1, totuple(asindices(I)))
    return x2


def program_rbind_one_missing(I):
    x1 = rbind(fill, ONE)
    x2 = x1(I)
    return x2


def program_rbind_three_missing(I):
    x1 = rbind(identity, I)
    x2 = x1()
    return x2


def program_lbind_all_missing(I):
    x1 = lbind(lbind, fill)
    x2 = x1(I)
    x3 = x2()
    return x3


def program_compose_none(I):
    x1 = compose(vmirror, hmirror)
    x2 = x1()
    return x2


def program_chain_too_many(I):
    x1 = chain(vmirror, hmirror, dmirror)
    x2 = papply(x1, I, I)
    return x2


def program_fork_missing(I):
    x1 = fork(combine, vmirror, hmirror)
    x2 = x1()
    return x2


def program_matcher_missing(I):
    x1 = matcher(height, TWO)
    x2 = sfilter(objects(I, T, F, F), x1)
    x3 = x1()
    return x3


def program_power_missing(I):
    x1 = power(rot90, THREE)
    x2 = x1()
    return x2


def program_sound(I):
    x1 = rbind(fill, asindices(I))
    x2 = x1(I, ONE)
    return x2
