"""The mpN engine of MRSR, PRESS and the column-append QR: their vectors kept in FLINT between steps.

:func:`~lssvm_analysis.linalg.mrsr.mrsr`, :func:`~lssvm_analysis.solvers.press.press_curve` and
the kept-column solves of OP-LSSVM run a loop whose every step is a handful of O(n) vector
operations and products with the matrices the loop grows (Q of a QR by column append, the
active columns, a bordered inverse).  On NumPy object arrays each of those operations is n
mpmath calls (~2 us each) and each product converts its vectors to FLINT and back (~1.5 us per
entry each way): 1.2 of the 1.6 CPU-s of an mp50 op-lssvm fit at n = 61.  Here the state of
each loop is ``arb_mat`` midpoints from start to end and a step is a few libflint calls:

* every vector operation is one FLINT operation on the whole vector, each entry rounded once
  at the precision's bits (``.mid()`` keeps the midpoint, as :mod:`._flint` does everywhere);
  products and dot products are ``arb_mat_approx_mul`` (one rounding per entry: the dot
  product of a row and a column is rounded once, where NumPy's object loop rounds each partial
  sum);
* only what the loop's caller reads leaves FLINT: float64 correlations and PRESS terms, the
  recorded scalars, the coefficient path and the final solutions.

The loops themselves (order of entry, stop rules, records) stay in
:mod:`~lssvm_analysis.linalg.mrsr` and :mod:`~lssvm_analysis.solvers.press`: these classes are the
per-step state behind the same interface as the NumPy state classes there (the engine hooks
:meth:`Precision.qr_engine`, :meth:`Precision.mrsr_engine`, :meth:`Precision.press_engine`).
"""
from __future__ import annotations

import ctypes

import numpy as np
import flint
from flint import arb, arb_mat

from .flint_engine import (LIB, Window, address, bordered_arb, column_sumsq_arb, register_twin, set_block,
                     to_arb_mat, to_float64, to_objects, twin)

__all__ = ["ColumnQR", "MRSRState", "PressState", "project_out", "column_norms", "divide_columns"]


# ----------------------------------------------------------------------------- helpers
def _mul(A: arb_mat, B: arb_mat, prec: int) -> arb_mat:
    """A B, one rounding per entry (``arb_mat_approx_mul``)."""
    C = arb_mat(A.nrows(), B.ncols())
    LIB.arb_mat_approx_mul(address(C), address(A), address(B), prec)
    return C


def _mul_window(M: arb_mat, r1: int, c1: int, B: arb_mat, prec: int) -> arb_mat:
    """M[:r1, :c1] B through a window (no copy of the block), one rounding per entry."""
    C = arb_mat(r1, B.ncols())
    with _window(M, 0, 0, r1, c1) as w:
        LIB.arb_mat_approx_mul(address(C), w, address(B), prec)
    return C


def _t(A: arb_mat) -> arb_mat:
    T = arb_mat(A.ncols(), A.nrows())
    LIB.arb_mat_transpose(address(T), address(A))
    return T


def _dot(x: arb_mat, y: arb_mat, prec: int) -> arb:
    """x^T y of two columns, rounded once."""
    return _mul(_t(x), y, prec)[0, 0]


def _vcat(A: arb_mat, x: arb_mat) -> arb_mat:
    """[A; x] (exact copies)."""
    out = arb_mat(A.nrows() + x.nrows(), x.ncols())
    if A.nrows():
        set_block(out, 0, 0, A)
    set_block(out, A.nrows(), 0, x)
    return out


def _column(M: arb_mat, j: int) -> arb_mat:
    out = arb_mat(M.nrows(), 1)
    with _window(M, 0, j, M.nrows(), j + 1) as w:
        LIB.arb_mat_set(address(out), w)
    return out


def _window(M, r0, c0, r1, c1):
    return Window(M, r0, c0, r1, c1)


