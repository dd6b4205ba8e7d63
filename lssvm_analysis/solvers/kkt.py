"""The LS-SVM building blocks in the working precision: what every family forms, written once.

Every solver family and every analysis module that forms an LS-SVM system
in a working precision forms it from these pieces, so that the arithmetic
(and therefore the rounding) of a piece is the same wherever it is used.
(:mod:`lssvm_analysis.exact.formation` is the counterpart in
double-double for the exact models; nothing here rounds differently
from what a fit does.)

The pieces
----------
Ridge, :func:`ridge` / :func:`add_ridge` / :func:`add_ridge_symmetric`
    ``H + I/C`` (Suykens 3.5 / 3.32: ``Omega + I/gamma``; our C is
    Suykens' gamma), or ``H + diag(1/(C v_k))`` for the weighted LS-SVM
    (Suykens et al. 2002).  1/C is :meth:`Precision.reciprocal`, the one
    place it is inverted: divided in the precision itself, except in
    float32, where the float64 quotient ``1.0 / float(C)`` is rounded once
    (a C beyond float32's range gives a tiny 1/C, not 1/inf = 0).  The
    weighted ridge divides that 1/C by ``v_k`` in the precision.
    ``add_ridge_symmetric`` copies the lower triangle to the upper after
    the ridge (an exactly symmetric matrix for Abe's eq. 7 and eq. 11).
    Used by suykens (every dense solver), vieira (through
    :func:`lssvm_matrix`), robust (W-LSSVM), fixed_size (the Nystrom
    primal ridge ``Phi^T Phi + I/C``), abe (eq. 7 and 11),
    analysis.conditioning.suykens, analysis.validation and
    papers.abe.crossover_timing.
Bordered KKT, :func:`bordered_shell` / :func:`set_border` / :func:`bordered_rhs` / :func:`bordered_matrix`
    ``[[0, a^T], [a, H]] [b; x] = [0; d]``: Suykens (3.24) for (3.5) and
    (3.32), Abe's bordered dual (eq. 9-10), Vieira's D of eq. (4), the
    W-LSSVM refit's system and the leave-one-out matrix of
    :func:`analysis.validation.loo_residuals`.  The border is copied
    exactly; nothing is rounded.  The Suykens solvers form H inside the
    shell in place (no second N x N array).
Suykens' system, :func:`lssvm_matrix` / :func:`model_coef` / :func:`fisher_targets`
    ``H = Omega + I/C`` with the constraint vector a and the right-hand
    side d of each form: regression (3.32), classification (3.5, with
    ``Omega_kl = y_k y_l K_kl``, 3.6), LS-SVM_F (3.32 with the Fisher
    targets, §3.4.2) and zero bias (3.50).  Used by suykens and vieira.
Schur two-solve, :func:`two_solve` / :func:`eliminate`
    Suykens (3.25): with a Cholesky factor L of H, ``eta = H^{-1} a`` and
    ``nu = H^{-1} d`` by one two-column solve, then ``s = a^T eta``,
    ``b = a^T nu / s``, ``alpha = nu - eta b`` (derivation in the
    :mod:`~lssvm_analysis.solvers.suykens` docstring).  Used by suykens
    (lssvm-schur, lssvm-fisher; ``eliminate`` also after CG), abe (the
    dual, eq. 10) and robust (the W-LSSVM refit).
Kernel system of a support set, :func:`support_system`
    Zhao & Sun's eq. (7): ``Z = [1; K(X_S, X)]``, ``H = Z Z^T + diag(0, K_SS/C)``,
    right-hand side ``Z d``, exactly symmetric.  Used by zhao_sun
    (reduced LSSVR), papers.zhao_sun.kinds.
Condition of what was formed, :func:`formed_kappa`
    kappa_2 of a matrix as a solver formed it (rounded to float64, no mp
    escalation: a diagnostic of the fit, not a certified value), through
    :func:`~lssvm_analysis.linalg.condition.kappa2`, with the positive-definite
    reading for matrices that were formed to be SPD.  Used by vieira
    (cond(D_k) path), chen_zhou (kappa of J), papers.vieira.kinds and
    papers.zhao_sun.kinds.

References
----------
J.A.K. Suykens et al., *Least Squares Support Vector Machines*, World
Scientific 2002, ch. 3.  S. Abe, Sparse least squares support vector
training in the reduced empirical feature space, Pattern Anal. Appl. 10
(2007).  Y. Zhao, J. Sun, Recursive reduced least squares support vector
regression, Pattern Recognition 42 (2009).
"""
from __future__ import annotations

