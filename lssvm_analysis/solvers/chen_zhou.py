"""Chen & Zhou: sparse robust LS-SVM in the primal (PCP-LSSVM, SR-LSSVM, Algorithm 1).

The primal R-LSSVM (9) with the kernel matrix replaced by a low-rank factor
``K ~ P P^T`` from the greedy pivoted Cholesky (§4.2; Zhou 2016) and the
truncated loss smoothed by (20), minimised by CCCP (19).  Every step runs in
``precision``.

Parameter mapping (paper -> ours)
---------------------------------
* ``lambda`` with the 1/m loss average: ``C = 1/(m lambda)`` (the tables report
  ``m lambda = 1/C``);
* Gaussian kernel ``exp(-sigma ||x - z||^2)``: ``sigma2 = 1/sigma``;
* ``r = |B|``: ``n_support``;  ``tau``: ``tau``;  ``p`` (smoothing, 1e4): ``p``;
* ``epsilon`` (stop criterion, 1e-2): ``tol``;  the unstated iteration cap: ``max_iter``.

Algorithm 1 as implemented (our symbols, ``mlam = m lambda = 1/C``)
-------------------------------------------------------------------
1. ``P`` (m x r) and the pivots ``B`` by :func:`~lssvm_analysis.linalg.incomplete_cholesky.pivoted_cholesky`
   (stop at r pivots or on the residual trace; residual diagonal clamped,
   ``residual="clamped"``, or as printed, ``"literal"``:
   :mod:`~lssvm_analysis.solvers.pivoted_factor`); ``gamma^(0) = 0``.
2. ``J = mlam I_r + P^T P - (1/m)(P^T e)(P^T e)^T`` (27), ``j_form="literal"``; or
   ``J = mlam I_r + P_c^T P_c`` with ``P_c = P - e mean(P)`` (``j_form="centered"``,
   equal in exact arithmetic, SPD by construction).  Cholesky ``J = L_J L_J^T``; or
   ``L_J = R^T`` from the Householder QR of ``[P_c; sqrt(mlam) I]`` (``j_form="qr"``,
   P_c^T P_c never formed: :func:`qr_factor_j`).
3. Comment 2: ``upsilon = J^{-1} P^T (z - mean(z) e)`` with ``z = y - gamma^(t)``
   (``update="comment2"``), or (31) multiplied by ``P_B^T``:
   ``upsilon = upsilon_LS - J^{-1}(P_S^T gamma_S - (e^T gamma / m) P^T e)`` over the
   non-zero set ``S`` of ``gamma`` (``update="comment3"``, Comment 3);
   ``b = (1/m)[e^T z - e^T P upsilon]`` (29).
4. ``xi = y - P upsilon - b``; ``gamma^(t+1) = dL2/dxi`` by (22).
5. Stop when ``||gamma^(t+1) - gamma^(t)||_2 < tol`` (absolute 2-norm; SEED_NOTES
   §3.5), else at ``max_iter`` (status "not-converged", the last iterate kept).
6. ``alpha_B = P_B^{-T} upsilon`` (Comment 2, ``coef="triangular"``, as printed);
   ``alpha_N = 0``.  The model is (30): ``f(x) = sum_{i in B} alpha_i k(x_i, x) + b``.

(22) is ``gamma = xi * min{1, e^{p(xi^2 - tau^2)}} / (1 + e^{-p|xi^2 - tau^2|})``,
which equals ``xi * expit(p (xi^2 - tau^2))`` (SEED_NOTES §3.4).
``smoothing="literal"`` evaluates it as printed (``e^{p(.)}`` overflows once
``p (xi^2 - tau^2) > 709.8`` in float64, ``> 88.7`` in float32; ``min(1, inf) = 1``
rescues the value in IEEE arithmetic, and the overflow count is recorded);
the non-zero set S_t of Comment 3 is then defined by *underflow*, i.e. by the
precision.  ``smoothing="stable"`` evaluates ``xi * expit(z)`` without overflow
and sets ``gamma_i = 0`` exactly when ``z_i = p (xi_i^2 - tau^2) <= -40``
(``expit(-40) < 4.3e-18``), the same S_t for every precision; expit is
``Precision.expit``: ``scipy.special.expit`` for float32/float64/longdouble (its own loops, one
pass, relative error a few u) and 1/(1 + e^-z) or e^z/(1 + e^z), whichever
exponent is <= 0, for mpN.

The model's Nystrom feature-map prediction (``coef="feature-map"``) is in
:mod:`.nystrom`.

Precision hot spots (SEED_NOTES §3.5, §3.6)
-------------------------------------------
* (27) as printed forms ``P^T P`` (entries ~ m for a wide kernel, whose first
  column of P is ~ 1) and subtracts a rank-one term of the same size: the
  rounding error is ``~ m u ||P||^2`` against ``||J|| ~ mlam + ||P_c||^2``.  The
  centred form rounds ``P_c`` exactly up to the error of the column means
  (Sterbenz), which moves P_c along ``e``, orthogonal to P_c's columns: the
  error of ``P_c^T P_c`` is first order ``m u ||P_c||^2`` only.
* The numerical rank the pivoted Cholesky reaches depends on the precision and
  on the trace tolerance (``diagnostics["rank"]``, ``["rank_stop"]``,
  ``["negative_residuals"]``).

References
----------
L. Chen, S. Zhou, Sparse algorithm for robust LSSVM in primal space (arXiv, 2017):
eqs. (9), (19)-(31), Algorithm 1, Comments 1-4.
S. Zhou, Sparse LSSVM in primal using Cholesky factorization for large-scale
problems, IEEE TNNLS 27 (2016) (PCP-LSSVM).
"""
from __future__ import annotations

