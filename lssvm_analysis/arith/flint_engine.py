"""The mpN engine: dense primitives at N digits served by FLINT, as LAPACK serves float32/64.

``mpN`` arrays stay NumPy object arrays of ``mpf`` (the type solvers see);
the few primitives whose cost is O(n^3) or O(n^2) per entry -- products,
Cholesky with its breakdown record, triangular solves, LU solves, and the
elementwise exp of the RBF kernel -- convert their operands to FLINT
``arb_mat`` exactly (every mpf is a dyadic rational), compute on the
midpoints at the precision's bits ``prec`` and round the midpoints back.
Every result is therefore a number of that precision: a ball's radius is
never looked at, and no entry is rounded twice.

What FLINT computes (python-flint's ``arb_mat`` plus, for the routines it does
not wrap, the same ``libflint`` called through :mod:`ctypes`):

* products: ``arb_mat_approx_mul`` (blocked, exact integer matrix products
  of the scaled mantissas, one rounding per entry);
* Cholesky: right-looking blocked A = L L^T in place on one ``arb_mat`` --
  diagonal blocks by ``arb_mat_cho`` on their midpoints, panels by
  ``arb_mat_approx_solve_tril``, trailing updates by products; a diagonal
  block that ball arithmetic cannot prove positive definite is factored again
  by the scalar recurrence on midpoints, which either succeeds or gives the
  breakdown step and pivot a_kk - ||l_k||^2 (the record of
  :class:`~lssvm_analysis.core.records.CholeskyBreakdown`);
* triangular solves: ``arb_mat_approx_solve_tril`` / ``_triu``;
* LU with partial pivoting: ``arb_mat_approx_lu`` (recursive, products
  inside) and ``arb_mat_approx_solve_lu_precomp``;
* repeated products with one matrix (CG): :func:`operator`;
* symmetric eigenvalues: ``acb_mat_approx_eig_qr`` (:func:`eigvalsh`; 10x mpmath's
  ``eigsy`` at n = 100, 30 digits); eigenvectors (:func:`eigh`): the same QR algorithm's
  vectors, orthonormalised by Householder (:func:`householder_q`, reflections applied by
  ``arb_mat_approx_mul`` on windows), eigenvalues as Rayleigh quotients (0.27 against
  eigsy's 2.6 CPU-s at n = 60, 50 digits);
* the bordered inverse update of MRSR and PRESS (:func:`bordered_inverse`);
* column sets and growing factors kept in FLINT form (:func:`keep_columns`,
  :func:`keep_prefix`, :func:`keep_leading`): a product with D[:, cols], with the Q of a
  column-append QR or a solve with its R converts only the other operand and the
  appended column;
* exp of the RBF kernel: python-flint's ``arb.exp`` per entry (FLINT has no
  elementwise exp of a matrix) on exponents formed from *exact* squared
  distances (an integer matrix product, :func:`rbf_exponents`).

mpmath stays where FLINT has no equivalent the package needs: the mpf
numbers themselves and the elementwise arithmetic solvers write in NumPy
(object arrays), ``sqrt`` and ``exp`` of other callers (``Precision.exp``),
symmetric eigenvalues when FLINT's QR returns a non-finite value (``eigsy``), Householder QR
(:func:`~lssvm_analysis.linalg.qr.householder_qr`, small reduced systems
only) and the O(n) vector recurrences of CG, MRSR and Abe's thresholded selection (at the
maps' n = 60 ~1 us per operation, about what a conversion costs, so FLINT gains nothing there
unless the vectors stay in FLINT).  The greedy
pivoted Cholesky of an RBF kernel keeps its factor and residual diagonal in FLINT between
steps (:class:`PivotedRBF`; the generic loop converted G[:, :r] at every step: an mp50
sr-lssvm fit at m = 2000, r = 100 took 78 CPU-s, now about 3), and column centring is one
product and one subtraction in FLINT (:func:`center_columns`).  CG's
products go through :func:`operator` (A converted once, each block of
directions per iteration), so an mp50 CG fit at n = 60 takes 0.5 CPU-s where
NumPy's object loops took 4.6.

Conversions cost about 1-3 us per entry each way (Python objects are made or
read one by one), so a factor is kept as its FLINT matrix beside the object
array it returns (:func:`twin`): the array is read-only, and a later solve
with it converts only the right-hand side.

When ``libflint`` cannot be loaded through ctypes, or python-flint's object
layout is not the one checked at import, :data:`AVAILABLE` is False and the
precision layer keeps the generic mpmath code.
"""
from __future__ import annotations

import contextlib
import ctypes
import gc
import weakref
from collections import deque
from itertools import repeat, starmap

import flint
import numpy as np
from flint import acb_mat, arb, arb_mat, fmpz_mat
from mpmath.libmp import BACKEND, from_man_exp, to_float as _to_float

if BACKEND == "gmpy":   # mpmath's own normalizer in C: (sign, man, exp, bc) of man 2^exp, exact
    from gmpy2 import _mpmath_create as _create
else:  # pragma: no cover - mpmath without gmpy2
    _create = from_man_exp

from ._libflint import AVAILABLE, LIB, Window, address, set_block
from ..core.exceptions import CholeskyBreakdownError, LUBreakdownError
from ..core.records import CholeskyBreakdown, LUBreakdown

__all__ = ["AVAILABLE", "BLOCK", "to_arb_mat", "to_objects", "to_float64", "from_float64", "no_gc", "matmul", "cholesky", "solve_triangular",
           "lu_factor", "lu_solve", "exp", "operator", "keep", "eigvalsh", "rbf_exponents", "twin",
           "register_twin", "PivotedRBF", "center_columns", "Panel", "DiagonalFactorizer", "keep_columns",
           "keep_prefix", "eigh", "householder_q", "keep_leading", "bordered_inverse", "householder_qr",
           "bordered_arb", "LIB", "address", "Window", "set_block", "Krylov", "rank_one_sum", "column_sumsq",
           "column_sumsq_arb"]

