"""PRESS: leave-one-out residuals of least squares over nested column sets (OP-LSSVM's step 2).

The PRESS statistic (Myers; Miche et al., OP-ELM) of the least-squares fit on
the first k columns of a matrix, for every k at once, from a QR factor updated
by column append or, as Vieira et al. print it, from (D_k^T D_k)^{-1} updated
by bordering.  Used by :func:`lssvm_analysis.solvers.vieira.fit_op_lssvm`.

References
----------
R.H. Myers, Classical and Modern Regression with Applications, 2nd ed., 1990.
Y. Miche et al., OP-ELM: optimally pruned extreme learning machine,
IEEE Trans. Neural Networks 21 (2010) 158-162.
"""
from __future__ import annotations

import numpy as np

from ..arith.precision import get_precision
from ._press_flint import PressState
from .mrsr import ColumnQR, bordered_inverse

__all__ = ["press_curve"]


def press_curve(D, l, cols, *, variant="qr", first=1, precision="float64"):
    """PRESS leave-one-out MSE of the least-squares fit on D[:, cols[:k]] for every k.

    Parameters
    ----------
    D : (N, m) array, l : (N,) array
        In the precision.
    cols : sequence of int
        Columns in order of entry.
    variant : {"qr", "normal-equations"}
        Hat diagonal h_ii = ||Q_k[i, :]||^2 from a CGS2 QR updated by column
        append, or from (D_k^T D_k)^{-1} updated by bordering (as printed).
    first : int
        The curve starts at k = first (earlier columns, e.g. a forced bias,
        are always in).
    precision : str or Precision

    Returns
    -------
    press : (len(cols) - first + 1,) float64
        mean_i (e_i / (1 - h_ii))^2; inf where 1 - h_ii < 10 eps for some
        row (guarded) or where the factor broke down.
    guarded : (same,) int
        Number of rows with 1 - h_ii < 10 eps at each k.
    qr : ColumnQR or None
        The factor (``variant="qr"``), for reuse by the final solve.
    stop : int or None
        The k at which the factor stopped (dependent column or p_s <= 0).

    Notes
    -----
    PRESS residual e_i / (1 - h_ii) = l_i - d_i^T z_(-i), the residual of row
    i under the fit without row i (Sherman-Morrison).  The updates cost
    O(N k) per column, so the whole curve costs O(N k_max^2).
    """
    p = get_precision(precision)
    with p.context():
        return _press(D, l, list(cols), variant, first, p)


def _press(D, l, cols, variant, first, p):
    tol = 10 * 2 * p.unit_roundoff
    press, guarded, stop = [], [], None
    if p.engine == "flint":   # the hat diagonal and residuals kept in FLINT between the steps
        st = PressState(D, p.asarray(l), len(cols), variant, prec=p.ctx.prec, ctx=p.ctx,
                        unit_roundoff=p.unit_roundoff)
    else:
        st = _ArrayState(D, l, len(cols), variant, p)
    for i, c in enumerate(cols):
        if not st.add(c):
            stop = i
            break
        if i + 1 < first:
            continue
        one_minus, e = st.terms()
        bad = one_minus < tol
        guarded.append(int(bad.sum()))
        if bad.any():
            press.append(np.inf)
        else:
            press.append(float(np.mean((e / one_minus) ** 2)))
    n_total = len(cols) - first + 1
    press += [np.inf] * (n_total - len(press))
    guarded += [-1] * (n_total - len(guarded))
    return np.array(press), np.array(guarded), st.factor, stop


class _ArrayState:
    """h (the hat diagonal) and e (the residuals) of the nested fits as arrays of the precision.

    The interface of :class:`._press_flint.PressState` (the mpN engine):
    ``add(c)`` (False when the factor refuses column c), ``terms()`` ((1 - h, e) as float64),
    ``factor`` (the QR factor, or None).
    """

    def __init__(self, D, l, capacity, variant, p):
        self.p, self.D, self.l = p, D, l
        self.h, self.e = p.zeros(D.shape[0]), l.copy()
        self.factor = ColumnQR(D.shape[0], capacity, p) if variant == "qr" else None
        self.inv, self.done, self.Dk = None, [], None

    def add(self, c):
        p, x, l, qr = self.p, self.D[:, c], self.l, self.factor
        if qr is not None:
            if not qr.append(x):
                return False
            q = qr.Q[:, qr.k - 1]
            self.h = self.h + q * q
            self.e = self.e - q * (q @ l)
            return True
        Dk, inv = self.Dk, self.inv
        if self.done:
            M1 = p.matmul(Dk.T, x)
            M2 = p.matmul(inv, M1)
            v = p.matmul(Dk, M2) - x
            ps = x @ x - M1 @ M2
        else:
            M2, v, ps = p.zeros(0), -x, x @ x
        if not (ps > 0) or not np.isfinite(float(ps)):
            return False
        self.inv = inv = bordered_inverse(p, inv, M2, ps)
        self.done.append(c)
        self.h = self.h + v * v / ps
        self.Dk = Dk = p.keep_columns(self.D, self.done, Dk)   # mpN: products convert only the vectors
        self.e = l - p.matmul(Dk, p.matmul(inv, p.matmul(Dk.T, l)))
        return True

    def terms(self):
        p = self.p
        return p.to_float64(p.scalar(1) - self.h), p.to_float64(self.e)
