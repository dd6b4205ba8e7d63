"""Exact conversion of arrays to python-flint ``arb`` and small ball helpers.

Shared by :mod:`lssvm_analysis.analysis.reference` (certified solutions) and
:mod:`lssvm_analysis.analysis.measures` (error measures).  Every binary floating-point
number (float16/32/64, longdouble) and every mpmath ``mpf`` is a dyadic
rational, so it converts to an ``arb`` ball of radius 0 exactly: the data are
taken *as given*, their rounding is never counted as a solver's error.
"""
from __future__ import annotations

import functools
import math

import flint
import mpmath
import numpy as np
from flint import arb, arb_mat
from mpmath.ctx_mp_python import _mpf
from mpmath.libmp import from_man_exp

from ..arith import flint_engine as _flint
from ..arith.mp import MP_CONTEXT
from .ozaki import SAFE, TINY, OutOfRange
from .pieces import float64_pieces
from .double_double import DD
from ..core.validation import as_matrix, check_finite, check_real, check_square

__all__ = ["ExactSystem", "abs_max", "arb_scalar", "check_array", "col_abs_max", "exact_mpf", "exact_system",
           "float_up", "row_sums", "square_matrix", "to_arb", "to_float64", "norm_inf_bound", "norm_2_bound",
           "residual_arb"]


# ----------------------------------------------------------------------------- exact data
def arb_scalar(v, name, idx):
    """Exact arb value of one scalar (float, int, longdouble, mpmath mpf)."""
    mpf = getattr(v, "_mpf_", None)
    if mpf is not None:
        if not mpmath.isfinite(v):
            raise ValueError(f"expected finite values in {name}, got {name}{list(idx)}={v}")
        sign, man, exp, _ = mpf
        return arb((-int(man) if sign else int(man), int(exp)))
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        raise TypeError(f"expected real numbers (float, int or mpmath mpf) in {name}, "
                        f"got {name}{list(idx)}={v!r} of type {type(v).__name__}")
    if isinstance(v, (int, np.integer)):
        return arb(int(v))
    if not np.isfinite(v):
        raise ValueError(f"expected finite values in {name}, got {name}{list(idx)}={v!r}")
    num, den = v.as_integer_ratio()  # exact for every binary float, longdouble included
    return arb((num, 1 - den.bit_length()))


def exact_mpf(man, exp):
    """The mpf man 2^exp of the package's context ``MP_CONTEXT``, exact (``mpf((man, exp))`` would
    round to the context's precision)."""
    return MP_CONTEXT.make_mpf(from_man_exp(int(man), int(exp)))


def to_arb(a: np.ndarray, name: str) -> arb_mat:
    """Exact arb_mat of a 2-D array (entries radius 0).

    A read-only object array is converted once: its form is kept beside it
    (:func:`_flint.twin`, dropped with the array) and returned again, so the
    reference solve and the backward error of one system (the fit kind's
    ``_reference_columns``) share one conversion.  The matrix returned is
    shared then: callers only read it.
    """
    kind = a.dtype.kind
    if kind in "iu":
        return arb_mat(a.tolist())
    if kind == "f" and a.dtype.itemsize <= 8:
        return arb_mat(a.astype(np.float64).tolist())
    if kind == "f":  # longdouble: hi + lo, both exact float64, exact sum at 128 bits
        with np.errstate(all="ignore"):
            hi = a.astype(np.float64)
            lo = (a - hi.astype(a.dtype)).astype(np.float64)
            exact = np.array_equal(hi.astype(a.dtype) + lo.astype(a.dtype), a)
        if exact:
            with flint.ctx.workprec(128):
                return arb_mat(hi.tolist()) + arb_mat(lo.tolist())
    kept = _flint.twin(a)   # a read-only array converted before (its exact form, kept beside it)
    if kept is not None:
        return kept
    fast = _mpf_matrix(a)
    if fast is not None:
        if not a.flags.writeable:   # read-only: the next conversion of this very array is free
            _flint.register_twin(a, fast)
        return fast
    rows = [[arb_scalar(a[i, j], name, (i, j)) for j in range(a.shape[1])]
            for i in range(a.shape[0])]
    return arb_mat(rows)


def _mpf_matrix(a: np.ndarray):
    """arb_mat of a 2-D object array whose entries are all finite mpf, read by python-flint in C
    (exactly: an mpf is its (sign, man, exp)), or None: the caller converts entry by entry and
    names a bad one.  ~1 us per entry against ~3 for :func:`arb_scalar`."""
    flat = a.ravel().tolist()
    if not all(isinstance(v, _mpf) for v in flat):
        return None
    M = arb_mat(a.shape[0], a.shape[1], flat) if flat else arb_mat(a.shape[0], a.shape[1])
    return M if all(e.is_finite() for e in M.entries()) else None


