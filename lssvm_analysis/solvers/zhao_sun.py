"""Zhao & Sun: reduced LSSVR (eq. 6-8) and recursive reduced LSSVR (§3, derived).

Zhao, Sun, "Recursive reduced least squares support vector regression",
Pattern Recognition 42 (2009).  Symbols (ours = the paper's): ``C`` = C (the
weight of the squared errors, K_ii + 1/C on the LS-SVM diagonal), ``sigma2``
= 2 gamma^2 of the Gaussian kernel exp(-||x - z||^2 / (2 gamma^2)), ``d`` the
targets, S the support set, K = K_SS, K^ = K_{S,:} (|S| x N), theta = [b; alpha].
The seed stops after eq. (11); everything marked **[derived]** below is ours.

Reduced LSSVR [printed, eq. 6-8]
--------------------------------
With w = sum_{j in S} alpha_j phi(x_j) and all N residuals kept,

    L(b, alpha) = 1/2 alpha^T K alpha + C/2 sum_i (d_i - sum_{j in S} alpha_j k(x_j, x_i) - b)^2   (6)
    (R + Z Z^T) theta = Z d,   R = [[0, 0], [0, K/C]],   Z = [1^T; K^]   ((|S|+1) x N)            (7)
    f(x) = sum_{j in S} alpha_j k(x_j, x) + b                                                     (8)

(7) is (C times) the gradient of (6) set to zero: H = R + Z Z^T is (2/C) times
the Hessian of (6), so (7) are the normal equations of the least-squares
problem [derived]

    min || M theta - [d; 0] ||_2,   M = [[Z^T], [0 | L_S^T / sqrt(C)]],   K = L_S L_S^T,

since M^T M = Z Z^T + R and M^T [d; 0] = Z d.  cond_2(H) = cond_2(M)^2: forming
H squares the condition number, and solving it by Cholesky loses twice the
digits a QR of M loses.  The printed remedy "if R + Z Z^T is singular, a small
change R + Z Z^T + 1e-8 I will find the solution" uses an *absolute* ridge,
while ||H|| ~ N (|S| + 1) for a wide kernel: in float32 u ||H|| >> 1e-8, so
the ridge does not change a single bit of the diagonal of H (the Fit records
``ridge_visible``).  Variants (keyword ``ridge``): "lstsq" (QR of M, default),
"literal" (Cholesky of H, ridge 1e-8 only on a breakdown), "relative-ridge"
(the same rule with 1e-8 tr(H)/(|S|+1), the mean eigenvalue of H times 1e-8).
With S = all N points (6) is the LS-SVM primal, and (7) has the minimiser of
the dual system (4) (alpha = C e, 1^T alpha = 0): ``reduced-lssvr`` with
``support=range(N)`` equals ``lssvm-kkt`` [derived, tested].

Objective (9) [printed; derived relation]
-----------------------------------------
L(theta) = theta^T H theta - 2 (Z d)^T theta = (2/C) (6) - d^T d.  (The seed
prints ``[b; alpha]^T`` as the last factor of the quadratic form; ``[b; alpha]``
is meant.)  At the minimiser theta_S = H_S^-1 c_S (c_S = Z_S d),
L_S = -c_S^T theta_S.

The recursion [derived from (10)-(11) and the block-inverse formula]
--------------------------------------------------------------------
Order the unknowns as [b, alpha_{s1}, alpha_{s2}, ...] and let
H_full = [[N, 1^T K_N], [K_N 1, K_N K_N + K_N/C]] be the (N+1) x (N+1) matrix
(11) of *all* patterns (K_N the full kernel matrix).  H_S is its principal
submatrix on {bias} u S, so adding pattern j borders H_S with

    g_j  = H_full[{b} u S, j] = [1^T k_j ; K^_S k_j + K_{S,j}/C]     (column j of (11))
    h_jj = k_j^T k_j + k(x_j, x_j)/C,   c_j = k_j^T d,               (k_j = K_N[:, j])

and the block-inverse (Schur-complement) formula gives, with v_j = H_S^-1 g_j
and the Schur complement s_j = h_jj - g_j^T v_j > 0 (H_full is positive
semidefinite; positive definite for distinct points and a PD kernel),

    H_{S+j}^-1 = [[H_S^-1 + v_j v_j^T / s_j, -v_j / s_j], [-v_j^T / s_j, 1 / s_j]]
    theta_{S+j} = [theta_S - v_j rho_j / s_j ; rho_j / s_j],   rho_j = c_j - g_j^T theta_S
    L_{S+j} = L_S - rho_j^2 / s_j.

So the decrease of (9) from adding j is Delta_j = rho_j^2 / s_j >= 0: the
objective is non-increasing and bounded below (L >= -d^T d), hence the
greedy sequence converges [derived; the paper's "proof of convergence" is
not in the seed].  rho_j has a residual form: rho_j = k_j^T e - K_{j,S} alpha / C
with e = d - f_S(X), so the greedy rule picks the pattern whose kernel column
best explains the current residuals per unit of new information s_j.

``rr-lssvr`` starts from the bias alone (H = [N], theta = [mean(d)]) and adds
at each step argmax_j Delta_j; it stops at ``n_support`` patterns or when
Delta / |L_S| < ``tol`` (the relative decrease of (9)).  Two updates
(keyword ``update``):

* "cholesky" [stable, default]: the factor H_S = L L^T is bordered:
  L_{S+j} = [[L, 0], [w_j^T, sqrt(s_j)]] with w_j = L^-1 g_j.  Keeping
  W = L^-1 G_S for every candidate makes this the pivoted (outer-product)
  Cholesky of H_full with the pivot rule argmax rho_j^2 / s_j instead of
  argmax s_j: s_j and rho_j are updated by s_j -= w_j'^2, rho_j -= w_j' z'
  (z = L^-1 c_S, L_S = -||z||^2).  A candidate with s_j <= schur_tol h_jj is
  numerically dependent on S (s_j is computed with an absolute error of about
  2 (|S|+1) u h_jj) and is skipped and recorded.
* "bordered-inverse" [literal]: H_S^-1 =: P is kept explicitly and updated by
  the block formula above, as §3.1's title "Iterative computation of the
  kernel matrix inversion" implies; each step scores the candidates with
  v_j = P g_j and takes theta_S = P c_S.  Not backward stable (x = P c has a
  residual ~ kappa u, Higham §14.1), and P's error grows with the steps; no
  guard (a candidate with s_j <= 0 is still scored r^2 / s).

Cost: the kernel matrix K_N (N^2 kernel evaluations, N^2 memory), one row
of H_full per step (O(N^2)), the scores O(|S| N) (cholesky) or
O(|S|^2 N) (bordered-inverse); ``n_candidates`` (Jiao et al.'s 59 random
candidates per step) cuts the scoring to O(|S| 59) / O(|S|^2 59).

Classification [derived from the abstract's "can be extended"]: targets in
{-1, +1} are regressed and sign f(x) is the label (an LS-SVM on +-1 targets,
as LS-SVM_F with unit targets).

References
----------
Y. Zhao, J. Sun, Pattern Recognition 42 (2009) 837-842.  L. Jiao, L. Bo,
L. Wang, IEEE TNN 18 (2007) (fast sparse approximation for LS-SVM).  Y.-J. Lee,
O. L. Mangasarian, RSVM (2001).  N. J. Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., SIAM 2002, ch. 10, 14, 20.
"""
from __future__ import annotations

