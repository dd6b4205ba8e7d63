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
* Cholesky (:mod:`.flint_factor`, as the solves and eigenproblems below): right-looking blocked A = L L^T in place on one ``arb_mat`` --
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
* the bordered inverse update of MRSR and PRESS
  (:func:`~lssvm_analysis.linalg._mrsr_flint.bordered_inverse`, beside MRSR in ``linalg/``);
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
symmetric eigenvalues when FLINT's QR returns a non-finite value (``eigsy``) and the O(n) vector recurrences of CG, MRSR and Abe's thresholded selection (at the
maps' n = 60 ~1 us per operation, about what a conversion costs, so FLINT gains nothing there
unless the vectors stay in FLINT).  The greedy
pivoted Cholesky of an RBF kernel keeps its factor and residual diagonal in FLINT between
steps (:class:`~lssvm_analysis.linalg._cholesky_flint.PivotedRBF`; the generic loop converted G[:, :r] at every step: an mp50
sr-lssvm fit at m = 2000, r = 100 took 78 CPU-s, now about 3), and column centring is one
product and one subtraction in FLINT (:func:`center_columns`).  The engines of the
algorithms of ``linalg/`` (CG's Krylov space, the pivoted Cholesky, the RBF kernel, Householder
QR, MRSR, PRESS) live beside those algorithms (``linalg/_*_flint.py``), written with the public
names here and in :mod:`.flint_arb`, and are chosen there by ``p.engine == "flint"``.  CG's
products go through :func:`operator` (A converted once, each block of
directions per iteration), so an mp50 CG fit at n = 60 takes 0.5 CPU-s where
NumPy's object loops took 4.6.

Conversions cost about 1-3 us per entry each way (Python objects are made or
read one by one), so a factor is kept as its FLINT matrix beside the object
array it returns (:func:`twin`): the array is read-only, and a later solve
with it converts only the right-hand side.

When ``libflint`` cannot be loaded through ctypes, or python-flint's object
layout is not the one checked at import (:mod:`._libflint`, the one ctypes module),
:data:`AVAILABLE` is False and ``mpN`` is :class:`~lssvm_analysis.arith.mp.MPPrecision`
on mpmath's generic code.
"""
from __future__ import annotations

import contextlib
import gc
import weakref
from collections import deque
from itertools import repeat, starmap

import flint
import numpy as np
from flint import arb, arb_mat, fmpz_mat
from mpmath.libmp import BACKEND, from_man_exp, to_float as _to_float

if BACKEND == "gmpy":   # mpmath's own normalizer in C: (sign, man, exp, bc) of man 2^exp, exact
    from gmpy2 import _mpmath_create as _create
else:  # pragma: no cover - mpmath without gmpy2
    _create = from_man_exp

from ._libflint import AVAILABLE, LIB, Window, address, set_block

__all__ = ["AVAILABLE", "BLOCK", "to_arb_mat", "to_objects", "to_float64", "from_float64", "objects", "no_gc", "matmul",
           "exp", "operator", "keep", "rbf_exponents", "augmented_integers", "as_arb", "transposed", "twin", "register_twin", "center_columns",
           "keep_columns", "keep_prefix", "keep_leading", "rank_one_sum", "column_sumsq", "column_sumsq_arb",
           "LIB", "address", "Window", "set_block"]


#: Rows of a block of the blocked Cholesky (products of BLOCK-wide panels).
BLOCK = 96


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


def objects(ctx, balls) -> list:
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
            out.reshape(-1)[:] = objects(ctx, ent)
            return out
        out = np.full((r, c), zero, dtype=object)
        for i in range(r):
            out[i, :i + 1] = objects(ctx, ent[i * c:i * c + i + 1])
    return out


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


def as_arb(a):
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
                return transposed(base, MB)
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


def transposed(a, M):
    """M^T, kept beside a registered twin (a factor's transpose serves every L^T solve)."""
    hit = _TWINS.get(id(a)) if twin(a) is M else None
    if hit is not None and "T" in hit[2]:
        return hit[2]["T"]
    T = arb_mat(M.ncols(), M.nrows())
    LIB.arb_mat_transpose(address(T), address(M))
    if hit is not None:
        hit[2]["T"] = T
    return T


def matmul(A, B, *, prec: int, ctx) -> np.ndarray:
    """A @ B (2-D; A 1-D is a row, B 1-D a column, as NumPy reads them) with one rounding to
    ``prec`` bits per entry (``arb_mat_approx_mul``)."""
    MA = to_arb_mat(np.asarray(A).reshape(1, -1)) if np.ndim(A) == 1 else as_arb(A)
    MB = as_arb(B)
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
    return to_objects(column_sumsq_arb(as_arb(K), prec), ctx, shape=(K.shape[1],))


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
    MH = as_arb(H)
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


def center_columns(A: np.ndarray, *, prec: int, ctx):
    """(A - e mu^T, mu) with mu = (e^T A) / m: each column sum one ``arb_mat_approx_mul`` entry
    (one rounding), divided by m in mpmath, each centred entry one rounded FLINT subtraction.
    The centred array is read-only with its FLINT form registered (:func:`twin`)."""
    MA = as_arb(A)
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


def exp(a: np.ndarray, *, prec: int, ctx) -> np.ndarray:
    """Elementwise exp of an object array of mpf: ``arb.exp`` at ``prec`` bits, midpoint kept."""
    a = np.asarray(a, dtype=object)
    flat = a.reshape(-1)
    special = np.array([not v._mpf_[1] for v in flat], dtype=bool)   # 0, +-inf, nan: mpmath
    regular = flat[~special] if special.any() else flat
    out = np.empty(a.size, dtype=object)
    with flint.ctx.workprec(prec), no_gc():
        vals = objects(ctx, map(arb.exp, to_arb_mat(regular).entries())) if regular.size else []
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


def augmented_integers(X, Z):
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
    U, W, e0 = augmented_integers(X, Z)
    U = U if rows is None else U[rows]
    D = fmpz_mat(U) * fmpz_mat(W).transpose()
    with flint.ctx.workprec(prec):
        return (arb_mat(D) / (-arb(sigma2) * arb(2) ** (-2 * e0))).mid()