import numbers
import warnings
from dataclasses import fields

import numpy as np

from ..core.validation import check_int, check_positive
from ..core.exceptions import CholeskyBreakdownError, ConvergenceWarning
from ..linalg.qr import qr_r
from ._common import breakdown_fit, make_fit, validate_xy
from .peaks import PIVOTED_PEAK
from .times import PCP_TIME, SR_TIME
from ._registry import SUPPORT_FRACTIONS, LadderKnob, register, variant
from .exact_chen_zhou import exact_primal_model
from .kkt import formed_kappa
from .nystrom import NystromFit
from .pivoted_factor import RESIDUALS, check_trace, factor, trace_rule_used
from .result import Fit, PhaseTimer
from .sparsity import coefficient_counts

__all__ = ["fit_pcp", "fit_sr", "smooth_gamma", "form_j", "default_n_support", "EXPIT_CUTOFF", "RANK_FRACTIONS"]

_BOTH = ("regression", "classification")
#: gamma_i = 0 exactly when p (xi^2 - tau^2) <= -EXPIT_CUTOFF (stable smoothing): expit(-40) < 4.3e-18.
EXPIT_CUTOFF = 40.0
#: Comment 4 (unspecified in the paper; SEED_NOTES DECISION): start at delta max|xi|,
#: halve tau when ||Delta gamma|| < 10 tol, down to ``tau``.
_TAU_DELTA, _TAU_FACTOR, _TAU_SMALL = 0.5, 0.5, 10.0

_J_FORMS = (variant("j_form", "centered", "J = m lambda I + P_c^T P_c with P_c = P - e mean(P): no cancellation"),
            variant("j_form", "qr", "J = R^T R from Householder QR of [P_c; sqrt(m lambda) I]: P_c^T P_c never formed"),
            variant("j_form", "literal", "J by (27): P^T P - (1/m)(P^T e)(P^T e)^T, cancels", literal=True))
#: The kappa ladder's knob (SolverInfo.ladder): the number r of pivots.  With the paper's r = 0.05 m
#: (one pivot at m = 30) J is 1 x 1 whatever C; J_r is the leading r x r block of J_{r+1} (the
#: greedy pivots are nested), so by Cauchy interlacing kappa(J) can only grow with r.  The top rung
#: r = 0.9 m takes the problem past 1/u of float64, at sigma2 = 12 (``fixed``): at C = 1e16 (sinc, m =
#: 30, mp50, exact model certified to 33 - 41 digits) r = 8, 15, 24, 27 give problem kappa 2.7e2, 7.2e5,
#: 1.5e14, 3.9e17, within a C-ladder rung of the widest rows (5e17 - 9e17).  At the ladder's sigma2 = 10
#: they give 3e2, 2e5, 6.6e12 and 1.9e16, 1.7 decades short of them, and r = 28 gives 1.3e18 (above
#: them); at sigma2 = 15, r = 27 gives 5.6e18.  float64's pivoted Cholesky stops at rank 25 on r = 27
#: (problem kappa 1.6e15), float32's at 16 from r = 24 on (2.0e6): the rank reached (``diag_rank``).
RANK_FRACTIONS = (*SUPPORT_FRACTIONS, 0.9)
_RANK_LADDER = (LadderKnob("n_support", RANK_FRACTIONS, per_point=True, fixed={"sigma2": 12.0}, chosen="diag_rank",
                           note="r = n_support pivots (at sigma2 = 12): kappa(J) ~ (m lambda + s_1^2) / (m lambda "
                                "+ s_r^2) grows as the r-th pivot of the kernel falls; the paper's r = 0.05 m "
                                "keeps J tiny and well conditioned whatever C; the pivoted Cholesky stops at its "
                                "numerical rank (diag_rank: 25 of 27 in float64, 16 in float32)"),)
