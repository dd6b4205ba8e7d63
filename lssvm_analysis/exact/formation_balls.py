"""The exact model formed in arb balls at any number of bits: the escalated route.

:mod:`lssvm_analysis.exact.formation` forms the exact model of the
least-squares families (Zhao & Sun (7), Vieira's D_*) from a double-double
(DD) kernel, relative error ~1e-29 per entry, so what it certifies is
bounded by the condition of what it forms times that error (formation's
docstring gives the figures).  When that is too few digits,
:func:`lssvm_analysis.analysis.model_error.solve_exact_model` asks the
problem to be formed again at more bits (``ExactProblem.wider``); this
module provides the pieces:

* :func:`kernel_balls`: K(X, Z) of float64 data as an ``arb_mat`` at ``bits``:
  RBF exponents from *exact* squared distances (the integer product of
  :func:`lssvm_analysis.arith.flint_engine.rbf_exponents`, one rounding of the
  division by sigma2 whose radius is put back here), then ``arb.exp`` per
  entry; linear kernel as a ball product.  Every entry is a rigorous ball.
* :func:`normal_balls`: H = D^T D (+ R) and c = D^T l as ball products at
  ``bits``, returned as float64 pieces of the midpoints (a
  :class:`~lssvm_analysis.exact.double_double.DD` with ``ceil(bits / 53) + 1``
  pieces, which ``reference_solve`` takes exactly) and the radii (plus the
  remainder after the last piece) as the formation bound.

Cost (measured, one process, shared machine): at the kappa ladder's size
(N = 30, |S| <= 27) the whole escalated exact model takes 10-40 ms; the
formation is O(N |S|^2) ball operations at ``bits`` plus N |S| ``arb.exp``,
and its conversion to pieces O(|S|^2 bits / 53) Python calls.
"""
from __future__ import annotations

import math

import flint
import numpy as np
from flint import arb, arb_mat

from .arb import arb_scalar, exact_mpf
from ..arith.flint_engine import rbf_exponents
from .double_double import DD

__all__ = ["FORMATION_BITS", "PIECES", "pieces_for", "dd_to_arb", "to_pieces", "to_mpf", "kernel_balls",
           "normal_balls", "column_balls", "dd_normal_balls", "reduced_lssvr_balls", "lssvm_system_balls",
           "bordered_columns_balls", "bordered_ball_columns"]

#: Working precision of the ball products of the DD route's fallback (formation.normal_equations
#: when a scaling leaves the exact exponent range).  The entries of D = hi + lo carry the kernel's DD
#: error (~1e-29 relative, already amplified by kappa(H) in the formation bound); rounding the
#: products and sums of D^T D at 2^-128 ~ 3e-39 adds a ten-billionth of that, and 128 bits (two
#: limbs) cost about half of 192 (measured).
FORMATION_BITS = 128
#: float64 pieces of the DD route's normal equations (3 x 53 bits hold a 128-bit midpoint).
PIECES = 3


def pieces_for(bits: int) -> int:
    """float64 pieces that hold a ``bits``-bit midpoint (53 bits each, one spare)."""
    return math.ceil(bits / 53) + 1


def dd_to_arb(M: DD) -> arb_mat:
    """hi + lo of a DD matrix as an arb_mat (the caller's working precision)."""
    return arb_mat(np.atleast_2d(M.hi).tolist()) + arb_mat(np.atleast_2d(M.lo).tolist())


def to_pieces(M: arb_mat, count: int = PIECES) -> tuple:
    """(DD with ``count`` float64 pieces of the midpoints, radius + remainder bound array).

    Each piece is the float64 rounding of what the previous ones left (C-level
    ball subtraction, one Python float per entry and piece); the remainder
    after the last piece and the ball radii form the returned bound.
    """
    shape = (M.nrows(), M.ncols())
    pieces = []
    R = M
    with flint.ctx.workprec(64 * count + 64):
        for _ in range(count):
            P = np.array([float(e.mid()) for e in R.entries()]).reshape(shape)
            pieces.append(P)
            R = R - arb_mat(P.tolist())
        bound = np.array([float(abs(e).upper()) for e in R.entries()]).reshape(shape)
    bound = np.nextafter(bound, np.inf)          # float() of the upper end may round down
    return DD(pieces[0], pieces[1], bound, tuple(pieces[2:])), bound


