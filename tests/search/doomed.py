# Search-mode test: solve_wide_demo01's product of a grid's location pairs
# with themselves overruns a small work budget on every sample, so each of
# its pairs is lost at the first sample; solve_rot_demo01 solves its task.
# On tests/search/lead (a 6x6 sample, then 1x1 ones) solve_wide_demo01
# overruns the budget on the 6x6 sample only and is wrong at once on the
# 1x1 ones, so the smallest-sample-first order shows in its budget count.
def solve_rot_demo01(I):
    O = rot90(I)
    return O


def solve_wide_demo01(I):
    x1 = asindices(I)
    x2 = product(x1, x1)
    x3 = product(x2, x2)
    O = size(x3)
    return O
