def lines(I):
    x1 = asindices(I)
    x2 = ofcolor(I, ONE)
    x3 = prapply(connect, x2, x2)
    x4 = mfilter(x3, vline)
    x5 = mfilter(x3, hline)
    x6 = fill(I, EIGHT, x4)
    O = fill(x6, THREE, x5)
    return O