import math

import numpy as np

from ..linalg.condition import kappa2
from ..arith.precision import get_precision, precision_of
from ..arith.symmetric import mirror_lower
from ..exact.formation import bordered_matrix, bordered_rhs, bordered_shell, set_border
from ._common import check_binary_labels
from ._registry import LAPACK_THRESHOLD

__all__ = ["ridge", "add_ridge", "add_ridge_symmetric", "bordered_shell", "set_border", "bordered_rhs",
           "bordered_matrix", "fisher_targets", "lssvm_matrix", "model_coef", "two_solve", "two_solve_bound",
           "eliminate", "support_system", "formed_kappa", "FORMS"]

#: The forms of Suykens' system :func:`lssvm_matrix` builds.
FORMS = ("regression", "classification", "fisher", "zero-bias")


# ---------------------------------------------------------------------------
# The ridge
# ---------------------------------------------------------------------------
def ridge(C, precision, weights=None):
    """1/C (or the vector 1/(C v_k)) in ``precision``: the LS-SVM ridge.

    Parameters
    ----------
    C : float > 0
        The regularization weight (Suykens' gamma).
    precision : str or Precision
    weights : (n,) array_like, optional
        W-LSSVM weights v_k > 0; the ridge is then ``(1/C) / v_k``, divided
        in the precision.

    Returns
    -------
    scalar or (n,) array in the precision

    Notes
    -----
    1/C is :meth:`Precision.reciprocal` (float32: the float64 quotient
    rounded once; other precisions: divided in the precision).
    """
    p = get_precision(precision)
    r = p.reciprocal(C)
    return r if weights is None else r / p.asarray(weights)


def add_ridge(H, C, precision, *, weights=None):
    """H + I/C (or H + diag(1/(C v_k))) in place; returns H.

    Parameters
    ----------
    H : (n, n) array in the precision
        Overwritten on its diagonal only.
    C, precision, weights
        As :func:`ridge`.

    Returns
    -------
    H : the same array
    """
    idx = np.arange(H.shape[0])
    H[idx, idx] = H[idx, idx] + ridge(C, precision, weights)
    return H


def add_ridge_symmetric(A, C, precision):
    """A + I/C with the strict upper triangle copied from the lower (exact symmetry), in place.

    For matrices formed as products (Abe's H_c^T H_c of eq. 7, H_m H_m^T of
    eq. 11) whose two triangles may differ by rounding.
    """
    return mirror_lower(add_ridge(A, C, precision))




# ---------------------------------------------------------------------------
# Suykens' system (3.24) for each form
# ---------------------------------------------------------------------------
def fisher_targets(y, precision="float64") -> np.ndarray:
    """LS-SVM_F targets: ``+N/N_1`` for label +1 and ``-N/N_2`` for label -1 (§3.4.2).

    Parameters
    ----------
    y : (N,) array of {-1, +1}
    precision : str or Precision
        Each target is one division of the exact integers in this precision
        (a float64 quotient converted to mp50 would carry float64's 1e-16).

    Returns
    -------
    targets : (N,) array of the precision (they sum to zero up to its rounding)
    """
    y = np.asarray(y, dtype=np.float64)
    check_binary_labels(y)
    p = get_precision(precision)
    n, n1 = y.size, int(np.count_nonzero(y > 0))
    return p.asarray(np.where(y > 0, n, -n).astype(np.float64)) / p.asarray(
        np.where(y > 0, n1, n - n1).astype(np.float64))


