"""Certified extended-precision reference solutions.

``reference_solve(A, b)`` returns the solution x* of A x = b for the matrix
and right-hand side *as given* (float32, float64, longdouble or mpmath
entries, all taken exactly), rounded to ``digits + 10`` decimal digits, with
a *proven* bound on its error.  It is therefore the right yardstick for a
solver that ran in the precision of the data: the rounding of the data is
not counted as the solver's error.

Certificate
-----------
For any approximate solution x and r = b - A x,

    ||x - x*||_inf <= ||A^-1||_p ||r||_p          (p = inf, or p = 2: ||.||_inf <= ||.||_2)

with ||r||_p bounded from a rigorous enclosure of r and ||A^-1||_p by one of
the certificates below; their inequality chains are written out in
:mod:`lssvm_analysis.exact.inverse_bounds`.  All float64 bounds assume
IEEE binary64 with round-to-nearest and a BLAS/LAPACK that forms inner
products by ordinary multiplications, FMAs and additions in any order
(OpenBLAS, MKL, BLIS; not Strassen-type algorithms).  The methods, tried in
order:

1. ``refinement-float64``: factor the float64 rounding A64 of A (Cholesky
   when A is symmetric and it succeeds, else LU with partial pivoting) and
   bound ||A^-1||:

   * ``certificate="cholesky-shift"`` (a Cholesky factor and n >= 2048): a
     second float64 Cholesky, of fl(A64 - sigma I), proves lambda_min(A) >=
     lam > 0 (Rump 2006; Higham Thm 10.3), so ||A^-1||_2 <= 1/lam (p = 2;
     the recorded ||A^-1||_inf bound is sqrt(n)/lam).
   * otherwise R = A64^-1 and ||I - R A||_inf <= delta < 1 give ||A^-1||_inf
     <= ||R||_inf / (1 - delta) (Rump 2010, Thm 10.2):
     ``"float64-product"`` bounds delta from fl(R A64) and Higham's eq. 3.13
     (certifies while about n u kappa < 1); ``"ozaki-product"`` computes R A
     by exact float64 products (Ozaki splitting; delta within ~2^-40 kappa n
     u of ||I - R A||, certifies up to kappa ~ 1/u); ``"ozaki-product-2"``
     uses the two-term inverse (I + E) R, E = I - R A, when ||E|| >= 1 >
     ||E^2|| (Rump 2010, sec. 10.3).

   x is held exactly, in fixed point (limbs of ~20-bit integers,
   ``exact.ozaki.FixedPoint``), and refined, x <- x + C(r), with r computed
   by exact float64 products (A and x split into integer slices whose
   products and partial sums no rounding can touch, summed by TwoSum
   distillation; ``exact.ozaki.residual``): r = hi + lo + d with |d| <= rad
   rigorously, about 2^-106 |A||x|.  A is never converted to ball
   arithmetic.  C applies the Cholesky factor (cholesky-shift), R
   (float64-product), or (I + E + ... + E^m) R with R r by Ozaki products
   (ozaki-*; about 2^-40 contraction per step where the float64 factor
   alone gives kappa u), to hi and lo both (rounding r to float64 would add
   u |r| in every direction, amplified by up to kappa).  The route needs A
   and b as short sums of float64 numbers within float64's exponent range
   (float16/32/64, longdouble, integers and mpmath numbers usually are).
2. ``arb-solve-<p>``: when the float64 route cannot certify (kappa beyond
   ~1/u, float64 factorization impossible, entries outside the float64
   range, or too few digits), flint's rigorous ``arb_mat.inv`` at p = 128,
   256, ... bits gives an enclosure of A^-1; ||A^-1|| is bounded by its row
   sums (``"arb-inverse"``) and its midpoint refines x at ``prec_x + p``
   bits (prec_x = max(256, 2 log2(10) digits + 64)), with residuals in ball
   arithmetic.

The returned x is the refined iterate rounded to the output context;
``error_bound`` adds that rounding, computed exactly.  ``digits`` is
-log10(error_bound / (||x||_inf - error_bound)) rounded down, a lower bound on
-log10(||x - x*||_inf / ||x*||_inf); for k right-hand sides, the smallest over
the columns.  If the requested digits cannot be certified by ``max_bits``,
``ReferenceAccuracyError`` is raised with the best digits reached
(attribute ``digits_reached``).

The refinement stops at the requested digits: its target is digits log2(10)
+ log2(kappa estimate) + 16 bits (the certified error is about kappa times
the error of x), reached when the last correction, or the next one predicted
from the last two, is that far below x; if the certificate then falls short
the refinement goes on to the cap.

Cost (measured, one BLAS thread, 30 digits, minimum of 3 runs): see the
table below; the arb-inverse route is O(n^3) ball operations (0.2-0.4 s at
n = 200, 5 s at n = 500).

Error measures
--------------
``ErrorReport``, ``forward_error``, ``backward_error``, ``kkt_residual``,
``condition_number`` and ``correct_digits`` live in
:mod:`lssvm_analysis.analysis.measures` and are re-exported here.

References
----------
S. M. Rump, "Verification methods: rigorous results using floating-point
arithmetic", Acta Numerica 19 (2010), sec. 10.  S. M. Rump, "Verification of
positive definiteness", BIT 46 (2006).  N. J. Higham, *Accuracy and
Stability of Numerical Algorithms*, 2nd ed., SIAM 2002, ch. 3, 4, 10, 12.
K. Ozaki, T. Ogita, S. Oishi, S. M. Rump, "Error-free transformations of
matrix multiplication by using fast routines of matrix multiplication and
its applicability", Numer. Algorithms 59 (2012).  T. Ogita, S. M. Rump,
S. Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import flint
import numpy as np
from numpy.typing import ArrayLike
from flint import arb, arb_mat
from mpmath.libmp import from_man_exp

from ..exact.arb import (
    ExactSystem,
    arb_scalar,
    col_abs_max,
    exact_system,
    float_up,
    norm_2_bound,
    norm_inf_bound,
    residual_arb,
    square_matrix,
)
from ..exact.ozaki import (
    FixedPoint,
    OutOfRange,
    pow2,
    residual,
    slice_bits,
    split_rows,
)
from ..core.validation import check_int
from ..core.exceptions import ReferenceAccuracyError
from ..exact.double_double import DD
from ..linalg.condition import MP_EIG_MAX_N, kappa2
from ..linalg.memory import ensure_memory
from ..arith.precision import MAX_MP_DIGITS, get_precision
from ..exact.inverse_bounds import (ARB_START_BITS, cached, certificate, factor64, inverse_enclosure_arb,
                                    inverse_norm_bound)
from .measures import (
    ErrorReport,
    backward_error,
    correct_digits,
    forward_error,
    kkt_residual,
)


__all__ = [
    "ErrorReport",
    "ReferenceSolution",
    "backward_error",
    "condition_number",
    "correct_digits",
    "forward_error",
    "kkt_residual",
    "reference_solve",
]

_LOG2_10 = math.log2(10)
_EXTRA_DIGITS = 10        # x is returned at digits + 10 decimal digits
_MAX_ITER = 60            # refinement steps; each must at least halve the correction
_MARGIN_BITS = 16         # refinement goes this far past the requested digits (x kappa estimate)


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
        How ||A^-1|| was bounded: "float64-product", "ozaki-product",
        "ozaki-product-2", "cholesky-shift" (||A^-1||_2) or "arb-inverse"
        (module docstring).
    factorization : str or None
        "cholesky" or "lu" for the float64 route, None for arb-solve.
    iterations : int
        Refinement steps of the method that certified.
    inverse_norm_bound : float
        Rigorous upper bound on ||A^-1||_inf.
    cond_estimate : float
        ||A||_inf times ``inverse_norm_bound``: an upper estimate of
        kappa_inf(A), exceeding it by the factor (1 + delta)/(1 - delta) at
        most for the product certificates (up to the float64 rounding of
        ||A||_inf), by up to 2 sqrt(n) for "cholesky-shift" (sqrt(n) from
        ||A^-1||_inf <= sqrt(n) ||A^-1||_2, 2 from its shift).
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

    def __reduce__(self):
        """Pickle x exactly, into the context of ``get_precision(precision)``.

        mpmath pickles an mpf into its global context, rounded to 53 bits, so
        x travels as exact pairs (m, e) of Python ints, x_i = m 2^e.
        """
        state = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        state["x"] = (self.x.shape, [(-int(m) if sign else int(m), int(e))
                                     for sign, m, e, _ in (v._mpf_ for v in self.x.flat)])
        return (_unpickle_solution, (state,))


def _unpickle_solution(state: dict) -> ReferenceSolution:
    """Inverse of ``ReferenceSolution.__reduce__`` (x rebuilt read-only)."""
    shape, pairs = state.pop("x")
    ctx = get_precision(state["precision"]).ctx
    x = np.empty(len(pairs), dtype=object)
    x[:] = [ctx.make_mpf(from_man_exp(m, e)) for m, e in pairs]  # exact: no rounding
    x = x.reshape(shape)
    x.flags.writeable = False
    return ReferenceSolution(x=x, **state)


# ----------------------------------------------------------------------------- arb helpers
def _float_down(x: arb) -> float:
    """A float <= every point of the ball x."""
    lo = x.lower()
    f = float(lo)
    return f if arb(f) <= lo else float(np.nextafter(f, -math.inf))


def _col_log2(M: arb_mat) -> list:
    """Approximate log2 max_i |mid(M_ij)| per column (-inf for a zero column)."""
    k = M.ncols()
    out = [-math.inf] * k
    for idx, e in enumerate(M.entries()):
        m, ex = e.mid().man_exp()
        if m != 0:
            out[idx % k] = max(out[idx % k], int(ex) + abs(int(m)).bit_length())
    return out


# ----------------------------------------------------------------------------- refinement
def _refine(s: ExactSystem, X: arb_mat, correct, *, prec_store: int, tol_bits: int):
    """x <- x + correct(b - A x) until the correction stops halving or x is good to tol_bits.

    Good to tol_bits: the correction is 2^-tol_bits of x, or the next one,
    predicted from the last two (linear convergence), will be.

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
        # the error left is about the next correction, predicted 2 gain - prev bits below x
        # (linear convergence); the caller certifies and refines further if this was short
        if gain >= tol_bits or (prev > -math.inf and 2 * gain - prev >= tol_bits):
            return X, it, True
        prev = gain
    return X, _MAX_ITER, False