_COEF = (variant("coef", "triangular", "alpha_B = P_B^{-T} upsilon (Comment 2), as printed", literal=True),
         variant("coef", "feature-map", "predict by p(x) = P_B^{-1} k_B(x), upsilon: alpha_B never used"))


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------
def default_n_support(m: int) -> int:
    """The paper's r for medium sets: floor(0.05 m), at least 1."""
    return max(1, int(0.05 * m))


def _check_n_support(n_support, m):
    if n_support is None:
        return default_n_support(m)
    r = check_int("n_support", n_support, minimum=1)
    if r > m:
        raise ValueError(f"expected n_support in 1..m = 1..{m}, got n_support={n_support!r}")
    return r


def _check_tau(tau):
    if isinstance(tau, bool) or not isinstance(tau, numbers.Real):
        raise TypeError(f"expected a positive real number (or inf) for tau, got tau={tau!r}")
    if not tau > 0:  # NaN fails too
        raise ValueError(f"expected tau > 0 (inf: no truncation), got tau={tau!r}")
    return float(tau)


# ---------------------------------------------------------------------------
# Building blocks (public: the tests and the report measure them one by one)
# ---------------------------------------------------------------------------
def form_j(P, mlam, prec, j_form, *, overwrite=False):
    """J of (27) (``"literal"``) or mlam I + P_c^T P_c (``"centered"``).

    Parameters
    ----------
    P : (m, r) array in ``prec``
    mlam : scalar of ``prec``
        m lambda = 1/C.
    j_form : {"centered", "literal", "qr"}
        ``"qr"`` centres P and returns J = None (:func:`qr_factor_j` factors J).
    overwrite : bool
        Centre P in place (``"centered"``, ``"qr"``; mpN on FLINT never writes
        P: ``Precision.center_columns``): the solver owns its factor and keeps
        one m x r array instead of two.

    Returns
    -------
    J : (r, r) array, or None for ``"qr"``
    Pc : (m, r) array or None
        The centred factor (``"centered"``, ``"qr"``), else None: ``prec.keep``'s,
        read-only in mpN with its FLINT form kept for the products of every
        iteration.
    mu : (r,) array
        Column means of P (P^T e / m).
    """
    m, r = P.shape
    eye = prec.eye(r)
    if j_form == "literal":
        ph = np.sum(P, axis=0)  # P^T e
        J = mlam * eye + prec.matmul(P.T, P) - np.multiply.outer(ph, ph) / prec.scalar(m)
        return J, None, ph / prec.scalar(m)
    Pc, mu = prec.center_columns(P, overwrite=overwrite)
    if j_form == "qr":
        return None, Pc, mu
    return mlam * eye + prec.matmul(Pc.T, Pc), Pc, mu


def qr_factor_j(Pc, mlam, prec):
    """Lower L with L L^T = J = mlam I + P_c^T P_c, from the QR of [P_c; sqrt(mlam) I] (``j_form="qr"``).

    [P_c; sqrt(mlam) I] = Q R gives R^T R = P_c^T P_c + mlam I = J without
    forming P_c^T P_c: Householder QR is backward stable, R is the exact
    factor of J + dJ with ||dJ|| <~ c r u ||[P_c; sqrt(mlam) I]||^2 (Higham,
    *Accuracy and Stability*, Thm 19.4), against the m u ||P_c||^2 of summing
    the m products of each entry of P_c^T P_c.  L = R^T with its diagonal made
    positive (row signs of R are free).  float32/float64: LAPACK geqrf on an
    (m + r) x r copy (peak memory 2 m r); longdouble and mpN: Householder
    reflections in the precision.  Cost 2 m r^2 flops, twice the SYRK of the
    centred form.
    """
    m, r = Pc.shape
    root = prec.sqrt(np.array([mlam], dtype=Pc.dtype))[0]
    if prec.hardware:   # LAPACK factors a Fortran-ordered scratch copy in place
        S = np.empty((m + r, r), dtype=Pc.dtype, order="F")
        S[:m] = Pc
        S[m:] = 0
        S[m + np.arange(r), np.arange(r)] = root
    else:
        S = np.concatenate([Pc, root * prec.eye(r)])
    R = np.triu(qr_r(S, prec, overwrite=True)[0])
    signs = np.where(np.array([v < 0 for v in np.diag(R)]), -1, 1)
    return (R * prec.asarray(signs.astype(float))[:, None]).T.copy()


