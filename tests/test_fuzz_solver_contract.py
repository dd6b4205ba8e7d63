"""Every solver keeps its contract on fuzzed problems: hypothesis over every solver x precision.

For data, targets and hyper-parameters scaled over most of the floating range
(``_problems``), a fit

1. raises nothing but a typed error of the package's contract (``TYPED``: ValueError, TypeError,
   the named exceptions deriving from them, InsufficientMemoryError) -- never an IndexError,
   OverflowError, RuntimeError, LinAlgError, ...;
2. when 'ok', is a usable model: ``predict`` returns finite float64 values at the training
   points (an empty support predicts the bias);
3. when 'ok' and dense (the registry's ``system=`` builder, the fit's ``diagnostics["solution"]``),
   solves the system it formed -- its own kernel, in its own precision -- with a normwise
   backward error (Rigal-Gaches, inf-norms, residual evaluated exactly) of at most c n u, unless
   its diagnostics name why (``_excused``).

The constant c = 30 is LAPACK's test-ratio threshold (conftest.LAPACK_THRESHOLD): a backward
stable LU / Cholesky solve has eta <= p(n) u with p(n) a low-degree polynomial whose worst case is
never met in practice (Higham 2002, §9.4 and §10.1: the growth factor of Cholesky is 1; LAPACK's
drivers are tested against eta / (n u) < 30).  The named reasons a larger eta is allowed:

* a named warning of the fit (UnderflowWarning: y * 1e-42 in float32 is not the y given;
  KernelAccuracyWarning, IllConditionedWarning, FallbackWarning);
* ``kappa_estimate * u >= 1/2``: the matrix is singular to working precision (IllConditionedWarning,
  Gastinel-Kahan), so no method's residual is bounded by n u (it is for backward-stable solves:
  the block-elimination and normal-equation methods are not, eta ~ kappa u);
* ``kappa * n * u * c >= eta`` (kappa: the largest ``kappa*`` / ``cond*`` the diagnostics record): the fit's method is stable in the forward sense only (the
  Schur complement and the normal equations: eta <= c n u kappa, Higham §13.1);
* a least-squares solve (``"lstsq"`` among the params or diagnostics, e.g. op-lssvm): x solves
  min ||D x - t|| backward stably, but the system recorded is the normal equations, whose residual
  D^T (t - D x^) is ~ u ||D|| ||r|| with r the LS residual, so eta ~ c n u (1 + ||r|| / (||D|| ||x||))
  (Higham 2002, §20.4), unbounded by n u when the fit leaves a large residual (labels +-1, tiny x);
* an iterative method's own stop (``iterations`` with a stop rule in the diagnostics, e.g. CG's
  residual tolerance), a recorded jitter or fallback (``root_jitter``, ...), or ``kernel_meaningless``.

``make test`` runs ``LSSVM_AUDIT_EXAMPLES`` (default 100; a third for mpN) examples per solver x
precision, the same ones every run (derandomized), ~25 s on one core; the ``slow`` run (``LSSVM_AUDIT=1``) takes ``LSSVM_AUDIT_SLOW_EXAMPLES`` (default 20,000)
examples spread over the same pairs, new ones each run (6,000 took 92 s on two workers).
"""
from __future__ import annotations

import math
import os
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lssvm_analysis as la
from lssvm_analysis.core.exceptions import InsufficientMemoryError

#: The package's contract for bad input and for problems beyond memory (named exceptions derive from them).
TYPED = (ValueError, TypeError, InsufficientMemoryError)
#: LAPACK's test-ratio threshold (module docstring).
C_BACKWARD = 30.0

PAIRS = [(name, p) for name in la.solvers() for p in la.precisions()
         if la.get_solver(name).supports_precision(p)]
FAST_EXAMPLES = int(os.environ.get("LSSVM_AUDIT_EXAMPLES", 100))
SLOW_EXAMPLES = int(os.environ.get("LSSVM_AUDIT_SLOW_EXAMPLES", 20_000))


@st.composite
def _problems(draw, name):
    info = la.get_solver(name)
    task = draw(st.sampled_from(info.tasks))
    n = draw(st.integers(6, 12))
    pb = info.example_problem(task=task, n=n, rng=np.random.default_rng(draw(st.integers(0, 2 ** 16))))
    params = dict(pb.params)
    if info.accepts("C"):
        params["C"] = 10.0 ** draw(st.integers(-12, 40))
    if info.accepts("sigma2"):
        params["sigma2"] = 10.0 ** draw(st.integers(-6, 6))
    X = pb.X * 10.0 ** draw(st.integers(-60, 60)) + draw(st.sampled_from([0.0, 1e3, -1e9]))
    y = pb.y * (10.0 ** draw(st.integers(-60, 60)) if task == "regression" else 1.0)
    return X, y, params


#: Named warnings that say the fit's input or kernel is not the data as given (module docstring).
NAMED_WARNINGS = (la.UnderflowWarning, la.KernelAccuracyWarning, la.IllConditionedWarning, la.FallbackWarning)


