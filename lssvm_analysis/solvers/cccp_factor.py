"""The one factorisation of R-LSSVM-W/Y's CCCP (6): ``I + K/(m lambda)`` as printed, or by K's spectrum.

Chen & Zhou (§5) factor ``A = I + C K`` (``C = 1/(m lambda)``) once by
Cholesky and reuse the factor in every CCCP step (SEED_NOTES §3.2, §6:
"cond ~ 1 + 1/lambda up to 1e8+").  Two ways of applying ``A^{-1}``, the
values of the keyword ``solve`` of ``r-lssvm-w`` / ``r-lssvm-y``:

``"cholesky"`` (as printed)
    Form ``A = I + C K`` in the working precision, ``A = L L^T``.  Cholesky
    is backward stable: ``L L^T = A + dA`` with ``|dA| <= gamma_{m+1} |L||L^T|``
    (Higham Thm 10.3), so each solve has forward error ``<= c m u kappa_2(A)``.
    It *breaks down* once the rounding of the formed matrix is of the size
    of its smallest eigenvalue: A's diagonal ``1 + C K_ii`` rounds the 1 away
    when ``C K_ii > 1/u``, and the kernel's own rounding (``|dK| <= c u |K|``,
    ``||dK||_2 <= c m u ||K||_2``) gives the formed ``C K`` eigenvalues down
    to ``-c m u C ||K||``; with ``kappa_2(A) ~ 1 + C ||K||`` that is
    ``kappa_2(A) >~ 1/(c m u)`` (~1e5-1e6 in float32 at m = 30).

``"eigen"`` (stable)
    ``K = U Lambda U^T`` once by the symmetric eigensolver (LAPACK syevd;
    FLINT for mpN and (at 21 digits) for longdouble: ``Precision.eigh``),
    ``lambda_i <- max(lambda_i, u lambda_max)``, and
    ``A^{-1} b = U diag(1 / (1 + C lambda_i)) U^T b``.

Why ``"eigen"``, and what it does and does not gain
---------------------------------------------------
* Error bound.  The eigensolver is backward stable: ``U^ Lambda^ U^^T = K + dK``
  with ``||dK||_2 <= p(m) u ||K||_2`` and ``U^`` orthogonal to ``p(m) u``
  (Higham §14, Demmel §5.2).  Raising the computed eigenvalues to the floor
  ``u lambda_max`` moves each by at most ``u ||K||_2`` (computed eigenvalues of
  the PSD K below it are rounding: Weyl), so the floored spectrum is that of
  ``K + dK'`` with ``||dK'||_2 <= (p(m) + 1) u ||K||_2``, inside the same
  backward error as the kernel's own rounding (``||dK||_2 ~ sqrt(m) u max|K|``
  for an RBF kernel).  Applying ``U^ D U^^T`` costs two products (``m u``
  each, on near-orthogonal factors), which, as for the SVD solve of a linear
  system, is a backward error ``c m u ||A||``, not a forward one (Higham §20.5
  for the SVD).  Hence the same first-order bound ``c m u kappa_2(A)`` as the
  Cholesky solve, with a larger constant (the eigensolver's p(m)).
* Breakdown.  Every ``1 + C lambda_i >= 1``: the solve exists at every C.
  The floor caps what the solve amplifies at ``kappa_2 <= 1 + C lambda_max /
  (1 + C u lambda_max) < 1 + 1/u``: beyond ``kappa ~ 1/u`` the coefficients
  (whose error bound is then >= 1) stay finite and the predictions keep the
  digits their own, better, condition allows, where the printed form returns
  no model.  (Clamping at 0 instead was measured: the rounding eigenvalues
  then give ``alpha_i ~ C (y - gamma)_i`` and float32 predictions lose all
  digits from C = 1e10 on; with the floor they keep ~4.)  The 1 of
  ``1 + C lambda_i`` is added in each eigendirection, not to the diagonal
  where ``C K_ii`` swamps it.
* What no reformulation gains.  Every formulation evaluates K in the working
  precision (``|dK| <= c u |K|``).  The model's coefficients
  ``alpha = (K + I/C)^{-1} (y - gamma - b e)`` then move by
  ``delta alpha = -(K + I/C)^{-1} dK alpha``, of norm up to
  ``||(K + I/C)^{-1}|| ||dK|| ||alpha|| ~ C ||K|| u ||alpha|| = kappa u ||alpha||``
  (equality for dK along the eigenvector of K's smallest eigenvalue).  So
  the model error of *any* solve with a working-precision kernel is of order
  kappa u, the printed Cholesky already attains it, and the pair differs in
  breakdown, not in digits -- which is what the measurement shows
  (``tests/test_fragile_pairs.py``).  The rescaled system ``K + I/C`` (the
  other candidate of SEED_NOTES §6) is A / C: its Cholesky rounds the same
  ridge away at the same kappa and is not offered.
* Low-rank solves (Woodbury on a pivoted Cholesky of K) change the model by
  their truncation and keep the kernel's kappa u: not a reformulation of (6).

Cost: ``"cholesky"`` m^3/3 flops; ``"eigen"`` ~ 9 m^3 (syevd with vectors)
and 2 m^2 per solve, as the Cholesky solve; memory 2 m^2 (K and U).
"""
from __future__ import annotations