def to_float64(a: np.ndarray) -> np.ndarray:
    """Round to nearest float64 (inf outside its range)."""
    if a.dtype != object:
        with np.errstate(over="ignore"):
            return a.astype(np.float64)
    out = np.empty(a.shape)
    for idx, v in np.ndenumerate(a):
        try:
            out[idx] = float(v)
        except OverflowError:  # a huge int
            out[idx] = math.inf if v > 0 else -math.inf
    return out


def row_sums(a: np.ndarray, exact: arb_mat) -> list:
    """sum_j |a_ij| per row as arb: exact for object arrays, else in a's own range
    (float64 for float16/32, longdouble keeps its exponent range; rounding ~n u)."""
    if a.dtype == object:
        n, ent = a.shape[1], exact.entries()
        with flint.ctx.workprec(64):
            return [sum((abs(e) for e in ent[i * n:(i + 1) * n]), arb(0)).upper()
                    for i in range(a.shape[0])]
    wide = np.longdouble if a.dtype.kind == "f" and a.dtype.itemsize > 8 else np.float64
    rows = np.concatenate([np.abs(a[i:i + 256].astype(wide, copy=False)).sum(axis=1)
                           for i in range(0, a.shape[0], 256)])   # by blocks: no n x n temporary
    return [arb_scalar(v, "A", ()) for v in rows]


def check_array(a, name: str, *, ndims=(1, 2)) -> np.ndarray:
    """Non-empty real array of ``ndims`` (finite unless object); TypeError/ValueError naming it."""
    arr = np.asarray(a)
    check_real(arr, name)
    if arr.ndim not in ndims:
        raise ValueError(f"expected {name} with ndim in {ndims}, got {name}.shape={arr.shape}")
    if arr.size == 0:
        raise ValueError(f"expected a non-empty array for {name}, got {name}.shape={arr.shape}")
    if arr.dtype != object:
        check_finite(arr, name)
    return arr


def square_matrix(A, name="A") -> np.ndarray:
    """``check_array`` for a square 2-D ``A``."""
    A = as_matrix(A, name, allow_object=True)
    check_square(A, name)
    return check_array(A, name, ndims=(2,))


class ExactSystem:
    """A x = b taken exactly, in the forms the certified solvers use.

    Attributes
    ----------
    A, B : arb_mat
        A and b (as an (n, k) matrix) exactly; ``A`` is converted on first
        use (0.45 s per 10^6 entries), so a float64 route that never needs it
        never pays for it.
    A64, B64 : ndarray
        Nearest float64 (read-only; a view of the caller's array when it is
        float64 already).
    A_pieces, B_pieces : list of ndarray or None
        float64 arrays summing exactly to A and b (:func:`~lssvm_analysis.exact.pieces.float64_pieces`;
        one piece for float16/32/64 data), None when the entries do not fit.
    symmetric : bool
    held_in_arb : bool
        A was given as an object array: ``A`` was converted on construction.
    shape : tuple
        Shape of b as given.
    norm_a : arb
        ||A||_inf (see row_sums).
    """

    def __init__(self, A: np.ndarray | DD, b2: np.ndarray, shape: tuple):
        self._A = A
        #: A came as an object array (mp numbers): it is held in arb from the start (``A``)
        self.held_in_arb = not isinstance(A, DD) and A.dtype == object
        if isinstance(A, DD):
            self._init_dd(A, b2, shape)
            return
        if A.dtype == object:   # convert now: validates every entry, naming its index
            self.norm_a = max(row_sums(A, self.A))
        self.B = to_arb(b2, "b")
        pieces = float64_pieces(A, count=40)
        self.A_pieces = None if pieces is None else [_readonly(p) for p in pieces]
        self.B_pieces = float64_pieces(b2, count=40)
        self.A64 = self.A_pieces[0] if pieces is not None else _readonly(to_float64(A))
        self.B64 = self.B_pieces[0] if self.B_pieces is not None else to_float64(b2)
        self.symmetric = bool(np.array_equal(A, A.T))
        self.shape = shape
        if A.dtype != object:
            self.norm_a = max(row_sums(A, None))

    def _init_dd(self, A: DD, b2: np.ndarray, shape: tuple) -> None:
        """A given as float64 pieces (a double-double pair, or longer): their sum exactly."""
        self.B = to_arb(b2, "b")
        self.A_pieces = [_readonly(P) for P in A.pieces()]
        self.B_pieces = float64_pieces(b2, count=40)
        self.A64 = self.A_pieces[0]
        self.B64 = self.B_pieces[0] if self.B_pieces is not None else to_float64(b2)
        self.symmetric = all(np.array_equal(P, P.T) for P in self.A_pieces)
        self.shape = shape
        sums = [row_sums(np.abs(P), None) for P in self.A_pieces]
        self.norm_a = max(sum(r[1:], r[0]) for r in zip(*sums))

    @functools.cached_property
    def A(self) -> arb_mat:
        if isinstance(self._A, DD):   # the pieces summed in a ball (exact unless they spread wide)
            pieces = self._A.pieces()
            with flint.ctx.workprec(64 * len(pieces) + 64):
                out = arb_mat(pieces[0].tolist())
                for P in pieces[1:]:
                    out = out + arb_mat(P.tolist())
                return out
        return to_arb(self._A, "A")


