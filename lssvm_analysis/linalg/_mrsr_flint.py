"""The mpN engine of MRSR and the column-append QR (PRESS's is :mod:`._press_flint`): their vectors kept in FLINT between steps.

:func:`~lssvm_analysis.linalg.mrsr.mrsr`, :func:`~lssvm_analysis.linalg.press.press_curve` and
the kept-column solves of OP-LSSVM run a loop whose every step is a handful of O(n) vector
operations and products with the matrices the loop grows (Q of a QR by column append, the
active columns, a bordered inverse).  On NumPy object arrays each of those operations is n
mpmath calls (~2 us each) and each product converts its vectors to FLINT and back (~1.5 us per
entry each way): 1.2 of the 1.6 CPU-s of an mp50 op-lssvm fit at n = 61.  Here the state of
each loop is ``arb_mat`` midpoints from start to end and a step is a few libflint calls:

* every vector operation is one FLINT operation on the whole vector, each entry rounded once
  at the precision's bits (``.mid()`` keeps the midpoint, as :mod:`~lssvm_analysis.arith.flint_engine` does everywhere);
  products and dot products are ``arb_mat_approx_mul`` (one rounding per entry: the dot
  product of a row and a column is rounded once, where NumPy's object loop rounds each partial
  sum);
* only what the loop's caller reads leaves FLINT: float64 correlations and PRESS terms, the
  recorded scalars, the coefficient path and the final solutions.

The loops themselves (order of entry, stop rules, records) stay in
:mod:`~lssvm_analysis.linalg.mrsr` and :mod:`~lssvm_analysis.linalg.press`: these classes are the
per-step state behind the same interface as the NumPy state classes there, chosen there by
``p.engine == "flint"``.
"""
from __future__ import annotations

import numpy as np
import flint
from flint import arb, arb_mat

from ..arith.flint_engine import LIB, Window, address, as_arb, no_gc, register_twin, set_block, to_arb_mat, to_objects, twin
from ..arith.flint_arb import (as_column, column, divide_columns_arb, dot, floats, kept, leading, mul, mul_window,
                                  objects_of, transpose, vcat)

__all__ = ['ColumnQR', 'MRSRState', 'bordered_inverse', 'bordered_arb']


def bordered_inverse(inv: np.ndarray, m2: np.ndarray, ps, *, prec: int, ctx) -> np.ndarray:
    """[[inv + m2 m2^T / ps, -m2 / ps], [-m2^T / ps, 1 / ps]] with the roundings of the NumPy formula
    (each entry: one product, one quotient, one sum), computed on ``arb_mat``s and returned kept
    (:func:`keep`): the next products with it convert nothing."""
    Minv = as_arb(inv) if len(m2) else arb_mat(0, 0)
    with flint.ctx.workprec(prec), no_gc():
        new = bordered_arb(Minv, to_arb_mat(m2), arb(ps), prec)
    return register_twin(to_objects(new, ctx), new)


def bordered_arb(Minv: arb_mat, V: arb_mat, s: arb, prec: int) -> arb_mat:
    """:func:`bordered_inverse` on FLINT operands (Minv k x k, V = m2 as k x 1, s = ps, midpoints)."""
    k = V.nrows()
    with flint.ctx.workprec(prec):
        B = (V / s).mid()
        new = arb_mat(k + 1, k + 1)
        if k:
            O = arb_mat(k, k)
            Vt = arb_mat(1, k)
            LIB.arb_mat_transpose(address(Vt), address(V))
            LIB.arb_mat_approx_mul(address(O), address(V), address(Vt), prec)
            top = (Minv + (O / s).mid()).mid()
            nB, nBt = -B, arb_mat(1, k)
            LIB.arb_mat_transpose(address(nBt), address(nB))
            for r0, c0, part in ((0, 0, top), (0, k, nB), (k, 0, nBt)):
                set_block(new, r0, c0, part)
        new[k, k] = (arb(1) / s).mid()
    return new


#: Below this magnitude a float64 image of a sum may be subnormal (its ratio not resolved).
_TINY = 2.0 ** -960


