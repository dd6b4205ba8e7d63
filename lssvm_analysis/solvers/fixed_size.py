"""FS-LSSVM: fixed-size LS-SVM (Suykens et al. 2002 ch. 6; LS-SVMlab v1.8), Chen & Zhou's baseline.

1. M prototypes maximising the quadratic Renyi entropy
   ``H_R = -log(1/M^2 sum_ij k(x_i, x_j))`` by seeded random swaps: a random
   working-set member against a random outside point, kept when H_R grows
   (the sum only changes in one row/column, so a swap costs O(M d)).  Run in
   float64 whatever the precision: it is a data-selection heuristic, and
   every precision then fits on the same prototypes.
2. Nystrom features ``phi(x) = Lambda^{-1/2} U^T k_M(x)`` from the eigendecomposition
   ``K_MM = U Lambda U^T`` in the precision; eigenpairs with
   ``lambda <= eig_floor * lambda_max`` are dropped (``Lambda^{-1/2}`` would
   amplify their rounding noise; default floor ``M u``, the relative accuracy
   of the computed eigenvalues): ``features="floored"``.  ``features="literal"``
   is the formula as printed, ``Lambda^{-1/2}`` of every computed eigenvalue:
   a computed eigenvalue below ``M u lambda_max`` is rounding noise (its
   relative error is >= 1, it may even be <= 0), and ``lambda^{-1/2}``
   multiplies that noise into a feature column of size up to
   ``(M u)^{-1/2}`` times the others (a non-positive one gives a NaN or
   infinite feature: status "overflow").
3. Primal ridge with bias (C = 1/(m lambda) = LS-SVMlab's gamma):
   ``[[Phi^T Phi + I/C, Phi^T e], [e^T Phi, m]] [w; b] = [Phi^T y; e^T y]``, solved
   by eliminating b: ``(Phi_c^T Phi_c + I/C) w = Phi_c^T (y - mean y)``,
   ``b = mean(y) - mean(Phi) w`` (centred columns, as SR-LSSVM's J), Cholesky.
4. ``coef_ = U Lambda^{-1/2} w`` on the prototypes, so ``Fit.predict`` is
   ``sum_M coef_i k(x_i, x) + b``.

Chen & Zhou criticise (§1) that only the working set's entropy is evaluated;
that is what LS-SVMlab does and what is done here.

References
----------
J.A.K. Suykens et al., Least Squares Support Vector Machines (2002) §6.4;
K. De Brabanter et al., LS-SVMlab toolbox v1.8 (2011), ``kentropy``, ``AFEm``.
"""
from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.validation import as_matrix, as_rng, check_finite, check_int, short_repr
from ..linalg.condest import Conditioning
from ..core.exceptions import CholeskyBreakdownError
from ._common import breakdown_fit, make_fit, validate_xy
from .peaks import FS_PEAK
from .times import FS_TIME
from ._registry import SUPPORT_FRACTIONS, LadderKnob, register, variant
from .chen_zhou import default_n_support
from .exact_chen_zhou import exact_fs_model
from .kkt import add_ridge, formed_kappa
from .result import PhaseTimer
from .sparsity import coefficient_counts

__all__ = ["fit_fslssvm", "renyi_prototypes", "ridge_system", "RidgeSystem", "MAX_SWAPS_PER_POINT", "FS_FRACTIONS"]

#: Upper bound of n_swaps per training pattern (documented in :func:`renyi_prototypes`).
MAX_SWAPS_PER_POINT = 1000