def smooth_gamma(xi, tau, p_smooth, prec, smoothing):
    """gamma = dL2_bar/dxi of (21)-(22), elementwise.

    Parameters
    ----------
    xi : (m,) array in ``prec``
    tau, p_smooth : float
    smoothing : {"stable", "literal"}

    Returns
    -------
    gamma : (m,) array in ``prec``
    n_overflow : int
        Entries where the literal e^{p(xi^2 - tau^2)} overflowed (0 for "stable" and mp).
    """
    return _Smoother(tau, p_smooth, prec, smoothing)(xi)


class _Smoother:
    """:func:`smooth_gamma` with its scalars converted to the precision once (it runs per row chunk)."""

    def __init__(self, tau, p_smooth, prec, smoothing):
        self.prec, self.smoothing, self.inf = prec, smoothing, bool(np.isinf(tau))
        self.zero, self.one = prec.scalar(0), prec.scalar(1)
        self.p, self.tau2 = prec.scalar(p_smooth), prec.scalar(tau) ** 2
        self.cut = prec.scalar(-EXPIT_CUTOFF)

    def __call__(self, xi):
        prec, zero, one = self.prec, self.zero, self.one
        if self.inf:
            return np.full(xi.shape, zero, dtype=xi.dtype), 0
        z = self.p * (xi * xi - self.tau2)
        if self.smoothing == "literal":
            with np.errstate(over="ignore"):
                E = prec.exp(z)
                n_over = int(np.count_nonzero(prec.isinf(E)))
                g = xi * np.where(E < one, E, one) / (one + prec.exp(-np.abs(z)))
            return g, n_over
        return np.where(z > self.cut, xi * prec.expit(z), zero), 0


# ---------------------------------------------------------------------------
# Algorithm 1
# ---------------------------------------------------------------------------
class _State:
    """Everything Algorithm 1 keeps between iterations (the factor, J's Cholesky, y)."""

    def __init__(self, P, Pc, mu, LJ, y, prec, j_form):
        self.P, self.Pc, self.mu, self.LJ, self.y, self.prec, self.j_form = P, Pc, mu, LJ, y, prec, j_form
        self.m = y.shape[0]
        self.mm = prec.scalar(self.m)
        self.phat = mu * self.mm  # P^T e

    def project(self, v):
        """P^T (v - mean(v) e) (literal) or P_c^T (v - mean(v) e) (centred)."""
        vc = v - np.sum(v) / self.mm
        return self.prec.matmul((self.P if self.Pc is None else self.Pc).T, vc)

    def solve(self, rhs):
        return self.prec.cho_solve(self.LJ, rhs)

    def rows(self, S):
        """The rows P_S of P (from P_c + mu when only the centred factor is kept)."""
        return self.P[S] if self.Pc is None else self.Pc[S] + self.mu

    def fitted(self, ups, b):
        """P upsilon + b on the training set."""
        if self.Pc is None:
            return self.prec.matmul(self.P, ups) + b
        return self.prec.matmul(self.Pc, ups) + (self.mu @ ups + b)


def _upsilon(st, gamma, update, ups_ls):
    """Step 3: upsilon by Comment 2 ((28) times P_B^T) or by (31) times P_B^T."""
    if update == "comment2" or ups_ls is None:
        return st.solve(st.project(st.y - gamma))
    nz = np.flatnonzero(st.prec.nonzero(gamma))
    if nz.size == 0:
        return ups_ls.copy()
    rhs = st.prec.matmul(st.rows(nz).T, gamma[nz]) - (np.sum(gamma) / st.mm) * st.phat
    return ups_ls - st.solve(rhs)


