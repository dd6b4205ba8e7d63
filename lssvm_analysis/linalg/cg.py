"""Conjugate gradients as Suykens prints them (§3.4.1), in every precision.

* :func:`hestenes_stiefel_cg` - CG exactly as printed in Suykens §3.4.1, with
  the V(x) = 1/2 x^T A x - x^T B decrease and a residual tolerance as stops.
* :func:`simultaneous_cg` - the same iteration run on several right-hand sides
  at once (Suykens' two systems H eta = a, H nu = d): each system keeps its own
  step lengths, stops and history, and one pass over A per iteration serves
  all of them (A times an n x k block instead of k matrix-vector products).
* :func:`cg_iteration_bound` - Suykens (3.27), the iterations after which the
  A-norm error has dropped by a given factor.
"""
from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from ..arith.base import Precision
from typing import Any, Callable

from ..core.validation import as_matrix, as_vector, check_callable, check_finite, check_int, check_positive, \
    check_square, check_symmetric, short_repr
from ..arith.precision import get_precision, precision_of
from ._cg_flint import Krylov

__all__ = ["CGResult", "hestenes_stiefel_cg", "simultaneous_cg", "cg_iteration_bound"]


@dataclass(frozen=True)
class CGResult:
    """Outcome of :func:`hestenes_stiefel_cg`.

    ``history`` has per-iteration arrays ``residual_norm`` (||r_i||_2, the
    recursively updated residual, i = 0..iterations) and ``V`` (V(x_i)).
    ``reason`` is "residual", "V-decrease", "maxiter" or "breakdown".
    """

    x: np.ndarray
    iterations: int
    converged: bool
    reason: str
    history: dict


def hestenes_stiefel_cg(A: ArrayLike, B: ArrayLike, *, rtol: float | None = None, vtol: float | None = None,
                        maxiter: int | None = None, precision: str | Precision | None = None,
                        callback: Callable[..., Any] | None = None) -> CGResult:
    """Hestenes-Stiefel CG for A x = B with A = A^T > 0 (Suykens §3.4.1).

    Parameters
    ----------
    A : (n, n) array or callable
        The matrix (symmetric to within n u max|A|, else ValueError), or a
        function v -> A v in the precision.
    B : (n,) array
    rtol : float, optional
        Stop when ||r_i|| <= rtol ||B||.  Default 100 u.
    vtol : float, optional
        Stop when V(x_{i-1}) - V(x_i) <= vtol |V(x_i)| (Suykens' V(x) rule).
        Default u: the decrease is no longer visible in the arithmetic.
        ``vtol=0`` switches the V rule off (only the residual test stops).
    maxiter : int, optional
        Default 10 n (CG needs <= n steps in exact arithmetic).
    callback : callable, optional
        ``callback(i, x_i)`` after each iteration, with the iterate in the precision (the caller
        copies what it keeps); e.g. to measure each iterate's A-norm error.

    Notes
    -----
    Scale invariance: B is first scaled by a power of two, 2^-s with 2^s <= max|B_i| < 2^(s+1)
    (exact), the iteration runs on it and x is scaled back.  In the normal range every
    operation commutes with that scaling bit for bit (lambda_i and beta_i are ratios of
    squares), so the iterates are those of the unscaled run; where r^T r would underflow
    (b ~ 1e-24 in float32 or 1e-170 in float64: squares below the smallest normal) the
    unscaled run stopped at iteration 0 with x = 0 and called it converged, and the scaled
    one does not.  The history is in the caller's units (``V`` in float64, which underflows
    to 0 when |V| < 1e-308).

    Iteration exactly as printed: x_0 = 0, r_0 = B, p_1 = r_0,
    beta_i = r_{i-1}^T r_{i-1} / r_{i-2}^T r_{i-2}, lambda_i = r_{i-1}^T r_{i-1} / p_i^T A p_i.
    V(x) is evaluated as -1/2 x^T (B + r), which needs no extra product.
    """
    matvec, p = _cg_operator(A, precision)
    B = as_vector(B, "B")
    B = p.asarray(B)
    check_finite(B, "B")
    if not callable(A) and B.shape[0] != np.shape(A)[0]:
        raise ValueError(f"expected B of shape ({np.shape(A)[0]},), got B.shape={B.shape}")
    n = B.shape[0]
    u = p.unit_roundoff
    rtol = 100 * u if rtol is None else check_positive("rtol", rtol)
    vtol = u if vtol is None else (0.0 if vtol == 0 else check_positive("vtol", vtol))
    maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
    check_callable("callback", callback)   # "'str' object is not callable" at the first iteration
    shift = _scale_exponent(B)
    B = _ldexp(B, -shift)
    x = p.zeros(n)
    r = B.copy()
    rr = r @ r
    bnorm = float(rr) ** 0.5
    res, V = [bnorm], [0.0]
    v_old = p.scalar(0)  # V(x_{i-1}) in the precision: the V rule must not compare float64 roundings
    reason, i, pdir, rr_old = "maxiter", 0, None, None
    if bnorm == 0:
        return CGResult(x, 0, True, "residual", _history(res, V, shift))
    while i < maxiter:
        i += 1
        pdir = r.copy() if i == 1 else r + (rr / rr_old) * pdir
        Ap = matvec(pdir)
        pAp = pdir @ Ap
        if not (pAp > 0):
            reason = "breakdown"
            break
        lam = rr / pAp
        x = x + lam * pdir
        r = r - lam * Ap
        if callback is not None:
            callback(i, _ldexp(x, shift))
        rr_old, rr = rr, r @ r
        res.append(float(rr) ** 0.5)
        v_new = -(x @ (B + r)) / 2
        V.append(float(v_new))
        if res[-1] <= rtol * bnorm:
            reason = "residual"
            break
        if vtol and v_old - v_new <= vtol * abs(v_new):
            reason = "V-decrease"
            break
        v_old = v_new
    converged = reason in ("residual", "V-decrease")
    return CGResult(_ldexp(x, shift), i, converged, reason, _history(res, V, shift))


