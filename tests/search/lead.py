# Search-mode test: on the task's 6x6 sample (train[0]) this program
# overruns a small work budget; on its 1x1 samples it returns a wrong
# answer at once.  A search runs the smallest sample first, so the pair is
# lost there and the 6x6 sample never runs.
def solve_lead01(I):
    x1 = asindices(I)
    x2 = product(x1, x1)
    x3 = product(x2, x2)
    O = size(x3)
    return O