import numpy as np

from ..core.validation import all_finite
from ..linalg.condest import Conditioning, cholesky_conditioning
from ..arith.precision import get_precision
from ._registry import variant

__all__ = ["SOLVES", "CholeskyFactor", "SpectralFactor", "factor_a", "form_a"]

#: The ``solve`` variants of r-lssvm-w / r-lssvm-y: the printed Cholesky of I + C K first (default).
SOLVES = (variant("solve", "cholesky", "A = I + K/(m lambda) formed and factored once by Cholesky (§5), "
                  "as printed", literal=True),
          variant("solve", "eigen", "K = U Lambda U^T once, A^{-1} = U diag(1/(1 + C max(lambda, "
                  "u lambda_max))) U^T: no breakdown, the ridge added per eigendirection"))


def form_a(K, C, prec):
    """A = I + C K (6) in the precision, as printed (a new array; K untouched).

    Raises ValueError naming C when C or C K overflows the precision (float32 C=1e308 was
    "expected finite values in A" from the Cholesky, naming an array the user never gave).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        A = K * prec.scalar(C)
    if not all_finite(A):
        raise ValueError(f"expected C with C K finite in {prec.name} (the printed form A = I + C K, "
                         f"solve='cholesky'), got C={C!r}, which overflows it (use solve='eigen' or a "
                         f"wider precision)")
    idx = np.arange(A.shape[0])
    A[idx, idx] = A[idx, idx] + prec.scalar(1)
    return A


class CholeskyFactor:
    """A = I + C K = L L^T (printed form); ``solve(b)`` = A^{-1} b; ``conditioning`` (LAPACK pocon)."""

    def __init__(self, K, C, prec):
        A = form_a(K, C, prec)
        self.prec = prec
        self.L = prec.cholesky(A, check=False)  # CholeskyBreakdownError: the caller's status
        self.conditioning = cholesky_conditioning(A, self.L, prec, matrix="A of (6), Suykens transform")

    def solve(self, b):
        return self.prec.cho_solve(self.L, b)


class SpectralFactor:
    """K = U Lambda U^T, A^{-1} = U diag(1/(1 + C max(lambda, u lambda_max))) U^T (module docstring)."""

    def __init__(self, K, C, prec):
        lam, U = prec.eigh(K, check=False)
        floor = prec.scalar(prec.unit_roundoff * max(float(lam[-1]), 0.0))
        lam = np.where(np.array([v > floor for v in lam], dtype=bool), lam, floor)
        self.prec, self.U = prec, prec.keep(U)   # two products with U per solve: mpN converts it once
        r = prec.reciprocal(C)  # 1/(1 + C lambda) = r/(r + lambda): no overflow of C lambda
        self.d = r / (r + lam)
        top, low = float(lam[-1]), float(lam[0])
        kappa = (1.0 + C * top) / (1.0 + C * low)  # kappa_2(I + C K) of the computed spectrum
        self.conditioning = Conditioning(kappa, f"spectrum of K in {prec.name}", "A of (6), eigen solve", norm=2)

    def solve(self, b):
        U, p = self.U, self.prec
        c = p.matmul(U.T, b)   # U.T @ b itself for float32/64/longdouble; FLINT for mpN
        return p.matmul(U, c * self.d if c.ndim == 1 else c * self.d[:, None])


def factor_a(K, C, precision, solve):
    """The factor of A = I + C K (K in the precision) for ``solve`` in :data:`SOLVES`.

    Raises
    ------
    CholeskyBreakdownError
        ``solve="cholesky"`` and the formed A is not positive definite in the precision.
    ValueError
        Unknown ``solve`` (named).
    """
    if solve not in _FACTORS:
        raise ValueError(f"expected solve in {tuple(v.value for v in SOLVES)}, got solve={solve!r}")
    return _FACTORS[solve](K, C, get_precision(precision))


_FACTORS = {"cholesky": CholeskyFactor, "eigen": SpectralFactor}