def renyi_prototypes(X, kernel, n_prototypes, *, n_swaps=None, rng=0):
    """Prototype indices maximising the quadratic Renyi entropy by random swaps.

    Parameters
    ----------
    X : (m, d) float64 array
    kernel : Kernel
    n_prototypes : int in 1..m
    n_swaps : int in [0, 1000 m], optional
        Swap attempts (default 20 M); at most ``MAX_SWAPS_PER_POINT`` m, each
        pattern proposed 1000 times on average (O(M d) each: 10^12 ran for hours).
    rng : int or numpy.random.Generator
        Seed (or generator) of the initial working set and of the swaps.

    Returns
    -------
    idx : (M,) int array
    entropy : float
        H_R of the final working set.
    n_accepted : int
    """
    rng = as_rng("rng", rng)
    X = np.asarray(as_matrix(X, "X", allow_object=False), dtype=np.float64)
    check_finite(X, "X")  # once: the swaps evaluate rows of X unchecked
    m, M = X.shape[0], n_prototypes
    n_swaps = 20 * M if n_swaps is None else check_int("n_swaps", n_swaps, minimum=0,
                                                       maximum=MAX_SWAPS_PER_POINT * m)
    idx = rng.choice(m, M, replace=False)
    inside = np.zeros(m, dtype=bool)
    inside[idx] = True
    W = X[idx]  # the working set's rows, kept equal to X[idx]
    # row sums of K_WW (checked: its memory bounds the rows'); two arrays, as the swaps' kernels
    # are called: NumPy computes W @ W.T of one array by SYRK, in another summation order
    rows = np.sum(kernel(X[idx], X[idx]), axis=1)
    total = float(np.sum(rows))
    accepted = 0
    row = kernel.unchecked  # the same numbers as kernel(...), without checks per 1 x M row
    if M < m:
        for _ in range(n_swaps):
            i = int(rng.integers(M))
            j = int(rng.integers(m))
            if inside[j]:
                continue
            k_old = row(X[idx[i]:idx[i] + 1], W)[0]
            k_new = row(X[j:j + 1], W)[0]
            kjj = 1.0 if kernel.unit_diagonal else float(row(X[j:j + 1])[0, 0])
            # S' = S - 2 rows[i] + k_ii + 2 (sum_{l != i} k_jl) + k_jj
            new_row = float(np.sum(k_new) - k_new[i]) + kjj
            new_total = total - 2 * rows[i] + k_old[i] + 2 * (new_row - kjj) + kjj
            if new_total < total:  # entropy -log(S / M^2) grows
                rows += k_new - k_old
                rows[i] = new_row
                inside[idx[i]], inside[j] = False, True
                idx[i] = j
                W[i] = X[j]
                total = new_total
                accepted += 1
    return idx.copy(), float(-np.log(total / M ** 2)), accepted


def _sqrt_any(lam, prec):
    """sqrt of each eigenvalue in ``prec``; NaN for a non-positive one (the literal form's failure)."""
    pos = np.array([v > 0 for v in lam], dtype=bool)
    root = prec.sqrt(np.where(pos, lam, prec.scalar(1)))
    return np.where(pos, root, prec.scalar(float("nan")))


@dataclass(frozen=True, eq=False)
class RidgeSystem:
    """The primal ridge system of step 3 as formed in the working precision (:func:`ridge_system`).

    Attributes
    ----------
    A : (k, k) array or None
        Phi_c^T Phi_c + I/C (k features kept); None when the literal features
        are not finite (a computed eigenvalue <= 0).
    rhs : (k,) array or None
        Phi_c^T (y - mean y).
    V : (M, k) array
        U Lambda^{-1/2} (the Nystrom map on the prototypes).
    mu : (k,) array
        Column means of Phi (b = ybar - mu w).
    ybar : scalar
        Mean of y.
    diagnostics : dict
        ``n_features``, ``eig_min_kept``.
    """

    A: Any
    rhs: Any
    V: Any
    mu: Any
    ybar: Any
    diagnostics: dict


