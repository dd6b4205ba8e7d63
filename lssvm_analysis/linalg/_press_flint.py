"""The mpN engine of PRESS (:func:`.press.press_curve`): the hat diagonal and residuals kept in
FLINT between the steps (see :mod:`._mrsr_flint`, whose column-append QR and bordered inverse it uses)."""
from __future__ import annotations

import numpy as np
import flint
from flint import arb_mat

from ..arith.flint_engine import LIB, address, set_block, to_arb_mat
from ..arith.flint_arb import column, dot, floats, kept, mul, mul_window, transpose
from ._mrsr_flint import ColumnQR, bordered_arb

__all__ = ['PressState']


class PressState:
    """The hat diagonal h and the residuals e of :func:`~lssvm_analysis.linalg.press.press_curve`
    in FLINT (see ``press._ArrayState``): "qr" updates them from the appended column q of a
    :class:`ColumnQR` (h += q^2, e -= q (q^T l)); "normal-equations" from the bordered inverse
    of D_k^T D_k (h += v^2 / p_s, v = D_k M2 - x; e = l - D_k (inv (D_k^T l)))."""

    def __init__(self, D, l, capacity, variant, *, prec, ctx, unit_roundoff):
        self.prec, self.ctx = prec, ctx
        self.D = kept(D)
        self.l = to_arb_mat(np.asarray(l))
        N = self.D.nrows()
        self.h, self.e = arb_mat(N, 1), arb_mat(self.l)
        self.ones = arb_mat(N, 1, [1] * N)
        self.qr = ColumnQR(N, capacity, prec=prec, ctx=ctx, unit_roundoff=unit_roundoff) \
            if variant == "qr" else None
        self.inv, self.k = arb_mat(0, 0), 0
        self.Dk, self.DkT = arb_mat(N, capacity), arb_mat(capacity, N)   # D_k, D_k^T (k used)

    def add(self, c: int) -> bool:
        """Column c of D enters; False when the factor refuses it (dependent, or p_s <= 0)."""
        prec, x = self.prec, column(self.D, c)
        with flint.ctx.workprec(prec):
            if self.qr is not None:
                if not self.qr.append(x):
                    return False
                q = self.qr.q
                qq = arb_mat(q.nrows(), 1)
                LIB.arb_mat_mul_entrywise(address(qq), address(q), address(q), prec)
                self.h = (self.h + qq.mid()).mid()
                self.e = (self.e - (q * dot(q, self.l, prec)).mid()).mid()
                return True
            return self._border(x)

    def _border(self, x) -> bool:
        prec = self.prec
        k, N = self.k, self.Dk.nrows()
        if k:
            M1 = mul_window(self.DkT, k, N, x, prec)
            M2 = mul(self.inv, M1, prec)
            v = (mul_window(self.Dk, N, k, M2, prec) - x).mid()
            ps = (dot(x, x, prec) - dot(M1, M2, prec)).mid()
        else:
            M2, v, ps = arb_mat(0, 1), -x, dot(x, x, prec)
        if not (ps > 0) or not ps.is_finite():
            return False
        self.inv = bordered_arb(self.inv, M2, ps, prec)
        vv = arb_mat(v.nrows(), 1)
        LIB.arb_mat_mul_entrywise(address(vv), address(v), address(v), prec)
        self.h = (self.h + (vv.mid() / ps).mid()).mid()
        set_block(self.Dk, 0, k, x)
        set_block(self.DkT, k, 0, transpose(x))
        self.k = k = k + 1
        inner = mul(self.inv, mul_window(self.DkT, k, N, self.l, prec), prec)
        self.e = (self.l - mul_window(self.Dk, N, k, inner, prec)).mid()
        return True

    def terms(self):
        """(1 - h, e) as float64."""
        with flint.ctx.workprec(self.prec):
            one_minus = (self.ones - self.h).mid()
        return floats(one_minus, self.ctx), floats(self.e, self.ctx)

    @property
    def factor(self):
        return self.qr
