"""Robust fits: non-finite models are an outcome, conditioning is measured, memory is checked first.

Thresholds
----------
* IllConditionedWarning fires when kappa u >= 1/2 (derivation in the class's
  docstring: by Gastinel-Kahan the matrix is then within the rounding of its
  own entries of a singular one).  The cases below sit far on either side:
  the example problems have kappa_1 <= 1e3 (kappa u32 <= 1e-4), the float32
  KKT system at C = 1e30 on 200 points has kappa ~ 1e11 (kappa u32 ~ 6e3).
* The condition estimates are LAPACK's (float32/64) and Higham's estimator in
  longdouble / mp: both are lower bounds within a factor 3 of kappa_1 in
  practice (Higham 2002, §15.3); we check them against numpy's exact kappa_1
  of the float64 matrix with that factor, since all four precisions factor
  the same matrix to within its conditioning.
"""
from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import psutil
import pytest

from conftest import HARDWARE

import lssvm_analysis as la
from lssvm_analysis.linalg import memory
from lssvm_analysis.core.exceptions import (FallbackWarning, IllConditionedWarning,
                                            InsufficientMemoryError, NonFiniteModelError)
import lssvm_analysis.papers.abe.kinds  # noqa: F401  (registers crossover-timing)
from lssvm_analysis.experiments import SweepSpec, run_sweep
from lssvm_analysis.experiments.runner import TIMING_PREFIX
from lssvm_analysis.solvers.result import STATUSES

FACTORING = [n for n in la.solvers() if la.get_solver(n).condition_estimate]   # declared at registration


# --------------------------------------------------------------------------- non-finite model
@pytest.mark.parametrize("solver", ["lssvm-kkt", "lssvm-schur", "krr", "lssvm-cg"])
def test_overflowing_model_is_status_overflow_never_ok(solver):
    """The audit's case: two equal inputs, y = (0, 1e300), C = 1e9 -> alpha ~ C y overflows."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        f = la.fit(solver, [[0.0], [0.0]], [0.0, 1e300], C=1e9)
    assert "overflow" in STATUSES
    assert f.status in ("overflow", "breakdown", "not-converged") and not f.ok
    if f.status == "overflow":
        bad = f.diagnostics["nonfinite"]
        assert bad["phase"] in f.timings and bad["coef_nan"] + bad["coef_inf"] + (
            not np.isfinite(bad["bias"])) > 0
        assert f.coef_ is None and f.bias_ is None
        with pytest.raises(RuntimeError, match="status='overflow'"):
            f.predict([[0.0]])


def test_every_registered_solver_never_returns_ok_with_a_non_finite_model():
    """Every solver (including those registered later) on a huge-target problem: ok => finite."""
    rng = np.random.default_rng(0)
    for name in la.solvers():
        info = la.get_solver(name)
        if not info.supports_precision("float64"):
            continue
        pb = info.example_problem(n=16, rng=rng)
        y = pb.y * 1e307 if pb.task == "regression" else pb.y
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            f = la.fit(name, pb.X, y, precision="float64",
                       **{**pb.params, "C": 1e300} if info.accepts("C") else pb.params)
        if f.ok:
            assert np.isfinite(np.asarray(f.coef_, dtype=float)).all() and np.isfinite(float(f.bias_))


def test_estimator_raises_typed_error_for_overflow():
    est = la.LSSVMRegressor(solver="lssvm-kkt", C=1e9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(NonFiniteModelError, match="overflow") as info:
            est.fit([[0.0], [0.0]], [0.0, 1e300])
    assert info.value.fit.status == "overflow"
    assert isinstance(info.value, FloatingPointError)


# --------------------------------------------------------------------------- conditioning
@pytest.mark.parametrize("name", FACTORING)
def test_every_factoring_solver_records_a_condition_estimate(name, precision):
    info = la.get_solver(name)
    if not info.supports_precision(precision):
        pytest.skip(f"{name} does not run in {precision}")
    pb = info.example_problem(n=16, rng=np.random.default_rng(1))
    with warnings.catch_warnings():
        warnings.simplefilter("error", IllConditionedWarning)  # well-conditioned: no warning
        f = la.fit(name, pb.X, pb.y, precision=precision, **pb.params)
    assert f.ok
    kappa = f.diagnostics["kappa_estimate"]
    assert f.diagnostics["kappa_method"] != "not estimated"
    assert 1 <= kappa < 1e6, kappa


def test_condition_estimates_agree_across_precisions_and_with_exact_kappa():
    pb = la.get_solver("lssvm-kkt").example_problem(n=20, rng=np.random.default_rng(2))
    fits = {p: la.fit("lssvm-kkt", pb.X, pb.y, precision=p, **pb.params) for p in la.precisions()}
    A, _, _ = la.get_solver("lssvm-kkt").system(pb.X, pb.y, fits["float64"])
    exact = np.linalg.cond(np.asarray(A, dtype=float), 1)
    for p, f in fits.items():
        est = f.diagnostics["kappa_estimate"]
        assert exact / 3 <= est <= exact * (1 + 1e-6), (p, est, exact)  # a lower bound, factor 3


def test_ill_conditioned_float32_kkt_warns_with_the_estimate():
    """The audit's case: float32 lssvm-kkt at C = 1e30 returned 'ok' with forward error > 1 silently."""
    rng = np.random.default_rng(0)
    X = rng.uniform(-3, 3, (200, 2))
    y = np.sinc(X[:, 0])
    with pytest.warns(IllConditionedWarning) as rec:
        f = la.fit("lssvm-kkt", X, y, precision="float32", C=1e30)
    w = rec[0].message
    u32 = la.get_precision("float32").unit_roundoff
    assert w.kappa * u32 >= 0.5 and w.kappa == f.diagnostics["kappa_estimate"]
    assert w.precision == "float32" and "KKT" in w.matrix and w.method == "LAPACK sgecon"
    assert "kappa_1 ~" in str(w)  # xGECON estimates the 1-norm condition
    with warnings.catch_warnings():  # the same system in float64: kappa u64 << 1/2, silent
        warnings.simplefilter("error", IllConditionedWarning)
        la.fit("lssvm-kkt", X[:40], y[:40], precision="float64", C=10.0)