def ridge_system(X, y, idx, kernel, prec, C, *, floor, features="floored") -> RidgeSystem:
    """Form steps 2-3 (module docstring) in ``prec``, on the prototypes ``idx``: the fit's own formation.

    Parameters
    ----------
    X : (m, d) float64 array
    y : (m,) float64 array
    idx : (M,) int array
        Prototype rows.
    kernel : Kernel
    prec : Precision
        Every operation runs in it (call inside ``prec.context()``).
    C : float > 0
    floor : float >= 0
        Relative eigenvalue floor of ``features="floored"``.
    features : {"floored", "literal"}

    Returns
    -------
    RidgeSystem
    """
    lam, U = prec.eigh(kernel(X[idx], precision=prec), check=False)
    if features == "literal":  # every computed eigenvalue, rounding noise included
        keep = np.arange(len(lam))
    else:
        keep = np.flatnonzero(np.array([v > floor * lam[-1] for v in lam]))
    with np.errstate(invalid="ignore", divide="ignore"):  # literal: sqrt(<= 0) -> NaN/inf
        V = U[:, keep] / _sqrt_any(lam[keep], prec)  # U Lambda^{-1/2}
    diag = {"n_features": int(keep.size), "eig_min_kept": float(lam[keep[0]]) if keep.size else float("nan")}
    if not np.isfinite(prec.to_float64(V)).all():
        return RidgeSystem(None, None, V, None, None, diag)
    m = len(y)
    Phi = kernel(X, X[idx], precision=prec) @ V
    mu = np.sum(Phi, axis=0) / prec.scalar(m)
    Phi -= mu
    yp = prec.asarray(y)
    ybar = np.sum(yp) / prec.scalar(m)
    return RidgeSystem(add_ridge(Phi.T @ Phi, C, prec), Phi.T @ (yp - ybar), V, mu, ybar, diag)


def _conditioning(kappa):
    return Conditioning(kappa, "float64 eigenvalues of the formed matrix", "A = Phi_c^T Phi_c + I/C (step 3)", norm=2)


#: The kappa ladder's support-size rungs of fs-lssvm: the top one, M = 0.9 m, passes 1/u of float64.
#: Measured at C = 1e16 (sinc, m = 30, sigma2 = 10): M = 24, 27, 28, 30 give problem kappa 2.1e13,
#: 3.6e16, 5.5e18, 1.4e21 (mp50, exact model certified to 34 - 41 digits); float64 breaks down at M =
#: 27.  Not M = 28 or m: they would put the row above every other row's top (5e17).
FS_FRACTIONS = (*SUPPORT_FRACTIONS, 0.9)


@register("fs-lssvm", tasks=("regression", "classification"), paper="chen-zhou",
          equations="Suykens et al. 2002 §6.4 (fixed-size LS-SVM, LS-SVMlab)",
          variants=(variant("features", "floored", "Lambda^{-1/2} of the eigenvalues above M u lambda_max only"),
                    variant("features", "literal", "Lambda^{-1/2} of every computed eigenvalue, as printed",
                            literal=True)),
          exact_model=exact_fs_model,
          ladder=(LadderKnob("n_support", FS_FRACTIONS, per_point=True,
                             note="M = n_support prototypes: Lambda^{-1/2} of K_MM and the Nystrom features "
                                  "grow as lambda_min(K_MM) falls with M; the default 0.05 m keeps M tiny "
                                  "whatever C"),), peak=FS_PEAK, time=FS_TIME)