#: Bytes of P per row chunk of the fused pass.  Measured at m = 289,916, r = 219 (30
#: iterations, solve phase): 1 MiB chunks (in a core's 2 MiB L2 between the two products)
#: 3.4 s with 1 or 2 BLAS threads; 4-64 MiB chunks (in the shared L3) 3.2-3.5 s with one
#: thread and 2.1-2.4 s with two: a gemv over a few hundred rows runs on one thread, and the
#: smoothing of 500 small chunks per iteration costs ~20 ms in calls.
_CHUNK_BYTES = 16 * 2 ** 20


def _fused_pass(st, ups, b, smoother):
    """Step 4 and the next step 3's product in one read of the factor.

    xi = y - (P_c upsilon + mean(P) upsilon + b), gamma = smooth(xi) and
    q = P_c^T gamma, by row chunks of P_c that stay in cache between the
    two products (``_CHUNK_BYTES``), instead of two passes over the m x r factor, which memory
    bandwidth bounds (2 x 0.5 GB per iteration at m = 289,916, r = 219:
    96 ms unfused, 64 ms fused for the products alone).  Per entry the
    arithmetic is that of the unfused path; only the order of the sums over
    rows in q differs.

    Returns (xi, gamma, q, n_overflow).
    """
    A = st.P if st.Pc is None else st.Pc
    m, r = A.shape
    shift = b if st.Pc is None else st.mu @ ups + b
    step = max(64, _CHUNK_BYTES // (A.itemsize * max(r, 1)))
    xi, gamma = np.empty_like(st.y), np.empty_like(st.y)
    q = st.prec.zeros(r)
    n_over = 0
    for lo in range(0, m, step):
        Ac = A[lo:lo + step]
        xc = st.y[lo:lo + step] - (Ac @ ups + shift)
        gc, k = smoother(xc)
        xi[lo:lo + step], gamma[lo:lo + step] = xc, gc
        q += Ac.T @ gc
        n_over += k
    return xi, gamma, q, n_over


def _algorithm1(st, *, tau, p_smooth, tol, max_iter, smoothing, update, tau_schedule, fused=None):
    """Steps 3-5 of Algorithm 1; returns (upsilon, b, gamma_used, history, converged, n_overflow).

    ``fused`` (default: for float32/float64 with Comment 2 and a fixed tau)
    evaluates step 4 and the next step 3's P_c^T gamma in one pass over the
    factor (:func:`_fused_pass`), with Comment 2's right-hand side written as
    P_c^T (z - mean(z) e) = P_c^T y - P_c^T gamma - mean(z) P_c^T e, z = y - gamma:
    the same vector in exact arithmetic.
    """
    prec = st.prec
    if fused is None:
        fused = prec.hardware and update == "comment2" and not tau_schedule
    gamma = prec.zeros(st.m)
    ups_ls = st.solve(st.project(st.y)) if update == "comment3" else None
    if fused:
        A = st.P if st.Pc is None else st.Pc
        Py, Pe = A.T @ st.y, np.sum(A, axis=0)
        q = prec.zeros(A.shape[1])
    tau_cur = tau
    smoother = _Smoother(tau, p_smooth, prec, smoothing)  # fixed tau whenever fused
    hist = {"delta_gamma": [], "n_active": [], "tau": []}
    n_over, converged = 0, False
    for it in range(1, max_iter + 1):
        if fused and it > 1:
            z_mean = np.sum(st.y - gamma) / st.mm
            ups = st.solve(Py - q - z_mean * Pe)
        elif fused:  # gamma^(0) = 0: cycle 1 is P-LSSVM by the very operations of pcp-lssvm (Comment 1)
            ups = st.solve(st.project(st.y))
        else:
            ups = ups_ls.copy() if (it == 1 and ups_ls is not None) else _upsilon(st, gamma, update, ups_ls)
        b = (np.sum(st.y - gamma) - st.phat @ ups) / st.mm  # (29)
        if fused:
            xi, g_new, q, k = _fused_pass(st, ups, b, smoother)
        else:
            xi = st.y - st.fitted(ups, b)
            if tau_schedule and it == 1:
                tau_cur = max(_TAU_DELTA * float(np.max(np.abs(prec.to_float64(xi)))), tau)
            g_new, k = smooth_gamma(xi, tau_cur, p_smooth, prec, smoothing)
        n_over += k
        delta = float(np.sqrt(float(np.sum((g_new - gamma) ** 2))))
        hist["delta_gamma"].append(delta)
        hist["n_active"].append(int(np.count_nonzero(prec.nonzero(g_new))))
        hist["tau"].append(tau_cur)
        gamma_used, gamma = gamma, g_new
        if delta < tol and tau_cur <= tau:
            converged = True
            break
        if tau_schedule and delta < _TAU_SMALL * tol and tau_cur > tau:
            tau_cur = max(_TAU_FACTOR * tau_cur, tau)
    return ups, b, gamma_used, hist, converged, n_over


def _run(name, X, y, *, precision, C, kernel, sigma2, degree, t, task, n_support, trace_tol, trace_rule,
         residual, j_form, coef, tau, p_smooth, tol, max_iter, smoothing, update, tau_schedule, params):
    X, y, k, prec = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                                precision=precision)
    m = len(y)
    r_cap = _check_n_support(n_support, m)
    trace_tol = check_trace(trace_tol, trace_rule)
    params = {**params, "C": C, "task": task, "kernel": k.name, **k.params, "n_support": r_cap,
              "residual": residual}
    timer = PhaseTimer()
    PIVOTED_PEAK.ensure(m, prec, r=r_cap, what=name)
    with prec.context():
        with timer("selection"):
            sel, tol_used = factor(X, k, prec, r_cap, trace_tol, trace_rule, residual=residual)
        piv, P = sel.indices, sel.G
        r = len(piv)
        diag = {"rank": r, "rank_stop": sel.stop_reason, "n_support_requested": r_cap,
                "trace_tol": tol_used, "trace_rule": trace_rule_used(trace_tol, trace_rule, residual),
                "trace_residual": float(sel.trace_history[-1]) if r else float("nan"),
                "negative_residuals": sel.negative_residuals, "pivots": sel.pivots}
        P_B = P[piv].copy()
        mlam = prec.reciprocal(C)
        with timer("formation"):
            J, Pc, mu = form_j(P, mlam, prec, j_form, overwrite=True)
        if j_form == "qr":
            with timer("factorization"):
                LJ = qr_factor_j(Pc, mlam, prec)
            diag["kappa_J"] = formed_kappa(LJ) ** 2  # J = L_J L_J^T: kappa(J) = kappa(L_J)^2
        else:
            diag["kappa_J"] = formed_kappa(J, definite=True)
            try:
                with timer("factorization"):
                    LJ = prec.cholesky(J, check=False)
            except CholeskyBreakdownError as err:
                return breakdown_fit(name, prec, err, X=X, kernel=k, timer=timer, support=piv,
                                     diagnostics=diag, params=params)
        st = _State(prec.keep(P) if Pc is None else None, Pc, mu, LJ, prec.asarray(y), prec, j_form)
        del P, sel
        with timer("solve"):
            ups, b, g_used, hist, conv, n_over = _algorithm1(
                st, tau=tau, p_smooth=p_smooth, tol=tol, max_iter=max_iter, smoothing=smoothing,
                update=update, tau_schedule=tau_schedule)
            alpha_B = prec.solve_triangular(P_B, ups, lower=True, trans=True)  # P_B^T alpha_B = upsilon
    diag.update(coefficient_counts(alpha_B, m), smoothing_overflows=n_over, P_B=P_B, upsilon=ups,
                gamma=g_used, converged=conv, n_truncated=hist["n_active"][-1])
    status = "ok" if conv else "not-converged"
    if not conv:
        warnings.warn(f"{name}: ||gamma^(t+1) - gamma^(t)|| = {hist['delta_gamma'][-1]:.3g} >= "
                      f"tol={tol} after max_iter={max_iter} iterations", ConvergenceWarning, stacklevel=3)
    fit = make_fit(name, prec, coef=alpha_B, bias=b, support=piv, X=X, kernel=k, timer=timer,
                   status=status, iterations=len(hist["delta_gamma"]),
                   history={k_: np.asarray(v) for k_, v in hist.items()}, diagnostics=diag,
                   params=params)
    if coef == "feature-map" and fit.coef_ is not None:
        return NystromFit(**{f.name: getattr(fit, f.name) for f in fields(Fit)})
    return fit


