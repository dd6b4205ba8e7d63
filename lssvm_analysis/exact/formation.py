"""The exact model of a fit: the paper's problem formed from the data as given, far below u.

A solver's ``exact_model`` hook (``SolverInfo.exact_model``, registered with
the solver) returns an :class:`ExactProblem`: a square linear system whose
solution is the *exact model* of the fit (the paper's mathematical problem,
with X and y as given in float64 and the discrete choices the fit made --
support set, kept columns, k* -- frozen), formed here in extended
precision, together with a bound on how far the formed system is from the
exact one.  :mod:`lssvm_analysis.experiments.fit_kind` solves it with
``reference_solve`` (>= 30 certified digits of the formed system) and adds
the formation bound, so the recorded ``exact_digits`` are certified for the
model itself, not only for the system.

Choice of the arithmetic (measured at n = 1000, 4 features, one thread)
------------------------------------------------------------------------
* The kernel is the one irrational part.  python-flint ``arb.exp`` per entry
  plus the conversion back to float64 pieces costs 2.2 s + 2.7 s for the
  10^6 entries; mpmath is ~10x slower.  The kernel is therefore evaluated
  in vectorized double-double arithmetic
  (:mod:`lssvm_analysis.exact.double_double`, 0.5-0.8 s, relative error
  <= ~1e-29 per entry with an a-priori elementwise bound, checked against
  arb in the tests).
* Dense families (the LS-SVM KKT system, kernel ridge): the system is the
  double-double pair hi + lo itself (the border, the signs and 1/C added
  with DD operations, whose rounding enters the bound).  ``reference_solve``
  takes the pair exactly (float64 factorization, Ozaki-exact residuals):
  0.9 s at n = 1000; the whole exact model 1.3-1.6 s on a quiet machine
  (1.9-2.4 s under load).  No product is formed, so nothing squares kappa.

What is certified: ``reference_solve`` gives >= 30 digits of the *formed*
system; with the formation bound added (first-order, below), the exact
model itself is certified to ``exact_digits`` ~ -log10(kappa 1e-29), e.g.
~22 at kappa = 3e8 (dense) and ~11 at kappa(M) = 1.7e9 for normal equations
(the unstructured bound costs kappa(H) = kappa(M)^2 there).  The
least-squares families therefore carry a second route, ``ExactProblem.wider``
(precision escalation, :mod:`.formation_balls`): the same problem, the same
frozen choices, formed in arb balls at any number of bits (kernel by
``arb.exp`` on exact squared distances, H and c by ball products), which
:func:`~lssvm_analysis.analysis.model_error.solve_exact_model` uses when
the DD route certifies too few digits; at the kappa ladder's size it
certifies 25-41 digits at problem kappa up to 6e16 in 10-40 ms (measured,
sinc n = 30; the DD route certified 1.1-2.4 digits, or none, there).
* Least-squares families on a support set (Zhao & Sun (7), Vieira's D_*):
  the normal equations H = D^T D (+ R) and c = D^T l are formed from the DD
  columns D = hi + lo by float64 BLAS products made exact by Ozaki's
  splitting (:func:`lssvm_analysis.exact.ozaki.product_terms`: hi^T hi
  with 3 slice levels of ~21 bits, whose inexact tail products are below
  ~2^-63 N u of |hi|^T |hi|; hi^T lo with 1 level; lo^T lo in float64 with
  the gamma_N bound; l by its exact float64 pieces, so y - gamma in any
  precision is taken exactly), the terms summed error-free into three
  float64 pieces (:func:`~lssvm_analysis.exact.ozaki.pieces_of_sum`).  The
  radii of the inexact steps and the propagated DD bound are the
  formation bound (measured ~1e-32 relative to ||H|| against 400-bit
  balls, below the kernel's own DD error).  14 BLAS products of k x N x k
  replace the N k^2 ball operations of the former route (``FORMATION_BITS``
  balls, kept as the fallback when a scaling leaves the exact exponent
  range).  Measured at N = 1000 (exact model, formation and solve, one
  thread, shared machine): ip-lssvm (900 of 1000 patterns kept) 19 s ->
  2.0 s, els-primal / els-dual with eta = 0.05 (997 supports) 17-19 s ->
  2.1-2.4 s (the DD kernel is ~0.4-0.7 s of it) -> 1.6-1.8 s CPU at load
  8-14 on 2 cores once H = D^T D + R (symmetric) is summed on one triangle,
  |D|^T B + B^T |D| takes one GEMM and the support rows of K(X, X_S) come
  from the symmetric K(X_S, X_S) (:func:`kernel_columns_dd`), reduced-lssvr |S| = 250 2.0
  -> 0.2 s, op-lssvm k* = 90 0.4 -> 0.05 s.  H is small (order |S| + 1), so
  its certified solve costs little even at kappa(H) = kappa(M)^2 ~ 1e18
  (arb route).

Why escalation and not an augmented-system exact model (measured on the
ladder's reduced-lssvr rungs, sinc n = 30, sigma2 = 10, C = 1e16, the
normal equations formed from the DD kernel and solved to 30 digits, against
the same problem formed and solved in 600-bit balls).  A least-squares
solution moves under a relative perturbation e of M by ~ e (kappa + kappa^2
||r|| / (||M|| ||x||)).  At |S| = 15 (kappa_2(M) = 1.9e9) the residual term
is 1.3e8 < kappa, and the DD-formed model is off by 1.2e-21 relative
(20.9 digits) where the certificate, through kappa(H) = 8e18, claims 10.7;
at |S| = 24 (kappa_2 = 1.6e17, residual term 1.6e16) it is off by 1.8e-5
(4.7 digits): the products' rounding (~1e-32 of ||H||) times kappa(H) =
4e35, not the kernel's DD error (which would allow ~12 digits), is what
loses the second log10 kappa.  So an augmented formation [[I, M], [M^T, 0]]
with a bound that keeps M's structure would certify ~29 - log10 kappa on
these rungs -- but it needs a certified solve of order N + |S| whose
unscaled condition is ~kappa(M)^2 too, a structured bound, and it still
stops at kappa ~1e29 (the DD kernel's error).  Escalation has none of
these limits and costs 10-40 ms at the ladder's size (0.2 s at N = 200,
7.6-9.5 s at N = 1000: the experiments escalate only up to N = 500, and only
fits the DD route does not resolve,
:func:`~lssvm_analysis.analysis.model_error.fit_exact_model`).

The formation bound gives, with ||A^-1|| from the certificate (first-order
perturbation theory, Higham Thm 7.2),

    ||x~ - x||_inf <= ||A^-1||_inf (||dA||_inf ||x~||_inf + ||db||_inf) / (1 - ||A^-1||_inf ||dA||_inf)

which the fit kind adds to the certified error of the solve.

Problem condition
-----------------
Each hook states the number reported as ``problem_condition``: a property
of the data, the hyper-parameters and the frozen choices only (never of a
formulation), so that a literal and a stable variant of one solver share
the x-axis.  It is ``kappa ** condition_power`` with kappa the certified
kappa_inf upper bound of the exact system (1 for a square problem; 1/2 for
normal equations H = M^T M, where sqrt(kappa_inf(H)) is kappa_2(M) within a
factor sqrt(order)).

References
----------
N. J. Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed.,
SIAM 2002, Thm 7.2, ch. 20.  Å. Björck, *Numerical Methods for Least
Squares Problems*, SIAM 1996, §2.5 (the augmented system).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from ..arith.mp import MP_CONTEXT
from .arb import exact_mpf
from .ozaki import SAFE, TINY, OutOfRange, gamma, pieces_of_sum, product_terms
from .pieces import float64_pieces
from .double_double import DD, U2, dd_add, dd_mul, kernel_dd, reciprocal_dd
from .formation_balls import PIECES, dd_normal_balls, lssvm_system_balls, reduced_lssvr_balls
from ..arith.precision import get_precision

__all__ = ["ExactProblem", "ridge_dd", "add_to_diagonal", "lssvm_system_dd", "kernel_columns_dd",
           "normal_equations", "scaled_dd", "reduced_lssvr_problem", "bordered_columns_dd",
           "fisher_targets_exact", "exact_values", "exact_targets", "weighted_ridge_dd",
           "dense_wider", "bordered_shell", "set_border", "bordered_rhs", "bordered_matrix"]

@dataclass(frozen=True)
class ExactProblem:
    """The exact model of a fit as a square system, formed in extended precision.

    Attributes
    ----------
    A : DD or ndarray of mpmath mpf, shape (n, n)
        The formed system (taken exactly by ``reference_solve``).
    rhs : ndarray (float64 or mpf), shape (n,)
    unpack : callable
        ``unpack(x) -> {"coef": ..., "bias": ...}``: the model of a solution x,
        a signed selection of its entries (so that ||m - m~|| <= ||x - x~||).
    A_bound, rhs_bound : float
        ||A - A_exact||_inf and ||rhs - rhs_exact||_inf bounds (formation).
    condition_power : float
        ``problem_condition = kappa_inf(A) ** condition_power`` (module docstring).
    choices : mapping
        The discrete choices frozen from the fit (e.g. ``{"support": S}``),
        compared by the fit kind with an extended-precision run; empty when
        the arithmetic makes none.
    method : str
        One line: how the system was formed.
    wider : callable or None
        ``wider(bits) -> ExactProblem``: the same problem (same data, same
        frozen choices) formed again in arb balls at ``bits``, whose
        formation bound is ~2^-bits instead of the DD kernel's ~1e-29
        (precision escalation, :func:`~lssvm_analysis.analysis.model_error.solve_exact_model`);
        None when the family has no such route.
    rows : int
        Rows of the least-squares matrix the system was formed from (its
        order for a square system): the ball products' radii grow with it.
    """

    A: Any
    rhs: np.ndarray
    unpack: Callable
    A_bound: float
    rhs_bound: float = 0.0
    condition_power: float = 1.0
    choices: Mapping = field(default_factory=dict)
    method: str = ""
    wider: Callable[[int], "ExactProblem"] | None = None
    rows: int = 0


# ----------------------------------------------------------------------------- the bordered system
def bordered_shell(n, precision):
    """The zero (n+1) x (n+1) matrix of a bordered system, in ``precision``; its
    ``[1:, 1:]`` block is where H goes (a solver may form H there in place)."""
    return get_precision(precision).zeros((n + 1, n + 1))


def set_border(A, a):
    """Write the border a into row 0 and column 0 of A (A[0, 0] stays 0); exact copies."""
    A[0, 1:] = a
    A[1:, 0] = a
    return A


def bordered_rhs(d, precision):
    """The right-hand side [0; d] of a bordered system, in ``precision``."""
    p = get_precision(precision)
    rhs = p.zeros(len(d) + 1)
    rhs[1:] = d
    return rhs


def bordered_matrix(H, a, d, precision):
    """The bordered (KKT) system [[0, a^T], [a, H]] [b; x] = [0; d] in ``precision``.

    The one assembly of Suykens' (3.24)-form systems (3.5, 3.32) and of
    Abe's bordered dual (eq. 4, 9-10), from :func:`bordered_shell`,
    :func:`set_border` and :func:`bordered_rhs` (which the dense Suykens
    solvers use to form H in place): the border is copied exactly, nothing
    is rounded.

    Parameters
    ----------
    H : (n, n) array in the precision
    a : (n,) array, the border
    d : (n,) array, the right-hand side of the second block row
    precision : str or Precision

    Returns
    -------
    A : (n+1, n+1) array, rhs : (n+1,) array
    """
    A = bordered_shell(H.shape[0], precision)
    A[1:, 1:] = H
    return set_border(A, a), bordered_rhs(d, precision)


# ----------------------------------------------------------------------------- DD pieces
def ridge_dd(C) -> tuple:
    """1/C as a DD pair (relative error <= 4 u^2): the ridge of every LS-SVM diagonal."""
    return reciprocal_dd(float(C))


def add_to_diagonal(M: DD, value: tuple, rows, cols) -> DD:
    """M with the DD ``value`` added at (rows[k], cols[k]); its rounding (3 u^2) joins the bound."""
    hi, lo = M.hi.copy(), M.lo.copy()
    bound = np.array(np.broadcast_to(M.bound, M.shape), dtype=np.float64)
    h, l = dd_add(hi[rows, cols], lo[rows, cols], value[0], value[1])
    hi[rows, cols], lo[rows, cols] = h, l
    bound[rows, cols] += 3.0 * U2 * np.abs(h) + 4.0 * U2 * abs(value[0])
    return DD(hi, lo, bound)


def _signed(M: DD, row_signs, col_signs) -> DD:
    """diag(r) M diag(c) for sign vectors (exact)."""
    s = np.outer(row_signs, col_signs)
    return DD(M.hi * s, M.lo * s, np.abs(M.bound))


def lssvm_system_dd(X, y, kernel, C, task, *, bias=True, ridge=None):
    """The LS-SVM system (Suykens 3.5 / 3.32; 3.50 without bias) of float64 data in DD.

    Parameters
    ----------
    X : (N, m) float64, y : (N,) float64 (labels +-1 for classification)
    kernel : Kernel
    C : float > 0
    task : {"regression", "classification"}
    bias : bool
        False: kernel ridge ``(Omega + I/C) alpha = y`` (3.50).
    ridge : (hi, lo) of float64 arrays (N,), optional
        The diagonal added to Omega as a DD pair of relative error <= 4 u^2
        (e.g. :func:`weighted_ridge_dd`); default 1/C on every entry.

    Returns
    -------
    A : DD, (N+1, N+1) ([[0, a^T], [a, Omega + I/C]]) or (N, N) without bias
    rhs : (N+1,) or (N,) float64 ([0; d])
    """
    K = kernel_dd(kernel, X)
    if task == "classification":
        K = _signed(K, y, y)                       # (3.6): Omega_kl = y_k y_l K_kl
        a, d = y, np.ones_like(y)
    else:
        a, d = np.ones_like(y), y
    idx = np.arange(len(y))
    H = add_to_diagonal(K, ridge_dd(C) if ridge is None else ridge, idx, idx)
    if not bias:
        return H, np.array(d, dtype=np.float64)
    hi, rhs = bordered_matrix(H.hi, a, d, "float64")
    lo, _ = bordered_matrix(H.lo, np.zeros_like(a), d, "float64")
    bound, _ = bordered_matrix(np.asarray(H.bound), np.zeros_like(a), d, "float64")
    return DD(hi, lo, bound), rhs


def dense_wider(X, y, kernel, C, task, rhs, unpack, name: str, *, bias=True, weights=None,
                rhs_bound: float = 0.0) -> Callable[[int], ExactProblem]:
    """``ExactProblem.wider`` of a dense family's exact model (:func:`lssvm_system_dd` in DD): the
    same system, ``rhs`` and ``unpack`` with A from :func:`lssvm_system_balls` at the bits asked."""
    def wider(bits):
        A, bound = lssvm_system_balls(X, y, kernel, C, task, bits=bits, bias=bias, weights=weights)
        return ExactProblem(A, rhs, unpack, _row_bound(bound), rhs_bound, method=f"{name} in {bits}-bit balls",
                            wider=wider, rows=A.shape[0])
    return wider


def fisher_targets_exact(y) -> tuple:
    """[0; t] with the LS-SVM_F targets t = N/N_1 (label +1), -N/N_2 (label -1) to 200 bits.

    Returns (object array of mpmath mpf, bound on |t - t_exact|): Suykens §3.4.2's
    targets as rationals, not their float64 roundings (which are not the data).
    """
    y = np.asarray(y, dtype=np.float64)
    n, n1 = y.size, int(np.count_nonzero(y > 0))
    with MP_CONTEXT.workprec(200):
        pos, neg = MP_CONTEXT.mpf(n) / n1, -MP_CONTEXT.mpf(n) / (n - n1)
    rhs = np.empty(n + 1, dtype=object)
    rhs[0] = MP_CONTEXT.mpf(0)
    rhs[1:] = [pos if v > 0 else neg for v in y]
    return rhs, float(max(pos, -neg)) * 2.0 ** -199


def weighted_ridge_dd(C, weights) -> tuple:
    """1/(C v_k) per entry as a DD pair (hi, lo) of arrays, relative error <= u^2 each.

    The weighted LS-SVM's diagonal (Suykens et al. 2002): each quotient of the
    float64 C and v_k rounded once at 300 bits, then split into two float64.
    """
    v = np.asarray(weights, dtype=np.float64)
    hi, lo = np.empty(v.shape), np.empty(v.shape)
    with MP_CONTEXT.workprec(300):
        for k, vk in enumerate(v):
            q = 1 / (MP_CONTEXT.mpf(float(C)) * MP_CONTEXT.mpf(float(vk)))
            hi[k] = float(q)
            lo[k] = float(q - hi[k])
    return hi, lo


def exact_values(a) -> np.ndarray:
    """Object array of mpmath mpf equal to the entries of ``a`` (any precision's scalars, exactly).

    Every binary float (float32/64, longdouble) is a dyadic rational
    (``as_integer_ratio``) and an mpf is kept as it is: nothing rounds.
    """
    flat = np.asarray(a).ravel()
    out = np.empty(flat.size, dtype=object)
    for k, v in enumerate(flat):
        if getattr(v, "_mpf_", None) is not None:
            out[k] = v
        else:
            num, den = v.as_integer_ratio()
            out[k] = exact_mpf(num, 1 - den.bit_length())
    return out.reshape(np.shape(a))


def exact_targets(y, shift) -> np.ndarray:
    """y - shift exactly, as an object array of mpf (Chen & Zhou's y - gamma with the fit's gamma).

    ``shift`` is in any precision (its values are the data of the exact
    model), a scalar or one value per entry of ``y`` (a scalar is subtracted
    from every entry); mpmath's exact subtraction of two dyadic rationals
    never rounds.  Another shape is a ValueError naming both shapes (``zip``
    would silently drop the unmatched entries).
    """
    ys = exact_values(np.asarray(y, dtype=np.float64)).ravel()
    g = np.asarray(shift, dtype=object if getattr(shift, "_mpf_", None) is not None else None)
    if g.ndim == 0:
        g = np.broadcast_to(g, ys.shape)
    elif g.shape != ys.shape:
        raise ValueError(f"expected shift as a scalar or of y's shape {ys.shape}, got shift of shape {g.shape}")
    gs = exact_values(g)
    return np.array([MP_CONTEXT.fsub(a, b, exact=True) for a, b in zip(ys, gs)], dtype=object)


def kernel_columns_dd(X, kernel, support, *, signs=None) -> DD:
    """K(X, X[support]) in DD, (N, |S|); ``signs`` (y) scales rows and columns (Omega).

    The rows of the support are K(X_S, X_S), evaluated on one triangle
    (:func:`~lssvm_analysis.exact.double_double.kernel_dd` with Z = None) and
    mirrored: k(x_i, x_j) and k(x_j, x_i) are the same DD numbers bit for bit
    (the differences only change sign), so the result equals the rectangular
    evaluation at about half its cost when S is most of X (Abe's supports).
    """
    S = np.asarray(support, dtype=np.intp)
    K = kernel_dd(kernel, X, X[S]) if len(np.unique(S)) < len(S) else _support_rows_symmetric(X, kernel, S)
    if signs is not None:
        K = _signed(K, signs, signs[np.asarray(support, dtype=np.intp)])
    return K


def _support_rows_symmetric(X, kernel, S) -> DD:
    """K(X, X_S) with the rows S from the symmetric K(X_S, X_S) and the others rectangular."""
    rest = np.setdiff1d(np.arange(X.shape[0]), S)
    inner = kernel_dd(kernel, X[S])
    outer = kernel_dd(kernel, X[rest], X[S]) if rest.size else None
    parts = []
    for name in ("hi", "lo", "bound"):
        out = np.empty((X.shape[0], len(S)))
        out[S] = np.broadcast_to(getattr(inner, name), (len(S), len(S)))
        if outer is not None:
            out[rest] = np.broadcast_to(getattr(outer, name), (rest.size, len(S)))
        parts.append(out)
    return DD(*parts)


# ----------------------------------------------------------------------------- normal equations
def normal_equations(D: DD, l, reg: DD | None = None):
    """H = D^T D (+ reg) and c = D^T l formed Ozaki-exactly (module docstring), with their bounds.

    Parameters
    ----------
    D : DD, (rows, k)
        The least-squares matrix (entries within ``D.bound`` of the exact ones).
    l : (rows,) float64, or object array of mpf
        The exact right-hand side (taken exactly).
    reg : DD, (k, k), optional
        A term added to D^T D (Zhao & Sun's R).

    Returns
    -------
    H : DD, (k, k)
        ``PIECES`` float64 pieces of the formed H (the reference takes their sum exactly).
    c : (k,) object array of mpf
    H_bound, c_bound : float
        ||H - H_exact||_inf and ||c - c_exact||_inf bounds: the radii of the
        inexact products and sums (or of the balls, on the fallback) plus the propagation of the DD bound B of D,
        |dH| <= |D|^T B + B^T |D| + B^T B and |dc| <= B^T |l|, evaluated in
        float64 and enlarged by (1 + 4 rows u) for their own rounding.
    """
    l = np.asarray(l)
    try:
        H, Hr = _gram_ozaki(D, reg)
        c, cr = _cross_ozaki(D, l)
    except OutOfRange:  # exponents beyond the exact-scaling range: ball products
        H, Hr, c, cr = dd_normal_balls(D, l, reg)
    l_abs = np.abs(np.array([float(v) for v in l])) * (1 + 2.0 ** -52)
    B = np.broadcast_to(np.asarray(D.bound, dtype=np.float64), D.shape)
    absD = np.abs(D.hi) + np.abs(D.lo)
    # |D|^T B + B^T |D| + B^T B: the second term is the first's transpose (one GEMM, both within
    # gamma_rows of the exact sum: ``grow`` below), the third (~1e-29 of the first) bounded by the
    # rank-one max_r B_ri sum_r B_rj instead of a third GEMM
    M = absD.T @ B
    dH = M + M.T + B.max(axis=0)[:, None] * B.sum(axis=0)[None, :]
    if reg is not None:
        dH = dH + np.broadcast_to(np.asarray(reg.bound, dtype=np.float64), dH.shape)
    dc = B.T @ l_abs
    grow = 1.0 + 4.0 * D.shape[0] * 2.0 ** -53
    H_bound = float(((dH + Hr).sum(axis=1)).max()) * grow
    c_bound = float((dc + cr.ravel()).max()) * grow
    return H, c.ravel(), H_bound, c_bound


def _cross_ozaki(D: DD, l) -> tuple:
    """c = D^T l by Ozaki-exact products of the exact float64 pieces of l: (mpf array, bound).

    As :func:`_gram_ozaki` (hi^T l with 4 levels, lo^T l in float64 with the
    gamma_N bound), summed into ``PIECES`` pieces whose exact sum is returned
    as mpf.  Raises OutOfRange (also when l has no short float64 expansion).
    """
    pieces = float64_pieces(np.asarray(l).reshape(-1), count=4)
    if pieces is None:
        raise OutOfRange("right-hand side without a float64 expansion")
    Lm = np.ascontiguousarray(np.stack(pieces, axis=1))
    hi, lo = np.ascontiguousarray(D.hi), np.ascontiguousarray(D.lo)
    prods, rad = product_terms(hi.T, Lm, levels=4)   # p <= 4 columns: a level costs little
    prods.append(lo.T @ Lm)
    absl = np.abs(lo)
    rad = rad + gamma(max(lo.shape[0], 2)) * SAFE * absl.max(axis=0)[:, None] \
        * np.abs(Lm).sum(axis=0)[None, :] + TINY
    terms = [P[:, j] for P in prods for j in range(Lm.shape[1])]
    parts, rs = pieces_of_sum(terms, count=PIECES)
    c = exact_values(parts[0])
    for part in parts[1:]:
        c = np.array([MP_CONTEXT.fadd(a, b, exact=True) for a, b in zip(c, exact_values(part))],
                     dtype=object)
    return c, (rad.sum(axis=1) + rs) * SAFE


def _gram_ozaki(D: DD, reg: DD | None) -> tuple:
    """D^T D (+ reg) for D = hi + lo by Ozaki-exact float64 products, as ``PIECES`` pieces.

    hi^T hi with 3 slice levels (the inexact tail products below ~2^-84 N u
    of |hi|^T |hi|), hi^T lo and its transpose with 1 level, lo^T lo in
    float64 with the gamma_N bound (all :func:`~lssvm_analysis.exact.ozaki.product_terms`),
    reg's pieces added, the sum distilled into ``PIECES`` pieces
    (:func:`~lssvm_analysis.exact.ozaki.pieces_of_sum`).  Returns (DD, bound
    array): the radii of every inexact step.  Raises OutOfRange.
    """
    hi, lo = np.ascontiguousarray(D.hi), np.ascontiguousarray(D.lo)
    terms, rad = product_terms(hi.T, hi, levels=3)
    cross, rc = product_terms(hi.T, lo, levels=1)
    terms += cross + [t.T for t in cross]
    ll = lo.T @ lo
    absl = np.abs(lo)
    rl = gamma(max(lo.shape[0], 2)) * SAFE * absl.max(axis=0)[:, None] * absl.sum(axis=0)[None, :]
    terms.append(ll)
    if reg is not None:
        terms += reg.pieces()
    k = hi.shape[1]
    if reg is not None and not all(np.array_equal(P, P.T) for P in
                                   [*reg.pieces(), np.broadcast_to(reg.bound, (k, k))]):
        pieces, rs = pieces_of_sum(terms, count=PIECES)
        bound = (rad + rc + rc.T + rl * SAFE + TINY + rs) * SAFE
        return DD(pieces[0], pieces[1], bound, tuple(pieces[2:])), bound
    # D^T D + reg (reg's pieces symmetric) is symmetric: the terms of the upper triangle are summed
    # and mirrored, each mirrored entry carrying the bound of its upper twin (half the summation).
    iu = np.triu_indices(k)
    pieces, rs = pieces_of_sum([t[iu] for t in terms], count=PIECES)
    bound = (rad + rc + rc.T + rl * SAFE + TINY)[iu]
    bound = _from_upper((bound + rs) * SAFE, iu, k)
    pieces = [_from_upper(p, iu, k) for p in pieces]
    return DD(pieces[0], pieces[1], bound, tuple(pieces[2:])), bound


def _from_upper(values, iu, k) -> np.ndarray:
    """The symmetric (k, k) array whose upper triangle (``iu`` = ``triu_indices(k)``) is ``values``."""
    out = np.empty((k, k))
    out[iu] = values
    out[iu[1], iu[0]] = values
    return out


def scaled_dd(M: DD, value: tuple) -> DD:
    """M times the DD scalar ``value`` (each product 5 u^2; the bound scales with it)."""
    h, l = dd_mul(M.hi, M.lo, value[0], value[1])
    bound = np.abs(M.bound) * (abs(value[0]) * (1 + 1e-15)) + 5.0 * U2 * np.abs(h)
    return DD(h, l, bound)


# ----------------------------------------------------------------------------- support-set problems
def reduced_lssvr_problem(X, y, kernel, C, support, *, penalty="kernel",
                          choices=None, bits=None) -> ExactProblem:
    """Zhao & Sun (7) on a frozen support set S: (R + Z Z^T) theta = Z d, theta = [b; alpha].

    Z^T = [1, K(X, X_S)] (N x (|S|+1)) in DD, R = diag(0, K_SS / C)
    (``penalty="kernel"``: 1/2 ||w||^2 with w = sum alpha_j phi(x_j); also
    Abe's primal (6)-(7) in the whitened empirical feature space) or
    R = diag(0, I / C) (``penalty="identity"``: Abe's (6)-(7) with h(x) =
    K(X_S, x), 1/2 ||v||^2 on the coefficients themselves); H and Z d formed
    by :func:`normal_equations`.  Problem condition: kappa_2 of the
    least-squares matrix M of (7) (M^T M = H), reported as
    sqrt(kappa_inf(H)) (``condition_power`` 1/2).

    ``bits`` (int): the same problem formed in arb balls at ``bits`` instead
    (kernel, R, H and Z d; :mod:`.formation_balls`), the escalated route
    ``ExactProblem.wider`` of the DD one.
    """
    if penalty not in ("kernel", "identity"):
        raise ValueError(f"expected penalty in ('kernel', 'identity'), got penalty={penalty!r}")
    S = np.asarray(support, dtype=np.intp)
    choices = dict(choices or {})

    def wider(b):
        return reduced_lssvr_problem(X, y, kernel, C, S, penalty=penalty, choices=choices, bits=b)

    def unpack(theta):
        theta = np.asarray(theta)
        return {"coef": theta[1:], "bias": theta[0]}

    if bits is not None:
        H, Hr, c, cr = reduced_lssvr_balls(X, y, kernel, C, S, penalty, bits)
        return ExactProblem(H, c, unpack, _row_bound(Hr), float(cr.max(initial=0.0)), condition_power=0.5,
                            choices=choices, wider=wider, rows=X.shape[0],
                            method=f"Zhao-Sun (7) normal equations, kernel and products in {bits}-bit balls")
    Kc = kernel_columns_dd(X, kernel, S)
    N = Kc.shape[0]
    ones = np.ones((N, 1))
    D = DD(np.hstack([ones, Kc.hi]), np.hstack([0 * ones, Kc.lo]),
           np.hstack([0 * ones, np.broadcast_to(Kc.bound, Kc.shape)]))
    k = len(S) + 1
    pad = np.zeros((k, k))
    R = DD(pad.copy(), pad.copy(), pad.copy())
    if penalty == "kernel":
        KS = scaled_dd(DD(Kc.hi[S], Kc.lo[S], np.broadcast_to(Kc.bound, Kc.shape)[S]), ridge_dd(C))
        R.hi[1:, 1:], R.lo[1:, 1:], R.bound[1:, 1:] = KS.hi, KS.lo, KS.bound
    else:
        R = add_to_diagonal(R, ridge_dd(C), np.arange(1, k), np.arange(1, k))
    H, c, H_bound, c_bound = normal_equations(D, y, R)
    return ExactProblem(H, c, unpack, H_bound, c_bound, condition_power=0.5, choices=choices, wider=wider,
                        rows=N, method="Zhao-Sun (7) normal equations Ozaki-exact, kernel in DD")


def _row_bound(bound: np.ndarray) -> float:
    """||dA||_inf from an elementwise bound array, enlarged for the float64 row sums' rounding."""
    return float(bound.sum(axis=1).max()) * (1.0 + 2.0 * bound.shape[1] * 2.0 ** -53)


def bordered_columns_dd(X, y, kernel, C, task, columns) -> tuple:
    """Columns ``columns`` of the bordered LS-SVM matrix D = [[0, a^T], [a, Omega + I/C]] in DD.

    Column 0 is the border [0; a]; column c >= 1 is pattern c - 1.  Returns
    (D_* as DD of shape (N+1, k), l = [0; d]) (Vieira eq. 4; Suykens 3.5 / 3.32).
    """
    cols = np.asarray(columns, dtype=np.intp)
    N = len(y)
    clf = task == "classification"
    a, d = (y, np.ones_like(y)) if clf else (np.ones_like(y), y)
    pats = cols[cols > 0] - 1
    Kc = kernel_columns_dd(X, kernel, pats, signs=y if clf else None)
    Kc = add_to_diagonal(Kc, ridge_dd(C), pats, np.arange(len(pats)))
    hi, lo, bd = (np.zeros((N + 1, len(cols))) for _ in range(3))
    where = np.flatnonzero(cols > 0)
    hi[1:, where], lo[1:, where], bd[1:, where] = Kc.hi, Kc.lo, Kc.bound
    hi[0, where] = a[pats]
    for j in np.flatnonzero(cols == 0):
        hi[1:, j] = a
    l = np.zeros(N + 1)
    l[1:] = d
    return DD(hi, lo, bd), l


