"""Bad input to ``la.datasets`` and ``la.compare``: a typed error naming the argument.

(The table over ``la.__all__`` is tests/test_bad_input.py; these are the data entry points it misses.)
"""
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis import datasets


@pytest.fixture
def arrays():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (20, 2))
    return X, X[:, 0] - X[:, 1]


def test_a_loader_that_returns_none_is_refused_by_name():
    datasets.register("u2-bad-input", lambda **kw: None, task="regression", replace=True)
    try:
        with pytest.raises(TypeError, match=r"loader of data set 'u2-bad-input' to return a Dataset.*got None"):
            datasets.load("u2-bad-input")
    finally:
        datasets.unregister("u2-bad-input")
    with pytest.raises(TypeError, match="returning None for data set name='u3-bad-input'"):
        datasets.register("u3-bad-input", lambda **kw: None)        # the task is read from a load
    assert "u3-bad-input" not in datasets.datasets()


def test_from_arrays_refuses_a_test_set_that_is_not_finite_or_does_not_match(arrays):
    X, y = arrays
    X_before, y_before = X.copy(), y.copy()
    with pytest.raises(ValueError, match=r"expected finite X_test, got X_test\[0, 0\]=nan"):
        datasets.from_arrays("u4", X, y, X_test=np.full((5, 2), np.nan), y_test=np.zeros(5))
    with pytest.raises(ValueError, match=r"expected finite y_test, got y_test\[2\]=inf"):
        datasets.from_arrays("u4", X, y, X_test=np.zeros((5, 2)), y_test=[0, 0, np.inf, 0, 0])
    with pytest.raises(ValueError, match=r"X_test.shape=\(5, 3\)"):
        datasets.from_arrays("u4", X, y, X_test=np.zeros((5, 3)), y_test=np.zeros(5))
    with pytest.raises(ValueError, match=r"got X_test.shape=\(5, 2\) and y_test=None"):
        datasets.from_arrays("u4", X, y, X_test=np.zeros((5, 2)))
    with pytest.raises(TypeError, match="X_test"):
        datasets.from_arrays("u4", X, y, X_test=[["a", "b"]], y_test=[1.0])
    np.testing.assert_array_equal(X, X_before)
    np.testing.assert_array_equal(y, y_before)


@pytest.mark.parametrize("kw, cls, match", [
    ({"C": "x"}, TypeError, "got C='x'"),
    ({"C": True}, TypeError, "got C=True"),
    ({"sigma2": "1"}, TypeError, "got sigma2='1'"),
    ({"max_rows": 2}, ValueError, "max_rows"),
    ({"budget": -1}, ValueError, "budget=-1"),
    ({"full_ladder": "yes"}, TypeError, "full_ladder"),
])
def test_compare_refuses_bad_options_by_name(arrays, kw, cls, match):
    X, y = arrays
    with pytest.raises(cls, match=match):
        la.compare(X, y, solvers=["krr"], precisions=["float64"], **kw)