# ---------------------------------------------------------------------------
# Registered solvers
# ---------------------------------------------------------------------------
_COMMON_DOC = """    X : (m, d) array_like
    y : (m,) array_like
        Targets, or labels in {-1, +1} (classification is least squares on
        the labels, Chen & Zhou (1); ``task`` only validates them).
    precision : str or Precision
        Every step (kernel columns, factor, J, solves, smoothing) runs in it.
    C : float > 0
        ``1/(m lambda)`` (the tables' m lambda is 1/C).
    kernel, sigma2, degree, t
        RBF ``exp(-||x - z||^2 / sigma2)``: ``sigma2 = 1/sigma`` of the paper.
    n_support : int in 1..m, optional
        r, the pivot budget (default floor(0.05 m), the paper's medium-set rule).
    trace_tol : float >= 0, optional
        Stop the pivoted Cholesky once the residual trace is <= trace_tol
        (``trace_rule="absolute"``) or <= trace_tol * trace(K) ("relative").
        Default None: ``n_support * u`` of the precision, relative for
        ``residual="clamped"``, absolute for ``"literal"``.
    trace_rule : {"relative", "absolute"}
        The unit of a given ``trace_tol``.
    residual : {"clamped", "literal"}
        The pivoted Cholesky's residual diagonal clamped at 0 with the default
        tolerance relative (stable), or ``d <- d - g^2`` unclamped with the
        default tolerance absolute, as printed (Chen & Zhou §4.2; SEED_NOTES
        §3.6: the rank reached depends on the tolerance and the precision,
        ``diagnostics["rank"]``, ``["negative_residuals"]``).
    j_form : {"centered", "qr", "literal"}
        J by mlam I + P_c^T P_c, by the QR of [P_c; sqrt(mlam) I], or by (27) as printed.
    coef : {"triangular", "feature-map"}
        The model as printed, (30) over alpha_B = P_B^{-T} upsilon (Comment 2),
        or a :class:`NystromFit` predicting by the feature map
        (:func:`~lssvm_analysis.solvers.nystrom.predict_nystrom`: alpha_B is still computed, never used)."""

