"""Edge inputs: no 'ok' fit that cannot predict, no error bound that is not true, no input changed
or refused without its name, and a numerical failure on valid input is a recorded outcome.

An 'ok' fit with an empty support predicts its bias; an input that underflows in the precision is
named; the RBF kernel carries its error bound; ``pivoted_cholesky`` checks its own assumptions;
``tune`` refuses bad input before it searches; the store's refusals leave nothing behind; every
timing column is ``time_*``.  Data: ``X = linspace(-3, 3, 8)[:, None]``, ``y = sinc(X[:, 0])``.
"""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import InsufficientMemoryError

X8 = np.linspace(-3, 3, 8)[:, None]
Y8 = np.sinc(X8[:, 0])


# ---- an 'ok' fit with an empty support predicts its bias -------------------------------
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


# ---- an input that underflows in the precision is named, as overflow is -----------------
@pytest.mark.parametrize("name", ["y", "X"])
def test_float32_underflow_of_an_input_warns_with_its_name(name):
    X, y = (X8, Y8 * 1e-60) if name == "y" else (X8 * 1e-60, Y8)
    with pytest.warns(la.UnderflowWarning, match=rf"\b{name}\b") as rec:
        la.fit("lssvm-schur", X, y, precision="float32", kernel="linear" if name == "X" else "rbf")
    w = [r.message for r in rec if isinstance(r.message, la.UnderflowWarning)][0]
    assert w.name == name and w.count == np.count_nonzero(y if name == "y" else X) and w.precision == "float32"


def test_no_underflow_warning_for_normal_inputs_or_wide_formats():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        fits = [la.fit("lssvm-schur", X8, Y8, precision="float32"),
                la.fit("lssvm-schur", X8, Y8 * 1e-60, precision="float64")]   # normal in float64
    assert not [w for w in rec if issubclass(w.category, la.UnderflowWarning)]
    assert [f.status for f in fits] == ["ok", "ok"]


# ---- the RBF kernel carries its error bound; a common offset cannot cancel --------------
XFAR = np.array([[0.0, 1e9], [1.0, 1e9], [0.0, -1e9]])


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_rbf_kernel_of_a_spread_far_beyond_sigma2_is_right(precision):
    # ||x0 - x1||^2 = 1 exactly, in both formats (1e9 = 1953125 * 2^9 is a float32): K_01 = exp(-1).
    # The differences formula's relative error (d + 3) u q + 6 u (q = 1, d = 2) bounds the entry.
    u = la.get_precision(precision).unit_roundoff
    K = np.asarray(la.rbf_kernel(XFAR, precision=precision), dtype=np.float64)
    assert abs(K[0, 1] - np.exp(-1.0)) <= (5 * u + 6 * u) * np.exp(-1.0)
    assert K[0, 2] == 0.0 and K[0, 0] == 1.0


def test_fit_records_its_kernel_bound_and_warns_when_meaningless():
    y = np.array([1.0, 2.0, 3.0])
    fit = la.fit("lssvm-schur", XFAR, y)
    bound = fit.diagnostics["kernel_error_bound"]
    assert fit.status == "ok" and 0 < bound <= np.sqrt(2.0 ** -53) + 1e-15
    assert "kernel_meaningless" not in fit.diagnostics
    # float32 rounds 1e8 + x to a multiple of 8: the points' distances (< 7) are gone with it
    with pytest.warns(la.KernelAccuracyWarning, match="kernel_error_bound") as rec:
        fit = la.fit("lssvm-schur", X8 + 1e8, Y8, precision="float32")
    assert fit.diagnostics["kernel_meaningless"] is True
    assert fit.diagnostics["kernel_error_bound"] >= 0.5
    w = [r.message for r in rec if isinstance(r.message, la.KernelAccuracyWarning)][0]
    assert w.bound == fit.diagnostics["kernel_error_bound"] and w.precision == "float32"


# ---- pivoted_cholesky checks its own assumptions (PSD, symmetric kernel, flags) ---------
def _indefinite(A, B=None, precision="float64"):
    """1 - ||x - z||^2 / 4: symmetric, unit diagonal, indefinite on 8 points of [-3, 3]."""
    B = A if B is None else B
    D = ((np.asarray(A)[:, None, :] - np.asarray(B)[None, :, :]) ** 2).sum(-1)
    return 1 - D / 4


def _asymmetric(A, B=None, precision="float64"):
    B = A if B is None else B
    return np.asarray(A)[:, :1] @ (np.asarray(B)[:, :1].T + 1)


@pytest.mark.parametrize("clamp", [True, False])
@pytest.mark.parametrize("precision", ["float64", "float32", "mp30"])
def test_pivoted_cholesky_refuses_an_indefinite_kernel(clamp, precision):
    assert np.linalg.eigvalsh(_indefinite(X8)).min() < -1      # genuinely indefinite, far from rounding
    with pytest.raises(la.CholeskyBreakdownError) as exc:
        la.pivoted_cholesky(X8, _indefinite, trace_tol=1e-12, clamp=clamp, precision=precision)
    rec = exc.value.record
    assert rec.step >= 1 and rec.pivot < 0 and rec.n == 8 and rec.precision == precision