def lssvm_matrix(X, y, kernel, p, C, form, timer, *, peak, bordered=False):
    """H = Omega + I/C formed in place, with the constraint vector a and rhs d.

    Parameters
    ----------
    X : (N, n) array, y : (N,) array
    kernel : Kernel
    p : Precision
    C : float > 0
    form : {"regression", "classification", "fisher", "zero-bias"}
        Regression (3.32), classification (3.5), LS-SVM_F (3.32 with
        :func:`fisher_targets`) or zero bias (3.50, ``a = None``).
    timer : PhaseTimer
        The kernel is timed as "kernel", the rest as "formation".
    peak : PeakMemory
        The calling solver's registered peak, checked before the kernel.
    bordered : bool
        Write the kernel straight into the (N+1) x (N+1) KKT matrix
        [[0, a^T], [a, H]] (3.24) and return that matrix in place of H.

    Returns
    -------
    A : (N, N) or (N+1, N+1) array, a : (N,) array or None, d : (N,) array
        In the precision.  Either way one N x N (or (N+1)^2) array is
        allocated: the kernel, the label signs and the ridge are applied
        to it in place.
    """
    n = X.shape[0]
    peak.ensure(n, p, what=f"a dense LS-SVM fit ({form})")
    with timer("kernel"):
        if bordered:
            A = bordered_shell(n, p)
            H = A[1:, 1:]
            kernel(X, precision=p, out=H)
        else:
            A = H = kernel(X, precision=p)
    with timer("formation"):
        ones = p.asarray(np.ones(n))
        if form == "classification":
            ys = p.asarray(y)
            p.scale_signs(H, ys)  # (3.6): Omega_kl = y_k y_l K_kl, sign flips, exact
            a, d = ys, ones
        else:
            a = None if form == "zero-bias" else ones
            d = fisher_targets(y, p) if form == "fisher" else p.asarray(y)
        add_ridge(H, C, p)
        if bordered:
            set_border(A, a)
    return A, a, d


def _signs_like(y, x):
    """The labels as multipliers in x's precision (exact: they are +-1)."""
    return precision_of(x).asarray(np.where(np.asarray(y) > 0, 1.0, -1.0))


def model_coef(alpha, y, form):
    """coef_ of the model from the KKT unknowns alpha: alpha * y for (3.5)-(3.7), alpha otherwise (3.34).

    Exact (y_k = +-1), so it also maps coef_ back to alpha.
    """
    return alpha * _signs_like(y, alpha) if form == "classification" else alpha


# ---------------------------------------------------------------------------
# The Schur two-solve (3.25)
# ---------------------------------------------------------------------------
def two_solve_bound(fit, n: int) -> float:
    """A-priori backward-error bound of the Schur route (registry ``backward_bound``): two
    backward-stable SPD solves, each with residual <= c n u ||H|| ||x|| (c = LAPACK's 30), and the
    KKT residual r_nu - b r_eta (:func:`two_solve`), so twice that."""
    return 2 * LAPACK_THRESHOLD * n * get_precision(fit.precision).unit_roundoff


def two_solve(L, a, d, precision):
    """eta = H^{-1} a and nu = H^{-1} d from the Cholesky factor L of H, one two-column solve.

    Parameters
    ----------
    L : (n, n) lower factor in the precision
    a, d : (n,) arrays in the precision
    precision : str or Precision

    Returns
    -------
    eta, nu : (n,) arrays
    """
    sol = get_precision(precision).cho_solve(L, np.stack([a, d], axis=1))
    return sol[:, 0], sol[:, 1]


def eliminate(eta, nu, a=None):
    """s = a^T eta, b = a^T nu / s, alpha = nu - eta b (Suykens 3.25); returns (alpha, b, s).

    Parameters
    ----------
    eta, nu : (n,) arrays in the precision
        H^{-1} a and H^{-1} d (:func:`two_solve`).
    a : (n,) array, optional
        The border; its products are dot products ``a @ x``.  None: the
        all-ones border e of Abe's eq. (10) and the W-LSSVM refit, whose
        products ``e^T x`` are summed by ``np.sum`` (pairwise summation: the
        same sum as ``e @ x`` in another order, so the two differ in the last
        bits; each solver keeps the order it has always used).

    Notes
    -----
    ``b`` is ``a^T nu / s`` rather than ``eta^T d / s`` (equal in exact
    arithmetic) so that the constraint row ``a^T alpha = 0`` holds to
    working accuracy (:mod:`~lssvm_analysis.solvers.suykens` docstring).
    """
    s = np.sum(eta) if a is None else a @ eta
    b = (np.sum(nu) if a is None else a @ nu) / s
    return nu - eta * b, b, s


