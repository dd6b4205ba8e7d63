"""Suykens ch. 3: the dense LS-SVM solvers (KKT, Schur two-solve, CG, zero bias, Fisher targets).

One LS-SVM, several ways of solving it.  With ``H = Omega + I/C`` (Suykens'
``Omega + I/gamma``; our ``C`` is Suykens' gamma) every model here solves

    [ 0   a^T ] [ b     ]   [ 0 ]
    [ a   H   ] [ alpha ] = [ d ]                       (Suykens 3.24)

* regression (3.32): ``Omega_kl = K(x_k, x_l)`` (3.33), ``a = 1_v``, ``d = y``,
  model ``f(x) = sum_k alpha_k K(x, x_k) + b`` (3.34), so ``coef_ = alpha``;
* classification (3.5): ``Omega_kl = y_k y_l K(x_k, x_l)`` (3.6), ``a = y``,
  ``d = 1_v``, classifier ``sign(sum_k alpha_k y_k K(x, x_k) + b)`` (3.7), so
  ``coef_ = alpha * y``;
* LS-SVM_F (§3.3, §3.4.2): the regression system (3.32) with the Fisher
  targets ``+N/N_1`` (class +1, N_1 points) and ``-N/N_2`` (class -1);
* zero bias (3.50 / 3.62): ``[Omega + I/C] alpha = y``, ``b = 0``.

Registered solvers
------------------
``lssvm-kkt``    the (N+1) indefinite KKT system by LU with partial pivoting.
``lssvm-schur``  (3.25): Cholesky of H, the two solves, then s, b, alpha.
``lssvm-cg``     the "LS-SVM CG large scale algorithm" (§3.4.1): the same two
                 SPD solves by Hestenes-Stiefel CG.
``krr``          zero-bias LS-SVM = kernel ridge regression / GP mean (3.50).
``lssvm-fisher`` LS-SVM_F, solved by the Schur route.

Schur / CG elimination (derivation, any ``a``, ``d``)
-----------------------------------------------------
The second block row gives ``alpha = H^{-1} d - H^{-1} a b``.  Write
``eta = H^{-1} a`` and ``nu = H^{-1} d``; the first row ``a^T alpha = 0`` gives
``a^T nu - (a^T eta) b = 0``, hence

    s = a^T eta > 0,   b = a^T nu / s,   alpha = nu - eta b.

For classification (``a = y``, ``d = 1_v``) this is Suykens' algorithm
verbatim: ``H eta = y``, ``H nu = 1_v``, ``s = y^T eta``, ``alpha = nu - eta b``,
and ``b = a^T nu / s = y^T H^{-1} 1_v / s = eta^T 1_v / s`` (H symmetric), his
step (3).  For regression (3.32) the constraint row holds ``1_v`` and the
right-hand side is ``y``, so the roles swap: ``H eta = 1_v``, ``H nu = y``,
``s = 1_v^T eta``, ``b = 1_v^T nu / s``, ``alpha = nu - eta b``.  We evaluate
``b`` as ``a^T nu / s`` (equal to ``eta^T d / s`` in exact arithmetic) because
then ``a^T alpha = a^T nu - s b`` vanishes up to rounding: the constraint row
of the KKT system holds to working accuracy, and the KKT residual is
``r_nu - b r_eta`` with ``r_eta``, ``r_nu`` the residuals of the two SPD
solves.  Hence, if each solve has ``||r|| <= tau ||rhs||``, the KKT residual
is at most ``2 tau ||KKT|| ||[b; alpha]||`` (use ``||d|| <= ||KKT|| ||z||`` and
``|b| ||a|| <= ||KKT|| ||z||``) and the forward error of ``[b; alpha]`` is at
most ``2 tau kappa(KKT)`` to first order.

Every solver computes everything (kernel, matrices, factorizations, solves)
in ``precision``; a Cholesky breakdown is returned as ``status="breakdown"``
with its record, never raised.

References
----------
J.A.K. Suykens, T. Van Gestel, J. De Brabanter, B. De Moor, J. Vandewalle,
*Least Squares Support Vector Machines*, World Scientific 2002, ch. 3.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..linalg.condest import (NOT_ESTIMATED, Conditioning, cholesky_conditioning, conditioning_wanted,
                              lu_factor, norm1)
from ..core.exceptions import CholeskyBreakdownError, ConvergenceWarning, FallbackWarning, LUBreakdownError
from ..linalg.cg import cg_iteration_bound, simultaneous_cg
from ..linalg.condition import kappa2
from ..arith.precision import get_precision
from .result import PhaseTimer
from ..core.validation import check_int, check_positive
from ._common import breakdown_fit, make_fit, validate_xy
from .peaks import CG_PEAK, DENSE_PEAK, KKT_PEAK
from .times import CG_TIME, FISHER_TIME, KKT_TIME, KRR_TIME, SCHUR_TIME
from ._registry import LAPACK_THRESHOLD, fit_params, register
from ..exact.formation import ExactProblem, dense_wider, fisher_targets_exact, lssvm_system_dd
from .kkt import bordered_rhs, eliminate, fisher_targets, lssvm_matrix, model_coef, two_solve, two_solve_bound

__all__ = ["fit_kkt", "fit_schur", "fit_cg", "fit_krr", "fit_fisher",
           "kkt_system", "fisher_system", "krr_system", "fisher_targets", "DENSE_PEAK", "KKT_PEAK"]

_BOTH = ("regression", "classification")
_H = "H = Omega + I/C"


# ---------------------------------------------------------------------------
# Formation, shared by the solvers and by their system builders.
# ---------------------------------------------------------------------------
def _form(X, y, kernel, p, C, form, timer, *, bordered=False, peak=DENSE_PEAK):
    """:func:`kkt.lssvm_matrix` with this family's peak (DENSE_PEAK unless given)."""
    return lssvm_matrix(X, y, kernel, p, C, form, timer, peak=peak, bordered=bordered)