def _gain(log2_x: float, log2_d: float) -> float:
    """Bits by which a correction is below the iterate (+inf for a zero correction)."""
    if log2_d == -math.inf:
        return math.inf
    return log2_x - log2_d if log2_x > -math.inf else -math.inf


# ----------------------------------------------------------------------------- certification
def _certify(s: ExactSystem, pairs: list, rnorm: list, inv_bound: arb, prec: int, out, info: dict,
             *, inf_bound: arb | None = None):
    """Round x into the output context and bound its error; returns a ReferenceSolution.

    ``pairs`` are the exact entries (m, e) of x (row-major), ``rnorm`` upper
    bounds on the residual norms ||b_j - A x_j|| in the norm ``inv_bound``
    bounds ||A^-1|| in; ``prec`` bits suffice for the exact x.
    ``inf_bound`` (default ``inv_bound``) bounds ||A^-1||_inf for the record.
    """
    ctx = out.ctx
    xs = [ctx.make_mpf(from_man_exp(int(m), int(e), ctx.prec, "n")) for m, e in pairs]
    n, k = s.B.nrows(), s.B.ncols()
    X = arb_mat(n, k, [arb((int(m), int(e))) for m, e in pairs])
    Xo = arb_mat(n, k, [arb_scalar(v, "x", ()) for v in xs])
    digits, ebound = math.inf, 0.0
    with flint.ctx.workprec(prec + 64):
        diff, xnorm = col_abs_max(Xo - X), col_abs_max(Xo)
        for rn, df, xn in zip(rnorm, diff, xnorm):
            eb = (inv_bound * rn + df).upper()
            ebound = max(ebound, float_up(eb))
            if eb > 0:
                d = -(eb / (xn - eb)).log() / arb(10).log() if xn > eb else arb(-math.inf)
                digits = min(digits, _float_down(d) if d.is_finite() else -math.inf)
    x = np.empty(len(xs), dtype=object)
    x[:] = xs
    x = x.reshape(s.shape)
    x.flags.writeable = False
    inf_bound = inv_bound if inf_bound is None else inf_bound
    return ReferenceSolution(
        x=x, digits=digits, error_bound=ebound, inverse_norm_bound=float_up(inf_bound),
        cond_estimate=float_up(s.norm_a * inf_bound),
        precision=out.name, **info)