def _scale_exponent(b) -> int:
    """s with 2^s <= max|b_i| < 2^(s+1) for a hardware-float vector (0 for a zero or mp one: the
    mp exponent range does not underflow)."""
    b = np.asarray(b)
    if b.dtype == object or b.size == 0:
        return 0
    m = np.max(np.abs(b))
    if not (np.isfinite(m) and m > 0):
        return 0
    return int(np.frexp(m)[1]) - 1


def _ldexp(a, k: int):
    """a * 2^k, exact, in a's dtype (no-op for k = 0)."""
    return a if k == 0 else np.ldexp(a, k).astype(np.asarray(a).dtype, copy=False)


def _history(res, V, shift: int) -> dict:
    """The residual norms and V(x) of the scaled run, in the caller's units (float64)."""
    return {"residual_norm": np.ldexp(np.array(res), shift), "V": np.ldexp(np.array(V), 2 * shift)}


def _cg_operator(A, precision):
    """(matvec, Precision) for a matrix or a callable (the callable must accept (n,) and (n, k));
    the matrix checked by :func:`_cg_matrix`."""
    A, p = _cg_matrix(A, precision)
    return (_checked_operator(A) if callable(A) else p.operator(A)), p


def _checked_operator(A):
    """The callable A, whose every product must have the shape of its argument (a wrong one was
    NumPy's broadcasting error or a silently broadcast product)."""
    def matvec(v):
        out = A(v)
        if np.shape(out) != np.shape(v):
            raise ValueError(f"expected the operator A to return an array of the shape of its argument "
                             f"{np.shape(v)}, got shape {np.shape(out)} from A={short_repr(A)}")
        return out
    return matvec


def _cg_matrix(A, precision):
    """(A, Precision): a callable as it is, or the matrix checked and in the precision.

    A matrix must be square, finite and symmetric (to within n u max|A|, as
    :meth:`Precision.cholesky` reads it): CG on a non-symmetric A stops with a
    wrong x and ``converged=True``.  Integer entries are exact data: float64
    unless ``precision`` says otherwise.
    """
    if callable(A):
        return A, get_precision(precision or "float64")
    A = as_matrix(A, "A")
    check_square(A, "A")
    p = get_precision(precision) if precision else (
        get_precision("float64") if A.dtype.kind in "iu" else precision_of(A))
    check_symmetric(A, "A", p)  # says NaN when a NaN breaks the symmetry
    A = p.asarray(A)
    if A.dtype == object:
        check_finite(A, "A")
    else:  # a finite sum means finite entries: no n x n mask (it was 1/8 of the fit's peak)
        with np.errstate(all="ignore"):
            total = A.sum()
        if not np.isfinite(total):
            check_finite(A, "A")
    return A, p


