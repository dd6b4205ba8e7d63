"""Certified extended-precision reference solutions and error measures.

``reference_solve(A, b)`` returns the solution x* of A x = b for the matrix
and right-hand side *as given* (float32, float64, longdouble or mpmath
entries, all converted exactly to python-flint ``arb`` balls of radius 0),
rounded to ``digits + 10`` decimal digits, with a *proven* bound on its error.
It is therefore the right yardstick for a solver that ran in the precision of
the data: the rounding of the data is not counted as the solver's error.

Certificate
-----------
For any approximate solution x and any matrix R,

    ||x - x*||_inf <= ||A^-1||_inf ||r||_inf,   r = b - A x,
    ||A^-1||_inf  <= ||R||_inf / (1 - delta)   if  ||I - R A||_inf <= delta < 1

(R A = I - G with ||G|| <= delta < 1 is invertible with ||(RA)^-1|| <= 1/(1-delta),
and A^-1 = (RA)^-1 R).  r is evaluated in ball arithmetic from exact data, so
its upper bound is rigorous.  The methods, tried in order:

1. ``refinement-float64``: factor the float64 rounding of A (Cholesky when A
   is symmetric and the factorization succeeds, else LU with partial
   pivoting), refine x_{k+1} = x_k + A64^-1 mid(b - A x_k) with residuals in
   arb at ``prec_x + 64`` bits, x kept at ``prec_x = max(256, 2 log2(10)
   digits + 64)`` bits.  R = A64^-1 (float64).  delta is bounded in float64
   arithmetic (``certificate="float64-product"``): with C = fl(R A64),
   |C - R A64| <= gamma_n |R||A64| (Higham, *Accuracy and Stability*, 2nd ed.,
   eq. 3.13, valid for any summation order, with or without FMA), the
   rounding of A to A64 adds |R||A - A64| <= u/(1-u) |R||A64|, and every
   float64 row sum of non-negative terms is divided by (1 - gamma_n) to bound
   its exact value; gradual underflow adds at most (n+1)^2 2^-1070 (1 +
   ||R||).  Assumes IEEE binary64 round-to-nearest and a BLAS that evaluates
   each inner product by ordinary multiplications/FMAs and additions (true of
   OpenBLAS, MKL, BLIS; not of Strassen-type gemm).  When this bound is >= 1
   (about n u kappa_inf >= 1) but the refinement converged,
   delta = ||I - R A|| is evaluated in arb instead (``"arb-product"``,
   O(n^3) ball operations: 3-5 s at n = 1000).
2. ``arb-solve-<p>``: when the float64 route cannot certify (kappa beyond
   1/u, float64 factorization impossible, or too few digits), flint's
   rigorous ``arb_mat.inv`` at p = 128, 256, ... bits gives an enclosure of
   A^-1; ||A^-1|| is bounded by its row sums (``"arb-inverse"``) and its
   midpoint refines x at ``prec_x + p`` bits.

The returned x is the refined iterate rounded to the output context;
``error_bound`` adds that rounding, computed exactly.  ``digits`` is
-log10(error_bound / (||x||_inf - error_bound)) rounded down, a lower bound on
-log10(||x - x*||_inf / ||x*||_inf); for k right-hand sides, the smallest over
the columns.  If the requested digits cannot be certified by ``max_bits``,
``ReferenceAccuracyError`` is raised with the best digits reached
(attribute ``digits_reached``).

Cost (measured, one BLAS thread): n = 1000, kappa_2 = 1e6, 30 digits: 0.5 s
on a quiet machine, 0.85-1.2 s on 2 cores loaded 3x (0.15 s of it converting
A to arb), 6 refinement steps; kappa_2 = 1e10: 10 steps.  The arb-inverse
route is O(n^3) ball operations: 0.2-0.4 s at n = 200, 5 s at n = 500.

Error measures
--------------
``forward_error`` (normwise relative, inf-norm, against a reference),
``backward_error`` (Rigal-Gaches), ``kkt_residual`` (the two block rows of
Suykens' KKT system (3.32) / (3.5) separately) return an ``ErrorReport`` with
the unit roundoff of the solver's precision and a condition estimate beside
the value; residuals are evaluated in arb from the exact data.

References
----------
S. M. Rump, "Verification methods: rigorous results using floating-point
arithmetic", Acta Numerica 19 (2010), sec. 10.  N. J. Higham, *Accuracy and
Stability of Numerical Algorithms*, 2nd ed., SIAM 2002, ch. 3, 7, 12.
J. A. K. Suykens et al., *Least Squares Support Vector Machines*, 2002, ch. 3.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping, NamedTuple

import flint
import mpmath
import numpy as np
import scipy.linalg
from flint import arb, arb_mat
from mpmath.libmp import from_man_exp

from ._validation import as_matrix, check_finite, check_int, check_square
from .exceptions import ReferenceAccuracyError
from .precision import get_precision

__all__ = ["ReferenceSolution", "ErrorReport", "reference_solve", "forward_error",
           "backward_error", "kkt_residual", "condition_number", "correct_digits"]

_LOG2_10 = math.log2(10)
_EXTRA_DIGITS = 10        # x is returned at digits + 10 decimal digits
_MAX_ITER = 60            # refinement steps; each must at least halve the correction
_ARB_START_BITS = 128     # first precision of the arb-inverse route
_MP_EIG_MAX_N = 200       # mp eigenvalues are O(n^3) Python operations
_TINY = float(np.finfo(np.float64).tiny)


# ----------------------------------------------------------------------------- records
@dataclass(frozen=True, eq=False)
class ReferenceSolution:
    """A certified solution of A x = b.

    Attributes
    ----------
    x : ndarray of mpmath.mpf, shape (n,) or (n, k)
        Numbers of the context of ``get_precision(precision)`` (``digits`` + 10
        decimal digits requested), so ``get_precision(precision).asarray(x)``
        is ``x`` itself.
    digits : float
        Certified correct digits: a lower bound on -log10(||x - x*||_inf /
        ||x*||_inf) (minimum over columns); ``inf`` when x is exact.
    error_bound : float
        Rigorous upper bound on max_j ||x_j - x*_j||_inf.
    method : str
        "refinement-float64" or "arb-solve-<bits>".
    certificate : str
        How ||A^-1||_inf was bounded: "float64-product", "arb-product", "arb-inverse".
    factorization : str or None
        "cholesky" or "lu" for the float64 route, None for arb-solve.
    iterations : int
        Refinement steps of the method that certified.
    inverse_norm_bound : float
        Rigorous upper bound on ||A^-1||_inf.
    cond_estimate : float
        ||A||_inf times ``inverse_norm_bound``: an upper estimate of
        kappa_inf(A) (exceeding it by the factor 1/(1 - delta) at most, up to
        the float64 rounding of ||A||_inf).
    precision : str
        Name of the mp precision of ``x`` (e.g. "mp40").
    requested_digits : int
    """

    x: np.ndarray
    digits: float
    error_bound: float
    method: str
    certificate: str
    factorization: str | None
    iterations: int
    inverse_norm_bound: float
    cond_estimate: float
    precision: str
    requested_digits: int

    def x_float64(self) -> np.ndarray:
        """x rounded to nearest float64, same shape."""
        return np.array([float(v) for v in self.x.flat], dtype=np.float64).reshape(self.x.shape)


@dataclass(frozen=True)
class ErrorReport:
    """An error measure with the arithmetic it should be compared with.

    Attributes
    ----------
    kind : {"forward", "backward", "kkt"}
    value : float
        The measure (normwise, inf-norm; the maximum over columns / blocks).
    unit_roundoff : float
        u of the solver precision (inferred from the solution's dtype or given).
    precision : str
        Name of that precision.
    cond : float or None
        Condition estimate of the system (kappa_inf), when known.
    parts : mapping
        Per-block values (``kkt_residual``: "bias_row", "alpha_rows").
    """

    kind: str
    value: float
    unit_roundoff: float
    precision: str
    cond: float | None = None
    parts: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def digits(self) -> float:
        """``correct_digits(value)``."""
        return correct_digits(self.value)

    @property
    def ratio(self) -> float:
        """value / (cond u) for "forward" (NaN without cond), value / u otherwise.

        This is the test ratio of LAPACK's test programs (xGET04, xPOT04),
        which flag a ratio above THRESH = 30.
        """
        if self.kind == "forward":
            return self.value / (self.cond * self.unit_roundoff) if self.cond else math.nan
        return self.value / self.unit_roundoff


def correct_digits(rel_err):
    """-log10(max(rel_err, tiny)), tiny the smallest normal float64 (so 0 gives 307.7).

    Raises
    ------
    ValueError
        For a negative or NaN ``rel_err``.
    """
    e = np.asarray(rel_err, dtype=np.float64)
    if np.isnan(e).any() or (e < 0).any():
        raise ValueError(f"expected a non-negative relative error, got rel_err={rel_err!r}")
    d = -np.log10(np.maximum(e, _TINY))
    return float(d) if d.ndim == 0 else d


# ----------------------------------------------------------------------------- exact data
def _arb_scalar(v, name, idx):
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


def _to_arb(a: np.ndarray, name: str) -> arb_mat:
    """Exact arb_mat of a 2-D array (entries radius 0)."""
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
    rows = [[_arb_scalar(a[i, j], name, (i, j)) for j in range(a.shape[1])]
            for i in range(a.shape[0])]
    return arb_mat(rows)


def _to_float64(a: np.ndarray) -> np.ndarray:
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


def _row_sums(a: np.ndarray, exact: arb_mat) -> list:
    """sum_j |a_ij| per row as arb: exact for object arrays, else in a's own range
    (float64 for float16/32, longdouble keeps its exponent range; rounding ~n u)."""
    if a.dtype == object:
        n, ent = a.shape[1], exact.entries()
        with flint.ctx.workprec(64):
            return [sum((abs(e) for e in ent[i * n:(i + 1) * n]), arb(0)).upper()
                    for i in range(a.shape[0])]
    wide = np.longdouble if a.dtype.kind == "f" and a.dtype.itemsize > 8 else np.float64
    return [_arb_scalar(v, "A", ()) for v in np.abs(a.astype(wide)).sum(axis=1)]


def _check_array(a, name: str, *, ndims=(1, 2)) -> np.ndarray:
    arr = np.asarray(a)
    if arr.dtype.kind not in "fiu" and arr.dtype != object:
        raise TypeError(f"expected a real floating-point array for {name}, got dtype={arr.dtype}")
    if arr.ndim not in ndims:
        raise ValueError(f"expected {name} with ndim in {ndims}, got {name}.shape={arr.shape}")
    if arr.size == 0:
        raise ValueError(f"expected a non-empty array for {name}, got {name}.shape={arr.shape}")
    if arr.dtype != object:
        check_finite(arr, name)
    return arr


class _System(NamedTuple):
    A: arb_mat
    B: arb_mat
    A64: np.ndarray
    B64: np.ndarray
    symmetric: bool
    shape: tuple
    norm_a: arb          # ||A||_inf (see _row_sums)


def _square(A, name="A"):
    A = as_matrix(A, name, allow_object=True)
    check_square(A, name)
    return _check_array(A, name, ndims=(2,))


def _system(A, b) -> _System:
    A = _square(A)
    n = A.shape[0]
    b = _check_array(b, "b")
    if b.shape[0] != n:
        raise ValueError(f"expected b with A.shape[0]={n} rows, got b.shape={b.shape}")
    b2 = b.reshape(n, -1)
    A_arb = _to_arb(A, "A")
    return _System(A_arb, _to_arb(b2, "b"), _to_float64(A), _to_float64(b2),
                   bool(np.array_equal(A, A.T)), b.shape, max(_row_sums(A, A_arb)))


# ----------------------------------------------------------------------------- arb helpers
def _up(x: arb) -> float:
    """A float >= every point of the ball x."""
    u = x.upper()
    f = float(u)
    return f if arb(f) >= u else float(np.nextafter(f, math.inf))


def _down(x: arb) -> float:
    """A float <= every point of the ball x."""
    lo = x.lower()
    f = float(lo)
    return f if arb(f) <= lo else float(np.nextafter(f, -math.inf))


def _abs_max(entries) -> arb:
    """Exact upper bound of max |e| over arb entries (0 for none)."""
    out = arb(0)
    for e in entries:
        out = out.max(abs(e).upper())
    return out


def _col_abs_max(M: arb_mat) -> list:
    """Upper bounds (exact arb) of max_i |M_ij| for each column j."""
    k, ent = M.ncols(), M.entries()
    return [_abs_max(ent[j::k]) for j in range(k)]


def _col_log2(M: arb_mat) -> list:
    """Approximate log2 max_i |mid(M_ij)| per column (-inf for a zero column)."""
    k = M.ncols()
    out = [-math.inf] * k
    for idx, e in enumerate(M.entries()):
        m, ex = e.mid().man_exp()
        if m != 0:
            out[idx % k] = max(out[idx % k], int(ex) + abs(int(m)).bit_length())
    return out


def _pow2_diag(shifts) -> arb_mat:
    k = len(shifts)
    return arb_mat([[arb((1, int(shifts[i]))) if i == j else 0 for j in range(k)] for i in range(k)])


def _scaled_float64(M: arb_mat):
    """mid(M) with column j scaled by 2^-top_j (exact) and rounded to float64, and the tops."""
    n, k = M.nrows(), M.ncols()
    tops = [0 if t == -math.inf else t for t in _col_log2(M)]
    F = np.empty(n * k)
    for idx, e in enumerate(M.entries()):
        m, ex = e.mid().man_exp()
        m, ex = int(m), int(ex)
        cut = max(abs(m).bit_length() - 64, 0)
        F[idx] = math.ldexp(float(m >> cut), ex + cut - tops[idx % k])
    return F.reshape(n, k), tops


# ----------------------------------------------------------------------------- refinement
def _refine(s: _System, X: arb_mat, correct, *, prec_store: int, tol_bits: int):
    """x <- x + correct(b - A x) until the correction stops halving or is 2^-tol_bits of x.

    Returns (X, steps, converged).  ``correct`` maps the residual ball to
    (exact correction as arb_mat, log2 of its column maxima), or None on
    failure.  The iterate is stored rounded to ``prec_store`` bits.
    """
    prev, log2_x = -math.inf, _col_log2(X)
    for it in range(1, _MAX_ITER + 1):
        with flint.ctx.workprec(prec_store + 64):
            step = correct(s.B - s.A * X)
        if step is None:
            return X, it - 1, False
        D, log2_d = step
        gain = min(_gain(a, d) for a, d in zip(log2_x, log2_d))
        if not gain > prev + 1:   # the correction did not halve: stagnation or divergence
            return X, it - 1, False
        with flint.ctx.workprec(prec_store):
            X = (X + D).mid()
        if gain >= tol_bits:
            return X, it, True
        prev = gain
    return X, _MAX_ITER, False


def _gain(log2_x: float, log2_d: float) -> float:
    """Bits by which a correction is below the iterate (+inf for a zero correction)."""
    if log2_d == -math.inf:
        return math.inf
    return log2_x - log2_d if log2_x > -math.inf else -math.inf


def _factor64(s: _System, spd):
    """(kind, solve, inverse) for the float64 rounding of A, or None if it cannot be factored."""
    A64, lapack = s.A64, scipy.linalg.lapack
    if not np.isfinite(A64).all():
        return None
    if s.symmetric and spd is not False:
        c, info = lapack.dpotrf(A64, lower=1, clean=1)
        if info == 0:
            def inverse():
                R, _ = lapack.dpotri(c, lower=1)
                return np.tril(R) + np.tril(R, -1).T

            return ("cholesky", lambda r: lapack.dpotrs(c, r, lower=1)[0], inverse)
    lu, piv, info = lapack.dgetrf(A64)
    if info != 0 or not np.isfinite(lu).all():
        return None
    return ("lu", lambda r: lapack.dgetrs(lu, piv, r)[0],
            lambda: lapack.dgetri(lu, piv)[0])


def _inverse_bound_float64(A64: np.ndarray, R: np.ndarray):
    """Rigorous upper bound on ||A^-1||_inf from float64 arithmetic only, or None.

    delta = max_i [ s1_i / ((1-u)(1-g)) + (g + u/(1-u)) t_i / (1-g)^2 ] + slack
    with s1 = fl(rowsum|fl(I - fl(R A64))|), t = fl(|R| fl(rowsum|A64|)), g = gamma_n;
    the u/(1-u) term covers A != A64 (A rounded to float64), the slack underflow.
    """
    n = A64.shape[0]
    with np.errstate(all="ignore"):
        E = -(R @ A64)
        E[np.diag_indices(n)] += 1.0
        s1 = float(np.abs(E).sum(axis=1).max())
        absR = np.abs(R)
        t = float((absR @ np.abs(A64).sum(axis=1)).max())
        rR = float(absR.sum(axis=1).max())
    if not all(math.isfinite(v) for v in (s1, t, rR)):
        return None
    with flint.ctx.workprec(128):
        u = arb((1, -53))
        g = n * u / (1 - n * u)
        norm_R = arb(rR) / (1 - g)
        slack = arb(((n + 1) ** 2, -1070)) * (1 + norm_R)
        delta = (arb(s1) / ((1 - u) * (1 - g)) + (g + u / (1 - u)) * arb(t) / (1 - g) ** 2
                 + slack).upper()
        if not delta < 1:
            return None
        return (norm_R / (1 - delta)).upper()


def _inverse_bound_arb(A: arb_mat, R: np.ndarray):
    """Rigorous ||A^-1||_inf bound with delta = ||I - R A||_inf evaluated in arb, or None."""
    n = R.shape[0]
    with flint.ctx.workprec(128):
        G = arb_mat(R.tolist()) * A
        rows, delta = G.entries(), arb(0)
        for i in range(n):
            row = rows[i * n:(i + 1) * n]
            row[i] = 1 - row[i]
            delta = delta.max(sum((abs(e) for e in row), arb(0)).upper())
        if not delta < 1:
            return None
        g = n * arb((1, -53)) / (1 - n * arb((1, -53)))
        return (arb(float(np.abs(R).sum(axis=1).max())) / (1 - g) / (1 - delta)).upper()


def _inverse_enclosure_arb(A: arb_mat, bits: int):
    """(midpoint of A^-1 as arb_mat, rigorous ||A^-1||_inf bound) from arb_mat.inv, or None."""
    with flint.ctx.workprec(bits):
        Xi = A.inv(nonstop=True)
        n, ent = A.nrows(), Xi.entries()
        if not all(e.is_finite() for e in ent):
            return None
        bound = arb(0)
        for i in range(n):
            bound = bound.max(sum((abs(e) for e in ent[i * n:(i + 1) * n]), arb(0)).upper())
        return Xi.mid(), bound


# ----------------------------------------------------------------------------- certification
def _certify(s: _System, X: arb_mat, inv_bound: arb, prec_store: int, out, info: dict):
    """Round X into the output context and bound its error; returns a ReferenceSolution."""
    with flint.ctx.workprec(prec_store + 64):
        rnorm = _col_abs_max(s.B - s.A * X)
    ctx = out.ctx
    xs = [ctx.make_mpf(from_man_exp(int(m), int(e), ctx.prec, "n"))
          for m, e in (v.mid().man_exp() for v in X.entries())]
    Xo = arb_mat(X.nrows(), X.ncols(), [_arb_scalar(v, "x", ()) for v in xs])
    digits, ebound = math.inf, 0.0
    with flint.ctx.workprec(prec_store + 64):
        diff, xnorm = _col_abs_max(Xo - X), _col_abs_max(Xo)
        for j, (rn, df, xn) in enumerate(zip(rnorm, diff, xnorm)):
            eb = (inv_bound * rn + df).upper()
            ebound = max(ebound, _up(eb))
            if eb > 0:
                d = -(eb / (xn - eb)).log() / arb(10).log() if xn > eb else arb(-math.inf)
                digits = min(digits, _down(d) if d.is_finite() else -math.inf)
    x = np.empty(len(xs), dtype=object)
    x[:] = xs
    x = x.reshape(s.shape)
    x.flags.writeable = False
    return ReferenceSolution(
        x=x, digits=digits, error_bound=ebound, inverse_norm_bound=_up(inv_bound),
        cond_estimate=_up(s.norm_a * inv_bound),
        precision=out.name, **info)


def _solve_float64(s: _System, spd, prec_x: int, out, digits: int):
    """Route 1: float64 factorization + arb residual refinement."""
    f = _factor64(s, spd)
    if f is None or not np.isfinite(s.B64).all():
        return None
    kind, solve, inverse = f
    X0 = solve(s.B64)
    if not np.isfinite(X0).all():
        return None

    def correct(r):
        F, tops = _scaled_float64(r)
        D = solve(F)
        if not np.isfinite(D).all():
            return None
        with np.errstate(divide="ignore"):
            log2_d = (np.log2(np.abs(D).max(axis=0)) + tops).tolist()
        return arb_mat(D.tolist()) * _pow2_diag(tops), log2_d

    # x to prec_out + 64 bits: the float64 route certifies only kappa < 2^53
    X, steps, converged = _refine(s, arb_mat(X0.tolist()), correct, prec_store=prec_x,
                                  tol_bits=min(prec_x - 8, out.ctx.prec + 64))
    R = inverse()
    info = dict(method="refinement-float64", factorization=kind, iterations=steps,
                requested_digits=digits)
    bound = _inverse_bound_float64(s.A64, R)
    sol = None if bound is None else _certify(s, X, bound, prec_x, out,
                                              {**info, "certificate": "float64-product"})
    if (sol is None or sol.digits < digits) and converged and np.isfinite(R).all():
        bound = _inverse_bound_arb(s.A, R)
        if bound is not None:
            sol = _certify(s, X, bound, prec_x, out, {**info, "certificate": "arb-product"})
    return sol


def _solve_arb(s: _System, bits: int, prec_x: int, out, digits: int):
    """Route 2: arb_mat.inv enclosure at ``bits``, refinement with its midpoint."""
    enc = _inverse_enclosure_arb(s.A, bits)
    if enc is None:
        return None
    Rm, bound = enc
    prec_store = prec_x + bits
    with flint.ctx.workprec(bits):
        X0 = (Rm * s.B).mid()

    def correct(r):
        with flint.ctx.workprec(bits):
            D = Rm * r.mid()
        return D, _col_log2(D)

    # kappa < 2^bits here, hence the extra bits
    X, steps, _ = _refine(s, X0, correct, prec_store=prec_store,
                          tol_bits=min(prec_store - 8, out.ctx.prec + 64 + bits))
    info = dict(method=f"arb-solve-{bits}", factorization=None, iterations=steps,
                requested_digits=digits, certificate="arb-inverse")
    return _certify(s, X, bound, prec_store, out, info)


def reference_solve(A, b, *, digits: int = 30, spd: bool | None = None,
                    max_bits: int | None = None) -> ReferenceSolution:
    """Certified solution of A x = b for A and b exactly as given.

    Parameters
    ----------
    A : (n, n) array_like
        float16/32/64, longdouble, integer, or object array of mpmath ``mpf``
        (any context), floats and ints; converted exactly.
    b : (n,) or (n, k) array_like
        Same kinds of entries.
    digits : int >= 1, keyword-only
        Correct decimal digits to certify (normwise relative, inf-norm, per column).
    spd : bool or None, keyword-only
        Factor the float64 rounding by Cholesky (True; A must be symmetric),
        by LU (False), or Cholesky when A is symmetric and it succeeds (None).
        It only selects the approximate factorization; the result is certified
        either way.
    max_bits : int >= 64 or None, keyword-only
        Highest precision of the arb-inverse route (default max(1024, 4 prec_x)).

    Returns
    -------
    ReferenceSolution

    Raises
    ------
    ReferenceAccuracyError
        ``digits`` could not be certified up to ``max_bits`` (e.g. A singular);
        ``.digits_reached`` is the best certified count (-inf if none).
    ValueError, TypeError
        Non-square, empty, non-finite or non-real input, shape mismatch, bad options.

    Notes
    -----
    See the module docstring for the certificate.  Cost: O(n^3) float64 for
    the factorization and R = A64^-1, O(n^2) ball operations per refinement
    step (each gains about -log2(u kappa) bits); the arb route is O(n^3) ball
    operations per precision tried.
    """
    digits = check_int("digits", digits, minimum=1)
    if spd is not None and not isinstance(spd, (bool, np.bool_)):
        raise TypeError(f"expected spd in (None, True, False), got spd={spd!r}")
    s = _system(A, b)
    if spd and not s.symmetric:
        raise ValueError("expected a symmetric matrix for A when spd=True, got A != A.T")
    prec_x = max(256, math.ceil(2 * _LOG2_10 * digits) + 64)
    max_bits = max(1024, 4 * prec_x) if max_bits is None else check_int("max_bits", max_bits,
                                                                        minimum=64)
    out = get_precision(f"mp{digits + _EXTRA_DIGITS}")
    best, tried, bits = -math.inf, [], _ARB_START_BITS
    sol, name = _solve_float64(s, spd, prec_x, out, digits), "refinement-float64"
    while True:
        if sol is not None and sol.digits >= digits:
            return sol
        best = best if sol is None else max(best, sol.digits)
        tried.append(f"{name}: " + ("no certificate" if sol is None else f"{sol.digits:.1f} digits"))
        if bits > max_bits:
            break
        sol, name = _solve_arb(s, bits, prec_x, out, digits), f"arb-solve-{bits}"
        bits *= 2
    err = ReferenceAccuracyError(
        f"expected to certify digits={digits}, got "
        + ("no certified digit" if best == -math.inf else f"{best:.1f} digits at most")
        + f" (max_bits={max_bits}; tried {'; '.join(tried)})")
    err.digits_reached = best
    raise err


# ----------------------------------------------------------------------------- error measures
def _arithmetic(x: np.ndarray, precision) -> tuple:
    """(unit roundoff, name) of the precision given, else of the dtype of x."""
    if precision is not None:
        p = get_precision(precision)
        return p.unit_roundoff, p.name
    if x.dtype == object:
        for v in x.flat:
            ctx = getattr(v, "context", None)
            if getattr(v, "_mpf_", None) is not None and ctx is not None:
                return 2.0 ** -ctx.prec, f"mp{ctx.dps}"
        return 2.0 ** -53, "float64"
    if x.dtype.kind != "f":
        return 2.0 ** -53, "float64"
    name = "longdouble" if x.dtype.itemsize > 8 else x.dtype.name
    return float(np.finfo(x.dtype).eps) / 2, name


def _solution(x, name: str, shape=None) -> tuple:
    """(array, all entries finite) for a solution vector/matrix (NaN is allowed: it is measured)."""
    arr = np.asarray(x)
    if arr.dtype.kind not in "fiu" and arr.dtype != object:
        raise TypeError(f"expected a real floating-point array for {name}, got dtype={arr.dtype}")
    if shape is not None and arr.shape != tuple(shape):
        raise ValueError(f"expected {name} of shape {tuple(shape)}, got {name}.shape={arr.shape}")
    if arr.ndim not in (1, 2) or arr.size == 0:
        raise ValueError(f"expected a non-empty 1-D or 2-D {name}, got {name}.shape={arr.shape}")
    if arr.dtype == object:
        return arr, all(_finite(v) for v in arr.flat)
    return arr, bool(np.isfinite(arr).all())


def _finite(v) -> bool:
    try:
        return bool(mpmath.isfinite(v))
    except (TypeError, ValueError):
        return True  # not a number at all: _arb_scalar raises the TypeError


def _ratio(num: arb, den: arb) -> float:
    if den == 0:
        return 0.0 if num == 0 else math.inf
    return float(num / den)


def _normwise(r, norm_a: arb, zn: arb, d) -> float:
    """Rigal-Gaches max|r| / (norm_a ||z|| + max|d|), r and d lists of arb."""
    with flint.ctx.workprec(128):
        return _ratio(_abs_max(r), norm_a * zn + _abs_max(d))


def forward_error(x, ref, *, precision=None, cond=None) -> ErrorReport:
    """Normwise relative forward error max_j ||x_j - x*_j||_inf / ||x*_j||_inf.

    Parameters
    ----------
    x : (n,) or (n, k) array_like
        A computed solution (any precision; a NaN or inf makes the error inf).
    ref : ReferenceSolution or array_like of the same shape
        The reference x* (its ``cond_estimate`` is reported as ``cond``).
    precision : str or Precision, optional
        The solver's precision (default: inferred from the dtype of x).
    cond : float, optional
        Condition estimate to report (default: ``ref.cond_estimate``).

    Returns
    -------
    ErrorReport
        kind "forward".  The difference is formed in arb from the exact
        values (128-bit rounding of the difference only), so the measure is
        exact to ~38 digits relative to the reference; its distance to the
        error against the exact x* is at most ``ref.error_bound / ||x*||``.
    """
    if isinstance(ref, ReferenceSolution):
        cond = ref.cond_estimate if cond is None else cond
        ref = ref.x
    ref_arr, ok = _solution(ref, "ref")
    if not ok:
        raise ValueError("expected finite values in ref, got NaN or inf")
    x, finite = _solution(x, "x", ref_arr.shape)
    u, name = _arithmetic(x, precision)
    value = math.inf
    if finite:
        n = x.shape[0]
        Xr = _to_arb(ref_arr.reshape(n, -1), "ref")
        with flint.ctx.workprec(128):
            D = _to_arb(x.reshape(n, -1), "x") - Xr
            value = max(_ratio(d, r) for d, r in zip(_col_abs_max(D), _col_abs_max(Xr)))
    return ErrorReport("forward", value, u, name, cond)


def _residual(A: arb_mat, Z: arb_mat, B: arb_mat, u: float) -> arb_mat:
    """b - A z in arb at -log2(u) + 64 bits: its rounding is 2^-64 of the solver's."""
    with flint.ctx.workprec(max(128, math.ceil(-math.log2(u)) + 64)):
        return B - A * Z


def backward_error(A, x, b, *, precision=None, cond=None) -> ErrorReport:
    """Normwise backward error (Rigal-Gaches) max_j ||b_j - A x_j|| / (||A|| ||x_j|| + ||b_j||).

    inf-norms.  The residual is evaluated in arb from the exact A, x, b
    (rounding 2^-64 u), the norms of A in float64.  A NaN in x gives inf.

    Parameters
    ----------
    A : (n, n) array_like
    x, b : (n,) or (n, k) array_like
    precision : str or Precision, optional
        The solver's precision (default: inferred from x).
    cond : float, optional
        Condition estimate to report beside the value.

    Returns
    -------
    ErrorReport
        kind "backward"; ``ratio`` = value / u (LAPACK's residual test also
        divides by n: compare ``ratio <= c n``).

    References
    ----------
    J. L. Rigal and J. Gaches, J. ACM 14 (1967); Higham (2002), Thm. 7.1.
    """
    A = _square(A)
    n = A.shape[0]
    b = _check_array(b, "b")
    if b.shape[0] != n:
        raise ValueError(f"expected b with A.shape[0]={n} rows, got b.shape={b.shape}")
    x, finite = _solution(x, "x", b.shape)
    u, name = _arithmetic(x, precision)
    if not finite:
        return ErrorReport("backward", math.inf, u, name, cond)
    k = b.size // n
    B, X = _to_arb(b.reshape(n, k), "b"), _to_arb(x.reshape(n, k), "x")
    A_arb = _to_arb(A, "A")
    norm_a = max(_row_sums(A, A_arb))
    r, bb = _residual(A_arb, X, B, u).entries(), B.entries()
    value = max(_normwise(r[j::k], norm_a, xn, bb[j::k]) for j, xn in enumerate(_col_abs_max(X)))
    return ErrorReport("backward", value, u, name, cond)


def kkt_residual(A, rhs, bias, coef, *, precision=None, cond=None) -> ErrorReport:
    """Normwise residuals of the two block rows of an LS-SVM KKT system.

    For Suykens' (3.32), [[0, 1^T], [1, Omega + I/gamma]] [b; alpha] = [0; y]
    (or (3.5) with y in place of 1), with z = [bias; coef]:

    * "bias_row": |0 - [0, 1^T] z| / (||[0, 1^T]|| ||z|| + 0), the condition
      sum(alpha) = 0 (dL/db = 0, eq. 3.31);
    * "alpha_rows": ||y - [1, H] z|| / (||[1, H]|| ||z|| + ||y||), the N
      conditions b + sum_l alpha_l K(x_k, x_l) + alpha_k/gamma = y_k.

    Parameters
    ----------
    A : (N+1, N+1) array_like
        The KKT matrix (any precision, taken exactly).
    rhs : (N+1,) array_like
        [0; y] (or [d1; d2] of 3.24).
    bias : scalar
        b (Suykens' b).
    coef : (N,) array_like
        alpha (Suykens' alpha).
    precision, cond
        As in ``backward_error`` (precision inferred from coef).

    Returns
    -------
    ErrorReport
        kind "kkt", value the larger part, ``parts`` both.
    """
    A = _square(A)
    N = A.shape[0] - 1
    rhs = _check_array(rhs, "rhs", ndims=(1,))
    if rhs.shape != (N + 1,):
        raise ValueError(f"expected rhs of shape ({N + 1},) for A.shape={A.shape}, got rhs.shape={rhs.shape}")
    coef, finite = _solution(coef, "coef", (N,))
    b_arr = np.asarray(bias)
    if b_arr.size != 1:
        raise ValueError(f"expected a scalar bias, got bias.shape={b_arr.shape}")
    bias = b_arr.reshape(-1)[0]
    u, name = _arithmetic(coef, precision)
    parts = dict.fromkeys(("bias_row", "alpha_rows"), math.inf)
    if finite and _finite(bias):
        Z = arb_mat(N + 1, 1, [_arb_scalar(bias, "bias", ())]
                    + _to_arb(coef.reshape(N, 1), "coef").entries())
        Y = _to_arb(rhs.reshape(-1, 1), "rhs")
        A_arb = _to_arb(A, "A")
        r, y = _residual(A_arb, Z, Y, u).entries(), Y.entries()
        rows, zn = _row_sums(A, A_arb), _col_abs_max(Z)[0]
        for key, blk in (("bias_row", slice(0, 1)), ("alpha_rows", slice(1, None))):
            parts[key] = _normwise(r[blk], max(rows[blk]), zn, y[blk])
    return ErrorReport("kkt", max(parts.values()), u, name, cond, MappingProxyType(parts))


# ----------------------------------------------------------------------------- conditioning
def condition_number(A, *, p=2) -> float:
    """Condition number of A as given: kappa_2 (estimate) or kappa_inf (certified upper bound).

    Parameters
    ----------
    A : (n, n) array_like
    p : {2, numpy.inf}, keyword-only
        * 2: max |lambda| / min |lambda| (eigenvalues; symmetric A) or
          sigma_max / sigma_min (singular values).  Computed in float64 by
          LAPACK; a backward stable eigensolver has |lambda^ - lambda| <=
          p(n) u ||A||_2, so the relative error of the smallest is about
          p(n) u kappa_2: float64 is kept when u kappa_2 <= 1e-2 (two digits
          for p(n) ~ 1), else mpmath at 30, 60, 120, 240 digits under the
          same rule (n <= 200: O(n^3) Python operations, ~0.3 s at n = 40).
        * numpy.inf: ||A||_inf times the rigorous bound on ||A^-1||_inf of
          ``reference_solve``'s certificate (float64, else arb up to 1024
          bits): an upper bound, within a factor 1/(1 - delta) of kappa_inf.

    Raises
    ------
    ReferenceAccuracyError
        kappa not resolved (A singular or too ill-conditioned for the reach).
    """
    A = _square(A)
    if p == 2:
        return _kappa2(A)
    if p not in (np.inf, "inf"):
        raise ValueError(f"expected p in (2, numpy.inf), got p={p!r}")
    s = _system(A, np.zeros(A.shape[0]))
    f, bound = _factor64(s, None), None
    if f is not None:
        R = f[2]()
        if np.isfinite(R).all():
            bound = _inverse_bound_float64(s.A64, R) or _inverse_bound_arb(s.A, R)
    bits = _ARB_START_BITS
    while bound is None and bits <= 1024:
        enc, bits = _inverse_enclosure_arb(s.A, bits), 2 * bits
        bound = None if enc is None else enc[1]
    if bound is None:
        raise ReferenceAccuracyError("expected an invertible A, got no bound on ||A^-1||_inf "
                                     "up to 1024 bits")
    return _up(s.norm_a * bound)


def _kappa2(A: np.ndarray) -> float:
    symmetric = bool(np.array_equal(A, A.T))
    A64 = _to_float64(A)
    kappa = math.inf
    if np.isfinite(A64).all():
        w = np.abs(scipy.linalg.eigvalsh(A64) if symmetric else scipy.linalg.svdvals(A64))
        kappa = w.max() / w.min() if w.min() > 0 else math.inf
        if kappa * 2.0 ** -53 <= 1e-2:
            return float(kappa)
    if A.shape[0] > _MP_EIG_MAX_N:
        raise ReferenceAccuracyError(
            f"expected n <= {_MP_EIG_MAX_N} for mp eigenvalues (float64 gives kappa_2 ~ "
            f"{kappa:.3g}, beyond its reach), got n={A.shape[0]}; use p=numpy.inf")
    for dps in (30, 60, 120, 240):
        q = get_precision(f"mp{dps}")
        Aq = q.asarray(A)
        if symmetric:
            w = [abs(v) for v in q.eigvalsh(Aq)]
        else:
            sv = q.ctx.svd_r(q.ctx.matrix(Aq.tolist()), compute_uv=False)
            w = [abs(sv[i]) for i in range(sv.rows)]
        if min(w) > 0 and max(w) / min(w) * q.unit_roundoff <= 1e-2:
            return float(max(w) / min(w))
    raise ReferenceAccuracyError(f"expected a kappa_2 within the reach of mp240, got a matrix "
                                 f"that is singular or kappa_2 > 1e238 (n={A.shape[0]})")
