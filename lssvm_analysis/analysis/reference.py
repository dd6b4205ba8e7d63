"""Certified extended-precision reference solutions.

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

The refinement stops at the requested digits: its target is digits log2(10)
+ log2(kappa estimate) + 16 bits (the certified error is about kappa times
the error of x), reached when the last correction, or the next one predicted
from the last two, is that far below x; if the certificate then falls short
the refinement goes on to the cap (issue 13: 6 -> 4 steps at kappa 1e6,
10 -> 7 at 1e10, 18 -> 14 at 1e13, n = 1000).

Cost (measured, one BLAS thread): n = 1000, kappa_2 = 1e6, 30 digits: 0.5 s
on a quiet machine, 0.85-1.2 s on 2 cores loaded 3x (0.15 s of it converting
A to arb), 6 refinement steps; kappa_2 = 1e10: 10 steps.  The arb-inverse
route is O(n^3) ball operations: 0.2-0.4 s at n = 200, 5 s at n = 500.

Error measures
--------------
``ErrorReport``, ``forward_error``, ``backward_error``, ``kkt_residual``,
``condition_number`` and ``correct_digits`` live in
:mod:`lssvm_analysis.analysis.measures` and are re-exported here.

References
----------
S. M. Rump, "Verification methods: rigorous results using floating-point
arithmetic", Acta Numerica 19 (2010), sec. 10.  N. J. Higham, *Accuracy and
Stability of Numerical Algorithms*, 2nd ed., SIAM 2002, ch. 3, 12.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import flint
import numpy as np
import scipy.linalg
from flint import arb, arb_mat
from mpmath.libmp import from_man_exp

from ..core._arb import ExactSystem, arb_scalar, col_abs_max, exact_system, float_up, square_matrix
from ..core._validation import check_int
from ..core.linalg import MP_EIG_MAX_N, kappa2
from .measures import (ErrorReport, backward_error, correct_digits,
                     forward_error, kkt_residual)
from ..core.exceptions import ReferenceAccuracyError
from ..core.precision import get_precision

__all__ = ["ReferenceSolution", "ErrorReport", "reference_solve", "forward_error",
           "backward_error", "kkt_residual", "condition_number", "correct_digits"]

_LOG2_10 = math.log2(10)
_EXTRA_DIGITS = 10        # x is returned at digits + 10 decimal digits
_MAX_ITER = 60            # refinement steps; each must at least halve the correction
_ARB_START_BITS = 128     # first precision of the arb-inverse route
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


def _mirror_lower(R, block=256):
    """Copy the lower triangle of R onto the upper one, in place, by cache-sized blocks.

    (``np.tril(R) + np.tril(R, -1).T`` makes three n x n temporaries: 0.6 s of
    5.6 s at n = 2000.)
    """
    n = R.shape[0]
    for i0 in range(0, n, block):
        i1 = min(n, i0 + block)
        R[i0:i1, i1:] = R[i1:, i0:i1].T
        D = R[i0:i1, i0:i1]
        iu = np.triu_indices(i1 - i0, 1)
        D[iu] = D.T[iu]
    return R


def _factor64(s: ExactSystem, spd):
    """(kind, solve, inverse) for the float64 rounding of A, or None if it cannot be factored."""
    A64, lapack = s.A64, scipy.linalg.lapack
    if not np.isfinite(A64).all():
        return None
    if s.symmetric and spd is not False:
        c, info = lapack.dpotrf(A64, lower=1, clean=1)
        if info == 0:
            def inverse():
                R, _ = lapack.dpotri(c, lower=1)
                return _mirror_lower(R)

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


def _inverse_norm_bound(s: ExactSystem, *, max_bits: int):
    """Rigorous upper bound (arb) on ||A^-1||_inf by the certificate above, or None.

    float64 factorization with the float64-product bound, else the
    arb-product one; failing both, arb_mat.inv enclosures at 128, 256, ...,
    ``max_bits`` bits.  Used by ``errors.condition_number(A, p=numpy.inf)``.
    """
    f, bound = _factor64(s, None), None
    if f is not None:
        R = f[2]()
        if np.isfinite(R).all():
            bound = _inverse_bound_float64(s.A64, R) or _inverse_bound_arb(s.A, R)
    bits = _ARB_START_BITS
    while bound is None and bits <= max_bits:
        enc, bits = _inverse_enclosure_arb(s.A, bits), 2 * bits
        bound = None if enc is None else enc[1]
    return bound


# ----------------------------------------------------------------------------- certification
def _certify(s: ExactSystem, X: arb_mat, inv_bound: arb, prec_store: int, out, info: dict):
    """Round X into the output context and bound its error; returns a ReferenceSolution."""
    with flint.ctx.workprec(prec_store + 64):
        rnorm = col_abs_max(s.B - s.A * X)
    ctx = out.ctx
    xs = [ctx.make_mpf(from_man_exp(int(m), int(e), ctx.prec, "n"))
          for m, e in (v.mid().man_exp() for v in X.entries())]
    Xo = arb_mat(X.nrows(), X.ncols(), [arb_scalar(v, "x", ()) for v in xs])
    digits, ebound = math.inf, 0.0
    with flint.ctx.workprec(prec_store + 64):
        diff, xnorm = col_abs_max(Xo - X), col_abs_max(Xo)
        for j, (rn, df, xn) in enumerate(zip(rnorm, diff, xnorm)):
            eb = (inv_bound * rn + df).upper()
            ebound = max(ebound, float_up(eb))
            if eb > 0:
                d = -(eb / (xn - eb)).log() / arb(10).log() if xn > eb else arb(-math.inf)
                digits = min(digits, _float_down(d) if d.is_finite() else -math.inf)
    x = np.empty(len(xs), dtype=object)
    x[:] = xs
    x = x.reshape(s.shape)
    x.flags.writeable = False
    return ReferenceSolution(
        x=x, digits=digits, error_bound=ebound, inverse_norm_bound=float_up(inv_bound),
        cond_estimate=float_up(s.norm_a * inv_bound),
        precision=out.name, **info)


def _solve_float64(s: ExactSystem, spd, prec_x: int, out, digits: int):
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

    # Stop at the requested digits: the certified error is about kappa times the error of x, so
    # refine until the correction is below 2^-(digits log2(10) + log2(kappa) + margin) of x, with
    # kappa estimated by ||A64||_inf ||R||_inf (an estimate only: the certificate comes after).
    R = inverse()
    cap = min(prec_x - 8, out.ctx.prec + 64)  # the float64 route certifies only kappa < 2^53
    with np.errstate(all="ignore"):
        kest = float(np.abs(s.A64).sum(axis=1).max() * np.abs(R).sum(axis=1).max())
    tol = cap if not math.isfinite(kest) else min(
        cap, math.ceil((digits + 1) * _LOG2_10 + math.log2(max(kest, 1.0))) + _MARGIN_BITS)
    X, steps, converged = _refine(s, arb_mat(X0.tolist()), correct, prec_store=prec_x, tol_bits=tol)
    info = dict(method="refinement-float64", factorization=kind, requested_digits=digits)
    bound = _inverse_bound_float64(s.A64, R)
    certificate = "float64-product"
    if bound is None and converged and np.isfinite(R).all():
        bound, certificate = _inverse_bound_arb(s.A, R), "arb-product"
    if bound is None:
        return None
    sol = _certify(s, X, bound, prec_x, out, {**info, "iterations": steps, "certificate": certificate})
    if sol.digits < digits and converged and tol < cap:  # the estimate was short: refine to the cap
        X, more, converged = _refine(s, X, correct, prec_store=prec_x, tol_bits=cap)
        steps += more
        sol = _certify(s, X, bound, prec_x, out, {**info, "iterations": steps, "certificate": certificate})
    if sol.digits < digits and converged and certificate == "float64-product":  # a loose delta
        bound = _inverse_bound_arb(s.A, R)
        if bound is not None:
            sol = _certify(s, X, bound, prec_x, out, {**info, "iterations": steps,
                                                      "certificate": "arb-product"})
    return sol


def _solve_arb(s: ExactSystem, bits: int, prec_x: int, out, digits: int):
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
    s = exact_system(A, b)
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
    raise ReferenceAccuracyError(
        f"expected to certify digits={digits}, got "
        + ("no certified digit" if best == -math.inf else f"{best:.1f} digits at most")
        + f" (max_bits={max_bits}; tried {'; '.join(tried)})", digits_reached=best)


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
    s = exact_system(A, np.zeros(A.shape[0]))
    bound = _inverse_norm_bound(s, max_bits=1024)
    if bound is None:
        raise ReferenceAccuracyError("expected an invertible A, got no bound on ||A^-1||_inf "
                                     "up to 1024 bits")
    return float_up(s.norm_a * bound)