#: The line of a solver's docstring that :func:`_common_doc` replaces by :data:`_COMMON_DOC`.
_COMMON_MARK = "    {common parameters}"


def _common_doc(func):
    """Put the parameters pcp-lssvm and sr-lssvm share into ``func``'s docstring.

    Applied below ``register`` so that the registry reads the whole docstring
    (a string sum in the docstring's place is an expression, not a docstring:
    ``__doc__`` would be None and the registry description empty).
    """
    if _COMMON_MARK not in (func.__doc__ or ""):
        raise ValueError(f"expected the line {_COMMON_MARK!r} in the docstring of {func.__name__}")
    func.__doc__ = func.__doc__.replace(_COMMON_MARK, _COMMON_DOC)
    return func


@register("pcp-lssvm", tasks=_BOTH, paper="chen-zhou", equations="(24)-(29), Comment 1",
          variants=_J_FORMS + _COEF + RESIDUALS,
          exact_model=exact_primal_model, ladder=_RANK_LADDER, peak=PIVOTED_PEAK, time=PCP_TIME)
@_common_doc
def fit_pcp(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
            task="regression", n_support=None, trace_tol=None, trace_rule="relative",
            j_form="centered", coef="triangular", residual="clamped"):
    """PCP-LSSVM: pivoted-Cholesky primal LS-SVM, the first cycle of Algorithm 1 (Comment 1).

    Parameters
    ----------
    {common parameters}

    Returns
    -------
    Fit
        ``coef_`` = alpha_B (r,) on ``support_`` = the pivots in pivot order;
        ``iterations`` = 1; diagnostics ``rank``, ``rank_stop`` (why the
        pivoted Cholesky stopped), ``trace_residual``, ``kappa_J`` (float64
        estimate), ``n_exact_zeros`` / ``n_significant`` of the full alpha,
        ``P_B``, ``upsilon`` (for :func:`~lssvm_analysis.solvers.nystrom.predict_nystrom`).  A Cholesky
        breakdown of J gives status "breakdown".

    Raises
    ------
    ValueError, TypeError
        Bad input, naming the argument (n_support outside 1..m, trace_tol < 0, ...).

    Notes
    -----
    Cost O(m r^2) for P and J, O(r^3) for J's Cholesky, O(m r) per solve; memory
    O(m r).  Equals Zhou's (2016) P-LSSVM: gamma = 0 in (28)-(29).
    """
    return _run("pcp-lssvm", X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2,
                degree=degree, t=t, task=task, n_support=n_support, trace_tol=trace_tol,
                trace_rule=trace_rule, residual=residual, j_form=j_form, coef=coef, tau=float("inf"), p_smooth=1.0,
                tol=float("inf"), max_iter=1, smoothing="stable", update="comment2",
                tau_schedule=False, params={"j_form": j_form, "coef": coef})