def _kkt_matrix(X, y, kernel, p, C, form, timer):
    """[[0, a^T], [a, H]] and [0; d] (3.24) in the precision, the kernel formed in place."""
    A, a, d = _form(X, y, kernel, p, C, form, timer, bordered=True, peak=KKT_PEAK)
    return A, bordered_rhs(d, p)


def _solution(coef, b, y, form):
    """The KKT unknowns [b; alpha] from the model (y_k^2 = 1 undoes alpha * y exactly).

    Kept in ``diagnostics["solution"]`` so that backward errors can be
    measured on the system the solver solved.
    """
    alpha = model_coef(coef, y, form)
    return np.concatenate([np.array([b], dtype=alpha.dtype), alpha])


def _setup(X, y, *, task, C, kernel, sigma2, degree, t, precision, allowed=_BOTH):
    if task not in allowed:
        raise ValueError(f"expected task in {allowed}, got task={task!r}")
    X, y, k, p = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                             t=t, precision=precision)
    params = {"C": C, "task": task, "kernel": k.name, **k.params}
    return X, y, k, p, params


# ---------------------------------------------------------------------------
# System builders (registry ``system=``): the exact system a fit solved.
# ---------------------------------------------------------------------------
def _builder_inputs(X, y, fit, params, form):
    merged = fit_params(fit, params)
    task = merged.get("task", "regression")
    X, y, _, _ = validate_xy(X, y, task=task, C=merged["C"], precision=fit.precision)
    p = get_precision(fit.precision)
    return X, y, p, merged["C"], form or task


def _kkt_system(X, y, fit, form, params):
    X, y, p, C, form = _builder_inputs(X, y, fit, params, form)
    A, rhs = _kkt_matrix(X, y, fit.kernel, p, C, form, PhaseTimer())

    def unpack(z):
        z = np.asarray(z)
        return {"coef": model_coef(z[1:], y, form), "bias": z[0]}

    return A, rhs, unpack


