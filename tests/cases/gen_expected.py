#!/usr/bin/env python3
"""Fill in the expected column of .cases files by evaluating each expression
with a reference DSL in CPython 3.11.

    gen_expected.py --ref DIR FILE.cases...

DIR is a checkout of michaelhodel/arc-dsl (dsl.py, constants.py).  Each
non-comment line's first tab-separated field is the expression; the line is
rewritten as EXPR<TAB>repr(result), or EXPR<TAB>!ExceptionClass.  Function
reprs lose their ' at 0x...' address.  Expected values are data made by the
reference, never typed by hand.  --messages writes !ExceptionClass: message
(run_cases then compares the message too), for files whose point is the
words.
"""
import argparse, re, sys

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ref', required=True, help='reference checkout (dsl.py)')
    ap.add_argument('--messages', action='store_true', help="expect the exceptions' messages too")
    ap.add_argument('files', nargs='+')
    args = ap.parse_args()
    sys.path.insert(0, args.ref)
    ns = {}
    exec('from dsl import *\nfrom constants import *', ns)
    addr = re.compile(r' at 0x[0-9a-f]+')
    for path in args.files:
        out = []
        for line in open(path):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                out.append(line)
                continue
            expr = line.split('\t')[0]
            try:
                res = addr.sub('', repr(eval(expr, ns)))
            except Exception as e:  # the expected outcome is the exception
                res = '!' + type(e).__name__ + (': ' + str(e) if args.messages else '')
            out.append(expr + '\t' + res)
        with open(path, 'w') as f:
            f.write('\n'.join(out) + '\n')

if __name__ == '__main__':
    main()