class ColumnQR:
    """:class:`~lssvm_analysis.linalg.mrsr.ColumnQR` (CGS2 column append) on FLINT matrices.

    The same steps: two projections c = Q_k^T v, v <- v - Q_k c, r <- r + c; ||v|| and ||x||
    (each a dot product rounded once, then a rounded sqrt); the column is refused when
    ||v|| <= n u ||x|| (``last_norm`` keeps ||v||); else q = v / ||v||.
    """

    def __init__(self, n: int, capacity: int, *, prec: int, ctx, unit_roundoff: float):
        self.n, self.capacity, self.prec, self.ctx = n, capacity, prec, ctx
        # Q and Q^T at full capacity: an append writes one column (row), the products read the
        # leading k through windows (growing copies cost O(n k) per append)
        self.Qm, self.QTm = arb_mat(n, capacity), arb_mat(capacity, n)
        self.Rm = arb_mat(capacity, capacity)
        self.k = 0
        self._tol = n * unit_roundoff
        self.last_norm = float("nan")
        self.q = None   # the last appended column (n x 1)

    def append(self, x) -> bool:
        """Append column ``x`` ((n,) object array or n x 1 ``arb_mat``); False when dependent."""
        prec, k, n = self.prec, self.k, self.n
        if k >= self.capacity:
            raise IndexError(f"expected at most capacity={self.capacity} columns, got a column {k + 1}")
        x = as_column(x)
        with flint.ctx.workprec(prec):
            v, r = arb_mat(x), arb_mat(k, 1)
            for _ in range(2):   # CGS2
                if k:
                    c = mul_window(self.QTm, k, n, v, prec)
                    v = (v - mul_window(self.Qm, n, k, c, prec)).mid()
                    r = (r + c).mid()
            nrm = dot(v, v, prec).sqrt().mid()
            xn = dot(x, x, prec).sqrt().mid()
            if not (float(nrm) > self._tol * float(xn)) or not nrm.is_finite():
                self.last_norm = float(nrm)
                return False
            q = (v / nrm).mid()
        set_block(self.Qm, 0, k, q)
        set_block(self.QTm, k, 0, transpose(q))
        self.q = q
        if k:
            set_block(self.Rm, 0, k, r)
        self.Rm[k, k] = nrm
        self.k = k + 1
        return True

    def append_column(self, A, j: int) -> bool:
        """Append ``A[:, j]`` (A an object array, kept or not: a kept one's column is copied)."""
        M = twin(A)
        return self.append(column(M, j) if M is not None else A[:, j])

    def qt(self, T: arb_mat) -> arb_mat:
        """q_k^T T for the last appended column q_k (1 x p, one rounding per entry)."""
        return mul(transpose(self.q), T, self.prec)

    def solve_arb(self, B: arb_mat, k: int) -> arb_mat:
        """R_k^{-1} B (B: k x p) by ``arb_mat_approx_solve_triu`` on R's leading k x k block."""
        X = arb_mat(k, B.ncols())
        with Window(self.Rm, 0, 0, k, k) as Rk:
            LIB.arb_mat_approx_solve_triu(address(X), Rk, address(B), 0, self.prec)
        return X

    def solve(self, T, k=None):
        """Least-squares solution R_k^{-1} Q_k^T T on the first ``k`` columns (T: (n,) or (n, p))."""
        k = self.k if k is None else k
        T = np.asarray(T)
        QT = leading(self.QTm, k, self.n)
        X = self.solve_arb(mul(QT, to_arb_mat(T), self.prec), k)
        return to_objects(X, self.ctx, shape=(k,) + T.shape[1:])

    @property
    def Q(self) -> np.ndarray:
        """Q (n x capacity, zeros past column k) as an object array."""
        return to_objects(self.Qm, self.ctx)

    @property
    def R(self) -> np.ndarray:
        return to_objects(self.Rm, self.ctx)