def kkt_system(X, y, fit, **params):
    """The KKT system (3.5) / (3.32) a fit of lssvm-kkt, -schur or -cg solved.

    Parameters
    ----------
    X : (N, n) array, y : (N,) array
        The training set the fit was computed on.
    fit : Fit
        Gives the precision, the kernel and the hyper-parameters
        (``params`` override ``fit.params``).

    Returns
    -------
    A : (N+1, N+1) array, rhs : (N+1,) array
        In ``fit.precision``, formed exactly as the solver formed them.
    unpack : callable
        ``unpack(z) -> {"coef": ..., "bias": ...}`` for a solution ``z = [b; alpha]``.
    """
    return _kkt_system(X, y, fit, None, params)


def fisher_system(X, y, fit, **params):
    """The KKT system (3.32) with the Fisher targets that an lssvm-fisher fit solved.

    As :func:`kkt_system`; ``unpack(z)["coef"] = z[1:]`` (regression form).
    """
    return _kkt_system(X, y, fit, "fisher", params)


def krr_system(X, y, fit, **params):
    """The system ``[Omega + I/C] alpha = y`` (3.50) a krr fit solved; bias is 0."""
    X, y, p, C, form = _builder_inputs(X, y, fit, params, "zero-bias")
    H, _, d = _form(X, y, fit.kernel, p, C, form, PhaseTimer())

    def unpack(x):
        x = np.asarray(x)
        return {"coef": x, "bias": 0 * x[0]}

    return H, d, unpack


def exact_kkt_model(X, y, fit, **params):
    """Exact model of an lssvm-kkt / -schur / -cg fit (registry ``exact_model=``).

    (3.5) / (3.32) with the kernel, the label signs and 1/C formed in
    double-double from X and y as given (:func:`formation.lssvm_system_dd`);
    no discrete choice.  Problem condition: kappa_inf of the KKT matrix
    [[0, a^T], [a, Omega + I/C]] (3.24), the problem the full solve, the
    Schur two-solve and CG all solve (``condition_power`` 1).
    """
    X, y, _, C, form = _builder_inputs(X, y, fit, params, None)
    A, rhs = lssvm_system_dd(X, y, fit.kernel, C, form)

    def unpack(z):
        z = np.asarray(z)
        return {"coef": model_coef(z[1:], y, form), "bias": z[0]}

    return ExactProblem(A, rhs, unpack, A_bound=float(np.max(np.sum(A.bound, axis=1))),
                        method="KKT (3.24) in double-double", rows=A.shape[0],
                        wider=dense_wider(X, y, fit.kernel, C, form, rhs, unpack, "KKT (3.24)"))


def exact_fisher_model(X, y, fit, **params):
    """Exact model of an lssvm-fisher fit: (3.32) with the Fisher targets, kernel in DD.

    The targets N/N_1 and -N/N_2 enter rounded to 200 bits
    (:func:`formation.fisher_targets_exact`), the rounding counted in the
    formation bound.  Problem condition: kappa_inf of the KKT matrix (3.24),
    as for :func:`exact_kkt_model`.
    """
    X, y, _, C, _ = _builder_inputs(X, y, fit, params, "fisher")
    A, _ = lssvm_system_dd(X, y, fit.kernel, C, "regression")
    rhs, t_bound = fisher_targets_exact(y)

    def unpack(z):
        z = np.asarray(z)
        return {"coef": z[1:], "bias": z[0]}

    return ExactProblem(A, rhs, unpack, A_bound=float(np.max(np.sum(A.bound, axis=1))),
                        rhs_bound=t_bound, method="KKT (3.32) with Fisher targets in double-double",
                        rows=A.shape[0], wider=dense_wider(X, y, fit.kernel, C, "regression", rhs, unpack,
                                                           "KKT (3.32) with Fisher targets", rhs_bound=t_bound))