import warnings

import numpy as np

from ..core.validation import as_rng, check_int
from ..linalg.condest import matrix_conditioning
from ..core.exceptions import CholeskyBreakdownError, FallbackWarning
from ..linalg.qr import qr_r
from ..arith.symmetric import mirror_lower
from ._common import breakdown_fit, check_choice, make_fit, readonly, validate_xy
from .peaks import REDUCED_PEAK
from .times import REDUCED_TIME
from ._registry import SUPPORT_FRACTIONS, LadderKnob, fit_params, register, variant
from ..exact.formation import reduced_lssvr_problem
from .kkt import support_system
from .result import PhaseTimer

__all__ = ["fit_reduced_lssvr", "reduced_system", "RIDGES", "NEAR_DUPLICATES", "ABSOLUTE_RIDGE", "RIDGE_FACTOR",
           "householder_lstsq"]

RIDGES = ("lstsq", "literal", "relative-ridge")
#: The kappa ladder's data knob: the odd training points are the even ones moved by delta
#: (``near_duplicates`` of the ladder's data sets).  A random support is the one selection that does
#: not see the data: when it holds a pair, kappa(M) ~ 1/delta and kappa(H) ~ 1/delta^2 at any C.
NEAR_DUPLICATES = LadderKnob("near_duplicates", (1e-2, 1e-4, 1e-6, 1e-8), dataset=True,
                             note="near-duplicate points (the odd points are the even ones moved by delta): "
                                  "a random support that contains a pair has two columns of K(X, X_S) that "
                                  "differ by O(delta) (the kernel's slope), so kappa(M) ~ 1/delta and "
                                  "kappa(H) ~ 1/delta^2 whatever C is")