def test_pivoted_cholesky_refuses_an_asymmetric_kernel_and_bad_flags():
    with pytest.raises(ValueError, match=r"symmetric kernel, got kernel="):
        la.pivoted_cholesky(X8, _asymmetric)
    k = la.make_kernel("rbf")
    for flag in ("relative", "keep_columns", "clamp"):
        with pytest.raises(TypeError, match=rf"got {flag}='no'"):
            la.pivoted_cholesky(X8, k, **{flag: "no"})


def test_pivoted_cholesky_still_factors_psd_kernels_to_their_trace():
    # linear and polynomial kernels are PSD: rounding stays within negative_pivot_tolerance
    for kern in (la.make_kernel("linear"), la.make_kernel("poly", degree=3)):
        sel = la.pivoted_cholesky(np.c_[X8, X8 ** 2], kern, trace_tol=1e-10, relative=True)
        K = kern(np.c_[X8, X8 ** 2])
        # the residual R = K - G G^T is PSD: ||R||_2 <= tr(R) <= 1e-10 tr(K) <= 8e-10 ||K||_2, plus the
        # rounding of the m = 8 step recurrence, 4 m u ||K||_2 (negative_pivot_tolerance's constant)
        u = 2.0 ** -53
        assert np.linalg.norm(K - sel.G @ sel.G.T, 2) <= (8e-10 + 4 * 8 * u) * np.linalg.norm(K, 2)


# ---- tune refuses bad input before it searches ------------------------------------------
@pytest.mark.parametrize("change, etype, arg", [
    ({"X": np.where(np.arange(8)[:, None] == 2, np.nan, X8)}, ValueError, "X"),
    ({"y": Y8[:-1]}, ValueError, "y"),
    ({"precision": "zzz"}, ValueError, "precision"),
    ({"C": -1.0, "grid": {"sigma2": [0.5, 1.0]}}, ValueError, "C"),
    ({"seed": "abc"}, TypeError, "seed"),
    ({"greater_is_better": "x"}, TypeError, "greater_is_better"),
    ({"grid": {"C": "x"}}, TypeError, "grid"),
])
def test_tune_refuses_bad_input_before_searching(change, etype, arg):
    kw = {"X": X8, "y": Y8, "grid": {"C": [1.0, 10.0]}, "method": "loo", "refinements": 0, **change}
    X, y = kw.pop("X"), kw.pop("y")
    with pytest.raises(etype, match=rf"\b{arg}\b"):
        la.tune("lssvm-schur", X, y, **kw)