# ---------------------------------------------------------------------------
# The kernel system of a support set (Zhao & Sun eq. 7)
# ---------------------------------------------------------------------------
def support_system(X, d, S, kernel, C, p):
    """H = R + Z Z^T and Z d of Zhao & Sun's eq. (7), exactly symmetric, in precision ``p``.

    Z = [1; K(X_S, X)] ((|S|+1) x N), R = diag(0, K_SS / C).

    Parameters
    ----------
    X : (N, n) float64 array, d : (N,) array
    S : (|S|,) int array
    kernel : Kernel
    C : float
    p : Precision

    Returns
    -------
    H : (|S|+1, |S|+1) array, rhs : (|S|+1,) array, Z : (|S|+1, N) array
    """
    N = X.shape[0]
    Z = p.zeros((len(S) + 1, N))
    Z[0] = p.scalar(1)
    Z[1:] = kernel(X[S], X, precision=p)
    H = p.matmul(Z, Z.T)   # Z @ Z.T itself for float32/64 and longdouble; FLINT for mpN
    H[1:, 1:] = H[1:, 1:] + Z[1:, S] * ridge(C, p)  # R = diag(0, K/C), K = K^[:, S]
    mirror_lower(H)
    return H, p.matmul(Z, p.asarray(d)), Z


# ---------------------------------------------------------------------------
# kappa_2 of what was formed
# ---------------------------------------------------------------------------
def formed_kappa(A, *, definite=False, indefinite="inf") -> float:
    """kappa_2 of a matrix as formed in the working precision (a diagnostic, float64 values).

    Parameters
    ----------
    A : (n, n) or (m, n) array in any registered precision
        Rounded to float64 (exact for float32).
    definite : bool
        A was formed to be symmetric positive definite (a Gram matrix, a
        ridge system): kappa = lambda_max / lambda_min, the algebraic
        extremes of the float64 eigenvalues of its lower triangle (what
        LAPACK's Cholesky reads).  Otherwise
        :func:`~lssvm_analysis.linalg.condition.kappa2` without mp escalation:
        max |lambda| / min |lambda| of a symmetric A, sigma_max / sigma_min
        of any other; inf when singular.
    indefinite : {"inf", "magnitude"}
        With ``definite``, what a computed lambda_min <= 0 (rounding made the
        formed matrix indefinite to float64's resolution) gives: inf, "not
        positive definite as formed" (chen_zhou's J, Vieira's Gram matrices),
        or lambda_max / |lambda_min|, the size of that rounding relative to
        lambda_max (where cond(H) saturates at ~1/u: Zhao & Sun's H);
        lambda_min = 0 gives inf either way.

    Returns
    -------
    float

    Notes
    -----
    One O(n^3) float64 eigen- or singular-value computation; the smallest
    value carries an absolute error ~ p(n) u64 ||A||_2 (Weyl), so values
    beyond ~1e14 are not resolved (call
    :func:`~lssvm_analysis.linalg.condition.kappa2` for the escalated estimate
    and its ``resolved`` flag).
    """
    if np.size(A) == 0:  # nothing formed (fs-lssvm with every eigenvalue below its floor): no condition
        return math.nan
    if not definite:
        return kappa2(A, escalate=False).value
    if indefinite not in ("inf", "magnitude"):
        raise ValueError(f"expected indefinite in ('inf', 'magnitude'), got indefinite={indefinite!r}")
    ev = np.linalg.eigvalsh(precision_of(A).to_float64(A))
    if ev[0] > 0 or (indefinite == "magnitude" and ev[0] != 0):
        return float(ev[-1] / abs(ev[0]))
    return math.inf