def _certify_arb(s: ExactSystem, X: arb_mat, inv_bound: arb, prec_store: int, out, info: dict):
    """``_certify`` for an iterate held in arb, with its residual in ball arithmetic."""
    with flint.ctx.workprec(prec_store + 64):
        rnorm = col_abs_max(s.B - s.A * X)
    pairs = [v.mid().man_exp() for v in X.entries()]
    return _certify(s, pairs, rnorm, inv_bound, prec_store, out, info)


def _certify_fixed(s: ExactSystem, resid, X: FixedPoint, cert, out, info: dict, last=None):
    """``_certify`` for a fixed-point iterate: residual ``resid(X)`` (exact float64 products, or
    ball arithmetic for a system held in arb; ``last`` if given: the residual of this very X),
    in the certificate's norm (||x - x*||_inf <= ||A^-1||_p ||r||_p, p = inf or 2)."""
    hi, lo, rad = resid(X) if last is None else last
    norm = norm_inf_bound if cert.norm == math.inf else norm_2_bound
    rnorm = [norm(hi[:, j]) + norm(lo[:, j]) + norm(rad[:, j]) for j in range(hi.shape[1])]
    bits = (X.Y.shape[0] + 1) * X.beta
    return _certify(s, X.exact(), rnorm, cert.bound, bits, out,
                    {**info, "certificate": cert.name}, inf_bound=cert.inf_bound)


