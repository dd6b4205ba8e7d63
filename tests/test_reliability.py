"""Reliability: exact pickling in every precision, and a fuzz over solver x precision.

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

import os
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import InsufficientMemoryError
from lssvm_analysis.arith.precision import precision_of

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


def test_import_leaves_the_global_mpf_pickling_alone():
    """Importing the package installs no ``copyreg`` hook (nor a ``__reduce__``) on mpmath's global
    mpf type: how the user's own mpf pickle is mpmath's business (issue 30)."""
    import copyreg

    import mpmath

    assert la.__name__ == "lssvm_analysis"  # imported at the top of this module
    assert mpmath.mp.mpf not in copyreg.dispatch_table
    assert "__reduce__" not in vars(mpmath.mp.mpf)


def test_import_loads_neither_matplotlib_nor_the_report():
    """``import lssvm_analysis`` imports no plotting library (which would pick a backend in the user's
    process) and no report code; ``la.compare`` / ``la.Comparison`` load them on first use."""
    code = ("import sys, lssvm_analysis as la\n"
            "before = sorted(m for m in sys.modules if m.split('.')[0] == 'matplotlib' or m.startswith('lssvm_analysis.report'))\n"
            "assert not before, before\n"
            "assert callable(la.compare) and la.Comparison.__name__ == 'Comparison' and 'compare' in dir(la)\n"
            "from lssvm_analysis import compare, Comparison\n"
            "assert compare is la.compare and 'lssvm_analysis.report.compare' in sys.modules\n"
            "try:\n    la.no_such_name\nexcept AttributeError as e:\n    assert 'no_such_name' in str(e)\n"
            "else:\n    raise SystemExit('no AttributeError')\n"
            "print('lazy')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0 and "lazy" in proc.stdout, proc.stderr


def test_package_extended_precision_values_pickle_unrounded():
    """The package's own mpf (an exact model's coefficients, a reference solution, the 200-bit
    Fisher targets of the exact formation) come back from pickle with every bit and in a context
    of the same precision: mpmath's own reduce would round them to 53 bits."""
    from lssvm_analysis.analysis.model_error import fit_exact_model
    from lssvm_analysis.exact.formation import fisher_targets_exact

    def same_bits(a):
        a = np.asarray(a, dtype=object)
        b = pickle.loads(pickle.dumps(a))
        return [v._mpf_ for v in a.flat] == [v._mpf_ for v in b.flat] and \
            [v.context.prec for v in a.flat] == [v.context.prec for v in b.flat]

    rhs, _ = fisher_targets_exact(np.array([1.0, 1.0, 1.0, -1.0, -1.0, -1.0, -1.0]))
    assert rhs[1]._mpf_[3] > 53  # 7/3 at 200 bits: more than a float64 holds
    assert same_bits(rhs)

    info = la.get_solver("lssvm-kkt")
    p = info.example_problem(rng=0, n=20)
    f = la.fit("lssvm-kkt", p.X, p.y, precision="float64", **p.params)
    ex, _ = fit_exact_model(info.exact_model(p.X, p.y, f), f, p.X[:3])
    assert max(v._mpf_[3] for v in ex.coef) > 53
    assert same_bits(ex.coef) and same_bits([ex.bias])

    A, b, _ = info.system(p.X, p.y, f)
    ref = la.reference_solve(A, b)
    assert max(v._mpf_[3] for v in np.ravel(ref.x)) > 53
    assert same_bits(ref.x)


# -- the fuzz gate -------------------------------------------------------------------------------
#: The error contract of ``la.fit``: bad input is a ValueError / TypeError (the package's named
#: errors derive from them), a problem too large for memory an InsufficientMemoryError.  Anything
#: else (OverflowError, ZeroDivisionError, IndexError, a LinAlgError, ...) escaping is a bug.
TYPED = (ValueError, TypeError, InsufficientMemoryError)


def _finite(a) -> bool:
    import mpmath

    a = np.asarray(a)
    if a.dtype == object:
        return all(bool(mpmath.isfinite(v)) for v in a.flat)
    return bool(np.isfinite(a).all())


def _pairs():
    for name in la.solvers():
        info = la.get_solver(name)
        for precision in la.precisions():
            if info.supports_precision(precision):
                yield pytest.param(name, precision, id=f"{name}-{precision}")


@st.composite
def _problems(draw, name):
    info = la.get_solver(name)
    task = draw(st.sampled_from(info.tasks))
    n = draw(st.integers(6, 12))
    pb = info.example_problem(task=task, n=n, rng=np.random.default_rng(draw(st.integers(0, 2 ** 16))))
    scale = 10.0 ** draw(st.integers(-300, 300))
    params = dict(pb.params)
    if info.accepts("C"):
        params["C"] = 10.0 ** draw(st.integers(-300, 300))
    if info.accepts("sigma2"):
        params["sigma2"] = 10.0 ** draw(st.integers(-8, 8))
    y = pb.y * (10.0 ** draw(st.integers(-100, 100)) if task == "regression" else 1.0)
    return pb.X * scale, y, params


@pytest.mark.parametrize("name, precision", list(_pairs()))
def test_fuzz_fit_raises_only_typed_errors_and_ok_means_finite(name, precision):
    """A bounded hypothesis run per solver x precision (8 examples each, ~20 s for the whole gate on
    one core; ``LSSVM_FUZZ_EXAMPLES`` raises it for a local hunt): extreme scalings of X, y, C
    and sigma2."""

    @settings(max_examples=int(os.environ.get("LSSVM_FUZZ_EXAMPLES", 8)), deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(_problems(name))
    def run(problem):
        X, y, params = problem
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            try:
                fit = la.fit(name, X, y, precision=precision, **params)
            except TYPED:
                return
        if fit.status == "ok":
            assert _finite(fit.coef_) and _finite([fit.bias_]), (name, precision, params)
        if fit.status == "breakdown":
            assert fit.breakdown is not None, (name, precision, params, fit.diagnostics)

    run()


# -- Ctrl-C --------------------------------------------------------------------------------------
def test_ctrl_c_is_one_line_and_exit_130(tmp_path):
    """SIGINT to a running ``report``: one line naming the records kept, exit status 130 (it was a
    37-line traceback and -2)."""
    import re
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    store, out = tmp_path / "s.sqlite", tmp_path / "out"
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "LSSVM_ANALYSIS_STORE": str(store)}
    # a shell's background job inherits SIGINT ignored (Python then installs no handler): restore it
    proc = subprocess.Popen([sys.executable, "-m", "lssvm_analysis.cli", "report", "--quick", "--no-progress",
                             "--jobs", "1", "--store", str(store), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))

    def rows():
        try:
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as con:
                return con.execute("SELECT COUNT(*) FROM records").fetchone()[0]
        except sqlite3.Error:
            return 0

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and rows() < 3 and proc.poll() is None:
        time.sleep(0.1)
    assert proc.poll() is None, "the report finished before it could be interrupted"
    seen = rows()
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    lines = err.decode().strip().splitlines()
    assert proc.returncode == 130, err.decode()[-2000:]
    assert len(lines) == 1, lines
    m = re.fullmatch(r"lssvm-analysis: interrupted; (\d+) records kept, rerun to resume", lines[0])
    assert m and int(m.group(1)) >= seen >= 3 and int(m.group(1)) == rows()