class _CGRun:
    """State of one system of :func:`simultaneous_cg`: the recurrences of :func:`hestenes_stiefel_cg`,
    on the vectors and scalars of the precision's Krylov space (:func:`_krylov_space`)."""

    def __init__(self, b, space, n, rtol, vtol, maxiter, shift=0):
        self.shift = shift   # b is the caller's right-hand side times 2^-shift (hestenes_stiefel_cg's scaling)
        self.b, self.space, self.rtol, self.vtol, self.maxiter = b, space, rtol, vtol, maxiter
        self.x = space.zeros(n)
        self.r = b.copy()
        self.rr = self.r @ self.r
        self.bnorm = float(self.rr) ** 0.5
        self.res, self.V, self.v_old = [self.bnorm], [0.0], space.scalar(0)
        self.i, self.pdir, self.rr_old = 0, None, None
        self.reason = "residual" if self.bnorm == 0 else "maxiter"
        self.done = self.bnorm == 0 or maxiter < 1

    def direction(self):
        """p_i = r_{i-1} + beta_i p_{i-1} (p_1 = r_0)."""
        self.i += 1
        self.pdir = self.r.copy() if self.i == 1 else self.r + (self.rr / self.rr_old) * self.pdir
        return self.pdir

    def update(self, Ap):
        """One step given A p_i; sets ``done`` and ``reason`` when a stop fires."""
        pAp = self.pdir @ Ap
        if not (pAp > 0):
            self.reason, self.done = "breakdown", True
            return
        lam = self.rr / pAp
        self.x = self.x + lam * self.pdir
        self.r = self.r - lam * Ap
        self.rr_old, self.rr = self.rr, self.r @ self.r
        self.res.append(float(self.rr) ** 0.5)
        v_new = -(self.x @ (self.b + self.r)) / 2
        self.V.append(float(v_new))
        if self.res[-1] <= self.rtol * self.bnorm:
            self.reason, self.done = "residual", True
        elif self.vtol and self.v_old - v_new <= self.vtol * abs(v_new):
            self.reason, self.done = "V-decrease", True
        elif self.i >= self.maxiter:
            self.done = True
        self.v_old = v_new

    def result(self):
        return CGResult(_ldexp(self.space.array(self.x), self.shift), self.i,
                        self.reason in ("residual", "V-decrease"), self.reason,
                        _history(self.res, self.V, self.shift))


def simultaneous_cg(A, B, *, rtol=None, vtol=None, maxiter=None, precision=None) -> list:
    """Hestenes-Stiefel CG on A x_j = B[:, j] for every column at once (A = A^T > 0).

    Parameters
    ----------
    A : (n, n) array or callable
        The matrix, or a function V -> A V for V of shape (n, k) in the precision.
    B : (n, k) or (n,) array
        Right-hand sides (Suykens' two systems: ``[a, d]``).
    rtol, vtol, maxiter, precision
        As :func:`hestenes_stiefel_cg`, applied to each system separately.

    Returns
    -------
    list of CGResult
        One per column, each with its own iterate, iteration count, stop
        reason and history, as :func:`hestenes_stiefel_cg` returns them.

    Notes
    -----
    Each system runs the printed recurrences with its own lambda_i and
    beta_i (not a block Krylov method: the systems do not share a subspace,
    so each iterate is the one of :func:`hestenes_stiefel_cg` up to the
    rounding of the product).  Per iteration the directions of the systems
    still running are stacked into an n x k block and multiplied by A in one
    call: one pass over the n^2 entries of A (the memory-bound cost of CG)
    instead of k, and a BLAS-3 product for hardware floats.  A system that
    stops leaves the block.  The vectors live in the precision's Krylov space
    (:func:`_krylov_space`): the arrays
    themselves (each right-hand side scaled by a power of two, as in
    :func:`hestenes_stiefel_cg`: the iteration is scale-invariant), or for mpN on FLINT ``arb_mat`` columns kept between the
    steps (each operation still one rounding to N digits; a dot product is
    rounded once instead of once per term).
    """
    A, p = _cg_matrix(A, precision)
    B = p.asarray(B)
    if B.ndim == 1:
        B = B[:, None]
    if B.ndim != 2 or B.size == 0:
        raise ValueError(f"expected B of shape (n,) or (n, k), got B.shape={B.shape}")
    n, k = B.shape
    u = p.unit_roundoff
    rtol = 100 * u if rtol is None else check_positive("rtol", rtol)
    vtol = u if vtol is None else (0.0 if vtol == 0 else check_positive("vtol", vtol))
    maxiter = 10 * n if maxiter is None else check_int("maxiter", maxiter, minimum=1)
    space = _krylov_space(p, _checked_operator(A) if callable(A) else A)
    with space.context():
        shifts = [_scale_exponent(B[:, j]) for j in range(k)]   # scale invariance: hestenes_stiefel_cg
        runs = [_CGRun(space.vector(_ldexp(B[:, j], -shifts[j])), space, n, rtol, vtol, maxiter, shifts[j])
                for j in range(k)]
        active = [run for run in runs if not run.done]
        while active:
            for run, Ap in zip(active, space.apply([run.direction() for run in active])):
                run.update(Ap)
            active = [run for run in active if not run.done]
        return [run.result() for run in runs]


