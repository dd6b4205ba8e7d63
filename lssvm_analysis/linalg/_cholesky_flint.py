"""The mpN engines of the outer-product Cholesky recurrences (:mod:`.incomplete_cholesky`): the
factor's columns kept in FLINT as written (:class:`Panel`), and the greedy pivoted Cholesky of an
RBF kernel with its whole state in FLINT (:class:`PivotedRBF`); chosen by ``p.engine == "flint"``."""
from __future__ import annotations

import flint
import numpy as np
from flint import arb, arb_mat, fmpz_mat

from ..arith.flint_engine import LIB, Window, address, augmented_integers, register_twin, to_arb_mat, to_objects

__all__ = ['Panel', 'PivotedRBF']


class Panel:
    """Columns written one at a time into an object array G, kept in FLINT beside it.

    The outer-product Cholesky recurrences (:mod:`~lssvm_analysis.linalg.incomplete_cholesky`)
    need G[:, :r] @ G[j, :r] at step r: :func:`matmul` on the object array would
    convert the m x r panel again at every step (O(m N^2) conversions for N
    steps, 1.0 of the 1.8 CPU-s of a selection at m = 200, N = 100).  Here each
    column is converted once, when it is written, and the product runs on
    windows of the kept ``arb_mat`` (``arb_mat_approx_mul``, the same call on
    the same numbers as :func:`matmul`: the same result, bit for bit).
    """

    def __init__(self, G: np.ndarray, *, prec: int, ctx):
        self.G, self.prec, self.ctx = G, prec, ctx
        self.M = arb_mat(G.shape[0], G.shape[1])   # zeros, as the unwritten columns of G

    def set(self, r: int, g: np.ndarray) -> None:
        """G[:, r] = g (an object array of mpf), here and in the FLINT form."""
        self.G[:, r] = g
        col = to_arb_mat(np.asarray(g))
        with Window(self.M, 0, r, self.M.nrows(), r + 1) as W:
            LIB.arb_mat_set(W, address(col))

    def times_row(self, r: int, j: int) -> np.ndarray:
        """G[:, :r] @ G[j, :r] (shape (m,)), one rounding per entry."""
        m = self.M.nrows()
        v = arb_mat(r, 1)
        out = arb_mat(m, 1)
        with Window(self.M, j, 0, j + 1, r) as row, Window(self.M, 0, 0, m, r) as A:
            LIB.arb_mat_transpose(address(v), row)
            LIB.arb_mat_approx_mul(address(out), A, address(v), self.prec)
        return to_objects(out, self.ctx, shape=(m,))