def _refine_fixed(resid, X: FixedPoint, correct, *, tol_bits: int):
    """x <- x + correct(b - A x) (residual ``resid(X)`` to ~2^-106 or better, x exact); stops as
    ``_refine``.

    Returns (steps, converged, last); X is updated in place.  When a
    correction is already tol_bits below x, x is left as it is and ``last``
    is its residual (hi, lo, rad), which certifies it without another
    product; otherwise ``last`` is None.
    """
    prev = -math.inf
    for it in range(1, _MAX_ITER + 1):
        last = resid(X)
        D = correct(last[0], last[1])
        if D is None:
            return it - 1, False, last
        with np.errstate(divide="ignore"):
            log2_x = np.log2(np.abs(X.approx()).max(axis=0))
            log2_d = np.log2(np.abs(D).max(axis=0))
        gain = min(_gain(a, d) for a, d in zip(log2_x.tolist(), log2_d.tolist()))
        if not gain > prev + 1:   # the correction did not halve: stagnation or divergence
            return it - 1, False, last
        if gain >= tol_bits:      # x is already good to tol_bits
            return it - 1, True, last
        X.add(D)
        if prev > -math.inf and 2 * gain - prev >= tol_bits:   # the next one would be
            return it, True, None
        prev = gain
    return _MAX_ITER, False, None


def _scaled(apply):
    """The correction D = apply(hi) + apply(lo) for the residual hi + lo, applied to both as one
    block with each column scaled by a power of 2 (exact).  Keeping lo matters: rounding r to
    float64 adds u |r| in every direction, which A^-1 amplifies by up to kappa relative to
    A^-1 r when r lies along the large eigenvalues."""
    def correct(hi, lo):
        k = hi.shape[1]
        with np.errstate(divide="ignore"):
            top = np.frexp(np.abs(hi).max(axis=0))[1]
        scale = pow2(-top)[None, :]
        with np.errstate(all="ignore"):
            D = apply(np.hstack([hi * scale, lo * scale]))
            D = (D[:, :k] + D[:, k:]) * pow2(top)[None, :]
        return D if np.isfinite(D).all() else None
    return correct


def _solve_float64(s: ExactSystem, spd, prec_x: int, out, digits: int):
    """Route 1: float64 factorization, refinement with exact float64 residuals (Ozaki)."""
    if s.A_pieces is None or s.B_pieces is None or not np.isfinite(s.B64).all():
        return None
    f = factor64(s, spd)
    if f is None:
        return None
    kind, solve, inverse = f
    X0 = solve(s.B64)
    if not np.isfinite(X0).all():
        return None
    n = X0.shape[0]
    cap = min(prec_x - 8, out.ctx.prec + 64)  # the float64 route certifies only kappa < 2^53
    a_bits, c_bits = slice_bits(n)
    levels = max(3, math.ceil((cap - 45 + 2 * math.log2(n)) / a_bits))
    try:
        A_split = cached(lambda: split_rows(s.A64, a_bits, levels))
        cert = certificate(s, kind, solve, inverse, A_split)
        if cert is None:
            return None
        if s.held_in_arb:   # mp entries: A (exact, in arb) times x in balls, no splitting of its pieces
            def resid(X):
                return residual_arb(s, X)
        else:
            splits = [A_split()] + [split_rows(P, a_bits, levels) for P in s.A_pieces[1:]]

            def resid(X):
                return residual(splits, s.B_pieces, X)
        # Stop at the requested digits: the certified error is about kappa times the error of
        # x, so refine until the correction is below 2^-(digits log2(10) + log2(kappa) + margin)
        # of x, with kappa estimated by ||A||_inf times the certificate's ||A^-1||_inf bound.
        kest = float(s.norm_a * cert.inf_bound)
        tol = cap if not math.isfinite(kest) else min(
            cap, math.ceil((digits + 1) * _LOG2_10 + math.log2(max(kest, 1.0))) + _MARGIN_BITS)
        X = FixedPoint(X0, c_bits, math.ceil((cap + 16) / c_bits) + 1)
        correct = _scaled(cert.apply)
        steps, converged, last = _refine_fixed(resid, X, correct, tol_bits=tol)
        info = {"method": "refinement-float64", "factorization": kind, "requested_digits": digits}
        sol = _certify_fixed(s, resid, X, cert, out, {**info, "iterations": steps}, last)
        if sol.digits < digits and converged and tol < cap:  # the estimate was short: go to the cap
            more, converged, last = _refine_fixed(resid, X, correct, tol_bits=cap)
            steps += more
            sol = _certify_fixed(s, resid, X, cert, out, {**info, "iterations": steps}, last)
    except OutOfRange:
        return None
    return sol