def exact_krr_model(X, y, fit, **params):
    """Exact model of a krr fit: (Omega + I/C) alpha = y (3.50) in double-double.

    Problem condition: kappa_inf(Omega + I/C) (``condition_power`` 1).
    """
    X, y, _, C, _ = _builder_inputs(X, y, fit, params, "zero-bias")
    # the zero-bias form (3.50) regresses y (labels too): Omega = K, d = y, as _form does
    A, rhs = lssvm_system_dd(X, y, fit.kernel, C, "regression", bias=False)

    def unpack(x):
        x = np.asarray(x)
        return {"coef": x, "bias": 0 * x[0]}

    return ExactProblem(A, rhs, unpack, A_bound=float(np.max(np.sum(A.bound, axis=1))),
                        method="Omega + I/C (3.50) in double-double", rows=A.shape[0],
                        wider=dense_wider(X, y, fit.kernel, C, "regression", rhs, unpack, "Omega + I/C (3.50)",
                                          bias=False))


# ---------------------------------------------------------------------------
# A-priori backward-error bounds of the solution of the system each solver forms
# ---------------------------------------------------------------------------
def _cg_bound(fit, n):
    """CG: each run stops at ||r|| <= rtol ||rhs||, plus the rounding of the final
    elimination (c n u), twice over for the two runs (module docstring)."""
    return 2 * (fit.params["rtol"] + LAPACK_THRESHOLD * n * get_precision(fit.precision).unit_roundoff)


# ---------------------------------------------------------------------------
# Solvers
# ---------------------------------------------------------------------------
@register("lssvm-kkt", tasks=_BOTH, paper="suykens", equations="(3.5), (3.32)",
          system=kkt_system, exact_model=exact_kkt_model,
          peak=KKT_PEAK, time=KKT_TIME, direct=("lu", 1))
def fit_kkt(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
            task="regression"):
    """LS-SVM by the full (N+1) indefinite KKT system, LU with partial pivoting.

    Parameters
    ----------
    X : (N, n) array_like
    y : (N,) array_like
        Targets (regression) or labels in {-1, +1} (classification).
    precision : str or Precision
        Every step runs in it (kernel, matrix, LU).
    C : float > 0
        Regularization weight, Suykens' gamma.
    kernel : {"rbf", "linear", "poly"} or Kernel
    sigma2, degree, t : kernel parameters (RBF sigma^2; polynomial degree and t).
    task : {"regression", "classification"}
        (3.32) or (3.5).

    Returns
    -------
    Fit
        ``coef_`` (N,) = alpha (regression) or alpha * y (classification),
        ``bias_`` = b, ``support_`` = all N points.  A zero (or non-finite)
        LU pivot gives ``status="breakdown"`` with the :class:`LUBreakdown`
        record (step, pivot, N+1, precision).

    Raises
    ------
    ValueError, TypeError
        Bad input (shapes, NaN, labels, C <= 0, sigma2 <= 0, unknown task/kernel).

    Notes
    -----
    Cost (N+1)^3 / 3 multiply-adds for the LU, N^2 n for the kernel.  The
    kernel is written straight into the (N+1) x (N+1) matrix and the LU
    overwrites it: one (N+1)^2 array is the whole working memory.  LU with
    partial pivoting on the symmetric indefinite KKT matrix ignores the
    symmetry; its backward error is O(N u) times the growth factor, small in
    practice.  The "factorization" phase times the LU and both triangular
    solves (one call).  Suykens (3.5)-(3.7), (3.32)-(3.34).
    """
    X, y, k, p, params = _setup(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                                t=t, precision=precision)
    timer = PhaseTimer()
    A, rhs = _kkt_matrix(X, y, k, p, C, task, timer)
    try:
        with timer("factorization"):  # LU in place of A (no (N+1)^2 copy), then xGECON as xGESVX
            lu = lu_factor(A, p, overwrite=True)
            z = lu.solve(rhs)
            cond = lu.conditioning(matrix="KKT matrix (3.24)")
    except LUBreakdownError as err:
        return breakdown_fit("lssvm-kkt", p, err, X=X, kernel=k, timer=timer,
                             support=np.arange(len(y)), params=params)
    return make_fit("lssvm-kkt", p, coef=model_coef(z[1:], y, task), bias=z[0],
                    support=np.arange(len(y)), X=X, kernel=k, timer=timer,
                    diagnostics={"solution": z}, params=params, conditioning=cond)