def test_ill_conditioned_warning_names_the_norm_of_its_kappa():
    """A kappa from a spectrum (fs-lssvm's eigenvalues of A, lssvm-cg's kappa_2(H)) is kappa_2,
    and the warning says so; the estimators' is kappa_1."""
    from lssvm_analysis.linalg.condest import Conditioning, check_conditioning
    for norm in (1, 2):
        with pytest.warns(IllConditionedWarning, match=f"kappa_{norm} ~ 1e\\+20") as rec:
            assert check_conditioning(Conditioning(1e20, "test", "A", norm=norm), "float64", solver="s")
        assert rec[0].message.kappa == 1e20


def test_fallback_warning_when_float64_cannot_resolve_kappa():
    rng = np.random.default_rng(0)
    X = rng.uniform(-1, 1, (20, 1))
    with pytest.warns(FallbackWarning, match="fell back"):
        f = la.fit("lssvm-cg", X, np.sinc(X[:, 0]), precision="longdouble", C=1e16, sigma2=10.0,
                   maxiter=2000)
    assert f.diagnostics["kappa_method"].startswith("mp")  # linalg.condition.kappa2's escalation


# --------------------------------------------------------------------------- memory
def test_memory_estimate_refuses_before_allocating(monkeypatch):
    class VM:
        available = 10 * 2**20  # 10 MiB

    monkeypatch.setattr(psutil, "virtual_memory", lambda: VM())
    n = 2000  # 3 n^2 float64 words = 96 MB > 10 MiB
    X = np.zeros((n, 1))
    X[:, 0] = np.arange(n)
    for name in ("lssvm-schur", "lssvm-kkt", "krr"):
        with pytest.raises(InsufficientMemoryError) as info:
            la.fit(name, X, np.ones(n), precision="float64")
        e = info.value
        assert isinstance(e, MemoryError)
        assert e.n == n and e.precision == "float64" and e.bytes_needed > VM.available
        assert f"n={n}" in str(e) and "float64" in str(e) and str(e.bytes_needed) in str(e)
    with pytest.raises(InsufficientMemoryError, match="kernel matrix"):
        la.rbf_kernel(X, precision="float32")


def test_memory_bytes_per_word():
    assert memory.bytes_per_word("float32") == 4 and memory.bytes_per_word("float64") == 8
    assert memory.bytes_per_word("longdouble") == np.dtype(np.longdouble).itemsize
    assert memory.bytes_per_word("mp50") > memory.bytes_per_word("mp20") > 8


# --------------------------------------------------------------------------- float32 range
def test_rbf_kernel_float32_huge_inputs_named_and_representable_ones_exact():
    X = np.random.default_rng(0).normal(size=(5, 2))
    with pytest.raises(ValueError, match=r"expected X representable in float32"):
        la.rbf_kernel(X * 1e200, precision="float32")
    K = la.rbf_kernel(X * 1e30, precision="float32")  # distances overflow to inf: exp(-inf) = 0
    np.testing.assert_array_equal(K, np.eye(5, dtype=np.float32))


# --------------------------------------------------------------------------- determinism
def test_sweep_twice_gives_identical_records_but_time_columns(tmp_path):
    spec = SweepSpec("det", kind="fit", solvers=["lssvm-schur", "lssvm-cg", "els-dual"],
                     precisions=HARDWARE, datasets=[("sinc", {"n_train": 20, "n_test": 10})],
                     grid={"C": [1.0, 1e4], "sigma2": [1.0], "eta": [0.05]}, seeds=[0])
    cross = SweepSpec("det-x", kind="crossover-timing", precisions=["float64"],
                      grid={"M": [60], "ratio": [0.3], "formation": ["blas3"]}, options={"repeats": 1})
    for s in (spec, cross):
        a = run_sweep(s, tmp_path / "a.sqlite", n_jobs=1, progress=False)
        b = run_sweep(s, tmp_path / "b.sqlite", n_jobs=1, progress=False)
        cols = [c for c in a.columns if not c.startswith(TIMING_PREFIX)]
        assert set(a.columns) == set(b.columns) and len(a) and (a["status"] != "error").all()
        pd.testing.assert_frame_equal(a[cols], b[cols])
    timing = [c for c in a.columns if "second" in c or "over_primal" in c and "model" not in c]
    assert all(c.startswith(TIMING_PREFIX) for c in timing), timing