@register("sr-lssvm", tasks=_BOTH, paper="chen-zhou", equations="(19)-(31), Algorithm 1, Comments 1-4",
          variants=_J_FORMS + (
              variant("smoothing", "stable", "gamma = xi expit(p(xi^2 - tau^2)), 0 below -40: no overflow"),
              variant("smoothing", "literal", "gamma by (22): e^{p(.)} overflows at p = 1e4", literal=True),
              variant("update", "comment2", "upsilon = J^{-1} P^T(y - gamma - mean) each step (Comment 2)"),
              variant("update", "comment3", "(31): upsilon_LS minus J^{-1} of the rows of S_t (Comment 3)"),
          ) + _COEF + RESIDUALS, exact_model=exact_primal_model, ladder=_RANK_LADDER, peak=PIVOTED_PEAK, time=SR_TIME)
@_common_doc
def fit_sr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
           task="regression", n_support=None, trace_tol=None, trace_rule="relative", tau=1.0, p=1e4,
           tol=1e-2, max_iter=100, j_form="centered", smoothing="stable", update="comment2",
           coef="triangular", tau_schedule=False, residual="clamped"):
    """SR-LSSVM: Algorithm 1 (CCCP on the smoothed primal R-LSSVM with K ~ P P^T).

    Parameters
    ----------
    {common parameters}
    tau : float > 0 or inf
        Truncation tau of L_tau (2); inf = no truncation (then SR = PCP).
        Default 1 (the paper tunes it; its tables use 0.01..40).
    p : float > 0
        Smoothing parameter of (20) (paper: 1e4, untuned).
    tol : float > 0
        epsilon: stop when ||gamma^(t+1) - gamma^(t)||_2 < tol (paper 1e-2).
    max_iter : int >= 1
        Cap on the iterations (unstated in the paper; default 100).
    smoothing : {"stable", "literal"}
        (22) as ``xi expit(z)`` with the explicit S_t threshold, or as printed.
    update : {"comment2", "comment3"}
        Step 3 by Comment 2 or by (31) of Comment 3.
    tau_schedule : bool
        Comment 4 (off by default, as in the tables): start at
        0.5 max|xi^(1)|, halve when ||Delta gamma|| < 10 tol, down to ``tau``.

    Returns
    -------
    Fit
        As :func:`fit_pcp`; ``iterations`` = number of step-3 solves;
        ``history``: ``delta_gamma`` (||gamma^(t+1) - gamma^(t)||), ``n_active``
        (|S_t|), ``tau`` per iteration; diagnostics also ``gamma`` (the gamma the
        last solve used), ``smoothing_overflows``, ``converged``.
        ``status="not-converged"`` (model kept, ConvergenceWarning) at max_iter.

    Raises
    ------
    ValueError, TypeError
        tau <= 0, p <= 0, tol <= 0, max_iter < 1, n_support outside 1..m, ...

    Notes
    -----
    Cost O(m r^2 + T m r) (steps 1-2 once, O(m r) per iteration for P^T z and
    xi); memory O(m r).  ``xi = y - P upsilon - b`` is evaluated as
    ``y - (P_c upsilon + mean(P) upsilon + b)`` for the centred form.
    """
    tau = _check_tau(tau)
    check_positive("p", p)
    check_positive("tol", tol)
    max_iter = check_int("max_iter", max_iter, minimum=1)
    if not isinstance(tau_schedule, (bool, np.bool_)):
        raise TypeError(f"expected True or False for tau_schedule, got tau_schedule={tau_schedule!r}")
    return _run("sr-lssvm", X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2,
                degree=degree, t=t, task=task, n_support=n_support, trace_tol=trace_tol,
                trace_rule=trace_rule, residual=residual, j_form=j_form, coef=coef, tau=tau,
                p_smooth=float(p), tol=float(tol),
                max_iter=max_iter, smoothing=smoothing, update=update, tau_schedule=bool(tau_schedule),
                params={"tau": tau, "p": float(p), "tol": float(tol), "max_iter": max_iter,
                        "j_form": j_form, "smoothing": smoothing, "update": update, "coef": coef,
                        "tau_schedule": bool(tau_schedule)})