class PivotedRBF:
    """The state of the greedy pivoted Cholesky of an RBF kernel, kept in FLINT between steps.

    The steps of :func:`~lssvm_analysis.linalg.incomplete_cholesky.pivoted_cholesky`
    (the loop, its pivot rule and stop rules stay there) on midpoints at
    ``prec`` bits: G (m x rank) and the residual diagonal d (m x 1) are
    ``arb_mat``, and step r is the outer-product recurrence
    g = (K[:, j] - G[:, :r] G[j, :r]^T) / sqrt(d_j) (``arb_mat_approx_mul``,
    one rounding per entry), g = 0 on the earlier pivots, g_j = sqrt(d_j),
    d <- d - g^2 (``arb_mat_mul_entrywise``, then clamped at 0 with d_j = 0
    when ``clamp``), each operation rounded once.  The kernel column K[:, j]
    is :func:`rbf`'s (exact squared distances from the integers the points
    scale to, one rounding in the division, one in exp), bit for bit.  The
    trace of d is one product with a row of ones (one rounding).  Per step:
    m (r + d + 3) multiply-adds in FLINT and O(m) exps and float conversions;
    G is converted to ``mpf`` once, by :meth:`result`, where the generic path
    converts G[:, :r] at every step (O(m r^2) conversions of ~1-3 us each).
    """

    def __init__(self, Xp: np.ndarray, sigma2, rank: int, *, clamp: bool, keep_columns: bool, prec: int, ctx):
        U, W, e0 = augmented_integers(Xp, None)
        self.U, self.W, self.m, self.prec, self.ctx, self.clamp = fmpz_mat(U), W, len(U), prec, ctx, clamp
        with flint.ctx.workprec(prec):
            self.scale = -arb(sigma2) * arb(2) ** (-2 * e0)
        self.G = arb_mat(self.m, rank)
        self.d = arb_mat(self.m, 1, [1] * self.m)   # K(x, x) = 1 exactly
        self.ones = arb_mat(1, self.m, [1] * self.m)
        self.cols = [] if keep_columns else None
        self._read()

    def _read(self):
        """d's entries, and as float64 (the pivot's argmax)."""
        self.ent = self.d.entries()
        self.floats = np.array([float(v) for v in self.ent])

    def column(self, j: int) -> arb_mat:
        """K[:, j] as an m x 1 ``arb_mat`` of midpoints (:func:`rbf` with Z = X[j:j + 1])."""
        D = self.U * fmpz_mat(len(self.W[j]), 1, self.W[j])
        with flint.ctx.workprec(self.prec):
            ent = (arb_mat(D) / self.scale).mid().entries()
            return arb_mat(self.m, 1, [e.exp().mid() for e in ent])

    def residuals(self) -> np.ndarray:
        return self.floats

    def positive(self, j: int) -> bool:
        return bool(self.ent[j] > 0)

    def trace(self) -> float:
        """e^T d, rounded once, as float64."""
        t = arb_mat(1, 1)
        LIB.arb_mat_approx_mul(address(t), address(self.ones), address(self.d), self.prec)
        return float(t[0, 0])

    def step(self, r: int, j: int, done) -> float:
        """Pivot j as column r of G; returns sqrt(d_j) as float64."""
        m, prec, d = self.m, self.prec, address(self.d)
        kcol = self.column(j)
        if self.cols is not None:
            self.cols.append(kcol)
        with flint.ctx.workprec(prec):
            s = self.ent[j].sqrt().mid()
            g = kcol
            if r:
                row, u, g = arb_mat(r, 1), arb_mat(m, 1), arb_mat(m, 1)
                with Window(self.G, j, 0, j + 1, r) as Gj:
                    LIB.arb_mat_transpose(address(row), Gj)
                with Window(self.G, 0, 0, m, r) as Gr:
                    LIB.arb_mat_approx_mul(address(u), Gr, address(row), prec)
                LIB.arb_mat_sub(address(g), address(kcol), address(u), prec)
                LIB.arb_mat_get_mid(address(g), address(g))
            g = (g / s).mid()
        zero = arb(0)
        for i in done:   # eliminated rows: an exact zero, so G[pivots] is exactly lower triangular
            g[i, 0] = zero
        g[j, 0] = s      # d_j / s = s; recomputed as (K_jj - ||G_j||^2) / s it cancels
        with Window(self.G, 0, r, m, r + 1) as Gc:
            LIB.arb_mat_set(Gc, address(g))
        LIB.arb_mat_mul_entrywise(address(g), address(g), address(g), prec)   # g^2
        LIB.arb_mat_get_mid(address(g), address(g))
        LIB.arb_mat_sub(d, d, address(g), prec)
        LIB.arb_mat_get_mid(d, d)
        self._read()
        if self.clamp:   # d_j = 0 and d_i = max(d_i, 0); an entry whose float is > 0 is > 0
            for i in [j] + [int(i) for i in np.flatnonzero(self.floats <= 0)]:
                if i == j or self.ent[i] < 0:
                    self.d[i, 0] = self.ent[i] = zero
                    self.floats[i] = 0.0
        return float(s)

    def result(self, r: int):
        """(G (m x r), the kernel columns (m x r, or m x 0), number of d_i < 0) as mpf; G read-only
        with its FLINT form registered (:func:`twin`: the products that follow convert nothing)."""
        Gr = arb_mat(self.m, r)
        if r:
            with Window(self.G, 0, 0, self.m, r) as W:
                LIB.arb_mat_set(address(Gr), W)
        G = register_twin(to_objects(Gr, self.ctx), Gr)
        if self.cols is None:
            cols = np.empty((self.m, 0), dtype=object)
        else:
            cols = np.empty((self.m, len(self.cols)), dtype=object)
            for t, c in enumerate(self.cols):
                cols[:, t] = to_objects(c, self.ctx, shape=(self.m,))
        return G, cols, sum(1 for v in self.ent if v < 0)
