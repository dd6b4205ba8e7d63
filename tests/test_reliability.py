"""Reliability gates of issue 21: exact pickling in every precision, and a fuzz over solver x precision.

* Pickling: an mp50 model came back with its coefficients rounded to 53 bits (mpmath's own
  ``mpf.__reduce__`` rebuilds the number in the global context at its current precision).  Every
  registered precision's Fit and estimator must round-trip bit for bit: the unpickled object
  pickles to the same bytes (every mpf's (sign, mantissa, exponent) and every array's bytes are in
  the stream), keeps its precision, and predicts the same numbers.
* Fuzz: hypothesis draws scaled data and hyper-parameters for every solver x precision; a fit
  either raises a typed error of the package's contract (ValueError / TypeError / the named
  exceptions) or returns a Fit, and an 'ok' Fit holds a finite model; a 'breakdown' carries its
  record.
"""
from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import InsufficientMemoryError
from lssvm_analysis.core.precision import precision_of

#: Precisions of the round trip: the registry plus an mp with other digits than the default.
PICKLE_PRECISIONS = la.precisions() + ["mp30"]


def _same(a, b, path="obj"):
    """Exact structural equality: every mpf's raw tuple and context, every array's dtype and bytes."""
    assert type(a) is type(b), (path, type(a), type(b))
    if hasattr(a, "_mpf_"):
        assert a._mpf_ == b._mpf_ and a.context.dps == b.context.dps, (path, a, b)
    elif isinstance(a, np.ndarray):
        assert a.dtype == b.dtype and a.shape == b.shape, (path, a.dtype, b.dtype)
        if a.dtype == object:
            for i, (u, v) in enumerate(zip(a.flat, b.flat)):
                _same(u, v, f"{path}[{i}]")
        else:
            assert a.tobytes() == b.tobytes(), path
    elif isinstance(a, (np.generic, float)):
        assert np.asarray(a).tobytes() == np.asarray(b).tobytes(), (path, a, b)
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k in a:
            _same(a[k], b[k], f"{path}[{k!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (u, v) in enumerate(zip(a, b)):
            _same(u, v, f"{path}[{i}]")
    elif isinstance(a, la.Precision):
        assert a.name == b.name, path
    elif hasattr(a, "__dict__") and not callable(a):
        _same(vars(a), vars(b), path)
    elif hasattr(a, "__dataclass_fields__"):
        for f in a.__dataclass_fields__:
            _same(getattr(a, f), getattr(b, f), f"{path}.{f}")
    else:
        assert a == b, (path, a, b)


def _roundtrip(obj):
    back = pickle.loads(pickle.dumps(obj))
    _same(obj, back)
    return back


@pytest.mark.parametrize("name", PICKLE_PRECISIONS)
def test_fit_pickles_bit_for_bit(name, rng):
    X = rng.uniform(-1, 1, (10, 2))
    y = np.sin(3 * X[:, 0])
    fit = la.fit("lssvm-schur", X, y, C=10.0, sigma2=0.5, precision=name)
    back = _roundtrip(fit)  # every digit of every number, and the structure, came back
    assert precision_of(back.coef_).name == name == back.precision
    assert np.asarray(back.coef_).dtype == np.asarray(fit.coef_).dtype
    if np.asarray(fit.coef_).dtype == object:
        assert [c._mpf_ for c in back.coef_] == [c._mpf_ for c in fit.coef_]
        assert back.bias_._mpf_ == fit.bias_._mpf_
    else:
        assert np.asarray(back.coef_).tobytes() == np.asarray(fit.coef_).tobytes()
    Z = rng.uniform(-1, 1, (5, 2))
    assert np.asarray(back.predict(Z)).tobytes() == np.asarray(fit.predict(Z)).tobytes()


@pytest.mark.parametrize("name", PICKLE_PRECISIONS)
@pytest.mark.parametrize("estimator", [la.LSSVMRegressor, la.LSSVMClassifier])
def test_estimator_pickles_bit_for_bit(name, estimator, rng):
    X = rng.uniform(-1, 1, (12, 2))
    y = np.sin(3 * X[:, 0]) if estimator is la.LSSVMRegressor else np.where(X[:, 0] > 0, 1, -1)
    est = estimator(C=10.0, sigma2=0.5, precision=name).fit(X, y)
    back = _roundtrip(est)
    Z = rng.uniform(-1, 1, (6, 2))
    assert np.asarray(back.predict(Z)).tobytes() == np.asarray(est.predict(Z)).tobytes()


def test_mp_value_made_in_the_global_context_keeps_its_digits():
    """Values computed under ``workdps`` in mpmath's global context pickle unrounded too."""
    import mpmath

    with mpmath.workdps(50):
        third = mpmath.mpf(1) / 3
    assert pickle.loads(pickle.dumps(third))._mpf_ == third._mpf_
