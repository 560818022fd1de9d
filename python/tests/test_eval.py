"""arcrun.eval against what CPython computes (the reference DSLs' results
are written out here; tests/cases holds many more for the CLI)."""
import pytest

import arcrun


def test_grid_is_a_tuple_of_tuples():
    assert arcrun.eval("rot90(((1, 2), (3, 4)))") == ((3, 1), (4, 2))
    assert type(arcrun.eval("rot90(((1, 2), (3, 4)))")) is tuple


def test_frozenset_iterates_in_this_interpreters_order():
    v = arcrun.eval("frozenset({2, 9})")
    assert v == frozenset({2, 9}) and type(v) is frozenset
    assert list(v) == list(frozenset({2, 9}))
    objs = arcrun.eval("objects(((1, 0), (0, 1)), T, T, T)")
    assert objs == frozenset({frozenset({(1, (0, 0)), (1, (1, 1))})})


def test_scalars_and_functions():
    assert arcrun.eval("add(DOWN, RIGHT)") == (1, 1)
    assert arcrun.eval("even(4)") is True
    assert arcrun.eval("divide(7, 2)") == 3
    f = arcrun.eval("rot90")
    assert isinstance(f, arcrun.Function) and repr(f) == "<function rot90>"


def test_dsl_exceptions_are_python_exceptions_with_cpythons_message():
    with pytest.raises(StopIteration):
        arcrun.eval("first(())")
    with pytest.raises(ValueError, match=r"^max\(\) arg is an empty sequence$"):
        arcrun.eval("argmax(frozenset(), size)")


def test_dialects():
    assert arcrun.eval("argmax(frozenset(), size)", dialect="re-arc") is None
    with pytest.raises(ValueError, match="unknown dialect"):
        arcrun.eval("rot90(((1,),))", dialect="cobol")


def test_compile_errors_carry_their_location():
    with pytest.raises(arcrun.CompileError) as e:
        arcrun.eval("rot9(((1, 2),))")
    assert e.value.lineno == 1 and e.value.offset == 1
    assert e.value.filename == "<expr>"
    assert "did you mean 'rot90'" in e.value.msg
    assert isinstance(e.value, SyntaxError)
    with pytest.raises(arcrun.CompileError) as e:
        arcrun.eval("rot90(((1, 2),)")
    assert e.value.lineno == 1


def test_wrong_argument_types():
    with pytest.raises(TypeError, match="as a str"):
        arcrun.eval(42)


def test_version():
    assert arcrun.__version__ == "0.1.0"


def test_python_around_the_dsl():
    assert arcrun.eval("sorted([3, 1, 2], reverse=True)") == [3, 2, 1]
    assert arcrun.eval("{3, 1}") == {1, 3} and type(arcrun.eval("{3, 1}")) is set
    assert arcrun.eval("range(1, 10, 3)") == range(1, 10, 3)
    assert arcrun.eval("max(frozenset({(1, 2), (3, 0)}), key=lambda p: p[1])") == (1, 2)
    assert arcrun.eval("apply(lambda x: x * 2, (1, 2))[::-1]") == (4, 2)
    with pytest.raises(TypeError, match="tuples and frozensets"):
        arcrun.eval("size([1, 2])")


def test_functions_pickle_as_themselves():
    import pickle
    f = arcrun.eval("rot90")
    g = pickle.loads(pickle.dumps(f))
    assert g == f and repr(g) == "<function rot90>" and hash(g) == hash(f)