class _ArrayKrylov:
    """The space the recurrence runs in on the precision's own arrays: the operations of NumPy's
    operators on them, the product of A with the stacked vectors by ``matvec``."""

    def __init__(self, p, matvec):
        self.p, self.matvec = p, matvec

    def context(self):
        return nullcontext()

    def vector(self, b):
        return self.p.asarray(b).copy()

    def zeros(self, n):
        return self.p.zeros(n)

    def scalar(self, x):
        return self.p.scalar(x)

    def apply(self, vectors):
        AP = self.matvec(np.stack(vectors, axis=1))
        return [AP[:, j] for j in range(AP.shape[1])]

    def array(self, v):
        return v


def _krylov_space(p, A):
    """The space a Krylov recurrence runs in, for A (an array of ``p`` or a function V -> A @ V).

    It gives the recurrence its vectors (``vector(b)``, ``zeros(n)``), its scalars
    (``scalar(x)``), the products with A of a list of vectors (``apply``), the final vector as
    an array of ``p`` (``array``) and the ``context()`` the arithmetic runs in; the recurrence
    is written once with NumPy's operators.  mpN on FLINT with a matrix A: :class:`Krylov`
    (vectors and scalars kept in FLINT between the steps, A converted once); otherwise the
    precision's own arrays with :meth:`Precision.operator`'s product.
    """
    if p.engine == "flint" and not callable(A):
        return Krylov(p.asarray(A), prec=p.ctx.prec, ctx=p.ctx)
    return _ArrayKrylov(p, A if callable(A) else p.operator(A))


def cg_iteration_bound(kappa: float, eps: float) -> float:
    """Suykens (3.27): iterations after which ||x_i - x*||_A <= eps ||x_0 - x*||_A.

    i >= log(2/eps) / log((sqrt(kappa)+1)/(sqrt(kappa)-1)); for kappa = 1 one step.
    (The printed form divides by log((sqrt k - 1)/(sqrt k + 1)) < 0; the
    positive count uses its reciprocal argument.)

    Raises
    ------
    TypeError, ValueError
        kappa not a number >= 1 (NaN, 0, -1), eps not in (0, 1) (a reduction
        factor; eps >= 2 would make the bound 0 without saying so).
    """
    for name, value in (("kappa", kappa), ("eps", eps)):
        if isinstance(value, bool) or not isinstance(value, (int, float, np.floating, np.integer)):
            raise TypeError(f"expected a real number for {name}, got {name}={short_repr(value)}")
    if not (kappa >= 1):  # NaN fails too; kappa = inf is allowed (the bound is then inf)
        raise ValueError(f"expected a condition number kappa >= 1, got kappa={short_repr(kappa)}")
    if not (0 < eps < 1):
        raise ValueError(f"expected an error reduction 0 < eps < 1, got eps={short_repr(eps)}")
    if kappa == 1:
        return 1.0
    if np.isinf(kappa):
        return float("inf")
    s = np.sqrt(kappa)
    return float(np.log(2 / eps) / np.log((s + 1) / (s - 1)))
