"""The mpN engine of Householder QR (:func:`.qr.householder_qr`): the same reflections on FLINT
matrices."""
from __future__ import annotations

import numpy as np
from flint import arb_mat

from ..arith.flint_engine import LIB, Window, address, to_arb_mat, to_objects
from ..arith.flint_factor import householder_inplace

__all__ = ['householder_qr']


def householder_qr(A: np.ndarray, b, *, prec: int, ctx, zero):
    """(R, y): R of A = Q R (n x n, strict lower part exactly ``zero``) and y = (Q^T b)[:n] (None
    without b), by :func:`linalg.qr.householder_qr`'s reflections on FLINT matrices (midpoints at
    ``prec`` bits; each rank-1 update two ``arb_mat_approx_mul`` and a subtraction)."""
    m, n = A.shape
    M = to_arb_mat(A)
    B = None if b is None else to_arb_mat(b)
    householder_inplace(M, prec, B)
    R = arb_mat(n, n)
    with Window(M, 0, 0, n, n) as top:
        LIB.arb_mat_set(address(R), top)
    out = to_objects(R, ctx)
    out[np.tril_indices(n, -1)] = zero
    y = None
    if B is not None:
        Y = arb_mat(n, 1)
        with Window(B, 0, 0, n, 1) as top:
            LIB.arb_mat_set(address(Y), top)
        y = to_objects(Y, ctx, shape=(n,))
    return out, y
