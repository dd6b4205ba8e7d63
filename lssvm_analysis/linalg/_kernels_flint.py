"""The mpN engine of the RBF kernel (:mod:`.kernels`, "gemm" formation): exact squared distances
from the integers the points scale to, one rounding in the division, one in exp."""
from __future__ import annotations

import flint
import numpy as np
from flint import arb, arb_mat, fmpz_mat

from ..arith.flint_engine import augmented_integers, no_gc, objects

__all__ = ['rbf', 'RBF_BAND']


#: Rows of K computed per exact integer product (band) of :func:`rbf`.
RBF_BAND = 256


def rbf(X: np.ndarray, Z, sigma2, *, prec: int, ctx, band=RBF_BAND) -> np.ndarray:
    """exp(-||x_i - z_j||^2 / sigma2) as an object array of mpf (Z None: K(X, X), symmetric).

    By bands of ``band`` rows: one exact integer product (:func:`rbf_exponents`),
    for K(X, X) only on and left of the diagonal, then ``arb.exp`` of each
    exponent at ``prec`` bits, its midpoint kept.  K(X, X) shares the lower
    triangle's numbers with the upper one (mpf are immutable), K_ii = 1 exactly.
    """
    U, W, e0 = augmented_integers(X, Z)
    n, m = len(U), len(W)
    out = np.empty((n, m), dtype=object)
    one = ctx.mpf(1)
    with flint.ctx.workprec(prec), no_gc():
        scale = -arb(sigma2) * arb(2) ** (-2 * e0)
        for i0 in range(0, n, band):
            i1 = min(n, i0 + band)
            width = m if Z is not None else i1
            D = fmpz_mat(U[i0:i1]) * fmpz_mat(W[:width]).transpose()
            ent = (arb_mat(D) / scale).mid().entries()
            if Z is not None:
                out[i0:i1].reshape(-1)[:] = objects(ctx, map(arb.exp, ent))
                continue
            for i in range(i0, i1):
                k = (i - i0) * width
                row = objects(ctx, map(arb.exp, ent[k:k + i]))
                row.append(one)
                out[i, :i + 1] = row
                out[:i, i] = row[:i]
    return out