def _solve_arb(s: ExactSystem, bits: int, prec_x: int, out, digits: int):
    """Route 2: arb_mat.inv enclosure at ``bits``, refinement with its midpoint."""
    enc = inverse_enclosure_arb(s.A, bits)
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
    info = {"method": f"arb-solve-{bits}", "factorization": None, "iterations": steps,
            "requested_digits": digits, "certificate": "arb-inverse"}
    return _certify_arb(s, X, bound, prec_store, out, info)


def reference_solve(A: ArrayLike, b: ArrayLike, *, digits: int = 30, spd: bool | None = None,
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
    the factorization and the certificate (a second Cholesky, or R = A64^-1
    and 1 to 8 n^3 products for the product certificates), then per
    refinement step O(n^2) float64 products (3-4 slices of A times ~12 limbs
    of x; each step gains about -log2(u kappa) bits, or ~40 with the Ozaki
    certificates); the arb route is O(n^3) ball operations per precision
    tried.
    """
    # the answer is carried at digits + 10 in an mpN, which exists up to MAX_MP_DIGITS
    digits = check_int("digits", digits, minimum=1, maximum=MAX_MP_DIGITS - _EXTRA_DIGITS)
    if spd is not None and not isinstance(spd, (bool, np.bool_)):
        raise TypeError(f"expected spd in (None, True, False), got spd={spd!r}")
    shape = np.shape(A.hi if isinstance(A, DD) else A)
    if len(shape) == 2:   # a zero-stride 200000^2 view was a bare MemoryError in the checks below
        # at least A in float64, its factor and a residual: 3 n^2 words before any extended work
        ensure_memory(shape[0], 3.0 * shape[0] * shape[1], "float64", what="reference_solve")
    s = exact_system(A, b)
    if spd and not s.symmetric:
        raise ValueError("expected a symmetric matrix for A when spd=True, got A != A.T")
    prec_x = max(256, math.ceil(2 * _LOG2_10 * digits) + 64)
    max_bits = max(1024, 4 * prec_x) if max_bits is None else check_int("max_bits", max_bits,
                                                                        minimum=64)
    out = get_precision(f"mp{digits + _EXTRA_DIGITS}")
    best, tried, bits = -math.inf, [], ARB_START_BITS
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
    raise ReferenceAccuracyError(
        f"expected to certify digits={digits}, got "
        + ("no certified digit" if best == -math.inf else f"{best:.1f} digits at most")
        + f" (max_bits={max_bits}; tried {'; '.join(tried)})", digits_reached=best)


def condition_number(A: ArrayLike, *, p: int | float = 2) -> float:
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
    A = square_matrix(A)
    if p == 2:
        k = kappa2(A, max_mp_n=MP_EIG_MAX_N)
        if not k.resolved:
            raise ReferenceAccuracyError(
                f"expected a kappa_2 within reach ({k.method} gives ~{k.value:.3g}, unresolved; mp "
                f"eigenvalues only for n <= {MP_EIG_MAX_N}), got n={A.shape[0]}; use p=numpy.inf")
        return k.value
    if p not in (np.inf, "inf"):
        raise ValueError(f"expected p in (2, numpy.inf), got p={p!r}")
    n = A.shape[0]
    s = ExactSystem(A, np.zeros((n, 1)), (n,))   # A checked above: taken exactly, not checked again
    bound = inverse_norm_bound(s, max_bits=1024)
    if bound is None:
        raise ReferenceAccuracyError("expected an invertible A, got no bound on ||A^-1||_inf "
                                     "up to 1024 bits")
    return float_up(s.norm_a * bound)
