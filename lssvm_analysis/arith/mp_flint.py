"""mpN on FLINT: the same numbers as :class:`~lssvm_analysis.arith.mp.MPPrecision` (mpf of a
private context at N digits), the dense primitives computed by FLINT at N digits' bits
(:mod:`.flint_engine`: products, Cholesky, triangular and LU solves, eigenvalues, exp), each
result rounded once to the context.  ``MPPrecision(N)`` is one of these when libflint loads.
"""
from __future__ import annotations

import numpy as np

from . import flint_engine, flint_mrsr
from .base import Precision
from .mp import MPPrecision

__all__ = ["FlintPrecision"]


class FlintPrecision(MPPrecision):
    """mpN whose primitives FLINT computes (``engine == "flint"``)."""

    engine = "flint"

    def __reduce__(self):  # the registry's mpN
        return Precision.__reduce__(self)

    def _fl(self):
        return {"prec": self.ctx.prec, "ctx": self.ctx}

    def _cholesky(self, A, *, overwrite=False):
        return flint_engine.cholesky(A, name=self.name, zero=self.scalar(0), **self._fl())

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        return flint_engine.solve_triangular(T, self.asarray(b), lower=lower, trans=trans, **self._fl())

    def lu_factor(self, A, *, overwrite=False):
        return flint_engine.lu_factor(self.asarray(A), name=self.name, **self._fl())

    def lu_solve(self, LU, perm, b, *, trans=False):
        return flint_engine.lu_solve(LU, perm, self.asarray(b), trans=trans, **self._fl())

    def matmul(self, A, B):
        return flint_engine.matmul(self.asarray(A), self.asarray(B), **self._fl())

    def operator(self, A):
        """V -> A @ V with A converted to FLINT once (:func:`flint_engine.operator`); each product
        rounds every entry once, as :meth:`matmul` does."""
        return flint_engine.operator(self.asarray(A), **self._fl())

    def column_sumsq(self, K):
        """:func:`flint_engine.column_sumsq` (each square and each column sum rounded once), or the
        generic (K * K).sum(axis=0) with the mpmath engine."""
        return flint_engine.column_sumsq(self.asarray(K), **self._fl())

    def rank_one_sum(self, H):
        return flint_engine.rank_one_sum(self.asarray(H), **self._fl())

    def krylov(self, A):
        """:class:`flint_engine.Krylov` (vectors and scalars kept in FLINT between the steps, A
        converted once), or the generic space with the mpmath engine."""
        if callable(A):
            return super().krylov(A)
        return flint_engine.Krylov(self.asarray(A), **self._fl())

    def keep(self, A):
        return flint_engine.keep(self.asarray(A))

    def center_columns(self, A, *, overwrite=False):
        """:func:`flint_engine.center_columns` (A is never written), or the generic code with mpmath."""
        return flint_engine.center_columns(self.asarray(A), **self._fl())

    def diagonal_factorizer(self, G):
        """:class:`flint_engine.DiagonalFactorizer` on G, checked once (finite; only its lower triangle,
        the one a factorization reads, is used)."""
        G = self._prepare(G, "G", check=True, symmetric=False)
        return flint_engine.DiagonalFactorizer(G, prec=self.ctx.prec, name=self.name)

    def panel(self, G):
        return flint_engine.Panel(G, **self._fl())

    def keep_columns(self, A, cols, previous=None):
        return flint_engine.keep_columns(self.asarray(A), cols, previous)

    def keep_prefix(self, A, k, previous=None):
        return flint_engine.keep_prefix(self.asarray(A), k, previous)

    def bordered_inverse(self, inv, m2, ps):
        return flint_engine.bordered_inverse(inv, self.asarray(m2), ps, **self._fl())

    def householder_engine(self, A, b=None):
        """The same reflections on FLINT matrices (:func:`flint_engine.householder_qr`), or None with
        the mpmath engine."""
        return flint_engine.householder_qr(self.asarray(A), None if b is None else self.asarray(b),
                                     zero=self.scalar(0), **self._fl())

    def keep_leading(self, A, k, previous=None):
        return flint_engine.keep_leading(self.asarray(A), k, previous)

    def rbf_kernel_exact(self, Xp, Zp, sigma2):
        """:func:`flint_engine.rbf` (exact squared distances, one rounding in the division, one in
        exp), or None with the mpmath engine."""
        return flint_engine.rbf(Xp, Zp, sigma2, **self._fl())

    def pivoted_rbf(self, Xp, sigma2, rank, *, clamp, keep_columns):
        """:class:`flint_engine.PivotedRBF` (G and the residual diagonal stay in FLINT between the steps;
        the kernel columns are :meth:`rbf_kernel_exact`'s), or None with the mpmath engine."""
        return flint_engine.PivotedRBF(Xp, sigma2, rank, clamp=clamp, keep_columns=keep_columns, **self._fl())

    def _engine(self):
        return {**self._fl(), "unit_roundoff": self.unit_roundoff}

    def qr_engine(self, n, capacity):
        return flint_mrsr.ColumnQR(n, capacity, **self._engine())

    def mrsr_engine(self, Xp, Tp, scale, capacity, variant):
        return flint_mrsr.MRSRState(Xp, Tp, scale, capacity, variant, **self._engine())

    def press_engine(self, D, l, capacity, variant):
        return flint_mrsr.PressState(D, self.asarray(l), capacity, variant, **self._engine())

    def project_out(self, A, q, *, passes=2):
        return flint_mrsr.project_out(self.asarray(A), self.asarray(q), passes, **self._fl())

    def column_norms(self, A):
        return flint_mrsr.column_norms(self.asarray(A), **self._fl())

    def divide_columns(self, A, s):
        return flint_mrsr.divide_columns(self.asarray(A), self.asarray(s), **self._fl())

    def exp(self, a):
        return flint_engine.exp(self.asarray(a), **self._fl())

    def eigh(self, A, *, check=True):
        """FLINT's QR algorithm, orthonormalised and Rayleigh quotients (:func:`flint_engine.eigh`);
        mpmath's ``eigsy`` when FLINT returns a non-finite value."""
        Ap = self._prepare(A, "A", check=True, symmetric=True) if check else self.asarray(A)
        if Ap.size:
            out = flint_engine.eigh(Ap, **self._fl())
            if out is not None:
                return out
        return super().eigh(A, check=check)

    def eigvalsh(self, A):
        A = self._prepare(A, "A", check=True, symmetric=True)
        if A.size:
            ev = flint_engine.eigvalsh(A, **self._fl())
            if ev is not None:
                return ev
        return self._eigsy_values(A)