def _eliminate(eta, nu, a, y, form):
    """:func:`kkt.eliminate` (module docstring); returns coef, b, s."""
    alpha, b, s = eliminate(eta, nu, a)
    return model_coef(alpha, y, form), b, s


def _schur(X, y, k, p, C, form, timer):
    """Cholesky of H and the two solves; returns (coef, b, s, conditioning of H).

    Raises CholeskyBreakdownError.
    """
    H, a, d = _form(X, y, k, p, C, form, timer)
    with timer("factorization"):
        anorm = norm1(H, p) if conditioning_wanted() else None  # taken before the factor overwrites H
        L = p.cholesky(H, check=False, overwrite=True)  # in place of H: no N^2 copy
        cond = cholesky_conditioning(None, L, p, matrix=_H, anorm=anorm)  # as in xPOSVX
    with timer("solve"):
        return (*_eliminate(*two_solve(L, a, d, p), a, y, form), cond)


@register("lssvm-schur", tasks=_BOTH, paper="suykens", equations="(3.24)-(3.25), (3.5), (3.32)",
          system=kkt_system, backward_bound=two_solve_bound,
          exact_model=exact_kkt_model,
          peak=DENSE_PEAK, time=SCHUR_TIME, direct=("cholesky", 2))
def fit_schur(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
              task="regression"):
    """LS-SVM by the Schur-complement two-solve (3.25): Cholesky of H = Omega + I/C.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task
        As :func:`fit_kkt`; C is Suykens' gamma.

    Returns
    -------
    Fit
        As :func:`fit_kkt`; ``diagnostics["s"]`` is the Schur complement
        s = a^T H^{-1} a (float).  A Cholesky breakdown of H gives
        ``status="breakdown"`` and the record (step, pivot, N, precision).

    Raises
    ------
    ValueError, TypeError
        Bad input, as :func:`fit_kkt`.

    Notes
    -----
    Solves ``H eta = a``, ``H nu = d`` with one Cholesky factorization (N^3/3
    multiply-adds, in place of H: the kernel matrix is the only N x N array)
    and two right-hand sides, then ``s = a^T eta``,
    ``b = a^T nu / s``, ``alpha = nu - eta b``; for classification
    ``a = y, d = 1_v`` (Suykens' algorithm, steps 1-3), for regression
    ``a = 1_v, d = y`` (derivation in the module docstring).  Each solve is
    backward stable; the forward error of [b; alpha] is <= 2 tau kappa(KKT)
    with tau the solves' relative residual.  Suykens (3.24)-(3.25).
    """
    X, y, k, p, params = _setup(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                                t=t, precision=precision)
    timer = PhaseTimer()
    try:
        coef, b, s, cond = _schur(X, y, k, p, C, task, timer)
    except CholeskyBreakdownError as err:
        return breakdown_fit("lssvm-schur", p, err, X=X, kernel=k, timer=timer,
                             support=np.arange(len(y)), params=params)
    return make_fit("lssvm-schur", p, coef=coef, bias=b, support=np.arange(len(y)), X=X, kernel=k,
                    timer=timer, diagnostics={"s": float(s), "solution": _solution(coef, b, y, task)},
                    params=params, conditioning=cond)


