"""Chen & Zhou's robust and sparse baselines: R-LSSVM-W/Y, W-LSSVM, FS-LSSVM, and Proposition 1.

Parameter mapping (Chen & Zhou -> ours): ``C = 1/(m lambda)``, RBF
``sigma2 = 1/sigma``, ``tau``, Yang's smoothing width ``h``, the unstated
stop ``||gamma^(t+1) - gamma^(t)||_2 < tol`` (1e-2) and cap ``max_iter`` (100)
(SEED_NOTES §3.2 DECISION).

R-LSSVM by CCCP on the dense system (6)
---------------------------------------
Each CCCP step solves

    [ I + C K   e ] [ beta ]   [ y - gamma^(t) ]
    [ e^T       0 ] [ b    ] = [ 0             ]                      (6)

(``C K = K/(m lambda)``).  The (m+1) matrix is indefinite; "decomposed by
Cholesky once" (Chen & Zhou §5) means the Suykens transform: factor
``A = I + C K = L L^T`` once, solve ``A eta = e`` once, and per iteration
``A nu = y - gamma``, ``b = e^T nu / e^T eta``, ``beta = nu - eta b``
(``solve="cholesky"``, the printed form; ``solve="eigen"`` applies A^{-1}
through K's spectrum instead, :mod:`~lssvm_analysis.solvers.cccp_factor`,
which derives why the pair differs in breakdown and not in digits).
**Corrected model** (SEED_NOTES §3.2): (6) is the LS-SVM dual with
regularisation C and targets ``y - gamma`` where ``alpha = C beta``, so
``f(x) = C sum_i beta_i k(x_i, x) + b`` (the paper prints ``sum beta k + b``,
off by the factor ``1/(m lambda)``); ``coef_ = C beta``.  Residuals need no
kernel product: ``xi^(t+1) = y - f = beta^(t+1) + gamma^(t)``.

* ``r-lssvm-w`` (Wang & Zhong 2014): rule (8), ``gamma_i = xi_i 1[|xi_i| > tau]``.
* ``r-lssvm-y`` (Yang, Tan & He 2014): the seed gives only "a piecewise
  quadratic smoothing of L2 with parameter h".  **Reconstruction**: the convex
  C^1 piecewise-quadratic L2_h whose derivative ramps linearly from 0 at
  ``|xi| = a = max(tau - h, 0)`` to ``tau + h`` at ``|xi| = tau + h``:
  ``gamma = sign(xi) (tau + h)(|xi| - a) / (tau + h - a)`` on the ramp, 0 below,
  ``xi`` above.  Not Yang's published formula; results are not reproducible in detail.

W-LSSVM (Suykens, De Brabanter, Lukas, Vandewalle 2002)
-------------------------------------------------------
Unweighted LS-SVM, ``e_k = alpha_k / C``, robust scale ``s = 1.483 MAD(e)``,
weights ``v_k = W(|e_k| / s)`` floored at 1e-4, refit with ``H = K + diag(1/(C v_k))``.
Weight functions (LS-SVMlab names): Hampel (c1 = 2.5, c2 = 3, the default),
Huber (1.345), logistic (``tanh(r)/r``), Myriad (``1/(1 + r^2)``, delta = 1 in
units of s: our reconstruction of LS-SVMlab's data-driven delta).

Proposition 1 (re-weighted view, §3)
------------------------------------
:func:`fit_irls01` alternates the weighted LS-SVM (13) with 0/1 weights and
the closed-form weight update (12), ``omega_i = 1[|xi_i| <= tau]``.  With 0/1
weights (13) is the LS-SVM on the points with omega = 1 (same C = 1/(m lambda),
m the full count), so each step is a dense LS-SVM on a subset.  Its fixed
points are those of CCCP with rule (8): a cross-check, not a registered solver.

References
----------
L. Chen, S. Zhou (arXiv 2017) §2.2, §3, §5.  K. Wang, P. Zhong, Robust non-convex
least squares loss function for regression with outliers, KBS 71 (2014).
X. Yang, L. Tan, L. He, A robust least squares support vector machine for
regression and classification with noise, Neurocomputing 140 (2014).
J.A.K. Suykens, J. De Brabanter, L. Lukas, J. Vandewalle, Weighted least squares
support vector machines: robustness and sparse approximation, Neurocomputing 48 (2002).
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np

from ..linalg.condest import cholesky_conditioning
from ..core.validation import as_vector, check_int, check_positive
from ..core.exceptions import CholeskyBreakdownError, ConvergenceWarning, EigenConvergenceError
from ._common import breakdown_fit, docstring, make_fit, validate_xy
from .peaks import CCCP_PEAK, WEIGHTED_PEAK
from .times import CCCP_W_TIME, CCCP_Y_TIME, WEIGHTED_TIME
from ._registry import fit_params, register, variant
from .cccp_factor import SOLVES, factor_a, form_a
from ..exact.formation import ExactProblem, dense_wider, exact_targets, lssvm_system_dd, weighted_ridge_dd
from .kkt import add_ridge, bordered_matrix, eliminate, two_solve, two_solve_bound
from .result import PhaseTimer
from .sparsity import coefficient_counts

__all__ = ["fit_rlssvm_w", "fit_rlssvm_y", "fit_wlssvm", "fit_irls01", "cccp_system",
           "weighted_system", "exact_cccp_model", "exact_weighted_model", "yang_gamma", "wang_gamma", "robust_weights", "weighted_median"]

_BOTH = ("regression", "classification")
_HAMPEL = (2.5, 3.0)
_HUBER = 1.345
_FLOOR = 1e-4
_MAD = 1.483


def _check_tau(tau):
    if isinstance(tau, bool) or not isinstance(tau, numbers.Real):
        raise TypeError(f"expected a positive real number (or inf) for tau, got tau={tau!r}")
    if not tau > 0:
        raise ValueError(f"expected tau > 0 (inf: no truncation), got tau={tau!r}")
    return float(tau)


# ---------------------------------------------------------------------------
# gamma rules (7): subgradients of L2
# ---------------------------------------------------------------------------
def wang_gamma(xi, tau, h, prec):
    """Rule (8): gamma_i = xi_i if |xi_i| > tau else 0 (``h`` unused)."""
    return np.where(np.abs(xi) > prec.scalar(tau), xi, prec.scalar(0))


def yang_gamma(xi, tau, h, prec):
    """Reconstructed Yang smoothing (module docstring): a C^1 ramp over [max(tau-h, 0), tau+h]."""
    a, top = max(tau - h, 0.0), tau + h
    ax = np.abs(xi)
    zero = prec.scalar(0)
    ramp = (xi / np.where(ax > zero, ax, prec.scalar(1))) * prec.scalar(top) * (ax - prec.scalar(a)) \
        / prec.scalar(top - a)
    return np.where(ax >= prec.scalar(top), xi, np.where(ax > prec.scalar(a), ramp, zero))


# ---------------------------------------------------------------------------
# Dense CCCP (6)
# ---------------------------------------------------------------------------
def _hook_inputs(X, y, fit, params, precision):
    """What a ``system`` / ``exact_model`` hook of these solvers starts from: the fit's keywords
    (``params`` over them), X and y checked and cut to the points the fit kept (sample weight
    > 0), and the Precision ``precision``."""
    merged = fit_params(fit, params)
    X, y, _, prec = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                                precision=precision)
    kept, _ = _sample_weight(merged.get("sample_weight"), len(y))
    return merged, X[kept], y[kept], prec


def cccp_system(X, y, fit, **params):
    """The system (6) the last CCCP step of an r-lssvm-w/-y fit solved.

    Returns ``(A, rhs, unpack)`` with ``A = [[I + C K, e], [e^T, 0]]``,
    ``rhs = [y - gamma; 0]`` (gamma = ``fit.diagnostics["gamma"]``) and
    ``unpack(z) = {"coef": C z[:m], "bias": z[m]}`` (the corrected model).
    """
    merged, X, y, prec = _hook_inputs(X, y, fit, params, fit.precision)
    m = len(y)
    with prec.context():
        A = prec.zeros((m + 1, m + 1))
        A[:m, :m] = form_a(fit.kernel(X, precision=prec), merged["C"], prec)
        A[:m, m] = prec.scalar(1)
        A[m, :m] = prec.scalar(1)
        rhs = prec.zeros(m + 1)
        rhs[:m] = prec.asarray(y) - fit.diagnostics["gamma"]
    Cp = prec.scalar(merged["C"])

    def unpack(z):
        z = np.asarray(z)
        return {"coef": z[:m] * Cp, "bias": z[m]}

    return A, rhs, unpack


def _exact_lssvm(X, y, fit, params, targets, weights, method):
    """The LS-SVM (3.5) on the fit's points with the given exact ``targets`` and the ridge
    1/(C v_k) of the float64 ``weights`` v (None: 1/C), in DD (escalated: in balls)."""
    merged, X, y, _ = _hook_inputs(X, y, fit, params, "float64")
    A, _ = lssvm_system_dd(X, y, fit.kernel, merged["C"], "regression",
                           ridge=None if weights is None else weighted_ridge_dd(merged["C"], weights))
    rhs = np.empty(len(y) + 1, dtype=object)
    rhs[0], rhs[1:] = 0, y if targets is None else targets(y)

    def unpack(z):
        z = np.asarray(z)
        return {"coef": z[1:], "bias": z[0]}

    name = method.removesuffix(", kernel in double-double").removesuffix(" in double-double")
    return ExactProblem(A, rhs, unpack, A_bound=float(np.max(np.sum(A.bound, axis=1))), method=method,
                        rows=A.shape[0], wider=dense_wider(X, y, fit.kernel, merged["C"], "regression", rhs,
                                                           unpack, name, weights=weights))


def exact_cccp_model(X, y, fit, **params):
    """Exact model of an r-lssvm-w / r-lssvm-y fit (registry ``exact_model=``): (6) with gamma frozen.

    (6) with alpha = C beta is the LS-SVM (3.5) with ridge 1/C and targets
    y - gamma: [[0, e^T], [e, K + I/C]] [b; alpha] = [0; y - gamma], whose
    solution is the corrected model itself (a selection of x, no factor C).
    Kernel in double-double, y - gamma exact (gamma = the vector the last
    CCCP solve used, ``diagnostics["gamma"]``, taken exactly in the fit's
    precision).  The last weighted system rather than the CCCP fixed point:
    the fit stops at ||Delta gamma|| < tol (1e-2), a truncation that would
    swamp the rounding; the model error measures the formation of I + C K
    and the two solves of the last step (SEED_NOTES §6: I + K/(m lambda)),
    not the stopping rule, and not the error of gamma itself.  Problem
    condition: kappa_inf of the KKT matrix (as :func:`suykens.exact_kkt_model`).
    """
    return _exact_lssvm(X, y, fit, params, lambda yk: exact_targets(yk, fit.diagnostics["gamma"]),
                        None, "(6) as KKT (3.5) with targets y - gamma, kernel in double-double")


def _cccp_loop(A_inv, y, eta, s, rule, tau, h, tol, max_iter, prec):
    gamma = prec.zeros(len(y))
    e = prec.asarray(np.ones(len(y)))
    hist = {"delta_gamma": [], "n_active": []}
    converged = False
    for _ in range(max_iter):
        nu = A_inv.solve(y - gamma)
        # s = e^T A^-1 e can round to 0 when A is singular to working precision; mpmath then
        # raises ZeroDivisionError where IEEE gives inf/NaN: give mp the IEEE quotient, so the
        # model is non-finite and reported as such, as in float32/64
        b = (e @ nu) / s if s != 0 else (e @ nu) * prec.scalar(np.inf)
        beta = nu - eta * b
        g_new = rule(beta + gamma, tau, h, prec)  # xi = beta + gamma^(t)
        delta = float(np.sqrt(float(np.sum((g_new - gamma) ** 2))))
        hist["delta_gamma"].append(delta)
        hist["n_active"].append(int(np.count_nonzero(prec.nonzero(g_new))))
        gamma_used, gamma = gamma, g_new
        if delta < tol:
            converged = True
            break
    return beta, b, gamma_used, hist, converged


def _fit_cccp(name, rule, X, y, *, precision, C, kernel, sigma2, degree, t, task, tau, h, tol, max_iter,
              solve):
    X, y, k, prec = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                                precision=precision)
    tau = _check_tau(tau)
    check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "tau": tau, "tol": float(tol),
              "max_iter": max_iter, **({} if h is None else {"h": float(h)}), "solve": solve}
    timer, m = PhaseTimer(), len(y)
    CCCP_PEAK.ensure(m, prec, what=name)
    with prec.context():
        with timer("formation"):
            K = k(X, precision=prec)
        try:
            with timer("factorization"):
                A_inv = factor_a(K, C, prec, solve)
        except CholeskyBreakdownError as err:
            return breakdown_fit(name, prec, err, X=X, kernel=k, timer=timer, support=np.arange(m),
                                 params=params)
        except EigenConvergenceError as err:   # solve="eigen": no spectrum, no model (an outcome)
            return make_fit(name, prec, coef=None, bias=None, support=[], X=X, kernel=k, timer=timer,
                            status="not-converged", diagnostics={"eigh_error": str(err)}, params=params)
        del K
        with timer("solve"):
            eta = A_inv.solve(prec.asarray(np.ones(m)))
            s = np.sum(eta)
            beta, b, g_used, hist, conv = _cccp_loop(A_inv, prec.asarray(y), eta, s, rule, tau, h, tol,
                                                    max_iter, prec)
        coef = beta * prec.scalar(C)
    diag = {**coefficient_counts(coef, m), "gamma": g_used, "converged": conv,
            "solution": np.concatenate([beta, np.array([b], dtype=beta.dtype)]),
            "n_truncated": hist["n_active"][-1]}
    if not conv:
        warnings.warn(f"{name}: ||Delta gamma|| = {hist['delta_gamma'][-1]:.3g} >= tol={tol} after "
                      f"max_iter={max_iter}", ConvergenceWarning, stacklevel=3)
    return make_fit(name, prec, coef=coef, bias=b, support=np.arange(m), X=X, kernel=k, timer=timer,
                    status="ok" if conv else "not-converged", iterations=len(hist["delta_gamma"]),
                    history={k_: np.asarray(v) for k_, v in hist.items()}, diagnostics=diag, params=params,
                    conditioning=A_inv.conditioning)


_CCCP_DOC = """
    Parameters
    ----------
    X : (m, d) array_like
    y : (m,) array_like
        Targets, or labels in {-1, +1} (least squares on the labels).
    precision : str or Precision
    C : float > 0
        1/(m lambda).
    kernel, sigma2, degree, t
        RBF exp(-||x - z||^2 / sigma2), sigma2 = 1/sigma of the paper.
    task : {"regression", "classification"}
    tau : float > 0 or inf
        Truncation of L_tau (default 1).
    tol : float > 0
        Stop when ||gamma^(t+1) - gamma^(t)||_2 < tol (default 1e-2).
    max_iter : int >= 1
        Cap (default 100); reaching it gives status "not-converged" (model kept).
    solve : {"cholesky", "eigen"}
        A = I + C K factored once by Cholesky, as printed (default), or applied
        through K's spectrum, 1/(1 + C max(lambda, u lambda_max)), which never breaks down
        (:mod:`~lssvm_analysis.solvers.cccp_factor`: same c m u kappa bound).

    Returns
    -------
    Fit
        ``coef_ = C beta`` on all m points (corrected model), ``bias_ = b``;
        ``iterations``; ``history["delta_gamma"]``, ``["n_active"]``;
        diagnostics ``gamma`` (used by the last solve), ``solution`` = [beta; b],
        ``n_exact_zeros``, ``n_significant``.  Cholesky breakdown of
        I + C K -> status "breakdown".

    Raises
    ------
    ValueError, TypeError
        Bad input, naming the argument (tau <= 0, tol <= 0, max_iter < 1, ...).

    Notes
    -----
    Cost m^3/3 (one Cholesky; ~9 m^3 for ``solve="eigen"``) + 2 m^2 per
    iteration; memory O(m^2).  cond(I + C K) <= 1 + C lambda_max(K): the
    printed Cholesky breaks down once kappa u is ~ 1/m (float32 ~1e5-1e7)."""


@register("r-lssvm-w", tasks=_BOTH, paper="chen-zhou", equations="(6)-(8) (Wang & Zhong 2014)",
          system=cccp_system, backward_bound=two_solve_bound,
          exact_model=exact_cccp_model, variants=SOLVES, peak=CCCP_PEAK, time=CCCP_W_TIME)
@docstring("R-LSSVM-W: CCCP on (6) with rule (8), one Cholesky of I + C K.\n" + _CCCP_DOC)
def fit_rlssvm_w(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 task="regression", tau=1.0, tol=1e-2, max_iter=100, solve="cholesky"):
    return _fit_cccp("r-lssvm-w", wang_gamma, X, y, precision=precision, C=C, kernel=kernel,
                     sigma2=sigma2, degree=degree, t=t, task=task, tau=tau, h=None, tol=tol,
                     max_iter=max_iter, solve=solve)


@register("r-lssvm-y", tasks=_BOTH, paper="chen-zhou",
          equations="(6)-(7) with Yang's smoothing (reconstructed)",
          system=cccp_system,
          backward_bound=two_solve_bound, exact_model=exact_cccp_model, variants=SOLVES, peak=CCCP_PEAK, time=CCCP_Y_TIME)
@docstring("R-LSSVM-Y: CCCP on (6) with a reconstructed piecewise-quadratic smoothing "
           "(width h > 0, default 0.1).\n" + _CCCP_DOC)
def fit_rlssvm_y(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 task="regression", tau=1.0, h=0.1, tol=1e-2, max_iter=100, solve="cholesky"):
    check_positive("h", h)
    return _fit_cccp("r-lssvm-y", yang_gamma, X, y, precision=precision, C=C, kernel=kernel,
                     sigma2=sigma2, degree=degree, t=t, task=task, tau=tau, h=float(h), tol=tol,
                     max_iter=max_iter, solve=solve)


# ---------------------------------------------------------------------------
# Weighted LS-SVM
# ---------------------------------------------------------------------------
def weighted_median(a, w=None) -> float:
    """The median of ``a`` with each a_k counted w_k times (w >= 0; None: ``numpy.median``).

    The mean of the lower and the upper weighted medians: the smallest sorted
    a_(i) whose cumulative weight reaches W/2, and the smallest whose
    cumulative weight exceeds W/2 (W the total).  For integer weights this is
    ``numpy.median`` of the array with a_k repeated w_k times, value for
    value, which is what makes integer sample weights equivalent to repeated
    points.
    """
    a = np.asarray(a, dtype=np.float64)
    if w is None:
        return float(np.median(a))
    order = np.argsort(a, kind="stable")
    cum = np.cumsum(np.asarray(w, dtype=np.float64)[order])
    half = cum[-1] / 2.0
    lower = a[order[np.searchsorted(cum, half, side="left")]]
    upper = a[order[np.searchsorted(cum, half, side="right")]]
    return float((lower + upper) / 2.0)


def robust_weights(e, weights="hampel", sample_weight=None) -> tuple[np.ndarray, float]:
    """Weights v_k of the residuals e (float64) and the robust scale s = 1.483 MAD(e).

    With ``sample_weight`` the MAD is the weighted one (:func:`weighted_median`
    twice), as if point k were repeated sample_weight_k times.

    Hampel: 1 (r <= 2.5), (3 - r)/0.5 (2.5 < r <= 3), 1e-4 (r > 3); Huber:
    min(1, 1.345/r); logistic: tanh(r)/r; Myriad: 1/(1 + r^2); r = |e_k|/s; all
    floored at 1e-4.  s = 0 (a perfect fit) gives v = 1.
    """
    e = np.asarray(e, dtype=np.float64)
    s = _MAD * weighted_median(np.abs(e - weighted_median(e, sample_weight)), sample_weight)
    if not s > 0:
        return np.ones_like(e), s
    r = np.abs(e) / s
    if weights == "hampel":
        c1, c2 = _HAMPEL
        v = np.where(r <= c1, 1.0, np.where(r <= c2, (c2 - r) / (c2 - c1), _FLOOR))
    elif weights == "huber":
        v = np.minimum(1.0, _HUBER / np.maximum(r, 1e-300))
    elif weights == "logistic":
        v = np.where(r > 0, np.tanh(r) / np.maximum(r, 1e-300), 1.0)
    elif weights == "myriad":
        v = 1.0 / (1.0 + r * r)
    else:
        raise ValueError(f"expected weights in ('hampel', 'huber', 'logistic', 'myriad'), got weights={weights!r}")
    return np.maximum(v, _FLOOR), s


def _weighted_kkt_solve(K, y, C, v, prec):
    """Schur two-solve of [[0, e^T], [e, K + diag(1/(C v))]] [b; alpha] = [0; y]."""
    H = add_ridge(K.copy(), C, prec, weights=v)
    L = prec.cholesky(H, check=False)
    alpha, b, _ = eliminate(*two_solve(L, prec.asarray(np.ones(len(y))), y, prec))
    return alpha, b, (H, L)


def _sample_weight(sample_weight, m):
    """(indices of the points kept, their weights) or (arange(m), None) without weights.

    Raises
    ------
    ValueError, TypeError
        Not a finite non-negative vector of length m, or all zero (named).
    """
    if sample_weight is None:
        return np.arange(m), None
    sw = as_vector(sample_weight, "sample_weight", allow_object=False).astype(np.float64)
    if sw.shape != (m,):
        raise ValueError(f"expected sample_weight of shape ({m},), got sample_weight.shape={sw.shape}")
    if not np.all(np.isfinite(sw)) or np.any(sw < 0):
        raise ValueError(f"expected finite non-negative sample_weight, got values from {np.min(sw)!r} "
                         f"to {np.max(sw)!r}")
    kept = np.flatnonzero(sw > 0)
    if kept.size == 0:
        raise ValueError("expected sample_weight with at least one non-zero weight, got all weights zero")
    return kept, sw


def weighted_system(X, y, fit, **params):
    """The weighted KKT system the last w-lssvm refit solved (weights in diagnostics)."""
    merged, X, y, prec = _hook_inputs(X, y, fit, params, fit.precision)
    m = len(y)
    with prec.context():
        H = add_ridge(fit.kernel(X, precision=prec), merged["C"], prec, weights=fit.diagnostics["weights"])
        A, rhs = bordered_matrix(H, prec.asarray(np.ones(m)), prec.asarray(y), prec)

    def unpack(z):
        z = np.asarray(z)
        return {"coef": z[1:], "bias": z[0]}

    return A, rhs, unpack


def exact_weighted_model(X, y, fit, **params):
    """Exact model of a w-lssvm fit (registry ``exact_model=``): the last refit's KKT system.

    [[0, e^T], [e, K + diag(1/(C v_k))]] [b; alpha] = [0; y] on the points of
    positive sample weight, with the weights v of the last refit frozen
    (``diagnostics["weights"]``, float64: the robust-weight step runs in
    float64 whatever the precision) and 1/(C v_k) in double-double
    (:func:`formation.weighted_ridge_dd`).  Frozen rather than recomputed at
    a fixed point: Suykens et al. (2002) refit once (max_iter = 1), so the
    weights are a step of the algorithm, not a converged quantity; the model
    error measures the formation of K + diag(1/(C v)) and its solve in the
    fit's precision.  Problem condition: kappa_inf of that KKT matrix.
    """
    return _exact_lssvm(X, y, fit, params, None, fit.diagnostics["weights"],
                        "weighted KKT with 1/(C v_k) in double-double")


@register("w-lssvm", tasks=_BOTH, paper="chen-zhou", equations="Suykens et al. 2002 (weighted LS-SVM)",
          system=weighted_system,
          backward_bound=two_solve_bound, exact_model=exact_weighted_model, peak=WEIGHTED_PEAK, time=WEIGHTED_TIME,
          variants=(variant("weights", "hampel", "Hampel c1 = 2.5, c2 = 3 (Suykens et al. 2002)"),
                    variant("weights", "huber", "Huber 1.345 (LS-SVMlab)"),
                    variant("weights", "logistic", "tanh(r)/r (LS-SVMlab)"),
                    variant("weights", "myriad", "1/(1 + r^2), delta = 1 (reconstructed)")))
def fit_wlssvm(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
               task="regression", weights="hampel", max_iter=1, tol=1e-4, sample_weight=None):
    """W-LSSVM: unweighted LS-SVM, robust weights, refit with per-point C v_k.

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task
        As :func:`fit_rlssvm_w` (C = 1/(m lambda) = Suykens' gamma).
    weights : {"hampel", "huber", "logistic", "myriad"}
    max_iter : int >= 1
        Number of weighted refits: 1 = Suykens et al. (2002) (default); more =
        the iterated form, stopped when max|alpha_new - alpha_old| < tol
        (status "not-converged" at the cap).
    tol : float > 0
    sample_weight : (m,) array_like of float >= 0, optional
        The user's per-point weights s_k of the loss, C/2 sum s_k v_k e_k^2:
        the first fit uses v = s, each refit v_k = s_k W(r_k) with the
        weighted robust scale (:func:`robust_weights`).  Integer weights
        equal repeated points and zero weights removed points (they are left
        out of the fit and of ``support_``).

    Returns
    -------
    Fit
        ``coef_ = alpha`` on the points of positive weight, ``bias_ = b``;
        diagnostics ``weights`` (v_k of the last refit), ``scale`` (s),
        ``n_downweighted`` (v_k < 1), counts of zeros/significant alpha,
        ``solution`` = [b; alpha].

    Raises
    ------
    ValueError, TypeError
        Bad input, naming the argument.

    Notes
    -----
    Each refit factors K + diag(1/(C v)) afresh: (1 + max_iter) m^3/3.
    A weight 1e-4 adds 1e4/C to the diagonal, which improves conditioning.
    """
    X, y, k, prec = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                                precision=precision)
    robust_weights(np.zeros(2) + [0, 1], weights)  # validates the name
    max_iter = check_int("max_iter", max_iter, minimum=1)
    check_positive("tol", tol)
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "weights": weights,
              "max_iter": max_iter, "tol": float(tol)}
    kept, sw = _sample_weight(sample_weight, len(y))
    X_all = X
    if sw is not None:
        params["sample_weight"] = sw.copy()
        X, y, sw = X[kept], y[kept], sw[kept]
    timer, m = PhaseTimer(), len(y)
    WEIGHTED_PEAK.ensure(m, prec, what="w-lssvm")
    hist = {"delta_alpha": []}
    with prec.context():
        with timer("kernel"):
            K = k(X, precision=prec)
        yp = prec.asarray(y)
        v = np.ones(m) if sw is None else sw
        try:
            with timer("factorization"):
                alpha, b, factor = _weighted_kkt_solve(K, yp, C, v, prec)
                conv = max_iter == 1
                for _ in range(max_iter):
                    e = prec.to_float64(alpha) / (C * v)  # alpha_k = C v_k e_k
                    v, s = robust_weights(e, weights, sw)
                    v = v if sw is None else sw * v
                    new, b, factor = _weighted_kkt_solve(K, yp, C, v, prec)
                    hist["delta_alpha"].append(float(np.max(np.abs(prec.to_float64(new - alpha)))))
                    alpha = new
                    if max_iter > 1 and hist["delta_alpha"][-1] < tol:
                        conv = True
                        break
                cond = cholesky_conditioning(*factor, prec, matrix="K + diag(1/(C v)), last refit")
        except CholeskyBreakdownError as err:
            return breakdown_fit("w-lssvm", prec, err, X=X_all, kernel=k, timer=timer, support=kept,
                                 params=params)
    diag = {**coefficient_counts(alpha, m), "weights": v, "scale": s,
            "n_downweighted": int(np.count_nonzero(v < 1)), "converged": conv,
            "solution": np.concatenate([np.array([b], dtype=alpha.dtype), alpha])}
    return make_fit("w-lssvm", prec, coef=alpha, bias=b, support=kept, X=X_all, kernel=k,
                    timer=timer, status="ok" if conv else "not-converged",
                    iterations=len(hist["delta_alpha"]), history={"delta_alpha": np.asarray(hist["delta_alpha"])},
                    diagnostics=diag, params=params, conditioning=cond)


# ---------------------------------------------------------------------------
# Proposition 1: IRLS with 0/1 weights
# ---------------------------------------------------------------------------
def fit_irls01(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
               task="regression", tau=1.0, max_iter=100):
    """Proposition 1 (13)-(16): alternate the 0/1-weighted LS-SVM and omega = 1[|xi| <= tau].

    Parameters
    ----------
    X, y, precision, C, kernel, sigma2, degree, t, task, tau
        As :func:`fit_rlssvm_w`.
    max_iter : int >= 1
        Cap on the weight updates; the loop stops when omega repeats.

    Returns
    -------
    Fit
        ``solver="irls01"`` (not registered), ``coef_`` on the points with
        omega = 1 (``support_``), ``iterations``, diagnostics ``omega`` (bool, m),
        ``converged``.  Dense: O(m^3) per step.
    """
    X, y, k, prec = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                                precision=precision)
    tau = _check_tau(tau)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "tau": tau, "max_iter": max_iter}
    timer, m = PhaseTimer(), len(y)
    omega = np.ones(m, dtype=bool)
    conv, it = False, 0
    with prec.context():
        K = k(X, precision=prec)
        yp = prec.asarray(y)
        for it in range(1, max_iter + 1):
            S = np.flatnonzero(omega)
            try:
                alpha, b, _ = _weighted_kkt_solve(K[np.ix_(S, S)], yp[S], C, np.ones(S.size), prec)
            except CholeskyBreakdownError as err:
                return breakdown_fit("irls01", prec, err, X=X, kernel=k, timer=timer, support=S,
                                     params=params)
            xi = prec.to_float64(yp - (K[:, S] @ alpha + b))
            new = np.abs(xi) <= tau
            if np.array_equal(new, omega):
                conv = True
                break
            omega = new
    return make_fit("irls01", prec, coef=alpha, bias=b, support=S, X=X, kernel=k, timer=timer,
                    status="ok" if conv else "not-converged", iterations=it,
                    diagnostics={"omega": omega, "converged": conv}, params=params)