#: Rows of a block of the blocked Cholesky (products of BLOCK-wide panels).
BLOCK = 96


# ----------------------------------------------------------------------------- conversion
def to_arb_mat(a: np.ndarray, *, lower: bool = False) -> arb_mat:
    """Exact ``arb_mat`` of a 1-D (one column) or 2-D array of mpf or binary floats
    (``lower``: only the lower triangle, the strict upper one 0)."""
    a = np.asarray(a)
    a2 = a.reshape(-1, 1) if a.ndim == 1 else a
    r, c = a2.shape
    with no_gc():
        if a2.dtype == object:
            if lower:   # integer zeros convert in a fraction of an mpf's time
                vals = []
                for i, row in enumerate(a2.tolist()):
                    vals += row[:i + 1]
                    vals += [0] * (c - i - 1)
                return arb_mat(r, c, vals)
            return arb_mat(r, c, a2.ravel().tolist())  # python-flint reads mpf's (sign, man, exp) exactly
        return arb_mat(r, c, a2.astype(np.float64).ravel().tolist())


@contextlib.contextmanager
def no_gc():
    """Cyclic GC paused while millions of immutable numbers are made (they hold no cycles):
    its passes over the growing heap cost more than the conversion itself (measured: 3.4
    against 1.4 us per entry at n = 500)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


#: ``arb._mpf_`` of a non-finite midpoint (python-flint maps inf and nan to mpmath's nan).
_NONFINITE = arb("nan")._mpf_
_mpf_of = arb._mpf_.__get__


def _objects(ctx, balls) -> list:
    """mpf of ``ctx`` from arb balls' midpoints, by C-level maps (no Python frame per entry).

    Each midpoint's mpmath tuple comes from python-flint's ``arb._mpf_`` (normalized, exact,
    gmpy2 mantissa: 1.4 against 2.9 us per entry through ``man_exp``, measured at m r = 2e5);
    a non-finite midpoint takes the ``man_exp`` path, which raises, as before.
    """
    balls = list(balls)
    tups = list(map(_mpf_of, balls)) if BACKEND == "gmpy" else None
    if tups is not None and _NONFINITE not in tups:
        vals = list(map(object.__new__, repeat(ctx.mpf, len(tups))))
        deque(map(setattr, vals, repeat("_mpf_"), tups), maxlen=0)
        return vals
    pairs = list(map(arb.man_exp, map(arb.mid, balls)))
    if not pairs:
        return []
    ms, es = zip(*pairs)
    vals = list(map(object.__new__, repeat(ctx.mpf, len(pairs))))
    deque(map(setattr, vals, repeat("_mpf_"), starmap(_create, zip(map(int, ms), map(int, es)))), maxlen=0)
    return vals


def from_float64(a: np.ndarray, ctx) -> np.ndarray:
    """Exact object array of ``ctx.mpf`` from a float64 array (finite entries; inf/nan by mpmath)."""
    a = np.asarray(a, dtype=np.float64)
    out = np.empty(a.shape, dtype=object)
    if not a.size:
        return out
    finite = np.isfinite(a)
    mant, ex = np.frexp(np.where(finite, a, 0.0))
    man = (mant * 2.0 ** 53).astype(np.int64).ravel().tolist()   # exact: 53-bit significands
    exp = (ex.astype(np.int64) - 53).ravel().tolist()
    new, cls = object.__new__, ctx.mpf
    flat = out.reshape(-1)
    with no_gc():
        vals = []
        for m, e in zip(man, exp):
            v = new(cls)
            v._mpf_ = _create(m, e)
            vals.append(v)
        flat[:] = vals
    if not finite.all():
        idx = np.flatnonzero(~finite.ravel())
        flat[idx] = [ctx.mpf(float(x)) for x in a.ravel()[idx]]
    return out


def to_float64(a: np.ndarray) -> np.ndarray:
    """float64 array of an object array of mpf, each entry rounded to nearest (as ``float(mpf)``).

    Reads each entry's ``_mpf_`` tuple directly (no mpf method call); an entry that is not an
    mpf raises AttributeError, and the caller converts entry by entry instead.
    """
    a = np.asarray(a)
    flat = a.reshape(-1)
    out = np.fromiter((_to_float(v._mpf_, False, "n") for v in flat), dtype=np.float64, count=flat.size)
    return out.reshape(a.shape)


def to_objects(M: arb_mat, ctx, *, lower: bool = False, zero=None, shape=None) -> np.ndarray:
    """Object array of ``ctx.mpf`` midpoints of M; ``lower`` converts only the lower triangle
    (the strict upper one is ``zero``)."""
    r, c = M.nrows(), M.ncols()
    with no_gc():
        ent = M.entries()
        if not lower:   # an array that owns its data: A.T of a registered A finds A as its base
            out = np.empty(shape or (r, c), dtype=object)
            out.reshape(-1)[:] = _objects(ctx, ent)
            return out
        out = np.full((r, c), zero, dtype=object)
        for i in range(r):
            out[i, :i + 1] = _objects(ctx, ent[i * c:i * c + i + 1])
    return out


# ----------------------------------------------------------------------------- twins
_TWINS: dict = {}


def register_twin(a: np.ndarray, M: arb_mat) -> np.ndarray:
    """Keep M as the FLINT form of ``a`` while ``a`` lives; ``a`` is made read-only."""
    a.flags.writeable = False
    key = id(a)
    _TWINS[key] = (weakref.ref(a), M, {})
    weakref.finalize(a, _TWINS.pop, key, None)
    return a


def twin(a: np.ndarray):
    """The registered FLINT form of ``a``, or None (unknown, or made writeable since)."""
    hit = _TWINS.get(id(a))
    if hit is None or hit[0]() is not a or a.flags.writeable:
        return None
    return hit[1]


def _as_arb(a):
    """The FLINT form of ``a``: its twin, the transpose of its base's twin (``a = base.T``),
    or a conversion."""
    if isinstance(a, np.ndarray):
        M = twin(a)
        if M is not None:
            return M
        base = a.base
        if isinstance(base, np.ndarray) and base.ndim == 2 and a.ndim == 2 and \
                a.shape == base.shape[::-1] and a.strides == base.strides[::-1] and \
                a.__array_interface__["data"][0] == base.__array_interface__["data"][0]:
            MB = twin(base)
            if MB is not None:
                return _transposed(base, MB)
    return to_arb_mat(a)


def keep(a: np.ndarray) -> np.ndarray:
    """A read-only copy of the object array ``a`` with its FLINT form registered (:func:`twin`):
    products with it or with its transpose convert only the other operand."""
    if twin(a) is not None:   # already kept: read-only, its FLINT form registered
        return a
    a = np.array(a, dtype=object, copy=True)
    return register_twin(a, to_arb_mat(a))


def _copy_columns(dst: arb_mat, j0: int, src, cols) -> None:
    """dst[:, j0 + t] = src[:, cols[t]] by ``arb_mat_set`` on column windows (C copies, no conversion)."""
    n = dst.nrows()
    for t, c in enumerate(cols):
        with Window(src, 0, int(c), n, int(c) + 1) as s, Window(dst, 0, j0 + t, n, j0 + t + 1) as d:
            LIB.arb_mat_set(d, s)


def keep_columns(a: np.ndarray, cols, previous=None) -> np.ndarray:
    """``a[:, cols]`` as :func:`keep` gives it; the FLINT form is copied column by column from
    ``a``'s twin when ``a`` has one (exact copies: no entry converted), else converted.
    ``previous``: an earlier ``keep_columns(a, cols[:j])`` (a column set grown by appending),
    whose FLINT form gives the first j columns in one copy."""
    sub = np.array(a[:, cols], dtype=object, copy=True)
    M = twin(a)
    if M is None:
        return register_twin(sub, to_arb_mat(sub))
    idx = np.arange(M.ncols())[cols]
    S = arb_mat(M.nrows(), sub.shape[1])
    Mp = None if previous is None else twin(previous)
    j = 0 if Mp is None or Mp.ncols() > len(idx) else Mp.ncols()
    if j:
        set_block(S, 0, 0, Mp)
    _copy_columns(S, j, M, idx[j:])
    return register_twin(sub, S)


def keep_prefix(a: np.ndarray, k: int, previous=None) -> np.ndarray:
    """``a[:, :k]`` as :func:`keep` gives it, reusing the FLINT form of ``previous`` (an earlier
    ``keep_prefix(a, j)``, j <= k, whose columns have not changed since): only columns j..k-1
    are converted."""
    Mp = None if previous is None else twin(previous)
    j = 0 if Mp is None else Mp.ncols()
    sub = np.array(a[:, :k], dtype=object, copy=True)
    if j > k or j == 0:
        return register_twin(sub, to_arb_mat(sub))
    S = arb_mat(sub.shape[0], k)
    set_block(S, 0, 0, Mp)
    if k > j:
        set_block(S, 0, j, to_arb_mat(sub[:, j:]))
    return register_twin(sub, S)


def keep_leading(a: np.ndarray, k: int, previous=None) -> np.ndarray:
    """``a[:k, :k]`` as :func:`keep` gives it, reusing the FLINT form of ``previous`` (an earlier
    ``keep_leading(a, j)``, j <= k, whose entries have not changed since): only the border
    ``a[:k, j:k]`` and ``a[j:k, :j]`` is converted (a triangular factor growing by a column)."""
    Mp = None if previous is None else twin(previous)
    j = 0 if Mp is None else Mp.nrows()
    sub = np.array(a[:k, :k], dtype=object, copy=True)
    if j > k or j == 0:
        return register_twin(sub, to_arb_mat(sub))
    S = arb_mat(k, k)
    set_block(S, 0, 0, Mp)
    if k > j:
        set_block(S, 0, j, to_arb_mat(sub[:, j:]))
        set_block(S, j, 0, to_arb_mat(sub[j:, :j]))
    return register_twin(sub, S)


def bordered_inverse(inv: np.ndarray, m2: np.ndarray, ps, *, prec: int, ctx) -> np.ndarray:
    """[[inv + m2 m2^T / ps, -m2 / ps], [-m2^T / ps, 1 / ps]] with the roundings of the NumPy formula
    (each entry: one product, one quotient, one sum), computed on ``arb_mat``s and returned kept
    (:func:`keep`): the next products with it convert nothing."""
    Minv = _as_arb(inv) if len(m2) else arb_mat(0, 0)
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


def _transposed(a, M):
    """M^T, kept beside a registered twin (a factor's transpose serves every L^T solve)."""
    hit = _TWINS.get(id(a)) if twin(a) is M else None
    if hit is not None and "T" in hit[2]:
        return hit[2]["T"]
    T = arb_mat(M.ncols(), M.nrows())
    LIB.arb_mat_transpose(address(T), address(M))
    if hit is not None:
        hit[2]["T"] = T
    return T


# ----------------------------------------------------------------------------- primitives
def matmul(A, B, *, prec: int, ctx) -> np.ndarray:
    """A @ B (2-D; A 1-D is a row, B 1-D a column, as NumPy reads them) with one rounding to
    ``prec`` bits per entry (``arb_mat_approx_mul``)."""
    MA = to_arb_mat(np.asarray(A).reshape(1, -1)) if np.ndim(A) == 1 else _as_arb(A)
    MB = _as_arb(B)
    if MA.ncols() != MB.nrows():
        raise ValueError(f"expected operands with matching inner dimensions, got A.shape="
                         f"{np.shape(A)}, B.shape={np.shape(B)}")
    C = arb_mat(MA.nrows(), MB.ncols())
    LIB.arb_mat_approx_mul(address(C), address(MA), address(MB), prec)
    shape = np.shape(A)[:-1] + np.shape(B)[1:]
    return to_objects(C, ctx, shape=shape)


def operator(A: np.ndarray, *, prec: int, ctx):
    """V -> A @ V (V of shape (n,) or (n, k)) with A converted to ``arb_mat`` once, here.

    Each call converts only V and the product (``arb_mat_approx_mul``, one
    rounding per entry), so a CG iteration costs O(n k) conversions instead
    of the n^2 of :func:`matmul` on an unregistered A.
    """
    MA = to_arb_mat(A)

    def apply(V):
        MV = to_arb_mat(V)
        C = arb_mat(MA.nrows(), MV.ncols())
        LIB.arb_mat_approx_mul(address(C), address(MA), address(MV), prec)
        return to_objects(C, ctx, shape=(MA.nrows(),) if np.ndim(V) == 1 else None)

    return apply


def column_sumsq(K: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """sum_i K_ij^2 for each column j: every square rounded once (``arb_mat_mul_entrywise``),
    each column's sum by one ``arb_mat_approx_mul`` with a row of ones (exact, rounded once)."""
    return to_objects(column_sumsq_arb(_as_arb(K), prec), ctx, shape=(K.shape[1],))


def column_sumsq_arb(M: arb_mat, prec: int) -> arb_mat:
    """The (1, n) column sums of squares of :func:`column_sumsq`, kept in FLINT (midpoints)."""
    m, n = M.nrows(), M.ncols()
    S, out, ones = arb_mat(m, n), arb_mat(1, n), arb_mat(1, m, [1] * m)
    LIB.arb_mat_mul_entrywise(address(S), address(M), address(M), prec)
    LIB.arb_mat_get_mid(address(S), address(S))
    LIB.arb_mat_approx_mul(address(out), address(ones), address(S), prec)
    return out


def rank_one_sum(H: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """sum_i h_i h_i^T over the rows h_i of H (m x n), accumulated in row order as m rank-one
    updates: each product h_ik h_il rounded once (``arb_mat_approx_mul`` of a column by a row)
    and each update rounded once per entry (``arb_mat_add``, midpoints kept), the operations of
    ``A += numpy.outer(h, h)`` on mpf arrays, without an mpf object per operation (Abe's
    formation of (7) at m = 60, n = 38: ~0.25 CPU-s in mpmath, a few ms here)."""
    MH = _as_arb(H)
    m, n = MH.nrows(), MH.ncols()
    A, O, col, row = arb_mat(n, n), arb_mat(n, n), arb_mat(n, 1), arb_mat(1, n)
    for i in range(m):
        with Window(MH, i, 0, i + 1, n) as w:
            LIB.arb_mat_set(address(row), w)
            LIB.arb_mat_transpose(address(col), w)
        LIB.arb_mat_approx_mul(address(O), address(col), address(row), prec)
        LIB.arb_mat_add(address(A), address(A), address(O), prec)
        LIB.arb_mat_get_mid(address(A), address(A))
    return to_objects(A, ctx)


class _Scalar:
    """A number of the Krylov recurrences kept as an exact ``arb`` (radius 0) between operations:
    each operation rounds once to the precision's bits (python-flint at ``flint.ctx.prec``,
    set by :meth:`Krylov.context`) and keeps the midpoint, as an mpf operation rounds once."""

    __slots__ = ("v",)

    def __init__(self, v: arb):
        self.v = v

    @staticmethod
    def _of(x):
        return x.v if isinstance(x, _Scalar) else arb(x)   # float / int: exact

    def __truediv__(self, o):
        return _Scalar((self.v / self._of(o)).mid())

    def __mul__(self, o):
        if isinstance(o, _Vector):
            return o * self
        return _Scalar((self.v * self._of(o)).mid())

    __rmul__ = __mul__

    def __add__(self, o):
        return _Scalar((self.v + self._of(o)).mid())

    def __sub__(self, o):
        return _Scalar((self.v - self._of(o)).mid())

    def __neg__(self):
        return _Scalar(-self.v)

    def __abs__(self):
        return _Scalar(abs(self.v))

    def __float__(self):
        return float(self.v)

    # exact points: the comparisons are exact
    def __gt__(self, o):
        return bool(self.v > self._of(o))

    def __le__(self, o):
        return bool(self.v <= self._of(o))

    def __eq__(self, o):
        return bool(self.v == self._of(o))

    __hash__ = None


class _Vector:
    """A column vector of the Krylov recurrences kept as an exact n x 1 ``arb_mat`` (immutable:
    every operation returns a new one, rounded once per entry to the precision's bits)."""

    __slots__ = ("M",)

    def __init__(self, M: arb_mat):
        self.M = M

    def copy(self):
        return self

    def __add__(self, o):
        return _Vector((self.M + o.M).mid())

    def __sub__(self, o):
        return _Vector((self.M - o.M).mid())

    def __mul__(self, s):
        return _Vector((self.M * s.v).mid())

    __rmul__ = __mul__

    def __matmul__(self, o):
        """The dot product, one rounding (an exact dot product rounded once by ``arb_mat_mul``)."""
        return _Scalar((self.M.transpose() * o.M)[0, 0].mid())


class Krylov:
    """The vectors and scalars of a Krylov recurrence (CG) kept in FLINT, and A applied to them.

    :func:`~lssvm_analysis.linalg.cg.simultaneous_cg` writes its recurrences once, with NumPy's
    operators; given this space they run on :class:`_Vector` / :class:`_Scalar` (each
    operation one rounding to ``prec`` bits, as an mpf operation; a dot product is rounded
    once instead of once per term), and each iteration's product converts nothing: the
    directions are copied into one n x k ``arb_mat`` and multiplied by A (converted once,
    here) with ``arb_mat_approx_mul``.  Only the final iterate is converted back
    (:meth:`array`).  At n = 60 an mp50 CG step costs ~0.1 ms where the mpf loops took ~4.
    """

    def __init__(self, A: np.ndarray, *, prec: int, ctx):
        self.MA, self.prec, self.ctx = to_arb_mat(A), prec, ctx
        self.n = self.MA.nrows()

    def context(self):
        """Where the recurrences run: python-flint's arithmetic at ``prec`` bits."""
        return flint.ctx.workprec(self.prec)

    def vector(self, b: np.ndarray) -> _Vector:
        return _Vector(to_arb_mat(np.asarray(b).reshape(-1, 1)))

    def zeros(self, n: int) -> _Vector:
        return _Vector(arb_mat(n, 1))

    def scalar(self, x) -> _Scalar:
        return _Scalar(arb(x))

    def apply(self, vectors: list) -> list:
        """[A v for v in vectors], one ``arb_mat_approx_mul`` of A by their n x k block."""
        k = len(vectors)
        P, out = arb_mat(self.n, k), arb_mat(self.n, k)
        for j, v in enumerate(vectors):
            set_block(P, 0, j, v.M)
        LIB.arb_mat_approx_mul(address(out), address(self.MA), address(P), self.prec)
        cols = []
        for j in range(k):
            c = arb_mat(self.n, 1)
            with Window(out, 0, j, self.n, j + 1) as w:
                LIB.arb_mat_set(address(c), w)
            cols.append(_Vector(c))
        return cols

    def array(self, v: _Vector) -> np.ndarray:
        """The vector as an object array of the precision's mpf (exact)."""
        return to_objects(v.M, self.ctx, shape=(v.M.nrows(),))


def center_columns(A: np.ndarray, *, prec: int, ctx):
    """(A - e mu^T, mu) with mu = (e^T A) / m: each column sum one ``arb_mat_approx_mul`` entry
    (one rounding), divided by m in mpmath, each centred entry one rounded FLINT subtraction.
    The centred array is read-only with its FLINT form registered (:func:`twin`)."""
    MA = _as_arb(A)
    m, r = MA.nrows(), MA.ncols()
    row, col = arb_mat(1, m, [1] * m), arb_mat(m, 1, [1] * m)
    S, E, C = arb_mat(1, r), arb_mat(m, r), arb_mat(m, r)
    LIB.arb_mat_approx_mul(address(S), address(row), address(MA), prec)
    mu = to_objects(S, ctx, shape=(r,)) / ctx.mpf(m)
    Mmu = to_arb_mat(mu.reshape(1, -1))
    LIB.arb_mat_approx_mul(address(E), address(col), address(Mmu), prec)   # e mu^T, exact
    LIB.arb_mat_sub(address(C), address(MA), address(E), prec)
    LIB.arb_mat_get_mid(address(C), address(C))
    return register_twin(to_objects(C, ctx), C), mu


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


def cholesky(A: np.ndarray, *, prec: int, ctx, name: str, zero) -> np.ndarray:
    """Lower Cholesky factor of the symmetric object array A (its lower triangle is read).

    Returns a read-only object array with its FLINT form registered (:func:`twin`).
    Raises CholeskyBreakdownError (step, midpoint pivot, n, name) at the first
    pivot a_kk - ||l_k||^2 that is <= 0 or not finite in ``prec``-bit arithmetic.
    """
    n = A.shape[0]
    M = to_arb_mat(A, lower=True)
    try:
        _cholesky_inplace(M, n, prec, name)
    except CholeskyBreakdownError as err:
        r = err.record
        raise CholeskyBreakdownError(CholeskyBreakdown(r.step, r.pivot, n, r.precision)) from None
    return register_twin(to_objects(M, ctx, lower=True, zero=zero), M)


class DiagonalFactorizer:
    """Cholesky factorizations of matrices that differ from G only on the diagonal (a ridge path).

    G's lower triangle is converted to ``arb_mat`` once; each call copies it
    (in C), writes A's diagonal (n conversions) and runs the factorization of
    :func:`cholesky` in place, returning its breakdown record or None.  The
    factor is not converted back (2/3 of a call's cost at n = 200): the call
    answers whether, and where, :func:`cholesky` of A breaks down, with the
    same numbers in the same routine, so the same step and pivot.
    """

    def __init__(self, G: np.ndarray, *, prec: int, name: str):
        self.n, self.prec, self.name = G.shape[0], prec, name
        self.M = to_arb_mat(G, lower=True)

    def __call__(self, A: np.ndarray):
        """The breakdown record of ``cholesky(A)`` (or None); A's strict lower triangle is G's."""
        n = self.n
        W = arb_mat(n, n)
        LIB.arb_mat_set(address(W), address(self.M))
        d = to_arb_mat(np.diagonal(A)).entries()
        for i in range(n):
            W[i, i] = d[i]
        try:
            _cholesky_inplace(W, n, self.prec, self.name)
        except CholeskyBreakdownError as err:
            r = err.record
            return CholeskyBreakdown(r.step, r.pivot, n, r.precision)
        return None


#: Order of the diagonal blocks factored by the scalar recurrence (inside blocks of BLOCK).
BASE = 16


def _cholesky_inplace(M, n, prec, name, block=BLOCK, *, offset=0):
    """Right-looking blocked Cholesky on the lower triangle of M (an arb_mat or a window address).

    Only midpoint arithmetic is used: ``arb_mat_approx_*`` and the scalar
    recurrence on exact midpoints.  (Ball routines such as ``arb_mat_cho`` lower
    the precision of a midpoint once its ball is wide: their midpoints are not
    the ``prec``-bit floating-point factor; measured backward error 4e16 n u at
    kappa = 1e10, n = 120.)  Diagonal blocks are factored by the same routine
    with blocks of BASE, and those by :func:`_scalar_cholesky`.
    """
    ptr = M if isinstance(M, int) else address(M)
    if n <= BASE:
        _scalar_cholesky(ptr, n, offset, prec, name)
        return
    for k0 in range(0, n, block):
        k1 = min(n, k0 + block)
        b = k1 - k0
        with Window(ptr, k0, k0, k1, k1) as Akk:
            _cholesky_inplace(Akk, b, prec, name, BASE, offset=offset + k0)
            Lkk = arb_mat(b, b)
            LIB.arb_mat_set(address(Lkk), Akk)
        if k1 == n:
            return
        with Window(ptr, k0, k1, k1, n) as U:   # the factor's strict upper triangle is 0
            LIB.arb_mat_zero(U)
        X = arb_mat(b, n - k1)   # L_panel^T = Lkk^{-1} A_panel^T
        with Window(ptr, k1, k0, n, k1) as P:
            PT = arb_mat(b, n - k1)
            LIB.arb_mat_transpose(address(PT), P)
            LIB.arb_mat_approx_solve_tril(address(X), address(Lkk), address(PT), 0, prec)
            LIB.arb_mat_transpose(P, address(X))
        for j0 in range(k1, n, block):   # A[j0:, j0:j1] -= L[j0:, k0:k1] L[j0:j1, k0:k1]^T
            j1 = min(n, j0 + block)
            T = arb_mat(n - j0, j1 - j0)
            with Window(ptr, j0, k0, n, k1) as Lrows, Window(X, 0, j0 - k1, b, j1 - k1) as Lt, \
                    Window(ptr, j0, j0, n, j1) as Aj:
                LIB.arb_mat_approx_mul(address(T), Lrows, Lt, prec)
                LIB.arb_mat_sub(Aj, Aj, address(T), prec)
                LIB.arb_mat_get_mid(Aj, Aj)


def _scalar_cholesky(ptr, b, offset, prec, name):
    """The jik recurrence on midpoints of the b x b matrix at ``ptr``, written back in place
    (its strict upper triangle set to 0).

    Each operation is one ``prec``-bit rounding of exact midpoints; the first
    pivot a_jj - ||l_j||^2 that is <= 0 or not finite raises the breakdown at
    global step offset + j (n of the record filled in by :func:`cholesky`).
    """
    A = arb_mat(b, b)
    LIB.arb_mat_set(address(A), ptr)
    ent = A.entries()
    L = [[arb(0)] * b for _ in range(b)]
    with flint.ctx.workprec(prec):
        for j in range(b):
            d = ent[j * b + j]
            for t in range(j):
                d = (d - (L[j][t] * L[j][t]).mid()).mid()
            if not (d > 0 and d.is_finite()):
                raise CholeskyBreakdownError(CholeskyBreakdown(offset + j, float(d.mid()), -1, name))
            r = d.sqrt().mid()
            L[j][j] = r
            for i in range(j + 1, b):
                s = ent[i * b + j]
                for t in range(j):
                    s = (s - (L[i][t] * L[j][t]).mid()).mid()
                L[i][j] = (s / r).mid()
    out = arb_mat(L)   # referenced while its address is used
    LIB.arb_mat_set(ptr, address(out))


def solve_triangular(T, b, *, lower: bool, trans: bool, unit: bool = False, prec: int, ctx) -> np.ndarray:
    """op(T) x = b by substitution on midpoints (``arb_mat_approx_solve_tril`` / ``_triu``)."""
    MT = _as_arb(T)
    if trans:
        MT, lower = _transposed(T, MT), not lower
    B = to_arb_mat(b)
    X = arb_mat(B.nrows(), B.ncols())
    solve = LIB.arb_mat_approx_solve_tril if lower else LIB.arb_mat_approx_solve_triu
    solve(address(X), address(MT), address(B), int(unit), prec)
    return to_objects(X, ctx, shape=np.shape(b))


def lu_factor(A: np.ndarray, *, prec: int, ctx, name: str):
    """(packed LU object array, perm) with A[perm] = L U (L unit lower), by ``arb_mat_approx_lu``.

    The packed array is read-only with its FLINT form registered.  Raises
    LUBreakdownError at the first zero or non-finite pivot u_kk (midpoint).
    """
    n = A.shape[0]
    MA = to_arb_mat(A)
    LU = arb_mat(n, n)
    perm = (ctypes.c_long * n)()
    ok = LIB.arb_mat_approx_lu(perm, address(LU), address(MA), prec)
    diag = [LU[k, k] for k in range(n)]
    bad = next((k for k, d in enumerate(diag) if d.is_zero() or not d.is_finite()), None)
    if not ok or bad is not None:
        k = bad if bad is not None else n - 1
        raise LUBreakdownError(LUBreakdown(k, float(diag[k].mid()) if diag[k].is_finite() else float("nan"),
                                           n, name))
    packed = register_twin(to_objects(LU, ctx), LU)
    return packed, np.frombuffer(perm, dtype=np.int64).copy()


def lu_solve(LU: np.ndarray, perm: np.ndarray, b, *, trans: bool = False, prec: int, ctx) -> np.ndarray:
    """x with A x = b (or A^T x = b) from :func:`lu_factor`'s factors."""
    b = np.asarray(b)
    if trans:  # A^T = U^T L^T P: U^T w = b, L^T v = w, x = P^T v
        w = solve_triangular(LU, b, lower=False, trans=True, prec=prec, ctx=ctx)
        v = solve_triangular(LU, w, lower=True, trans=True, unit=True, prec=prec, ctx=ctx)
        x = np.empty_like(v)
        x[perm] = v
        return x
    y = solve_triangular(LU, b[perm], lower=True, trans=False, unit=True, prec=prec, ctx=ctx)
    return solve_triangular(LU, y, lower=False, trans=False, prec=prec, ctx=ctx)


# ----------------------------------------------------------------------------- eigenvalues
def eigvalsh(A: np.ndarray, *, prec: int, ctx) -> np.ndarray | None:
    """Eigenvalues of the symmetric object array A, ascending, by FLINT's QR algorithm on
    midpoints (``acb_mat_approx_eig_qr``: Hessenberg reduction, shifted QR), real parts kept.

    The QR algorithm is backward stable: the computed eigenvalues are those of
    A + E with ||E||_2 <= c n^2 u ||A||_2, and since A is symmetric (orthonormal
    eigenvectors, Bauer-Fike with condition 1) each moves by at most ||E||_2,
    as in mpmath's ``eigsy``; the imaginary parts are that rounding.  None when
    FLINT returns a non-finite value (the caller falls back to mpmath).
    """
    M = to_arb_mat(A)
    with flint.ctx.workprec(prec):
        ev = acb_mat(M).eig(algorithm="approx")
    re = [e.real.mid() for e in ev]
    if not all(v.is_finite() for v in re):
        return None
    with no_gc():
        vals = _objects(ctx, re)
    return np.array(sorted(vals), dtype=object)


def _reflect(ptr, k, r1, c0, c1, V, Vb, prec):
    """Rows k:r1, columns c0:c1 of the matrix at ``ptr`` <- (I - Vb V^T) times them, on midpoints
    (V, Vb: (r1 - k) x 1 arb_mat, Vb = beta V): one ``arb_mat_approx_mul`` for V^T A, one for the
    rank-1 product, one subtraction."""
    if c1 <= c0:
        return
    W = arb_mat(1, c1 - c0)
    T = arb_mat(r1 - k, c1 - c0)
    Vt = arb_mat(1, r1 - k)
    LIB.arb_mat_transpose(address(Vt), address(V))
    with Window(ptr, k, c0, r1, c1) as Ak:
        LIB.arb_mat_approx_mul(address(W), address(Vt), Ak, prec)
        LIB.arb_mat_approx_mul(address(T), address(Vb), address(W), prec)
        LIB.arb_mat_sub(Ak, Ak, address(T), prec)
        LIB.arb_mat_get_mid(Ak, Ak)


def householder_q(M: arb_mat, prec: int) -> arb_mat:
    """The orthogonal factor Q (m x n) of M = Q R (m >= n) by Householder reflections on midpoints.

    Golub & Van Loan Alg. 5.1.1 / 5.2.1: column k is sent to -sign(a_kk) ||a|| e_k (no cancellation
    in v_0 = a_0 - alpha); a zero column is skipped (its reflection is the identity).  The
    reflections' rank-1 updates are ``arb_mat_approx_mul`` products on windows of one matrix;
    Q = H_0 ... H_{n-1} I[:, :n] is accumulated backwards.  Q is orthonormal to working precision
    whatever the rank of M (Higham, *Accuracy and Stability*, Lemma 19.3, Thm 19.4:
    ||Q^T Q - I|| <= c m n u): a numerically dependent column gets an orthonormal complement.
    """
    m, n = M.nrows(), M.ncols()
    A = arb_mat(m, n)
    LIB.arb_mat_set(address(A), address(M))
    LIB.arb_mat_get_mid(address(A), address(A))
    refl = _householder_inplace(A, prec)
    Q = arb_mat(m, n)
    for i in range(n):
        Q[i, i] = arb(1)
    for k in reversed(range(n)):
        if refl[k] is not None:
            _reflect(address(Q), k, m, k, n, *refl[k], prec)
    return Q


def _householder_inplace(A: arb_mat, prec: int, B: arb_mat | None = None) -> list:
    """Reduce A (m x n, midpoints) to R in place by Householder reflections, applying each to B
    too; returns the reflections [(V, beta V) or None for a zero column] (GVL Alg. 5.2.1)."""
    m, n = A.nrows(), A.ncols()
    refl = []
    with flint.ctx.workprec(prec):
        two = arb(2)
        for k in range(n):
            col = [A[i, k] for i in range(k, m)]
            alpha = sum((x * x for x in col), arb(0)).mid().sqrt().mid()
            if not alpha > 0:
                refl.append(None)
                continue
            if col[0] > 0:
                alpha = -alpha
            col[0] = (col[0] - alpha).mid()
            beta = (two / sum((x * x for x in col), arb(0)).mid()).mid()
            V = arb_mat(m - k, 1, col)
            Vb = arb_mat(m - k, 1, [(beta * x).mid() for x in col])
            _reflect(address(A), k, m, k, n, V, Vb, prec)
            if B is not None:
                _reflect(address(B), k, m, 0, B.ncols(), V, Vb, prec)
            refl.append((V, Vb))
    return refl


def householder_qr(A: np.ndarray, b, *, prec: int, ctx, zero):
    """(R, y): R of A = Q R (n x n, strict lower part exactly ``zero``) and y = (Q^T b)[:n] (None
    without b), by :func:`linalg.qr.householder_qr`'s reflections on FLINT matrices (midpoints at
    ``prec`` bits; each rank-1 update two ``arb_mat_approx_mul`` and a subtraction)."""
    m, n = A.shape
    M = to_arb_mat(A)
    B = None if b is None else to_arb_mat(b)
    _householder_inplace(M, prec, B)
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


def eigh(A: np.ndarray, *, prec: int, ctx):
    """(w ascending, U) with A U ~ U diag(w), U orthonormal, for the symmetric object array A; None
    when FLINT's QR algorithm returns a non-finite value (the caller falls back to mpmath).

    1. Eigenvalues and right eigenvectors by ``acb_mat_approx_eig_qr`` (Hessenberg reduction,
       shifted QR, vectors from the Schur form), on midpoints at ``prec`` bits.  For a symmetric
       A the vector of an eigenvalue at distance ``gap`` from the others is accurate to an angle
       ~ u ||A|| / gap; inside a cluster of width ~ u ||A|| (the numerically null space of a
       kernel matrix) the vectors are not determined and come out nearly parallel.
    2. Their real parts, ordered by |lambda| descending, are orthonormalised by Householder
       (:func:`householder_q`): Q is orthonormal to working precision whatever their rank, its
       first columns are the well separated vectors (moved by their non-orthogonality, an angle
       ~ u ||A|| / gap), the last ones complete the basis on the cluster's invariant subspace.
       Mixing two vectors by an angle theta ~ u ||A|| / gap makes an off-diagonal entry of
       Q^T A Q of ~ theta gap = u ||A||: the decomposition stays backward stable.
    3. w_j = q_j^T A q_j (Rayleigh quotients), so A - U diag(w) U^T is the off-diagonal part of
       Q^T A Q, O(n u ||A||).  mpmath's ``eigsy`` (Jacobi-free tridiagonal QL) gives the same
       bounds at ~10x the cost (n = 60, 50 digits: 0.25 against 2.6 CPU-s).
    """
    n = A.shape[0]
    M = to_arb_mat(A)
    with flint.ctx.workprec(prec):
        E, R = acb_mat(M).eig(right=True, algorithm="approx")
    lam = [e.real.mid() for e in E]
    if not all(v.is_finite() for v in lam) or not all(R[i, j].real.is_finite()
                                                      for i in range(n) for j in range(n)):
        return None
    order = sorted(range(n), key=lambda j: -abs(float(lam[j])))
    Rr = arb_mat(n, n, [R[i, j].real.mid() for i in range(n) for j in order])
    Q = householder_q(Rr, prec)
    AQ = arb_mat(n, n)
    LIB.arb_mat_approx_mul(address(AQ), address(M), address(Q), prec)
    with flint.ctx.workprec(prec):
        ent_q, ent_aq = Q.entries(), AQ.entries()
        w = [sum((ent_q[i * n + j] * ent_aq[i * n + j] for i in range(n)), arb(0)).mid() for j in range(n)]
    asc = sorted(range(n), key=lambda j: w[j])
    with no_gc():
        vals = _objects(ctx, [w[j] for j in asc])
        P = arb_mat(n, n, [ent_q[i * n + j] for i in range(n) for j in asc])
    return np.array(vals, dtype=object), to_objects(P, ctx)


# ----------------------------------------------------------------------------- exp and the RBF kernel
def exp(a: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """Elementwise exp of an object array of mpf: ``arb.exp`` at ``prec`` bits, midpoint kept."""
    a = np.asarray(a, dtype=object)
    flat = a.reshape(-1)
    special = np.array([not v._mpf_[1] for v in flat], dtype=bool)   # 0, +-inf, nan: mpmath
    regular = flat[~special] if special.any() else flat
    out = np.empty(a.size, dtype=object)
    with flint.ctx.workprec(prec), no_gc():
        vals = _objects(ctx, map(arb.exp, to_arb_mat(regular).entries())) if regular.size else []
    if special.any():
        out[~special] = vals
        out[special] = [ctx.exp(v) for v in flat[special]]
    else:
        out[:] = vals
    return out.reshape(a.shape)


def _integers(P: np.ndarray):
    """(integer matrix N, exponent e) with P = N 2^e exactly, for an object array of mpf."""
    tups = [v._mpf_ for v in P.flat]
    e0 = min((t[2] for t in tups if t[1]), default=0)
    vals = [(-int(m) if s else int(m)) << (e - e0) if m else 0 for s, m, e, _ in tups]
    return fmpz_mat(P.shape[0], P.shape[1], vals), e0


#: Rows of K computed per exact integer product (band) of :func:`rbf`.
RBF_BAND = 256


def _augmented_integers(X, Z):
    """Integer rows U = [x, |x|^2, 1] and W = [-2 z, 1, |z|^2] with U W^T = ||x - z||^2 2^-2e0 exactly.

    X, Z are object arrays of mpf (dyadic rationals), scaled to integers with
    one common exponent e0 (Z None: W from X).
    """
    both = X if Z is None else np.concatenate([X, Z])
    N, e0 = _integers(both)
    rows = N.tolist()
    norms = [sum(v * v for v in r) for r in rows]   # exact Python integers
    n = X.shape[0]
    U = [r + [q, 1] for r, q in zip(rows[:n], norms[:n])]
    zr, zq = (rows, norms) if Z is None else (rows[n:], norms[n:])
    W = [[-2 * v for v in r] + [1, q] for r, q in zip(zr, zq)]
    return U, W, e0


def rbf_exponents(X: np.ndarray, Z, sigma2, *, prec: int, rows=None) -> arb_mat:
    """-||x_i - z_j||^2 / sigma2 (i in ``rows``, default all) with *exact* squared distances.

    ||x||^2 + ||z||^2 - 2 x.z is one product of augmented integer rows
    (FLINT's multimodular product), exact, so no cancellation can make a
    distance wrong, let alone negative; the division by sigma2 2^-2e0 (an exact
    rescaling of sigma2) is the only rounding.  Midpoints, radius 0.
    """
    U, W, e0 = _augmented_integers(X, Z)
    U = U if rows is None else U[rows]
    D = fmpz_mat(U) * fmpz_mat(W).transpose()
    with flint.ctx.workprec(prec):
        return (arb_mat(D) / (-arb(sigma2) * arb(2) ** (-2 * e0))).mid()


def rbf(X: np.ndarray, Z, sigma2, *, prec: int, ctx, band=RBF_BAND) -> np.ndarray:
    """exp(-||x_i - z_j||^2 / sigma2) as an object array of mpf (Z None: K(X, X), symmetric).

    By bands of ``band`` rows: one exact integer product (:func:`rbf_exponents`),
    for K(X, X) only on and left of the diagonal, then ``arb.exp`` of each
    exponent at ``prec`` bits, its midpoint kept.  K(X, X) shares the lower
    triangle's numbers with the upper one (mpf are immutable), K_ii = 1 exactly.
    """
    U, W, e0 = _augmented_integers(X, Z)
    n, m = len(U), len(W)
    out = np.empty((n, m), dtype=object)
    one = ctx.mpf(1)
    with flint.ctx.workprec(prec), no_gc():
        scale = -arb(sigma2) * arb(2) ** (-2 * e0)
        for i0 in range(0, n, band):
            i1 = min(n, i0 + band)
            width = m if Z is not None else i1
            D = fmpz_mat(U[i0:i1]) * fmpz_mat(W[:width]).transpose()
            ent = (arb_mat(D) / scale).mid().entries()
            if Z is not None:
                out[i0:i1].reshape(-1)[:] = _objects(ctx, map(arb.exp, ent))
                continue
            for i in range(i0, i1):
                k = (i - i0) * width
                row = _objects(ctx, map(arb.exp, ent[k:k + i]))
                row.append(one)
                out[i, :i + 1] = row
                out[:i, i] = row[:i]
    return out


# ----------------------------------------------------------------------------- greedy pivoted Cholesky
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
        U, W, e0 = _augmented_integers(Xp, None)
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