def to_mpf(M: arb_mat) -> tuple:
    """(object array of mpmath mpf midpoints, float array of radii) of an arb_mat."""
    ent = M.entries()
    mids = np.empty(len(ent), dtype=object)
    rads = np.empty(len(ent))
    for k, e in enumerate(ent):
        man, exp = e.mid().man_exp()
        mids[k] = exact_mpf(man, exp)
        rads[k] = float(e.rad().upper()) if not e.is_exact() else 0.0
    shape = (M.nrows(), M.ncols())
    return mids.reshape(shape), rads.reshape(shape)


def _mpf_rows(X: np.ndarray) -> np.ndarray:
    """float64 X as an object array of mpf, exactly (the input of ``rbf_exponents``)."""
    out = np.empty(X.shape, dtype=object)
    for idx, v in np.ndenumerate(X):
        num, den = float(v).as_integer_ratio()
        out[idx] = exact_mpf(num, 1 - den.bit_length())
    return out


def kernel_balls(kernel, X, Z, *, bits: int) -> arb_mat:
    """K(X, Z) of float64 data as rigorous balls at ``bits`` (module docstring).

    Raises
    ------
    NotImplementedError
        For a kernel other than 'rbf' and 'linear' (as ``kernel_dd``).
    """
    X = np.asarray(X, dtype=np.float64)
    Z = np.asarray(Z, dtype=np.float64)
    if kernel.name == "linear":
        with flint.ctx.workprec(bits):
            return arb_mat(X.tolist()) * arb_mat(Z.tolist()).transpose()
    if kernel.name != "rbf":
        raise NotImplementedError(f"expected a kernel with a ball evaluation ('rbf', 'linear'), "
                                  f"got kernel={kernel.name!r}")
    # -||x - z||^2 / sigma2: the distances exact (integer product), the quotient's midpoint rounded
    # once at ``bits`` (|error| <= 2^-bits |mid|, here 2^(1 - bits) for the rounding of |mid| itself)
    E = rbf_exponents(_mpf_rows(X), _mpf_rows(Z), float(kernel.params["sigma2"]), prec=bits)
    rel = arb((1, 1 - bits))
    with flint.ctx.workprec(bits):
        vals = [arb(e, (abs(e) * rel).upper()).exp() for e in E.entries()]
    return arb_mat(X.shape[0], Z.shape[0], vals)


def column_balls(columns, rows: int) -> arb_mat:
    """An arb_mat (rows, len(columns)) from a list of columns, each a list of arb (or None = 0)."""
    M = arb_mat(rows, len(columns))
    for j, col in enumerate(columns):
        for i, v in enumerate(col):
            if v is not None:
                M[i, j] = v
    return M


def normal_balls(D: arb_mat, l, reg: arb_mat | None = None, *, bits: int, count: int = PIECES) -> tuple:
    """H = D^T D (+ reg) and c = D^T l as ball products at ``bits``.

    Parameters
    ----------
    D : arb_mat (rows, k)
        Balls containing the exact least-squares matrix.
    l : (rows,) float64, or object array of mpf
        The exact right-hand side (taken exactly).
    reg : arb_mat (k, k), optional
        Balls containing the term added to D^T D.
    bits : int
        Working precision.
    count : int
        float64 pieces of H's midpoints.

    Returns
    -------
    (H as DD of ``count`` pieces, its bound array, c as object array of mpf, its bound array):
    every exact entry lies within the bound of the returned one.
    """
    l_arb = arb_mat([[arb_scalar(v, "l", (i,))] for i, v in enumerate(np.asarray(l).ravel())])
    with flint.ctx.workprec(bits):
        Dt = D.transpose()
        Ha = Dt * D
        if reg is not None:
            Ha = Ha + reg
        ca = Dt * l_arb
    H, Hr = to_pieces(Ha, count)
    c, cr = to_mpf(ca)
    return H, Hr, c.ravel(), cr.ravel()


