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