class MRSRState:
    """The vectors of :func:`~lssvm_analysis.linalg.mrsr.mrsr` in FLINT (see ``mrsr._ArrayState``).

    Xn (n x m, the columns of Xp divided by ``scale``, or Xp for None), T (n x p), Y (n x p), the active columns' coefficients
    W_A (k x p, in order of entry), the correlations C = Xn^T (T - Y) and the factor: a
    :class:`ColumnQR` with Q^T T grown by a row per step ("qr"), or the bordered inverse of
    X_A^T X_A with X_A^T T ("bordered-inverse").
    """

    def __init__(self, Xp, Tp, scale, capacity, variant, *, prec, ctx, unit_roundoff):
        self.prec, self.ctx = prec, ctx
        self.X = kept(Xp)
        if scale is None:
            scale = np.full(self.X.ncols(), ctx.mpf(1), dtype=object)
        else:   # Xn = Xp / scale, as :meth:`Precision.divide_columns` (not converted to mpf)
            self.X = divide_columns_arb(self.X, to_arb_mat(np.asarray(scale)).entries(), prec)
        self.XT = transpose(self.X)
        self.T = to_arb_mat(Tp)
        n, m, p = self.X.nrows(), self.X.ncols(), self.T.ncols()
        self.n, self.m, self.p = n, m, p
        self.scale = to_arb_mat(np.asarray(scale)).entries()
        self.Y, self.WA = arb_mat(n, p), arb_mat(0, p)
        self.active, self.path = [], []
        S = [(1 if (i >> (p - 1 - t)) & 1 == 0 else -1) for i in range(2 ** p) for t in range(p)]
        self.ST = transpose(arb_mat(2 ** p, p, S))   # itertools.product((1, -1), repeat=p), transposed
        self.qr = ColumnQR(n, capacity, prec=prec, ctx=ctx, unit_roundoff=unit_roundoff) \
            if variant == "qr" else None
        self.QtT = arb_mat(0, p)
        self.inv, self.XtT = arb_mat(0, 0), arb_mat(0, p)
        self.XA, self.XAT = arb_mat(n, capacity), arb_mat(capacity, n)   # X_A, X_A^T (k used)
        self.c_max = None

    def correlations(self) -> np.ndarray:
        """||(T - Y)^T x_j||_1 for every column j, as float64 (the argmax's input); C and the
        sums are kept for the step."""
        prec = self.prec
        with flint.ctx.workprec(prec):
            self.C = mul(self.XT, (self.T - self.Y).mid(), prec)
            ent = self.C.entries()
            p = self.p
            sums = []
            for j in range(self.m):
                s = abs(ent[j * p])
                for t in range(1, p):
                    s = (s + abs(ent[j * p + t])).mid()
                sums.append(s)
        self.cabs = sums
        return floats(arb_mat(self.m, 1, sums), self.ctx)

    def enter(self, j: int):
        """Column j joins the active set: (True, pivot) or (False, pivot or None) when refused."""
        self.c_max = self.cabs[j]
        x = column(self.X, j)
        if self.qr is not None:
            if not self.qr.append(x):
                return False, None
            k = self.qr.k
            self.QtT = vcat(self.QtT, self.qr.qt(self.T))
            self.W_bar = self.qr.solve_arb(self.QtT, k)
            pivot = float(self.qr.Rm[k - 1, k - 1]) ** 2
        else:
            ok, pivot = self._border(x)
            if not ok:
                return False, pivot
            self.W_bar = mul(self.inv, self.XtT, self.prec)
        self.active.append(j)
        set_block(self.XA, 0, len(self.active) - 1, x)
        set_block(self.XAT, len(self.active) - 1, 0, transpose(x))
        return True, pivot

    def _border(self, x):
        prec = self.prec
        with flint.ctx.workprec(prec):
            if self.active:
                M1 = mul_window(self.XAT, len(self.active), self.n, x, prec)
                M2 = mul(self.inv, M1, prec)
                ps = (dot(x, x, prec) - dot(M1, M2, prec)).mid()
            else:
                M2, ps = arb_mat(0, 1), dot(x, x, prec)
            if not (ps > 0) or not ps.is_finite():
                return False, float(ps)
            self.inv = bordered_arb(self.inv, M2, ps, prec)
            self.XtT = vcat(self.XtT, mul(transpose(x), self.T, prec))
        return True, float(ps)

    def advance(self, rest) -> float:
        """The step of eq. (10) towards the OLS fit (``rest``: the inactive columns, None on the
        last possible step, which goes all the way); returns beta as float64."""
        prec = self.prec
        with flint.ctx.workprec(prec):
            G = (mul_window(self.XA, self.n, len(self.active), self.W_bar, prec) - self.Y).mid()   # Y_bar - Y
            beta = self._step(G, rest) if rest is not None and len(rest) else None
            beta = arb(1) if beta is None else beta
            self.Y = (self.Y + (beta * G).mid()).mid()
            k = self.W_bar.nrows()
            WA = vcat(self.WA, arb_mat(1, self.p)) if self.WA.nrows() < k else self.WA
            self.WA = (WA + (beta * (self.W_bar - WA).mid()).mid()).mid()
        return beta

    def _step(self, G, rest):
        """beta of eq. (10): the least ratio (c_max + s^T C_j) / (c_max + s^T A_j) > 0 over the
        inactive j and sign vectors s with a positive denominator, when it is < 1.

        Every sum is one rounded FLINT operation, as in ``mrsr._step_size``; the ratios are
        compared exactly, but only those that can be the least: the float64 images of the sums
        (each rounded once more, so a ratio's image is within 4 u_64 of it, relatively) rule out
        every ratio above (1 + 1e-12) times the least image.  Sums whose image is not a normal
        float64 (0, subnormal, inf: the sign or the ratio not resolved) are compared exactly too.
        """
        prec, c, p2 = self.prec, self.c_max, self.ST.ncols()
        # (A_all^T) S^T, m x 2^p, A_all^T = Xn^T G: the dot products of (G^T Xn)^T, term for term in
        # the same order (the same numbers), with Xn^T's rows contiguous (half the time at m = 825)
        A = mul(mul(self.XT, G, prec), self.ST, prec)
        Cs = mul(self.C, self.ST, prec)
        fill = arb_mat(self.m, p2, [c] * (self.m * p2))
        NUM, DEN = (fill + Cs).mid(), (fill + A).mid()
        idx = (np.asarray(rest)[:, None] * p2 + np.arange(p2)).ravel()
        fn, fd = floats(NUM, self.ctx, idx.tolist()), floats(DEN, self.ctx, idx.tolist())
        normal = np.isfinite(fn) & np.isfinite(fd) & (np.abs(fn) > _TINY) & (np.abs(fd) > _TINY)
        cand = normal & (fd > 0) & (fn > 0)
        check = ~normal
        if cand.any():
            with np.errstate(over="ignore"):
                ratio = fn[cand] / fd[cand]
            least = ratio.min()
            near = np.zeros_like(cand)
            near[np.flatnonzero(cand)[ratio <= least * (1 + 1e-12)]] = True
            check |= near
        num, den = NUM.entries(), DEN.entries()
        best = None
        for i in idx[check]:
            d = den[i]
            if not d > 0:
                continue
            r = (num[i] / d).mid()
            if r > 0 and (best is None or r < best):
                best = r
        return best if best is not None and best < 1 else None

    def record(self) -> None:
        """Keep W_A after this step (``arb_mat``s are replaced, never written, by the steps)."""
        self.path.append((len(self.active), self.WA))

    def coefficient_path(self) -> np.ndarray:
        """The recorded W (steps x m x p) in the caller's scale, as an object array: each active
        entry divided by its column's scale (one rounding; the others are 0 / s = 0 exactly),
        converted to mpf in one pass."""
        p = self.p
        out = np.full((len(self.path), self.m, p), self.ctx.mpf(0), dtype=object)
        with flint.ctx.workprec(self.prec):
            vals = [(WA[i, t] / self.scale[self.active[i]]).mid()
                    for _, (k, WA) in enumerate(self.path) for i in range(k) for t in range(p)]
        flat = iter(objects_of(vals, self.ctx))
        for step, (k, _) in enumerate(self.path):
            for i in range(k):
                for t in range(p):
                    out[step, self.active[i], t] = next(flat)
        return out

    @property
    def factor(self):
        return self.qr