# ---- the store: a missing directory is created (stated in --help); a refused WAL store is left as found
def test_report_help_says_missing_store_directories_are_created(capsys):
    from lssvm_analysis import cli
    with pytest.raises(SystemExit):
        cli.main(["report", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "missing directories of its path are created" in text


def test_store_in_a_missing_directory_is_created(tmp_path):
    from lssvm_analysis.experiments.store import Store
    path = tmp_path / "not" / "yet" / "s.sqlite"
    with Store(path) as store:
        assert len(store) == 0
    assert path.is_file()


def test_truncated_wal_store_refusal_leaves_no_side_files(tmp_path):
    from lssvm_analysis.core.exceptions import StoreError
    from lssvm_analysis.experiments.store import Store
    path = tmp_path / "s.sqlite"
    with Store(path):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"]
    size = path.stat().st_size
    with open(path, "r+b") as fh:          # whole pages, so that SQLite itself must read it to refuse it
        fh.truncate(size // 2 - (size // 2) % 512)
    data = path.read_bytes()
    with pytest.raises(StoreError, match="Nothing was changed"):
        Store(path).connection()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite"]
    assert path.read_bytes() == data


# ---- every timing column is time_*: tools that drop time_* to compare runs must see them all --------
def test_vieira_scaling_rows_name_their_timings_time_underscore():
    from lssvm_analysis.papers.vieira.kinds import scaling_row
    from lssvm_analysis.experiments.spec import Task
    task = Task(kind="vieira-scaling", solver=None, precision=None, dataset="ripley-synth",
                dataset_kw={"test_fraction": 0.04}, params={"L": 20, "C": 1.0, "sigma2": 1.0}, seed=0,
                options={"repeats": 1})
    row = scaling_row(task)
    timing = [k for k in row if "time" in k]
    assert timing == ["time_op-lssvm", "time_lssvm-kkt"] and all(row[k] > 0 for k in timing)


# ---- "Untyped exceptions", "Silently accepted", "Errors that name the wrong argument" ---------------
LAB8 = np.sign(Y8 - 0.1)
ZERO_STRIDE = np.broadcast_to(np.ones(1), (200_000, 200_000))   # 320 GB if anything copies it


def _cg_wrong_shape():
    from lssvm_analysis.linalg.cg import simultaneous_cg
    return simultaneous_cg(lambda V: np.ones(3), np.ones((4, 2)))


# (id, call, expected error type, the argument its message must name)
NAMED_CASES = [
    ("libsvm-degree-huge", lambda: la.fit("svm-c", X8, LAB8, kernel="poly", degree=10 ** 30), ValueError, "degree"),
    ("poly-degree-overflow-names-degree",
     lambda: la.fit("lssvm-schur", X8, Y8, kernel="poly", degree=10 ** 30), ValueError, "degree"),
    ("fs-lssvm-eig_floor-text", lambda: la.fit("fs-lssvm", X8, Y8, eig_floor="zzz"), TypeError, "eig_floor"),
    ("tune-grid-text", lambda: la.tune("lssvm-schur", X8, Y8, grid={"C": "x"}, method="loo", refinements=0),
     TypeError, "grid"),
    ("cg-operator-wrong-shape", lambda: la.hestenes_stiefel_cg(lambda v: np.ones(3), np.ones(4)), ValueError, "A"),
    ("cg-block-operator-wrong-shape", _cg_wrong_shape, ValueError, "A"),
    ("reference_solve-zero-stride", lambda: la.reference_solve(ZERO_STRIDE, ZERO_STRIDE[0]),
     InsufficientMemoryError, "n"),
    ("mrsr-zero-stride", lambda: la.mrsr(ZERO_STRIDE, ZERO_STRIDE[0], k_max=2), InsufficientMemoryError, "n"),
    ("pivoted_cholesky-relative-text", lambda: la.pivoted_cholesky(X8, la.make_kernel("rbf"), relative="no"),
     TypeError, "relative"),
    ("mrsr-T-numeric-strings", lambda: la.mrsr(X8, Y8.astype(str), k_max=2), TypeError, "T"),
    ("estimator-predict-text-X", lambda: la.LSSVMRegressor().fit(X8, Y8).predict(X8.astype(str)), TypeError, "X"),
    ("classifier-code-unknown", lambda: la.LSSVMClassifier(code="zzz").fit(X8, LAB8), ValueError, "code"),
    ("loo_residuals-native-text", lambda: la.loo_residuals(la.fit("lssvm-schur", X8, Y8), native="x"),
     TypeError, "native"),
    ("lssvm-pruned-base-unknown", lambda: la.fit("lssvm-pruned", X8, Y8, base="zzz"), ValueError, "base"),
    ("reference_solve-digits-huge", lambda: la.reference_solve(np.eye(3), np.ones(3), digits=10 ** 6),
     ValueError, "digits"),
    ("float32-C-overflows-printed-A", lambda: la.fit("r-lssvm-w", X8, Y8, precision="float32", C=1e308),
     ValueError, "C"),
    ("estimator-nan-in-our-words", lambda: la.LSSVMRegressor().fit(np.where(X8 > 2, np.nan, X8), Y8),
     ValueError, "X"),
]


@pytest.mark.parametrize("cid, call, etype, arg", NAMED_CASES, ids=[c[0] for c in NAMED_CASES])
def test_bad_input_is_a_typed_error_naming_its_argument(cid, call, etype, arg):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(etype) as exc:
            call()
    msg = str(exc.value)
    assert re.search(rf"\b{re.escape(arg)}\b=|\b{re.escape(arg)}\b", msg), msg
    assert msg.startswith("expected") or isinstance(exc.value, MemoryError), msg
    if cid == "lssvm-pruned-base-unknown":
        assert "base='zzz'" in msg and "solver=" not in msg
    if cid == "reference_solve-digits-huge":
        assert "digits=1000000" in msg and "mp1000010" not in msg
    if cid == "float32-C-overflows-printed-A":
        assert "C=1e+308" in msg
    if cid == "poly-degree-overflow-names-degree":
        assert "degree=" in msg


# (id, call, the outcome: a Fit whose status is recorded, never an exception)
OUTCOME_CASES = [
    ("libsvm-nonfinite-dual", lambda: la.fit("svm-c", X8 * 1e200, LAB8), "overflow"),
    ("fs-lssvm-no-feature-above-floor",
     lambda: la.fit("fs-lssvm", np.zeros((4, 2)), np.arange(4.0), kernel="linear"), "ok"),
    ("r-lssvm-w-eigensolver-no-convergence",
     lambda: la.fit("r-lssvm-w", X8 * 1e114, Y8, kernel="poly", precision="longdouble", solve="eigen"),
     "not-converged"),
]


@pytest.mark.parametrize("cid, call, status", OUTCOME_CASES, ids=[c[0] for c in OUTCOME_CASES])
def test_numerical_failure_on_valid_input_is_a_recorded_outcome(cid, call, status):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit = call()
    assert fit.status == status
    if fit.ok:
        assert np.all(np.isfinite(fit.predict(np.ones((2, fit.X_support_.shape[1])))))
    else:
        assert fit.diagnostics   # says what failed (libsvm_error / eigh_error / nonfinite)