def _kappa(d) -> float:
    """The largest finite condition estimate the diagnostics record (kappa_estimate, kappa_*, cond_*)."""
    vals = [v for k, v in d.items() if (k.startswith("kappa") or k.startswith("cond"))
            and isinstance(v, (int, float, np.floating)) and not isinstance(v, bool) and math.isfinite(v)]
    return max(vals, default=math.nan)


def _excused(fit, eta, n, u, warned=()) -> str:
    """The diagnostics' (or a named warning's) reason for a backward error above c n u, or ""."""
    d = fit.diagnostics
    kappa = _kappa(d)
    if math.isfinite(kappa) and kappa * u >= 0.5:
        return "singular to working precision"
    if math.isfinite(kappa) and eta <= C_BACKWARD * n * u * kappa:
        return "forward-stable method: eta <= c n u kappa"
    if d.get("kernel_meaningless") or any(("jitter" in k or "fallback" in k) and d[k] for k in d):
        return "kernel bound, jitter or fallback recorded"
    if "lstsq" in (*map(str, fit.params.values()), *(str(v) for v in d.values() if isinstance(v, str))):
        return "least-squares solve"
    if fit.iterations is not None and any(k in d for k in ("stop_reason", "cg_bound", "converged")):
        return "iterative method's own stop"
    named = [w for w in warned if issubclass(w, NAMED_WARNINGS)]
    if named:
        return f"named warning {named[0].__name__}"
    return ""


def _check(name, precision, X, y, params):
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore"):
        warnings.simplefilter("always")
        try:
            fit = la.fit(name, X, y, precision=precision, **params)
        except TYPED:
            return "refused"
        if fit.status != "ok":
            return fit.status
        f = fit.predict(X)                                       # 2. an 'ok' fit is a usable model
    warned = {w.category for w in caught}
    assert f.shape == (X.shape[0],) and f.dtype == np.float64, (name, precision, params)
    assert np.all(np.isfinite(f)), (name, precision, params, "non-finite prediction")
    info = la.get_solver(name)
    x = fit.diagnostics.get("solution")
    if info.system is None or x is None:
        return "ok"
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        A, rhs, _ = info.system(X, y, fit, **params)             # 3. the system it formed, its kernel
        if not (np.all(np.isfinite(np.asarray(A, dtype=np.float64)))
                and np.all(np.isfinite(np.asarray(rhs, dtype=np.float64)))):
            # the declared system holds inf in the working precision: an 'ok' fit may stand only if its
            # own solve never formed it (op-/ip-lssvm's lstsq works on D_k; the hook forms the normal
            # equations D_k^T D_k, whose exact solution is the same): then there is no formed system
            # to measure a backward error against
            assert fit.params.get("solve") == "lstsq", (name, precision, params, "ok fit, its system overflows")
            return "declared system overflows; the solve did not form it"
        eta = la.backward_error(A, x, rhs, precision=precision).value
    n = np.shape(A)[0]
    u = la.get_precision(precision).unit_roundoff
    if not eta <= C_BACKWARD * n * u:
        assert _excused(fit, eta, n, u, warned), (name, precision, params, f"eta={eta:.3g} > c n u="
                                          f"{C_BACKWARD * n * u:.3g}", dict(fit.diagnostics))
    return "ok, backward error checked"


def _run(name, precision, examples, derandomize=True) -> Counter:
    """Run the checks on ``examples`` problems; the outcome of each (refused, a status, ok) counted."""
    seen = Counter()

    @settings(max_examples=examples, deadline=None, database=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck))
    @given(_problems(name))
    def run(problem):
        seen[_check(name, precision, *problem)] += 1

    run()
    return seen


@pytest.mark.parametrize("name, precision", PAIRS, ids=[f"{n}-{p}" for n, p in PAIRS])
def test_audit_no_untyped_error_no_unusable_ok_no_silent_backward_error(name, precision):
    seen = _run(name, precision, FAST_EXAMPLES if not precision.startswith("mp") else max(2, FAST_EXAMPLES // 3))
    # every example reached an outcome the contract allows (the asserts inside _check), and some fit was
    # judged at all: a generator that only produced refused inputs would test nothing
    assert sum(seen.values()) >= 1 and set(seen) - {"refused"}, (name, precision, dict(seen))


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("LSSVM_AUDIT"), reason="the audit's 20,000 examples: set LSSVM_AUDIT=1")
@pytest.mark.parametrize("name, precision", PAIRS, ids=[f"{n}-{p}" for n, p in PAIRS])
def test_audit_slow(name, precision):
    seen = _run(name, precision, max(1, math.ceil(SLOW_EXAMPLES / len(PAIRS))), derandomize=False)
    assert sum(seen.values()) >= 1 and set(seen) - {"refused"}, (name, precision, dict(seen))
