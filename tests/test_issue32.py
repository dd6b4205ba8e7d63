"""Issue 32, one test per finding: no 'ok' that cannot predict, no bound that is not true, no
input changed or refused without its name.  Each test failed on the code before the fix.

Reproducer data of the issue: ``X = linspace(-3, 3, 8)[:, None]``, ``y = sinc(X[:, 0])``.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import lssvm_analysis as la

X8 = np.linspace(-3, 3, 8)[:, None]
Y8 = np.sinc(X8[:, 0])


# ---- finding 5: an 'ok' fit with an empty support predicts its bias -------------------------------
@pytest.mark.parametrize("solver, y, params, precision", [
    ("rr-lssvr", np.full(8, 3.0), {}, "float64"),
    ("rr-lssvr", np.full(8, 3.0), {}, "float32"),
    ("rr-lssvr", np.full(8, 3.0), {}, "mp30"),
    ("svm-eps", Y8, {"epsilon": 10.0}, "float64"),
])
def test_empty_support_fit_predicts_its_bias(solver, y, params, precision):
    fit = la.fit(solver, X8, y, precision=precision, **params)
    assert fit.status == "ok" and fit.n_support == 0
    f = fit.predict(X8[:3])
    assert f.shape == (3,) and np.all(f == float(fit.bias_))
    with pytest.raises(ValueError, match=r"\bX\b"):
        fit.predict(np.zeros((2, 3)))      # the wrong number of features is still refused


# ---- finding 3: an input that underflows in the precision is named, as overflow is -----------------
@pytest.mark.parametrize("name", ["y", "X"])
def test_float32_underflow_of_an_input_warns_with_its_name(name):
    X, y = (X8, Y8 * 1e-60) if name == "y" else (X8 * 1e-60, Y8)
    with pytest.warns(la.UnderflowWarning, match=rf"\b{name}\b") as rec:
        la.fit("lssvm-schur", X, y, precision="float32", kernel="linear" if name == "X" else "rbf")
    w = [r.message for r in rec if isinstance(r.message, la.UnderflowWarning)][0]
    assert w.name == name and w.count == np.count_nonzero(y if name == "y" else X) and w.precision == "float32"


def test_no_underflow_warning_for_normal_inputs_or_wide_formats():
    with warnings.catch_warnings():
        warnings.simplefilter("error", la.UnderflowWarning)
        la.fit("lssvm-schur", X8, Y8, precision="float32")
        la.fit("lssvm-schur", X8, Y8 * 1e-60, precision="float64")   # normal in float64
