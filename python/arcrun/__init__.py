"""arcrun from Python: ARC-AGI DSL programs with CPython's exact results.

    >>> import arcrun
    >>> arcrun.eval('rot90(((1, 2), (3, 4)))')
    ((3, 1), (4, 2))

Values come back as Python values: tuples of tuples for grids, frozensets
(iterating in this interpreter's own order), ints, bools, None; a DSL
function as an arcrun.Function.  A DSL exception is raised as the same
Python exception (TypeError, StopIteration, ...) with CPython's message; a
program or expression that does not parse raises CompileError, a
SyntaxError that carries the file, line, column and message.
"""
import builtins as _builtins
import re as _re

from . import _arcrun

__all__ = ["eval", "CompileError", "Function", "__version__"]
__version__ = _arcrun.version()
Function = _arcrun.Function

_LOCATED = _re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


class CompileError(SyntaxError):
    """A program or expression arcrun cannot read: .filename, .lineno,
    .offset (1-based column) and .msg as in SyntaxError; .messages lists
    every located message when there are several."""

    def __init__(self, text):
        lines = text.rstrip("\n").split("\n")
        first = _LOCATED.match(lines[0]) if lines else None
        self.messages = [l for l in lines if _LOCATED.match(l)]
        if first:
            source = lines[1].strip() if len(lines) > 1 else None
            super().__init__(first["msg"], (first["file"], int(first["line"]), int(first["col"]), source))
        else:
            super().__init__(text.strip())


def _outcome(r):
    if r[0] == "ok":
        return r[1]
    if r[0] == "compile":
        raise CompileError(r[1])
    exc = getattr(_builtins, r[1], None)
    if not (isinstance(exc, type) and issubclass(exc, BaseException)):
        exc = RuntimeError
    raise exc(r[2]) if r[2] else exc()


def eval(expr, dialect=None):
    """The value of one DSL expression (Python literals and nested DSL
    calls), as CPython would compute it with the dialect's dsl.py:
    'arc-dsl' (default), 're-arc' or 'tokpidjin'."""
    if not isinstance(expr, str):
        raise TypeError("eval() wants the expression as a str, not %s" % type(expr).__name__)
    return _outcome(_arcrun._eval(expr, dialect))
