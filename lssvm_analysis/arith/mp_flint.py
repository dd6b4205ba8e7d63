"""mpN on FLINT: the same numbers as :class:`~lssvm_analysis.arith.mp.MPPrecision` (mpf of a
private context at N digits), the dense primitives computed by FLINT at N digits' bits
(:mod:`.flint_engine`: products, Cholesky, triangular and LU solves, eigenvalues, exp), each
result rounded once to the context.  ``MPPrecision(N)`` is one of these when libflint loads.
"""
from __future__ import annotations

from . import flint_arb, flint_engine, flint_factor
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
        return flint_factor.cholesky(A, name=self.name, zero=self.scalar(0), **self._fl())

    def solve_triangular(self, T, b, *, lower=True, trans=False):
        return flint_factor.solve_triangular(T, self.asarray(b), lower=lower, trans=trans, **self._fl())

    def lu_factor(self, A, *, overwrite=False):
        return flint_factor.lu_factor(self.asarray(A), name=self.name, **self._fl())

    def lu_solve(self, LU, perm, b, *, trans=False):
        return flint_factor.lu_solve(LU, perm, self.asarray(b), trans=trans, **self._fl())

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

    def keep(self, A):
        return flint_engine.keep(self.asarray(A))

    def center_columns(self, A, *, overwrite=False):
        """:func:`flint_engine.center_columns` (A is never written), or the generic code with mpmath."""
        return flint_engine.center_columns(self.asarray(A), **self._fl())

    def diagonal_factorizer(self, G):
        """:class:`flint_factor.DiagonalFactorizer` on G, checked once (finite; only its lower triangle,
        the one a factorization reads, is used)."""
        G = self._prepare(G, "G", check=True, symmetric=False)
        return flint_factor.DiagonalFactorizer(G, prec=self.ctx.prec, name=self.name)

    def keep_columns(self, A, cols, previous=None):
        return flint_engine.keep_columns(self.asarray(A), cols, previous)

    def keep_prefix(self, A, k, previous=None):
        return flint_engine.keep_prefix(self.asarray(A), k, previous)

    def keep_leading(self, A, k, previous=None):
        return flint_engine.keep_leading(self.asarray(A), k, previous)

    def project_out(self, A, q, *, passes=2):
        return flint_arb.project_out(self.asarray(A), self.asarray(q), passes, **self._fl())

    def column_norms(self, A):
        return flint_arb.column_norms(self.asarray(A), **self._fl())

    def divide_columns(self, A, s):
        return flint_arb.divide_columns(self.asarray(A), self.asarray(s), **self._fl())

    def exp(self, a):
        return flint_engine.exp(self.asarray(a), **self._fl())

    def eigh(self, A, *, check=True):
        """FLINT's QR algorithm, orthonormalised and Rayleigh quotients (:func:`flint_factor.eigh`);
        mpmath's ``eigsy`` when FLINT returns a non-finite value."""
        Ap = self._prepare(A, "A", check=True, symmetric=True) if check else self.asarray(A)
        if Ap.size:
            out = flint_factor.eigh(Ap, **self._fl())
            if out is not None:
                return out
        return super().eigh(Ap, check=False)   # checked above, once

    def eigvalsh(self, A, *, check=True):
        A = self._prepare(A, "A", check=check, symmetric=True)
        if A.size:
            ev = flint_factor.eigvalsh(A, **self._fl())
            if ev is not None:
                return ev
        return self._eigsy_values(A)