def _leading(M: arb_mat, r: int, c: int) -> arb_mat:
    """M[:r, :c] as a copy."""
    out = arb_mat(r, c)
    if r and c:
        with _window(M, 0, 0, r, c) as w:
            LIB.arb_mat_set(address(out), w)
    return out


def _floats(M: arb_mat, ctx, idx=None) -> np.ndarray:
    """The entries of M (midpoints, row by row; ``idx``: those of these row-major positions) as
    float64, each rounded to nearest (as ``float(mpf)``): ``arf_get_d`` on each entry in place
    (python-flint's ``float(arb)`` truncates), or through mpf objects when the layout check at
    import failed."""
    r, c = M.nrows(), M.ncols()
    idx = range(r * c) if idx is None else idx
    if not _GET_D:
        return to_float64(to_objects(M, ctx, shape=(r * c,)))[np.asarray(idx, dtype=np.intp)]
    base, _, _, stride = (ctypes.c_long.from_address(address(M) + 8 * i).value for i in range(4))
    get = LIB.arf_get_d
    return np.array([get(base + ((i // c) * stride + i % c) * _ARB_BYTES, _RND_NEAR) for i in idx],
                    dtype=np.float64)


#: Below this magnitude a float64 image of a sum may be subnormal (its ratio not resolved).
_TINY = 2.0 ** -960
#: sizeof(arb_struct) and FLINT's ARF_RND_NEAR, checked below on a matrix whose entries are known.
_ARB_BYTES, _RND_NEAR = 48, 4


def _check_get_d() -> bool:
    """True when ``arf_get_d`` reads the entries of a python-flint ``arb_mat`` (FLINT 3: entries,
    r, c, stride) and rounds to nearest: 1 + 2^-53 + 2^-60 must give 1 + 2^-52, the ties 1 + 2^-53
    and 1 + 3 2^-53 give 1 and 1 + 2^-51 (to even), -1 - 2^-53 - 2^-60 its negative."""
    LIB.arf_get_d.argtypes, LIB.arf_get_d.restype = [ctypes.c_void_p, ctypes.c_int], ctypes.c_double
    two = arb(2)
    want = [1 + 2.0 ** -52, 1.0, 1 + 2.0 ** -51, -(1 + 2.0 ** -52)]
    with flint.ctx.workprec(128):
        M = arb_mat(2, 2, [1 + two ** -53 + two ** -60, 1 + two ** -53, 1 + 3 * two ** -53,
                           -(1 + two ** -53 + two ** -60)])
    fields = [ctypes.c_long.from_address(address(M) + 8 * i).value for i in range(4)]
    if fields[1:] != [2, 2, 2]:
        return False
    global _GET_D
    _GET_D = True
    try:
        return list(_floats(M, None)) == want
    finally:
        _GET_D = False


_GET_D = False
_GET_D = _check_get_d()


def _as_column(x) -> arb_mat:
    """An object vector (n,) or an ``arb_mat`` column as an ``arb_mat`` column."""
    return x if isinstance(x, arb_mat) else to_arb_mat(np.asarray(x))


def _kept(a) -> arb_mat:
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
            with _window(MB, 0, c0, a.shape[0], c0 + a.shape[1]) as w:
                LIB.arb_mat_set(address(out), w)
            return out
    return to_arb_mat(a)


# ----------------------------------------------------------------------------- QR by column append
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
        x = _as_column(x)
        with flint.ctx.workprec(prec):
            v, r = arb_mat(x), arb_mat(k, 1)
            for _ in range(2):   # CGS2
                if k:
                    c = _mul_window(self.QTm, k, n, v, prec)
                    v = (v - _mul_window(self.Qm, n, k, c, prec)).mid()
                    r = (r + c).mid()
            nrm = _dot(v, v, prec).sqrt().mid()
            xn = _dot(x, x, prec).sqrt().mid()
            if not (float(nrm) > self._tol * float(xn)) or not nrm.is_finite():
                self.last_norm = float(nrm)
                return False
            q = (v / nrm).mid()
        set_block(self.Qm, 0, k, q)
        set_block(self.QTm, k, 0, _t(q))
        self.q = q
        if k:
            set_block(self.Rm, 0, k, r)
        self.Rm[k, k] = nrm
        self.k = k + 1
        return True

    def append_column(self, A, j: int) -> bool:
        """Append ``A[:, j]`` (A an object array, kept or not: a kept one's column is copied)."""
        M = twin(A)
        return self.append(_column(M, j) if M is not None else A[:, j])

    def qt(self, T: arb_mat) -> arb_mat:
        """q_k^T T for the last appended column q_k (1 x p, one rounding per entry)."""
        return _mul(_t(self.q), T, self.prec)

    def solve_arb(self, B: arb_mat, k: int) -> arb_mat:
        """R_k^{-1} B (B: k x p) by ``arb_mat_approx_solve_triu`` on R's leading k x k block."""
        X = arb_mat(k, B.ncols())
        with _window(self.Rm, 0, 0, k, k) as Rk:
            LIB.arb_mat_approx_solve_triu(address(X), Rk, address(B), 0, self.prec)
        return X

    def solve(self, T, k=None):
        """Least-squares solution R_k^{-1} Q_k^T T on the first ``k`` columns (T: (n,) or (n, p))."""
        k = self.k if k is None else k
        T = np.asarray(T)
        QT = _leading(self.QTm, k, self.n)
        X = self.solve_arb(_mul(QT, to_arb_mat(T), self.prec), k)
        return to_objects(X, self.ctx, shape=(k,) + T.shape[1:])

    @property
    def Q(self) -> np.ndarray:
        """Q (n x capacity, zeros past column k) as an object array."""
        return to_objects(self.Qm, self.ctx)

    @property
    def R(self) -> np.ndarray:
        return to_objects(self.Rm, self.ctx)


# ----------------------------------------------------------------------------- MRSR
class MRSRState:
    """The vectors of :func:`~lssvm_analysis.linalg.mrsr.mrsr` in FLINT (see ``mrsr._ArrayState``).

    Xn (n x m, the columns of Xp divided by ``scale``, or Xp for None), T (n x p), Y (n x p), the active columns' coefficients
    W_A (k x p, in order of entry), the correlations C = Xn^T (T - Y) and the factor: a
    :class:`ColumnQR` with Q^T T grown by a row per step ("qr"), or the bordered inverse of
    X_A^T X_A with X_A^T T ("bordered-inverse").
    """

    def __init__(self, Xp, Tp, scale, capacity, variant, *, prec, ctx, unit_roundoff):
        self.prec, self.ctx = prec, ctx
        self.X = _kept(Xp)
        if scale is None:
            scale = np.full(self.X.ncols(), ctx.mpf(1), dtype=object)
        else:   # Xn = Xp / scale, as :meth:`Precision.divide_columns` (not converted to mpf)
            self.X = _divide_columns(self.X, to_arb_mat(np.asarray(scale)).entries(), prec)
        self.XT = _t(self.X)
        self.T = to_arb_mat(Tp)
        n, m, p = self.X.nrows(), self.X.ncols(), self.T.ncols()
        self.n, self.m, self.p = n, m, p
        self.scale = to_arb_mat(np.asarray(scale)).entries()
        self.Y, self.WA = arb_mat(n, p), arb_mat(0, p)
        self.active, self.path = [], []
        S = [(1 if (i >> (p - 1 - t)) & 1 == 0 else -1) for i in range(2 ** p) for t in range(p)]
        self.ST = _t(arb_mat(2 ** p, p, S))   # itertools.product((1, -1), repeat=p), transposed
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
            self.C = _mul(self.XT, (self.T - self.Y).mid(), prec)
            ent = self.C.entries()
            p = self.p
            sums = []
            for j in range(self.m):
                s = abs(ent[j * p])
                for t in range(1, p):
                    s = (s + abs(ent[j * p + t])).mid()
                sums.append(s)
        self.cabs = sums
        return _floats(arb_mat(self.m, 1, sums), self.ctx)

    def enter(self, j: int):
        """Column j joins the active set: (True, pivot) or (False, pivot or None) when refused."""
        self.c_max = self.cabs[j]
        x = _column(self.X, j)
        if self.qr is not None:
            if not self.qr.append(x):
                return False, None
            k = self.qr.k
            self.QtT = _vcat(self.QtT, self.qr.qt(self.T))
            self.W_bar = self.qr.solve_arb(self.QtT, k)
            pivot = float(self.qr.Rm[k - 1, k - 1]) ** 2
        else:
            ok, pivot = self._border(x)
            if not ok:
                return False, pivot
            self.W_bar = _mul(self.inv, self.XtT, self.prec)
        self.active.append(j)
        set_block(self.XA, 0, len(self.active) - 1, x)
        set_block(self.XAT, len(self.active) - 1, 0, _t(x))
        return True, pivot

    def _border(self, x):
        prec = self.prec
        with flint.ctx.workprec(prec):
            if self.active:
                M1 = _mul_window(self.XAT, len(self.active), self.n, x, prec)
                M2 = _mul(self.inv, M1, prec)
                ps = (_dot(x, x, prec) - _dot(M1, M2, prec)).mid()
            else:
                M2, ps = arb_mat(0, 1), _dot(x, x, prec)
            if not (ps > 0) or not ps.is_finite():
                return False, float(ps)
            self.inv = bordered_arb(self.inv, M2, ps, prec)
            self.XtT = _vcat(self.XtT, _mul(_t(x), self.T, prec))
        return True, float(ps)

    def advance(self, rest) -> float:
        """The step of eq. (10) towards the OLS fit (``rest``: the inactive columns, None on the
        last possible step, which goes all the way); returns beta as float64."""
        prec = self.prec
        with flint.ctx.workprec(prec):
            G = (_mul_window(self.XA, self.n, len(self.active), self.W_bar, prec) - self.Y).mid()   # Y_bar - Y
            beta = self._step(G, rest) if rest is not None and len(rest) else None
            beta = arb(1) if beta is None else beta
            self.Y = (self.Y + (beta * G).mid()).mid()
            k = self.W_bar.nrows()
            WA = _vcat(self.WA, arb_mat(1, self.p)) if self.WA.nrows() < k else self.WA
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
        A = _mul(_mul(self.XT, G, prec), self.ST, prec)
        Cs = _mul(self.C, self.ST, prec)
        fill = arb_mat(self.m, p2, [c] * (self.m * p2))
        NUM, DEN = (fill + Cs).mid(), (fill + A).mid()
        idx = (np.asarray(rest)[:, None] * p2 + np.arange(p2)).ravel()
        fn, fd = _floats(NUM, self.ctx, idx.tolist()), _floats(DEN, self.ctx, idx.tolist())
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
        flat = iter(_objects_of(vals, self.ctx))
        for step, (k, _) in enumerate(self.path):
            for i in range(k):
                for t in range(p):
                    out[step, self.active[i], t] = next(flat)
        return out

    @property
    def factor(self):
        return self.qr


def _objects_of(balls, ctx) -> list:
    """mpf of ``ctx`` from a list of arb midpoints."""
    if not balls:
        return []
    return list(to_objects(arb_mat(len(balls), 1, balls), ctx, shape=(len(balls),)))


# ----------------------------------------------------------------------------- PRESS
class PressState:
    """The hat diagonal h and the residuals e of :func:`~lssvm_analysis.solvers.press.press_curve`
    in FLINT (see ``press._ArrayState``): "qr" updates them from the appended column q of a
    :class:`ColumnQR` (h += q^2, e -= q (q^T l)); "normal-equations" from the bordered inverse
    of D_k^T D_k (h += v^2 / p_s, v = D_k M2 - x; e = l - D_k (inv (D_k^T l)))."""

    def __init__(self, D, l, capacity, variant, *, prec, ctx, unit_roundoff):
        self.prec, self.ctx = prec, ctx
        self.D = _kept(D)
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
        prec, x = self.prec, _column(self.D, c)
        with flint.ctx.workprec(prec):
            if self.qr is not None:
                if not self.qr.append(x):
                    return False
                q = self.qr.q
                qq = arb_mat(q.nrows(), 1)
                LIB.arb_mat_mul_entrywise(address(qq), address(q), address(q), prec)
                self.h = (self.h + qq.mid()).mid()
                self.e = (self.e - (q * _dot(q, self.l, prec)).mid()).mid()
                return True
            return self._border(x)

    def _border(self, x) -> bool:
        prec = self.prec
        k, N = self.k, self.Dk.nrows()
        if k:
            M1 = _mul_window(self.DkT, k, N, x, prec)
            M2 = _mul(self.inv, M1, prec)
            v = (_mul_window(self.Dk, N, k, M2, prec) - x).mid()
            ps = (_dot(x, x, prec) - _dot(M1, M2, prec)).mid()
        else:
            M2, v, ps = arb_mat(0, 1), -x, _dot(x, x, prec)
        if not (ps > 0) or not ps.is_finite():
            return False
        self.inv = bordered_arb(self.inv, M2, ps, prec)
        vv = arb_mat(v.nrows(), 1)
        LIB.arb_mat_mul_entrywise(address(vv), address(v), address(v), prec)
        self.h = (self.h + (vv.mid() / ps).mid()).mid()
        set_block(self.Dk, 0, k, x)
        set_block(self.DkT, k, 0, _t(x))
        self.k = k = k + 1
        inner = _mul(self.inv, _mul_window(self.DkT, k, N, self.l, prec), prec)
        self.e = (self.l - _mul_window(self.Dk, N, k, inner, prec)).mid()
        return True

    def terms(self):
        """(1 - h, e) as float64."""
        with flint.ctx.workprec(self.prec):
            one_minus = (self.ones - self.h).mid()
        return _floats(one_minus, self.ctx), _floats(self.e, self.ctx)

    @property
    def factor(self):
        return self.qr



# ----------------------------------------------------------------------------- whole-matrix primitives
def project_out(A: np.ndarray, q: np.ndarray, passes: int, *, prec: int, ctx) -> np.ndarray:
    """A <- A - q (q^T A), ``passes`` times: each q^T A entry one ``arb_mat_approx_mul`` dot
    product, each q_i c_j product and each difference rounded once; returned kept
    (:func:`._flint.keep`), the passes in between never leaving FLINT."""
    M, Q = _kept(A), to_arb_mat(q)
    QT = _t(Q)
    for _ in range(passes):
        P = _mul(Q, _mul(QT, M, prec), prec)
        C = arb_mat(P.nrows(), P.ncols())
        LIB.arb_mat_sub(address(C), address(M), address(P), prec)
        LIB.arb_mat_get_mid(address(C), address(C))
        M = C
    return register_twin(to_objects(M, ctx), M)


def column_norms(A: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """sqrt(sum_i A_ij^2) per column: squares rounded once each, each column sum one
    ``arb_mat_approx_mul`` entry (a row of ones times the squares), a rounded sqrt."""
    sums = column_sumsq_arb(_kept(A), prec).entries()
    with flint.ctx.workprec(prec):
        return np.array(_objects_of([s.sqrt().mid() for s in sums], ctx), dtype=object)


def divide_columns(A: np.ndarray, s: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """A / s (column j by s_j, each quotient rounded once), returned kept (:func:`._flint.keep`)."""
    out = _divide_columns(_kept(A), to_arb_mat(np.asarray(s)).entries(), prec)
    return register_twin(to_objects(out, ctx), out)


def _divide_columns(M: arb_mat, s: list, prec: int) -> arb_mat:
    out = arb_mat(M.nrows(), M.ncols())
    with flint.ctx.workprec(prec):
        for j, sj in enumerate(s):
            set_block(out, 0, j, (_column(M, j) / sj).mid())
    return out