#: The printed ridge of §2 ("R + Z Z^T + 10^-8 I").
ABSOLUTE_RIDGE = 1e-8
#: relative-ridge: RIDGE_FACTOR * tr(H) / (|S| + 1).
RIDGE_FACTOR = 1e-8

_VARIANTS = (
    variant("ridge", "lstsq", "QR of the stacked [Z^T; 0 | L_S^T/sqrt(C)]: same minimiser, cond not squared"),
    variant("ridge", "literal", "Cholesky of R + Z Z^T; + 1e-8 I only on a breakdown, as printed",
            literal=True),
    variant("ridge", "relative-ridge", "Cholesky of R + Z Z^T; + 1e-8 tr(H)/(|S|+1) I on a breakdown"),
)


# --------------------------------------------------------------------------- #
# validation and formation (shared with the system builder)
# --------------------------------------------------------------------------- #
def _support(N, n_support, support, rng):
    """The support set: given (validated, in the caller's order) or random of size n_support."""
    if support is not None:
        s = np.asarray(support)
        if s.ndim != 1 or s.size == 0 or s.dtype.kind not in "iu":
            raise ValueError(f"expected a non-empty 1-D array of integer indices for support, "
                             f"got support={support!r}")
        if s.min() < 0 or s.max() >= N or len(np.unique(s)) != s.size:
            raise ValueError(f"expected distinct indices in [0, {N}) for support, got support={support!r}")
        return s.astype(np.intp)
    n = max(1, int(np.ceil(0.1 * N))) if n_support is None else check_int("n_support", n_support,
                                                                          minimum=1)
    if n > N:
        raise ValueError(f"expected 1 <= n_support <= N = {N}, got n_support={n_support!r}")
    return np.sort(as_rng("rng", rng).choice(N, size=n, replace=False)).astype(np.intp)


#: Zhao & Sun's eq. (7) system (H, Z d, Z), formed once for every family in :mod:`.kkt`.
reduced_system = support_system


# --------------------------------------------------------------------------- #
# the two routes: Cholesky of H (with the ridge rule) and QR of M
# --------------------------------------------------------------------------- #
def _ridge_value(H, ridge, p):
    if ridge == "literal":
        return p.scalar(ABSOLUTE_RIDGE)
    return p.scalar(RIDGE_FACTOR) * np.trace(H) / p.scalar(H.shape[0])


def _solve_cholesky(H, rhs, ridge, p, diag):
    """Cholesky of H; on a breakdown add the ridge once and retry (§2, as printed)."""
    try:
        L = p.cholesky(H, check=False, lower=True)
        diag.update(ridge_applied=False, ridge=0.0)
        return L, p.cho_solve(L, rhs), H
    except CholeskyBreakdownError as err:
        first = err.record
    delta = _ridge_value(H, ridge, p)
    Hr = H.copy()
    i = np.arange(H.shape[0])
    Hr[i, i] = H[i, i] + delta
    visible = bool(np.any(Hr[i, i] != H[i, i]))
    diag.update(ridge_applied=True, ridge=float(delta), ridge_visible=visible,
                first_breakdown_step=int(first.step), first_breakdown_pivot=float(first.pivot))
    warnings.warn(f"reduced-lssvr: Cholesky of R + ZZ^T broke down in {p.name} at step {first.step}; "
                  f"adding {float(delta):.3g} I ({ridge})"
                  + ("" if visible else ", which does not change H in this precision"), FallbackWarning,
                  stacklevel=4)
    L = p.cholesky(Hr, check=False, lower=True)  # a second breakdown propagates: the caller records it
    return L, p.cho_solve(L, rhs), Hr


def householder_lstsq(M, b, p):
    """Least-squares solution of min ||M x - b||_2 by Householder QR in precision ``p``.

    Parameters
    ----------
    M : (m, n) array, m >= n;  b : (m,) array;  p : Precision

    Returns
    -------
    x : (n,) array
        In p's dtype.
    r_diag : (n,) array
        |R_kk| of the triangular factor (min/max is a free lower bound on 1/cond(M)).

    Notes
    -----
    float32/float64: LAPACK geqrf through ``scipy.linalg.qr`` (economic) and
    trtrs.  Other precisions: the same Householder algorithm written with
    NumPy operations on p's dtype (2 m n^2 - 2 n^3/3 flops).  Backward stable:
    x solves a least-squares problem with ||dM_j|| <= c m n u ||M_j||
    (Higham Thm 20.3).
    """
    R, y = qr_r(p.asarray(M), p, p.asarray(b))
    r_diag = np.abs(np.diag(R))
    x = p.solve_triangular(np.triu(R), y, lower=False)
    return x, r_diag