def _readonly(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def exact_system(A, b) -> ExactSystem:
    """Validate A (n, n) and b (n,) or (n, k) and take both exactly.

    ``A`` may be a :class:`~lssvm_analysis.exact.double_double.DD` pair (the matrix hi + lo).
    """
    if isinstance(A, DD):
        for part in A.pieces():
            square_matrix(part)
            if part.shape != A.hi.shape:
                raise ValueError(f"expected pieces of one shape, got {A.hi.shape} and {part.shape}")
        n = A.hi.shape[0]
        b = check_array(b, "b")
        if b.shape[0] != n:
            raise ValueError(f"expected b with A.shape[0]={n} rows, got b.shape={b.shape}")
        return ExactSystem(A, b.reshape(n, -1), b.shape)
    A = square_matrix(A)
    n = A.shape[0]
    b = check_array(b, "b")
    if b.shape[0] != n:
        raise ValueError(f"expected b with A.shape[0]={n} rows, got b.shape={b.shape}")
    return ExactSystem(A, b.reshape(n, -1), b.shape)


# ----------------------------------------------------------------------------- arb helpers
def float_up(x: arb) -> float:
    """A float >= every point of the ball x."""
    u = x.upper()
    f = float(u)
    return f if arb(f) >= u else float(np.nextafter(f, math.inf))


def abs_max(entries) -> arb:
    """Exact upper bound of max |e| over arb entries (0 for none)."""
    out = arb(0)
    for e in entries:
        out = out.max(abs(e).upper())
    return out


def col_abs_max(M: arb_mat) -> list:
    """Upper bounds (exact arb) of max_i |M_ij| for each column j."""
    k, ent = M.ncols(), M.entries()
    return [abs_max(ent[j::k]) for j in range(k)]


# ----------------------------------------------------------------------------- residuals (reference_solve)
def norm_inf_bound(v: np.ndarray) -> arb:
    """||v||_inf exactly, plus TINY (the radius computations' underflow slack)."""
    return arb(float(np.abs(v).max())) + arb(TINY)


def norm_2_bound(v: np.ndarray) -> arb:
    """An upper bound on ||v||_2: scaled by the power of 2 of its largest entry (exact), the
    float64 sum of squares (each below the exact one by (1 - u)^(n+1) at most: SAFE; squares
    lost to underflow, n 2^-1074 in all: TINY), then sqrt in arb."""
    m = float(np.abs(v).max())
    if m == 0:
        return arb(TINY)
    e = math.frexp(m)[1]
    w = np.ldexp(v, -e)
    with flint.ctx.workprec(128):
        return arb((1, e)) * (arb(float(w @ w) * SAFE) + arb(TINY)).sqrt() + arb(TINY)


def residual_arb(s: ExactSystem, X):
    """(hi, lo, rad): b - A x = hi + lo + d with |d| <= rad entrywise, for a system held in arb
    and x an :class:`~lssvm_analysis.exact.ozaki.FixedPoint`.

    A (exact balls of radius 0) times the exact x in ball arithmetic at the bits of x plus 256
    (exact for entries of up to ~190 decimal digits at n < 2^64; beyond, the balls' radii are
    counted), then each entry split as hi = its midpoint to nearest float64, lo = the rest to
    nearest float64, rad = the rest of that plus the ball's radius, rounded up.  Rigorous as
    :func:`lssvm_analysis.exact.ozaki.residual` is (that residual's d is ~2^-106 |A| |x|, here
    0 when the product is exact), in O(n^2) ball operations instead of products of every
    float64 piece of A (an mp50 entry has four) with every limb of x.
    """
    n, k = X.shape
    Xa = arb_mat(n, k, [arb((int(m), int(e))) for m, e in X.exact()])
    hi, lo, rad = np.empty(n * k), np.empty(n * k), np.empty(n * k)
    with flint.ctx.workprec((X.Y.shape[0] + 1) * X.beta + 256):
        for idx, r in enumerate((s.B - s.A * Xa).entries()):
            mid = r.mid()
            h = float(mid)
            rest = mid - arb(h) if math.isfinite(h) else None
            l = float(rest) if rest is not None else math.inf
            if not (math.isfinite(h) and math.isfinite(l)):
                raise OutOfRange("residual outside the float64 range")
            hi[idx], lo[idx] = h, l
            rad[idx] = float_up(abs(rest - arb(l)) + r.rad())
    return hi.reshape(n, k), lo.reshape(n, k), rad.reshape(n, k)