def _cg_options(n, p, rtol, vtol, maxiter, estimate_kappa):
    if not isinstance(estimate_kappa, (bool, np.bool_)):
        raise TypeError(f"expected True or False for estimate_kappa, got estimate_kappa={estimate_kappa!r}")
    rtol = n * p.unit_roundoff if rtol is None else check_positive("rtol", rtol)
    if not (isinstance(vtol, (int, float)) and not isinstance(vtol, bool) and vtol == 0):
        check_positive("vtol", vtol)
    maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
    return rtol, float(vtol), maxiter


@register("lssvm-cg", tasks=_BOTH, paper="suykens", equations="(3.24)-(3.27), (3.5), (3.32)",
          system=kkt_system,
          backward_bound=_cg_bound, exact_model=exact_kkt_model,
          peak=CG_PEAK, time=CG_TIME)
def fit_cg(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
           task="regression", rtol=None, vtol=0.0, maxiter=None, estimate_kappa=True):
    """LS-SVM by the "LS-SVM CG large scale algorithm" (§3.4.1): two SPD solves by CG.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task
        As :func:`fit_kkt`; C is Suykens' gamma.
    rtol : float, optional
        Residual stop ``||r_i|| <= rtol ||rhs||`` of each CG run (the printed
        algorithm's ``while r_i != 0``).  Default ``N u``: the normwise
        backward error a backward-stable direct solve guarantees (LAPACK's
        test ratio ``||r|| / (N ||A|| ||x|| u)`` is O(1)), so CG's answer is as
        trustworthy as Cholesky's; the forward error is then <= 2 (rtol + O(N u))
        kappa(KKT) (module docstring).
    vtol : float, default 0
        Suykens' V(x)-decrease stop (``V(x_{i-1}) - V(x_i) <= vtol |V(x_i)|``);
        0 switches it off.  It is off by default because V is an energy:
        its decrease ``(1/2) ||x_{i-1} - x*||_A^2 - (1/2) ||x_i - x*||_A^2``
        sinks below the rounding noise of V (~u |V|) once the relative
        A-norm error is ~sqrt(u), and then the computed decrease is <= 0 at
        random, whatever vtol > 0 is (measured, N = 300 RBF: the rule stops at
        A-norm error 1e-10..1e-6 in float64, 1e-4..1e-1 in float32).
    maxiter : int, optional
        Per system; default 10 N.
    estimate_kappa : bool, default True
        Compute kappa_2(H) (an O(N^3) eigenvalue computation, timed in the
        "conditioning" phase; switch it off when timing CG) and the (3.27)
        bound.

    Returns
    -------
    Fit
        As :func:`fit_kkt`.  ``iterations`` = total of both runs;
        ``history``: ``eta_residual_norm``, ``eta_V``, ``nu_residual_norm``,
        ``nu_V`` (per iteration); ``diagnostics``: ``iterations_eta``,
        ``iterations_nu``, ``reason_eta``, ``reason_nu``, the final iterates
        ``eta`` and ``nu`` (in the precision), ``rtol``, ``vtol``,
        ``maxiter``, ``kappa_H``, ``kappa_method`` and ``cg_bound`` = (3.27)
        with ``eps = rtol / sqrt(kappa)``, the iteration count after which the
        residual test must have fired in exact arithmetic (since
        ``||r|| / ||rhs|| <= sqrt(kappa) ||e||_A / ||x*||_A``).
        ``status="not-converged"`` (no model, a ConvergenceWarning) when a run
        hit maxiter or met ``p^T H p <= 0``.

    Raises
    ------
    ValueError, TypeError
        Bad input, as :func:`fit_kkt`, or bad rtol / vtol / maxiter.

    Notes
    -----
    H is formed and stored (Suykens recomputes its entries at every step
    instead).  The two systems run the Hestenes-Stiefel iteration printed
    after (3.25) side by side (:func:`lssvm_analysis.linalg.cg.simultaneous_cg`:
    each keeps its own step lengths, stop and history), and each iteration
    multiplies H by the N x 2 block of both directions: one pass over H,
    4 N^2 flops, where two H-vector products would read H twice; (3.26)-(3.27) bound the iterations by
    O(sqrt(kappa) log(2/eps)).  For classification H eta = y, H nu = 1_v;
    for regression H eta = 1_v, H nu = y.
    """
    X, y, k, p, params = _setup(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                                t=t, precision=precision)
    n = len(y)
    rtol, vtol, maxiter = _cg_options(n, p, rtol, vtol, maxiter, estimate_kappa)
    params.update(rtol=rtol, vtol=vtol, maxiter=maxiter)
    timer = PhaseTimer()
    H, a, d = _form(X, y, k, p, C, task, timer, peak=CG_PEAK)
    with timer("solve"):  # both systems at once: one pass over H per iteration
        runs = dict(zip(("eta", "nu"), simultaneous_cg(H, np.stack([a, d], axis=1), rtol=rtol, vtol=vtol,
                                                       maxiter=maxiter, precision=p)))
    diag = {"rtol": rtol, "vtol": vtol, "maxiter": maxiter}
    history = {}
    for name, run in runs.items():
        diag[f"iterations_{name}"], diag[f"reason_{name}"] = run.iterations, run.reason
        diag[name] = run.x
        history.update({f"{name}_{key}": val for key, val in run.history.items()})
    if estimate_kappa:
        with timer("conditioning"):
            k2 = kappa2(H)
            kappa, method = k2.value, k2.method + ("" if k2.resolved else " (unresolved)")
        if not k2.method.startswith("float64"):
            warnings.warn(f"kappa(H) is beyond what float64 eigenvalues resolve at N={n}: fell back to "
                          f"{k2.method} (recorded as kappa_method)", FallbackWarning, stacklevel=2)
        diag.update(kappa_H=kappa, kappa_method=method,
                    cg_bound=cg_iteration_bound(kappa, rtol / np.sqrt(kappa)) if np.isfinite(kappa)
                    else float("inf"))
    total = sum(run.iterations for run in runs.values())
    cond = (Conditioning(diag["kappa_H"], diag["kappa_method"], _H + " (2-norm)", norm=2) if estimate_kappa
            else NOT_ESTIMATED)
    if not all(run.converged for run in runs.values()):
        warnings.warn(f"lssvm-cg did not converge in {p.name}: reasons "
                      f"{diag['reason_eta']!r}, {diag['reason_nu']!r} (rtol={rtol:.3g}, "
                      f"maxiter={maxiter})", ConvergenceWarning, stacklevel=2)
        return make_fit("lssvm-cg", p, coef=None, bias=None, support=np.arange(n), X=X, kernel=k,
                        timer=timer, status="not-converged", iterations=total, history=history,
                        diagnostics=diag, params=params, conditioning=cond)
    with timer("solve"):
        coef, b, s = _eliminate(runs["eta"].x, runs["nu"].x, a, y, task)
    diag["s"] = float(s)
    diag["solution"] = _solution(coef, b, y, task)
    return make_fit("lssvm-cg", p, coef=coef, bias=b, support=np.arange(n), X=X, kernel=k,
                    timer=timer, iterations=total, history=history, diagnostics=diag, params=params,
                    conditioning=cond)