# ----------------------------------------------------------------------------- the families' systems in balls
def lssvm_system_balls(X, y, kernel, C, task, *, bits: int, bias=True, weights=None) -> tuple:
    """:func:`~lssvm_analysis.exact.formation.lssvm_system_dd` formed again in ``bits``-bit balls: the dense families' escalated route.

    The kernel by :func:`kernel_balls` (exact squared
    distances, one rounding per exponent and per ``exp``, each in its ball),
    the label signs exact, the ridge 1/C (or 1/(C v_k) for float64
    ``weights`` v, :func:`~lssvm_analysis.exact.formation.weighted_ridge_dd`'s diagonal) one ball quotient
    of the float64 data per entry, the border exact.

    Returns
    -------
    (A, bound) : DD of ``pieces_for(bits)`` float64 pieces of the midpoints
        and its elementwise bound (radii plus the remainder after the last
        piece), of the same shape as :func:`~lssvm_analysis.exact.formation.lssvm_system_dd`'s A.
    """
    N = len(y)
    columns = bordered_ball_columns(X, y, kernel, C, task, range(0 if bias else 1, N + 1), bits, weights)
    if not bias:   # (3.50): Omega + I/C alone, without the border row
        columns = [col[1:] for col in columns]
    return to_pieces(column_balls(columns, N + bias), pieces_for(bits))


def dd_normal_balls(D: DD, l, reg: DD | None) -> tuple:
    """H = D^T D (+ reg) and c = D^T l in ``FORMATION_BITS`` balls: (H pieces, bound, c mpf, bound)."""
    with flint.ctx.workprec(FORMATION_BITS):
        Da = dd_to_arb(D)
        Ra = None if reg is None else dd_to_arb(reg)
    return normal_balls(Da, l, Ra, bits=FORMATION_BITS, count=PIECES)


def reduced_lssvr_balls(X, y, kernel, C, S, penalty, bits) -> tuple:
    """(7) in ``bits``-bit balls: [1, K(X, X_S)], R and the normal equations (:func:`normal_balls`)."""
    N, s = X.shape[0], len(S)
    K = kernel_balls(kernel, X, X[S], bits=bits).entries()
    one, zero = flint.arb(1), flint.arb(0)
    D = flint.arb_mat(N, s + 1, [v for i in range(N) for v in (one, *K[i * s:(i + 1) * s])])
    with flint.ctx.workprec(bits):
        inv_c = 1 / flint.arb(float(C))
        if penalty == "kernel":
            vals = [zero] * (s + 1) + [v for i in S for v in (zero, *(e * inv_c for e in K[i * s:(i + 1) * s]))]
        else:
            vals = [inv_c if i == j and i > 0 else zero for i in range(s + 1) for j in range(s + 1)]
    R = flint.arb_mat(s + 1, s + 1, vals)
    return normal_balls(D, y, R, bits=bits, count=pieces_for(bits))


def bordered_columns_balls(X, y, kernel, C, task, columns, *, bits) -> tuple:
    """:func:`~lssvm_analysis.exact.formation.bordered_columns_dd` in ``bits``-bit balls: (D_* as arb_mat (N+1, k), l = [0; d])."""
    N = len(y)
    l = np.zeros(N + 1)
    l[1:] = y if task != "classification" else np.ones_like(y)
    return column_balls(bordered_ball_columns(X, y, kernel, C, task, columns, bits), N + 1), l


def bordered_ball_columns(X, y, kernel, C, task, columns, bits, weights=None) -> list:
    """Columns ``columns`` of D = [[0, a^T], [a, Omega + R]] as lists of N + 1 arb (None: 0).

    Column 0 is the border [0; a]; column c >= 1 is pattern p = c - 1, its kernel
    column from :func:`kernel_balls`, the label signs of (3.6)
    exact, the ridge R_pp = 1/C (or 1/(C v_p) for float64 ``weights`` v) one ball
    quotient of the float64 data.
    """
    cols = np.asarray(columns, dtype=np.intp)
    N = len(y)
    clf = task == "classification"
    a = y if clf else np.ones_like(y)
    pats = cols[cols > 0] - 1
    s = len(pats)
    K = kernel_balls(kernel, X, X[pats], bits=bits).entries() if s else []
    with flint.ctx.workprec(bits):
        Cb = flint.arb(float(C))
        inv_c = 1 / Cb
        columns_out, j = [], 0
        for c in cols:
            if c == 0:
                columns_out.append([None] + [flint.arb(float(v)) for v in a])
                continue
            p = c - 1
            ridge = inv_c if weights is None else 1 / (Cb * flint.arb(float(weights[p])))
            col = [flint.arb(float(a[p]))]
            for i in range(N):
                v = K[i * s + j] * float(y[i] * y[p]) if clf else K[i * s + j]   # (3.6): signs exact
                col.append(v + ridge if i == p else v)
            columns_out.append(col)
            j += 1
    return columns_out
