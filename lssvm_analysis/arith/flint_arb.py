"""Small operations on python-flint ``arb_mat`` midpoints at a precision's bits, each result entry
rounded once (``arb_mat_approx_mul`` products, windows, copies), and the whole-matrix column
primitives of mpN on FLINT built on them (:meth:`Precision.project_out`, ``column_norms``,
``divide_columns``).  The engines of :mod:`~lssvm_analysis.linalg` (MRSR, PRESS, the column-append
QR) are written with these."""
from __future__ import annotations

import numpy as np
import flint
from flint import arb, arb_mat

from ._libflint import GET_D, LIB, Window, address, doubles, set_block
from .flint_engine import column_sumsq_arb, register_twin, to_arb_mat, to_float64, to_objects, twin

__all__ = ['mul', 'mul_window', 'transpose', 'dot', 'vcat', 'column', 'leading', 'floats', 'as_column', 'kept', 'objects_of', 'project_out', 'column_norms', 'divide_columns']


def mul(A: arb_mat, B: arb_mat, prec: int) -> arb_mat:
    """A B, one rounding per entry (``arb_mat_approx_mul``)."""
    C = arb_mat(A.nrows(), B.ncols())
    LIB.arb_mat_approx_mul(address(C), address(A), address(B), prec)
    return C


def mul_window(M: arb_mat, r1: int, c1: int, B: arb_mat, prec: int) -> arb_mat:
    """M[:r1, :c1] B through a window (no copy of the block), one rounding per entry."""
    C = arb_mat(r1, B.ncols())
    with Window(M, 0, 0, r1, c1) as w:
        LIB.arb_mat_approx_mul(address(C), w, address(B), prec)
    return C


def transpose(A: arb_mat) -> arb_mat:
    T = arb_mat(A.ncols(), A.nrows())
    LIB.arb_mat_transpose(address(T), address(A))
    return T


def dot(x: arb_mat, y: arb_mat, prec: int) -> arb:
    """x^T y of two columns, rounded once."""
    return mul(transpose(x), y, prec)[0, 0]


def vcat(A: arb_mat, x: arb_mat) -> arb_mat:
    """[A; x] (exact copies)."""
    out = arb_mat(A.nrows() + x.nrows(), x.ncols())
    if A.nrows():
        set_block(out, 0, 0, A)
    set_block(out, A.nrows(), 0, x)
    return out


def column(M: arb_mat, j: int) -> arb_mat:
    out = arb_mat(M.nrows(), 1)
    with Window(M, 0, j, M.nrows(), j + 1) as w:
        LIB.arb_mat_set(address(out), w)
    return out


def leading(M: arb_mat, r: int, c: int) -> arb_mat:
    """M[:r, :c] as a copy."""
    out = arb_mat(r, c)
    if r and c:
        with Window(M, 0, 0, r, c) as w:
            LIB.arb_mat_set(address(out), w)
    return out


def floats(M: arb_mat, ctx, idx=None) -> np.ndarray:
    """The entries of M (midpoints, row by row; ``idx``: those of these row-major positions) as
    float64, each rounded to nearest (as ``float(mpf)``): ``arf_get_d`` on each entry in place
    (python-flint's ``float(arb)`` truncates), or through mpf objects when the layout check at
    import failed."""
    r, c = M.nrows(), M.ncols()
    idx = range(r * c) if idx is None else idx
    if not GET_D:
        return to_float64(to_objects(M, ctx, shape=(r * c,)))[np.asarray(idx, dtype=np.intp)]
    return doubles(M, idx)


def as_column(x) -> arb_mat:
    """An object vector (n,) or an ``arb_mat`` column as an ``arb_mat`` column."""
    return x if isinstance(x, arb_mat) else to_arb_mat(np.asarray(x))


def kept(a) -> arb_mat:
    """The FLINT form of an object array: its registered twin, a copy of the columns of its base's
    twin when ``a`` is a column range ``base[:, c0:c1]`` of a kept array, else a conversion."""
    if not isinstance(a, np.ndarray):
        return to_arb_mat(a)
    M = twin(a)
    if M is not None:
        return M
    base = a.base
    MB = twin(base) if isinstance(base, np.ndarray) else None
    if MB is not None and a.ndim == 2 and base.ndim == 2 and a.strides == base.strides and \
            a.shape[0] == base.shape[0] and a.shape[1] and base.strides[1] > 0:
        offset = a.__array_interface__["data"][0] - base.__array_interface__["data"][0]
        c0, rest = divmod(offset, base.strides[1])
        if rest == 0 and 0 <= c0 and c0 + a.shape[1] <= base.shape[1]:
            out = arb_mat(a.shape[0], a.shape[1])
            with Window(MB, 0, c0, a.shape[0], c0 + a.shape[1]) as w:
                LIB.arb_mat_set(address(out), w)
            return out
    return to_arb_mat(a)


def objects_of(balls, ctx) -> list:
    """mpf of ``ctx`` from a list of arb midpoints."""
    if not balls:
        return []
    return list(to_objects(arb_mat(len(balls), 1, balls), ctx, shape=(len(balls),)))


def project_out(A: np.ndarray, q: np.ndarray, passes: int, *, prec: int, ctx) -> np.ndarray:
    """A <- A - q (q^T A), ``passes`` times: each q^T A entry one ``arb_mat_approx_mul`` dot
    product, each q_i c_j product and each difference rounded once; returned kept
    (:func:`.flint_engine.keep`), the passes in between never leaving FLINT."""
    M, Q = kept(A), to_arb_mat(q)
    QT = transpose(Q)
    for _ in range(passes):
        P = mul(Q, mul(QT, M, prec), prec)
        C = arb_mat(P.nrows(), P.ncols())
        LIB.arb_mat_sub(address(C), address(M), address(P), prec)
        LIB.arb_mat_get_mid(address(C), address(C))
        M = C
    return register_twin(to_objects(M, ctx), M)


def column_norms(A: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """sqrt(sum_i A_ij^2) per column: squares rounded once each, each column sum one
    ``arb_mat_approx_mul`` entry (a row of ones times the squares), a rounded sqrt."""
    sums = column_sumsq_arb(kept(A), prec).entries()
    with flint.ctx.workprec(prec):
        return np.array(objects_of([s.sqrt().mid() for s in sums], ctx), dtype=object)


def divide_columns(A: np.ndarray, s: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """A / s (column j by s_j, each quotient rounded once), returned kept (:func:`.flint_engine.keep`)."""
    out = divide_columns_arb(kept(A), to_arb_mat(np.asarray(s)).entries(), prec)
    return register_twin(to_objects(out, ctx), out)


def divide_columns_arb(M: arb_mat, s: list, prec: int) -> arb_mat:
    out = arb_mat(M.nrows(), M.ncols())
    with flint.ctx.workprec(prec):
        for j, sj in enumerate(s):
            set_block(out, 0, j, (column(M, j) / sj).mid())
    return out