@register("krr", tasks=_BOTH, paper="suykens", equations="(3.50), (3.62)", system=krr_system,
          exact_model=exact_krr_model,
          peak=DENSE_PEAK, time=KRR_TIME, direct=("cholesky", 1))
def fit_krr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
            task="regression"):
    """Zero-bias LS-SVM: ``[Omega + I/C] alpha = y`` by Cholesky (kernel ridge / GP mean).

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task
        As :func:`fit_kkt`; C is Suykens' gamma (scikit-learn's
        ``KernelRidge(alpha=1/C)``; for RBF ``gamma = 1/sigma2``).

    Returns
    -------
    Fit
        ``coef_`` = alpha, ``bias_`` = 0 (in the precision).  A Cholesky
        breakdown gives ``status="breakdown"`` with the record.

    Raises
    ------
    ValueError, TypeError
        Bad input, as :func:`fit_kkt`.

    Notes
    -----
    Suykens (3.50) (regularization networks) = (3.62) (Gaussian process with
    C_N = Omega + I/gamma), model (3.61).  For classification the labels are
    the targets: the zero-bias form of (3.5), D (K + I/C) D alpha = 1_v with
    D = diag(y), is the same system for coef = D alpha since D 1_v = y.
    Cost N^3/3 (Cholesky) + 2 N^2 (solves); backward stable.
    """
    X, y, k, p, params = _setup(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                                t=t, precision=precision)
    timer = PhaseTimer()
    H, _, d = _form(X, y, k, p, C, "zero-bias", timer)
    try:
        with timer("factorization"):
            anorm = norm1(H, p) if conditioning_wanted() else None  # taken before the factor overwrites H
            L = p.cholesky(H, check=False, overwrite=True)  # in place of H: no N^2 copy
    except CholeskyBreakdownError as err:
        return breakdown_fit("krr", p, err, X=X, kernel=k, timer=timer, support=np.arange(len(y)),
                             params=params)
    with timer("factorization"):  # the estimate is part of it, as in LAPACK's xPOSVX
        cond = cholesky_conditioning(None, L, p, matrix=_H, anorm=anorm)
    with timer("solve"):
        alpha = p.cho_solve(L, d)
    return make_fit("krr", p, coef=alpha, bias=p.scalar(0), support=np.arange(len(y)), X=X,
                    kernel=k, timer=timer, diagnostics={"solution": alpha}, params=params,
                    conditioning=cond)


