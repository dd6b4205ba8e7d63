"""The bordered (KKT) system [[0, a^T], [a, H]] [b; x] = [0; d], assembled exactly in any precision.

:func:`bordered_matrix` builds the whole system from :func:`bordered_shell`,
:func:`set_border` and :func:`bordered_rhs`, which the dense Suykens solvers
use to form H in place.  (The other linear-algebra pieces have their own
modules: ``core.incomplete_cholesky``, ``core.cg``, ``core.qr``,
``core.symmetric``, ``core.condition``.)
"""
from __future__ import annotations

from .precision import get_precision

__all__ = ["bordered_matrix", "bordered_shell", "bordered_rhs", "set_border"]


def bordered_shell(n, precision):
    """The zero (n+1) x (n+1) matrix of a bordered system, in ``precision``; its
    ``[1:, 1:]`` block is where H goes (a solver may form H there in place)."""
    return get_precision(precision).zeros((n + 1, n + 1))


def set_border(A, a):
    """Write the border a into row 0 and column 0 of A (A[0, 0] stays 0); exact copies."""
    A[0, 1:] = a
    A[1:, 0] = a
    return A


def bordered_rhs(d, precision):
    """The right-hand side [0; d] of a bordered system, in ``precision``."""
    p = get_precision(precision)
    rhs = p.zeros(len(d) + 1)
    rhs[1:] = d
    return rhs


def bordered_matrix(H, a, d, precision):
    """The bordered (KKT) system [[0, a^T], [a, H]] [b; x] = [0; d] in ``precision``.

    The one assembly of Suykens' (3.24)-form systems (3.5, 3.32) and of
    Abe's bordered dual (eq. 4, 9-10), from :func:`bordered_shell`,
    :func:`set_border` and :func:`bordered_rhs` (which the dense Suykens
    solvers use to form H in place): the border is copied exactly, nothing
    is rounded.

    Parameters
    ----------
    H : (n, n) array in the precision
    a : (n,) array, the border
    d : (n,) array, the right-hand side of the second block row
    precision : str or Precision

    Returns
    -------
    A : (n+1, n+1) array, rhs : (n+1,) array
    """
    A = bordered_shell(H.shape[0], precision)
    A[1:, 1:] = H
    return set_border(A, a), bordered_rhs(d, precision)