def _kernel_root(S, C, p, Z, diag):
    """B = L_S^T / sqrt(C) with K = K_SS = L_S L_S^T (Cholesky).

    When K_SS is semidefinite in the precision (its Cholesky breaks down) the
    root of K_SS + delta I is taken, delta = |S| u max K_ii times 10^k for the
    first k = 0, 1, ... that factors (recorded as ``root_jitter``).  A
    truncated (pivoted, rank-r) root was tried first and rejected: it drops
    the penalty alpha^T K alpha on the numerically null directions of K_SS,
    along which Z^T is also nearly singular, and alpha then grows without
    bound (measured: objective (6) 1e10 times its minimum on sinc,
    sigma2 = 50, |S| = 20, float64).  The jitter keeps every direction
    penalized by at least delta / C, a relative perturbation of K of order n u.
    """
    sq = p.sqrt(p.asarray(np.array([0.0])) + p.reciprocal(C))[0]
    n = len(S)
    # K_SS is a block of the rectangular kernel K(X_S, X), whose GEMM rows need not be
    # bit-symmetric: mirror its lower triangle (each entry is one of its two roundings)
    K = mirror_lower(np.array(Z[1:, S], copy=True))
    base = p.scalar(n * p.unit_roundoff) * max(np.diagonal(K))
    for k in range(12):
        delta = base * p.scalar(10.0 ** k) if k else p.scalar(0)
        Kj = K.copy()
        if k:
            i = np.arange(n)
            Kj[i, i] = K[i, i] + delta
        try:
            L = p.cholesky(Kj, check=False, lower=True)
        except CholeskyBreakdownError:
            continue
        diag.update(root="cholesky" if not k else "cholesky+jitter", root_jitter=float(delta))
        return L.T * sq
    return p.cholesky(Kj, check=False, lower=True).T * sq  # 10^11 n u max K_ii did not factor: the breakdown propagates


def _solve_lstsq(X, d, S, kernel, C, p, Z, diag):
    B = _kernel_root(S, C, p, Z, diag)
    r, N = B.shape[0], X.shape[0]
    M = p.zeros((N + r, len(S) + 1))
    M[:N] = Z.T
    M[N:, 1:] = B
    rhs = p.zeros(N + r)
    rhs[:N] = p.asarray(d)
    theta, r_diag = householder_lstsq(M, rhs, p)
    rd = np.array([float(v) for v in r_diag])
    diag.update(ridge_applied=False, ridge=0.0, stacked_rows=int(N + r),
                r_diag_ratio=float(rd.min() / rd.max()) if rd.max() > 0 else 0.0)
    return theta


# --------------------------------------------------------------------------- #
# system builder and solver
# --------------------------------------------------------------------------- #
def _builder_system(X, y, fit, **params):
    """The system (7) a ``reduced-lssvr`` fit solved (registry ``system=``).

    Returns ``(H, Z d, unpack)`` in ``fit.precision`` on ``fit.support_``,
    formed as the solver formed them; when the fit added a ridge, H carries
    it (the system actually solved).  ``unpack(theta) = {"coef": theta[1:],
    "bias": theta[0]}``; ``unpack(fit.diagnostics["solution"])`` is the fit.
    ``params`` override ``fit.params`` (C, kernel parameters, task).
    """
    merged = fit_params(fit, params)
    X, y, k, p = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                             kernel=fit.kernel, precision=fit.precision)
    with p.context():
        H, rhs, _ = support_system(X, y, fit.support_, k, merged["C"], p)
        if fit.diagnostics.get("ridge_applied"):
            i = np.arange(H.shape[0])
            H[i, i] = H[i, i] + _ridge_value(H, merged.get("ridge", "literal"), p)

    def unpack(theta):
        theta = np.asarray(theta)
        return {"coef": theta[1:], "bias": theta[0]}

    return H, rhs, unpack


def exact_reduced_model(X, y, fit, **params):
    """Exact model of a reduced-lssvr fit (registry ``exact_model=``): (7) on ``fit.support_``.

    Every ``ridge`` variant has this one exact model: problem (6) without the
    fallback ridge (which is a choice of the solve, not of the problem).  The
    random support comes from the seed, not the arithmetic: no choices to
    compare.  Problem condition: kappa_2(M) of (7) as sqrt(kappa_inf(H))
    (:func:`formation.reduced_lssvr_problem`).
    """
    merged = fit_params(fit, params)
    X, y, _, _ = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                             kernel=fit.kernel, precision="float64")
    return reduced_lssvr_problem(X, y, fit.kernel, merged["C"], fit.support_)