@register("lssvm-fisher", tasks=("classification",), paper="suykens",
          equations="(3.23), (3.32), §3.4.2 LS-SVM_F", system=fisher_system,
          backward_bound=two_solve_bound, exact_model=exact_fisher_model,
          peak=DENSE_PEAK, time=FISHER_TIME, direct=("cholesky", 2))
def fit_fisher(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
               task="classification"):
    """LS-SVM_F: regression (3.32) on the Fisher targets {-N/N_2, +N/N_1}; predict sign.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t
        As :func:`fit_kkt`; y in {-1, +1}, class 1 = label +1 (N_1 points),
        class 2 = label -1 (N_2 points).
    task : {"classification"}

    Returns
    -------
    Fit
        ``coef_`` = alpha of (3.32) with the Fisher targets, ``bias_`` = b;
        ``sign(fit.predict(X))`` is the label.  Breakdown as :func:`fit_schur`.

    Raises
    ------
    ValueError, TypeError
        Bad input, as :func:`fit_kkt`.

    Notes
    -----
    The targets make LS-SVM regression a regularized kernel Fisher
    discriminant (Suykens §3.3, (3.23); Van Gestel et al.).  They sum to 0.
    Solved by the Schur route (:func:`fit_schur`, regression form).
    """
    X, y, k, p, params = _setup(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree,
                                t=t, precision=precision, allowed=("classification",))
    timer = PhaseTimer()
    try:
        coef, b, s, cond = _schur(X, y, k, p, C, "fisher", timer)
    except CholeskyBreakdownError as err:
        return breakdown_fit("lssvm-fisher", p, err, X=X, kernel=k, timer=timer,
                             support=np.arange(len(y)), params=params)
    return make_fit("lssvm-fisher", p, coef=coef, bias=b, support=np.arange(len(y)), X=X, kernel=k,
                    timer=timer, diagnostics={"s": float(s), "solution": _solution(coef, b, y, "fisher")},
                    params=params, conditioning=cond)