def fit_fslssvm(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                task="regression", n_support=None, n_swaps=None, rng=0, eig_floor=None,
                features="floored"):
    """FS-LSSVM: Renyi-entropy prototypes, Nystrom features, primal ridge with bias.

    Parameters
    ----------
    X : (m, d) array_like
    y : (m,) array_like
        Targets or labels in {-1, +1} (least squares on the labels).
    precision : str or Precision
        Features, eigendecomposition and ridge solve run in it (the prototype
        search in float64, module docstring).
    C : float > 0
        1/(m lambda) (LS-SVMlab's gamma).
    kernel, sigma2, degree, t
        RBF sigma2 = 1/sigma of Chen & Zhou.
    task : {"regression", "classification"}
    n_support : int in 1..m, optional
        M, the working-set size (default floor(0.05 m), as SR-LSSVM's r).
    n_swaps : int in [0, 1000 m], optional
        Entropy swap attempts (default 20 M; bound: :func:`renyi_prototypes`).
    rng : int or numpy.random.Generator, default 0
        Seed of the prototype search (the registry's random keyword: sweeps
        pass one drawn from the task's seed).
    eig_floor : float >= 0, optional
        Relative eigenvalue floor (default M u; ``features="floored"`` only).
    features : {"floored", "literal"}
        Drop the eigenpairs below the floor (stable), or keep every computed
        one, ``Lambda^{-1/2}`` as printed (module docstring, item 2).

    Returns
    -------
    Fit
        ``coef_`` (M,) on ``support_`` = the prototypes; diagnostics
        ``entropy``, ``swaps_accepted``, ``n_features`` (eigenpairs kept),
        ``eig_min_kept``, ``kappa_A`` (kappa_2 of the ridge matrix A as
        formed, from its float64 eigenvalues, :func:`kkt.formed_kappa`; also
        the fit's condition estimate), counts of zeros / significant
        coefficients.
        Cholesky breakdown of the ridge matrix -> status "breakdown".

    Raises
    ------
    ValueError, TypeError
        Bad input, naming the argument.

    Notes
    -----
    Cost O(n_swaps M d) selection, O(M^3) eigendecomposition, O(m M^2) ridge;
    memory O(m M).
    """
    X, y, k, prec = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                                precision=precision)
    m = len(y)
    M = default_n_support(m) if n_support is None else check_int("n_support", n_support, minimum=1)
    if M > m:
        raise ValueError(f"expected n_support in 1..m = 1..{m}, got n_support={n_support!r}")
    if eig_floor is not None and (isinstance(eig_floor, bool) or not isinstance(eig_floor, numbers.Real)):
        raise TypeError(f"expected a real number eig_floor >= 0, got eig_floor={short_repr(eig_floor)}")
    floor = M * prec.unit_roundoff if eig_floor is None else float(eig_floor)
    if eig_floor is not None and not (np.isfinite(floor) and floor >= 0):
        raise ValueError(f"expected a finite eig_floor >= 0, got eig_floor={eig_floor!r}")
    if features not in ("floored", "literal"):
        raise ValueError(f"expected features in ('floored', 'literal'), got features={features!r}")
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "n_support": M, "eig_floor": floor,
              "features": features}
    timer = PhaseTimer()
    FS_PEAK.ensure(m, prec, r=M, what="fs-lssvm")
    with timer("selection"):
        idx, entropy, acc = renyi_prototypes(X, k, M, n_swaps=n_swaps, rng=rng)
    with prec.context():
        with timer("formation"):
            sys_ = ridge_system(X, y, idx, k, prec, C, floor=floor, features=features)
            diag = {"entropy": entropy, "swaps_accepted": acc, **sys_.diagnostics}
            if sys_.A is None:  # literal: a computed eigenvalue <= 0
                nan = prec.asarray(np.full(M, np.nan))
                return make_fit("fs-lssvm", prec, coef=nan, bias=nan[0], support=idx, X=X, kernel=k,
                                timer=timer, diagnostics=diag, params=params, overflow_phase="formation")
        with timer("conditioning"):
            diag["kappa_A"] = formed_kappa(sys_.A, definite=True)
        try:
            with timer("factorization"):
                # no feature above the floor (K_MM = 0: a zero linear kernel): w is empty, f = ybar
                L = prec.cholesky(sys_.A, check=False) if np.size(sys_.A) else None
        except CholeskyBreakdownError as err:
            return breakdown_fit("fs-lssvm", prec, err, X=X, kernel=k, timer=timer, support=idx,
                                 diagnostics=diag, params=params)
        with timer("solve"):
            w = prec.cho_solve(L, sys_.rhs) if L is not None else sys_.rhs
            b = sys_.ybar - sys_.mu @ w
            coef = sys_.V @ w
    diag.update(coefficient_counts(coef, m))
    return make_fit("fs-lssvm", prec, coef=coef, bias=b, support=idx, X=X, kernel=k, timer=timer,
                    diagnostics=diag, params=params, conditioning=_conditioning(diag["kappa_A"]))