def _example(X, y, task, rng) -> dict:
    """A quarter of the points as support set, seeded."""
    return {"n_support": max(2, len(y) // 4), "rng": int(rng.integers(2 ** 31))}


@register("reduced-lssvr", tasks=("regression", "classification"), paper="zhao-sun",
          equations="(6)-(8)", variants=_VARIANTS, system=_builder_system,
          example=_example, exact_model=exact_reduced_model,
          ladder=(LadderKnob("n_support", SUPPORT_FRACTIONS, per_point=True,
                             note="|S| = n_support: the columns K(X, X_S) become dependent as |S| grows "
                                  "(kappa(M) rises, kappa(H) = kappa(M)^2); C only weights K_SS / C, which "
                                  "vanishes at large C, so C alone leaves kappa(H) where |S| puts it"),
                  NEAR_DUPLICATES), peak=REDUCED_PEAK, time=REDUCED_TIME)
def fit_reduced_lssvr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                      task="regression", n_support=None, support=None, rng=None, ridge="lstsq"):
    """Reduced LSSVR (Zhao & Sun eq. 7): w on a support set S, all N residuals kept.

    Parameters
    ----------
    X : (N, n) array_like, y : (N,) array_like
        Training data (read only); classification: labels in {-1, +1}.
    precision : str or Precision
    C : float > 0
        Zhao & Sun's C (weight of the squared errors).
    kernel, sigma2, degree, t
        Kernel; RBF exp(-||x-z||^2/sigma2), sigma2 = 2 gamma^2 of the paper.
    task : {"regression", "classification"}
        Classification regresses the +-1 labels; the label is sign f(x).
    n_support : int in [1, N], optional
        Size of a random support set (default ceil(N/10), RSVM's 10 %).
    support : sequence of int, optional
        The support set itself (overrides n_support and rng).
    rng : numpy.random.Generator or int, optional
        Seed of the random support set.
    ridge : {"lstsq", "literal", "relative-ridge"}
        The solve of (7); see the module docstring.

    Returns
    -------
    Fit
        ``coef_`` = alpha (|S|,), ``bias_`` = b, ``support_`` = S.
        ``diagnostics``: ``solution`` = theta = [b; alpha], ``system_order``,
        ``ridge_applied``, ``ridge`` (value added, 0 if none), and after a
        breakdown ``ridge_visible`` (whether fl(h_ii + ridge) != h_ii for some
        i), ``first_breakdown_step`` / ``_pivot``; lstsq: ``root`` (how K_SS
        was factored), ``r_diag_ratio`` (min/max |R_kk|, >= 1/cond(M)).
        ``status="breakdown"`` when the Cholesky fails again after the ridge.

    Raises
    ------
    ValueError, TypeError
        Bad X, y, C, kernel parameters, n_support outside [1, N], a bad
        support, an unknown ridge (the message names the argument).

    Notes
    -----
    Cost: |S| N kernel evaluations; formation of H (|S|+1)^2 N; Cholesky
    |S|^3/3, or QR 2 (N+|S|) |S|^2.  cond(H) = cond(M)^2 (module docstring).
    """
    X, y, k, p = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                             precision=precision)
    check_choice("ridge", ridge, RIDGES)
    S = _support(X.shape[0], n_support, support, rng)
    timer = PhaseTimer()
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "ridge": ridge}
    diag = {"system_order": len(S) + 1, "ridge_rule": ridge}
    REDUCED_PEAK.ensure(X.shape[0], p, r=len(S), what="reduced-lssvr")
    with p.context():
        with timer("formation"):
            H, rhs, Z = support_system(X, y, S, k, C, p)
        try:
            with timer("solve"):
                if ridge == "lstsq":
                    theta = _solve_lstsq(X, y, S, k, C, p, Z, diag)
                else:
                    _, theta, _ = _solve_cholesky(H, rhs, ridge, p, diag)
        except CholeskyBreakdownError as err:
            return breakdown_fit("reduced-lssvr", p, err, X=X, kernel=k, timer=timer, support=S,
                                 diagnostics=diag, params=params)
        with timer("conditioning"):
            cond = matrix_conditioning(H, p, matrix="H = R + Z Z^T (7)")
    diag["solution"] = readonly(theta)
    return make_fit("reduced-lssvr", p, coef=theta[1:].copy(), bias=theta[0], support=S, X=X,
                    kernel=k, timer=timer, diagnostics=diag, params=params, conditioning=cond)

