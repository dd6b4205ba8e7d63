"""RR-LSSVR: greedy selection with a recursively updated inverse or Cholesky factor.

The derivation (block-inverse formula applied to (10)-(11), the gain
rho_j^2 / s_j, the two updates) is in the docstring of
:mod:`lssvm_analysis.solvers.zhao_sun`; this module holds the engine and
registers ``rr-lssvr``.

Index convention: pivot 0 is the bias, pivot a >= 1 is the a-th selected
pattern ``order[a-1]``.  H_full's bordering entries come from one row per
pivot, ``_row(K, j)`` = H_full[j, patterns] (N,), so the solver, the system
builder and the fresh refactorizations all see bitwise the same H_S.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..linalg.condest import matrix_conditioning
from ..core.validation import as_rng, check_bool, check_int
from ..core.exceptions import CholeskyBreakdownError
from ._common import make_fit, readonly, validate_xy
from .peaks import RR_PEAK
from .times import RR_TIME
from ._registry import SUPPORT_FRACTIONS, LadderKnob, fit_params, register, variant
from ..exact.formation import reduced_lssvr_problem
from .result import PhaseTimer

__all__ = ["fit_rr_lssvr", "rr_system", "rr_step_system", "UPDATES", "JIAO_CANDIDATES", "RR_FRACTIONS"]

UPDATES = ("cholesky", "bordered-inverse")
#: Jiao et al.'s random candidate subset per step (59: P(best 5 % in the draw) >= 0.95).
JIAO_CANDIDATES = 59
#: schur_tol=None: skip s_j <= SCHUR_C (|S| + 1) u h_jj (cholesky update; see _default_schur_tol).
SCHUR_C = 8.0

_VARIANTS = (
    variant("update", "cholesky", "bordered Cholesky factor of H_S (pivoted Cholesky of (11)), "
            "Schur guard s_j > schur_tol h_jj"),
    variant("update", "bordered-inverse", "explicit H_S^-1 updated by the block-inverse formula, "
            "theta = H_S^-1 Z d, as §3.1 implies", literal=True),
)


# --------------------------------------------------------------------------- #
# H_full pieces, shared by the solver and the builders
# --------------------------------------------------------------------------- #
def _parts(K, d, C, p):
    """(h_jj, c_j, H_full[bias, patterns], 1/C) for all patterns, in p."""
    cinv = p.reciprocal(C)
    h = p.column_sumsq(K) + np.diagonal(K) * cinv
    return h, p.matmul(K, d), K.sum(axis=0), cinv


def _row(K, j, cinv, p):
    """H_full[j, patterns] = k_j^T K + K_j/C (column j of (11), K symmetric)."""
    return p.matmul(K[j], K) + K[j] * cinv


def _assemble(order, rows, h, c, bias_row, d, N, p):
    """H_S (pivots [bias, *order]) and c_S from the pivot rows (lower triangle from earlier rows)."""
    n = len(order) + 1
    H = p.zeros((n, n))
    H[0, 0] = p.scalar(N)
    for a, j in enumerate(order, start=1):
        H[a, 0] = H[0, a] = bias_row[j]
        H[a, a] = h[j]
        for b in range(1, a):
            H[a, b] = H[b, a] = rows[b - 1][j]  # earlier pivot's row at the later column
    cS = p.zeros(n)
    cS[0] = d.sum()
    cS[1:] = c[list(order)] if order else cS[1:]
    return H, cS


# --------------------------------------------------------------------------- #
# objective (6) from theta, with its rounding bound
# --------------------------------------------------------------------------- #
def _objective(K, d, order, theta, C, p):
    """(J, bound): J = 1/2 a^T K_SS a + C/2 ||d - b - K_:S a||^2 evaluated in p; first-order
    rounding bound u [(|S|+2) C sum |e_i| a_i + (N+1) C/2 sum e_i^2 + (|S|+2) 1/2 |a|^T |K_SS| |a|]
    with a_i = |d_i| + |b| + |K_iS| |alpha| (Higham 3.5 for each inner product)."""
    idx = list(order)
    alpha = theta[1:]
    KS = K[:, idx]
    e = d - theta[0] - (KS @ alpha if idx else p.zeros(len(d)))
    quad = alpha @ (KS[idx] @ alpha) if idx else p.scalar(0)
    J = quad / p.scalar(2) + p.scalar(C) * (e @ e) / p.scalar(2)
    f = p.to_float64
    e64, a64, K64 = f(e), np.abs(f(alpha)), np.abs(f(KS))
    ai = np.abs(f(d)) + abs(float(theta[0])) + (K64 @ a64 if idx else 0.0)
    m = len(idx) + 2
    bound = p.unit_roundoff * (m * C * float(np.abs(e64) @ ai) + (len(d) + 1) * C / 2 * float(e64 @ e64)
                               + m * 0.5 * float(a64 @ (K64[idx] @ a64) if idx else 0.0))
    return float(J), bound


# --------------------------------------------------------------------------- #
# the two updates
# --------------------------------------------------------------------------- #
class _Cholesky:
    """Bordered Cholesky H_S = L L^T with W = L^-1 G_S for all patterns (outer-product form)."""

    def __init__(self, K, d, h, c, bias_row, N, n_max, p):
        self.p, self.K = p, K
        self.L = p.zeros((n_max + 1, n_max + 1))
        self.W = p.zeros((n_max + 1, N))
        l0 = p.sqrt(p.asarray(np.array([float(N)])))[0]
        self.L[0, 0] = l0
        self.W[0] = bias_row / l0
        self.z = [d.sum() / l0]
        self.s = h - self.W[0] * self.W[0]
        self.r = c - self.W[0] * self.z[0]
        self.k = 1

    def scores(self, cand, h):
        return self.r[cand], self.s[cand]

    def objective_abs(self):
        return sum(v * v for v in self.z)

    def add(self, j, row, selected, s_j):
        p, k = self.p, self.k
        lj = p.sqrt(np.array([self.s[j]], dtype=self.s.dtype))[0]
        self.L[k, :k] = self.W[:k, j]
        self.L[k, k] = lj
        w = (row - p.matmul(self.W[:k, j], self.W[:k])) / lj
        w[selected] = p.scalar(0)  # eliminated in exact arithmetic
        zk = self.r[j] / lj
        self.W[k], self.z = w, self.z + [zk]
        self.s = self.s - w * w
        self.r = self.r - w * zk
        self.s[selected], self.r[selected] = p.scalar(0), p.scalar(0)
        self.k = k + 1

    def theta(self):
        k = self.k
        z = np.array(self.z, dtype=self.L.dtype)
        return self.p.solve_triangular(self.L[:k, :k], z, lower=True, trans=True)

    def operator(self):
        return self.L[:self.k, :self.k]


class _BorderedInverse:
    """Explicit P = H_S^-1 updated by the block-inverse formula; theta = P c_S."""

    def __init__(self, K, d, h, c, bias_row, N, n_max, p):
        self.p = p
        self.P = p.zeros((n_max + 1, n_max + 1))
        self.P[0, 0] = p.scalar(1) / p.scalar(N)
        self.G = p.zeros((n_max + 1, N))
        self.G[0] = bias_row
        self.cS = p.zeros(n_max + 1)
        self.cS[0] = d.sum()
        self.c = c
        self.k = 1
        self._theta = self.P[:1, :1] @ self.cS[:1]
        self._v = None

    def scores(self, cand, h):
        k = self.k
        Gc = self.G[:k, cand]
        V = self.P[:k, :k] @ Gc
        self._v = dict(zip(cand, V.T))
        s = h[cand] - (Gc * V).sum(axis=0)
        r = self.c[cand] - self._theta @ Gc
        return r, s

    def objective_abs(self):
        return self.cS[:self.k] @ self._theta

    def add(self, j, row, selected, s_j):
        k, P = self.k, self.P
        v = self._v[j]
        P[:k, :k] = P[:k, :k] + np.outer(v, v) / s_j
        P[k, :k] = P[:k, k] = -v / s_j
        P[k, k] = self.p.scalar(1) / s_j
        self.G[k] = row
        self.cS[k] = self.c[j]
        self.k = k + 1
        self._theta = P[:k + 1, :k + 1] @ self.cS[:k + 1]

    def theta(self):
        return self._theta

    def operator(self):
        return self.P[:self.k, :self.k]


_ENGINES = {"cholesky": _Cholesky, "bordered-inverse": _BorderedInverse}


# --------------------------------------------------------------------------- #
# selection loop
# --------------------------------------------------------------------------- #
def _default_schur_tol(k, p):
    """SCHUR_C (k + 1) u: s_j = h_jj - ||w_j||^2 after k downdates carries an absolute error
    <= gamma_{k+1} (h_jj + ||w_j||^2) <= 2 gamma_{k+1} h_jj, and the factor's own backward error
    (Higham Thm 10.3) adds as much again; SCHUR_C = 8 keeps a factor 2 above both."""
    return SCHUR_C * (k + 1) * p.unit_roundoff


def _candidates(N, selected, n_candidates, rng):
    free = np.setdiff1d(np.arange(N), selected, assume_unique=False)
    if n_candidates is not None and len(free) > n_candidates:
        free = np.sort(rng.choice(free, size=n_candidates, replace=False))
    return free


def _choose(r, s, h, cand, guard, log, step, p):
    """argmax r^2/s over the admissible candidates; records non-positive and guarded s_j."""
    s64, r64 = p.to_float64(s), p.to_float64(r)
    log["nonpositive_schur"].append(int(np.count_nonzero(s64 <= 0)))
    with np.errstate(divide="ignore", invalid="ignore"):
        score = r64 * r64 / s64
    score[np.isnan(score)] = -np.inf
    raw_best = int(np.argmax(score))
    if guard is not None:
        h64 = p.to_float64(h[cand])
        bad = s64 <= guard * h64
        log["n_skipped"].append(int(np.count_nonzero(bad)))
        if bad[raw_best]:
            log["skipped"].append((step, int(cand[raw_best]), float(s64[raw_best] / h64[raw_best])))
        score[bad] = -np.inf
    best = int(np.argmax(score))
    return best, score[best]


def _drift(engine, update, order, rows, h, c, bias_row, d, N, p):
    """(theta drift, operator drift) of the recursion against a fresh Cholesky of the same H_S."""
    H, cS = _assemble(order, rows, h, c, bias_row, d, N, p)
    try:
        Lf = p.cholesky(H, check=False, lower=True)
    except CholeskyBreakdownError:
        return np.nan, np.nan
    tf = p.cho_solve(Lf, cS)
    fresh = Lf if update == "cholesky" else p.cho_solve(Lf, p.eye(H.shape[0]))
    return _relative_distance(engine.theta(), tf), _relative_distance(engine.operator(), fresh)


def _relative_distance(a, b) -> float:
    """max|a - b| / max|b| as a float; a zero max|b| is an outcome: 0 if a == b, else inf.

    (A fresh solution of exactly zero, e.g. targets that vanish on S: mp divided by it raised
    ZeroDivisionError and float64 gave NaN with a RuntimeWarning.)
    """
    num, den = float(np.max(np.abs(a - b))), float(np.max(np.abs(b)))
    if den == 0:
        return 0.0 if num == 0 else float("inf")
    return num / den


def _select(K, d, C, p, *, n_max, tol, schur_tol, update, n_candidates, rng, drift):
    N = K.shape[0]
    K = p.keep(K)  # a product with K per selected pattern: mpN converts it to FLINT once
    h, c, bias_row, cinv = _parts(K, d, C, p)
    engine = _ENGINES[update](K, d, h, c, bias_row, N, n_max, p)
    order, rows = [], []
    log = {"nonpositive_schur": [], "n_skipped": [], "skipped": [], "decrease": [],
           "objective": [], "objective_bound": [], "drift_theta": [], "drift_operator": [],
           "theta_path": []}

    def record():
        th = engine.theta()
        J, b = _objective(K, d, order, th, C, p)
        log["objective"].append(J), log["objective_bound"].append(b)
        log["theta_path"].append(np.array(th, copy=True))
        if drift:
            dt, do = _drift(engine, update, order, rows, h, c, bias_row, d, N, p)
            log["drift_theta"].append(dt), log["drift_operator"].append(do)

    record()
    stop = "n_support"
    while len(order) < n_max:
        cand = _candidates(N, order, n_candidates, rng)
        if not len(cand):
            stop = "exhausted"
            break
        r, s = engine.scores(cand, h)
        guard = None
        if update == "cholesky":
            guard = _default_schur_tol(len(order) + 1, p) if schur_tol is None else schur_tol
        best, gain = _choose(r, s, h, cand, guard, log, len(order) + 1, p)
        if not np.isfinite(gain) or gain < 0:
            stop = "exhausted"
            break
        if gain <= tol * abs(float(engine.objective_abs())):
            stop = "tol"
            break
        j = int(cand[best])
        row = _row(K, j, cinv, p)
        engine.add(j, row, order + [j], s[best])
        order.append(j)
        rows.append(row)
        log["decrease"].append(float(gain) * C / 2)  # in units of (6): (9) = (2/C)(6) - d^T d
        record()
    return engine, order, rows, (h, c, bias_row), stop, log


# --------------------------------------------------------------------------- #
# validation, builders, the solver
# --------------------------------------------------------------------------- #
def _check_real(name, value, *, allow_none=False):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"expected a real number >= 0 for {name}, got {name}={value!r}")
    if not (np.isfinite(float(value)) and value >= 0):
        raise ValueError(f"expected a finite {name} >= 0, got {name}={value!r}")
    return float(value)


def _validate(X, y, *, precision, C, kernel, sigma2, degree, t, task, n_support, tol, update,
              schur_tol, n_candidates, drift):
    X, y, k, p = validate_xy(X, y, task=task, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t,
                             precision=precision)
    N = X.shape[0]
    n_max = N if n_support is None else check_int("n_support", n_support, minimum=1)
    if n_max > N:
        raise ValueError(f"expected 1 <= n_support <= N = {N}, got n_support={n_support!r}")
    if not isinstance(update, str) or update not in UPDATES:
        raise ValueError(f"expected update in {UPDATES}, got update={update!r}")
    tol = _check_real("tol", tol)
    schur_tol = _check_real("schur_tol", schur_tol, allow_none=True)
    if n_candidates is not None:
        check_int("n_candidates", n_candidates, minimum=1)
    check_bool("drift", drift)
    return X, y, k, p, n_max, tol, schur_tol


def rr_step_system(X, y, fit, step=None, **params):
    """H_{S_k} and c_{S_k} after ``step`` selections (default: the final S), in ``fit.precision``.

    Parameters
    ----------
    X, y : the training data of ``fit`` (an ``rr-lssvr`` Fit).
    step : int in [0, fit.n_support], optional
        0 is the bias alone; H_{S_k} is the leading (k+1) block of the final H_S.

    Returns
    -------
    H : (k+1, k+1) array, c : (k+1,) array
        Bitwise the matrix the recursion bordered (same rows, same order).
    """
    merged = fit_params(fit, params)
    X, y, kern, p = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                                kernel=fit.kernel, precision=fit.precision)
    order = [int(j) for j in fit.support_]
    step = len(order) if step is None else check_int("step", step, minimum=0)
    if step > len(order):
        raise ValueError(f"expected 0 <= step <= {len(order)}, got step={step!r}")
    order = order[:step]
    with p.context():
        K = p.keep(kern(X, precision=p))   # a product per pattern, as in _select: mpN converts K once
        d = p.asarray(y)
        h, c, bias_row, cinv = _parts(K, d, merged["C"], p)
        rows = [_row(K, j, cinv, p) for j in order]
        return _assemble(order, rows, h, c, bias_row, d, X.shape[0], p)


def rr_system(X, y, fit, **params):
    """The system H_S theta = c_S the final ``rr-lssvr`` model solves (registry ``system=``).

    Returns ``(H_S, c_S, unpack)``, ``unpack(theta) = {"coef": theta[1:], "bias": theta[0]}``;
    ``unpack(fit.diagnostics["solution"])`` is the fit.
    """
    H, cS = rr_step_system(X, y, fit, None, **params)

    def unpack(theta):
        theta = np.asarray(theta)
        return {"coef": theta[1:], "bias": theta[0]}

    return H, cS, unpack


def exact_rr_model(X, y, fit, **params):
    """Exact model of an rr-lssvr fit (registry ``exact_model=``): (7) on the greedy support.

    The support (in selection order) is a choice the arithmetic makes: it is
    frozen here and recorded in ``choices`` for comparison with an
    extended-precision run.  Problem condition as for reduced-lssvr.
    """
    merged = fit_params(fit, params)
    X, y, _, _ = validate_xy(X, y, task=merged.get("task", "regression"), C=merged["C"],
                             kernel=fit.kernel, precision="float64")
    return reduced_lssvr_problem(X, y, fit.kernel, merged["C"], fit.support_,
                                 choices={"support": tuple(int(i) for i in fit.support_)})


def _example(X, y, task, rng) -> dict:
    return {"n_support": max(2, len(y) // 4), "tol": 0.0}


def _diagnostics(log, order, stop, update, theta, n_candidates):
    out = {"selection_order": readonly(np.array(order, dtype=np.intp)), "stop_reason": stop,
           "update": update, "system_order": len(order) + 1, "n_candidates": n_candidates or 0,
           "skipped": tuple(log["skipped"]), "n_guard_skips": int(sum(log["n_skipped"])),
           "nonpositive_schur_total": int(sum(log["nonpositive_schur"])),
           "theta_path": tuple(readonly(t) for t in log["theta_path"]),
           "solution": readonly(theta)}
    for key in ("objective", "objective_bound", "decrease", "drift_theta", "drift_operator",
                "nonpositive_schur", "n_skipped"):
        out[key] = readonly(np.array(log[key], dtype=np.float64))
    if log["drift_theta"]:
        out["max_drift_theta"] = float(np.nanmax(out["drift_theta"]))
    return out


#: The kappa ladder's support-size rungs of rr-lssvr (tol = 0): the top one, |S| = 0.9 N, passes 1/u of
#: float64.  Measured at C = 1e16 (sinc, N = 30, sigma2 = 10, mp50): |S| = 24, 27, 28, 30 give problem
#: kappa 1.3e14, 3.9e17, 1.1e19, 1.4e21 (exact model certified to 34 - 41 digits); float64 and
#: longdouble stop their greedy selection at |S| = 20 and 21 on both the 24 and 27 rungs (stop reason
#: "exhausted": the Schur guard skips every remaining candidate; problem kappa 2.6e10 and 2.3e11).
#: Not 28 or N: they would put the row above every other row's top (5e17).
RR_FRACTIONS = (*SUPPORT_FRACTIONS, 0.9)


@register("rr-lssvr", tasks=("regression", "classification"), paper="zhao-sun",
          equations="(6)-(11); recursion derived", variants=_VARIANTS,
          system=rr_system, example=_example, exact_model=exact_rr_model,
          ladder=(LadderKnob("n_support", RR_FRACTIONS, per_point=True, fixed={"tol": 0.0},
                             note="|S| = n_support, with tol = 0 so that the greedy selection runs to |S| "
                                  "instead of stopping on the objective's decrease: kappa of the reduced "
                                  "system grows with |S| as for reduced-lssvr"),), peak=RR_PEAK, time=RR_TIME)
def fit_rr_lssvr(X, y, *, precision="float64", C=1.0, kernel="rbf", sigma2=1.0, degree=3, t=1.0,
                 task="regression", n_support=None, tol=1e-4, update="cholesky", schur_tol=None,
                 n_candidates=None, rng=None, drift=True):
    """Recursive reduced LSSVR: greedy support vectors by the decrease of objective (9).

    Parameters
    ----------
    X : (N, n) array_like, y : (N,) array_like
    precision : str or Precision
    C, kernel, sigma2, degree, t, task
        As :func:`lssvm_analysis.solvers.zhao_sun.fit_reduced_lssvr`.
    n_support : int in [1, N], optional
        Number of support vectors to select (the paper's "arbitrarily
        predefined" number); default N (then ``tol`` stops).
    tol : float >= 0, default 1e-4
        Stop when the best decrease of (9) is <= tol |L_S| (relative decrease);
        0 selects exactly n_support patterns (unless none is admissible).
    update : {"cholesky", "bordered-inverse"}
        Recursive factor (stable) or recursive explicit inverse (literal).
    schur_tol : float >= 0, optional
        cholesky update: skip a candidate with s_j <= schur_tol h_jj;
        default 8 (|S|+1) u (see ``_default_schur_tol``).  Ignored by
        bordered-inverse (literal: no guard).
    n_candidates : int >= 1, optional
        Score only this many random unselected candidates per step (Jiao et
        al.: 59); default all.
    rng : numpy.random.Generator or int, optional
        Seed of the candidate draws.
    drift : {True, False}, default True
        Refactor H_S from scratch (Cholesky, in the precision) after every
        step and record the drift of theta and of the recursive factor/inverse
        (O(|S|^3) per step).

    Returns
    -------
    Fit
        ``support_`` in selection order, ``coef_`` = alpha, ``bias_`` = b.
        ``diagnostics``: ``selection_order``, ``objective`` (value of (6) after
        each step, step 0 = bias alone, evaluated from theta in the precision)
        with ``objective_bound`` (its rounding bound), ``decrease`` (the
        predicted rho^2/s in units of (6)), ``theta_path`` (theta after each
        step), ``drift_theta`` / ``drift_operator`` (max-norm relative
        distance to a fresh Cholesky of the same H_S; NaN when that
        factorization breaks down; 0 / inf against a fresh solution of zero), ``nonpositive_schur`` (candidates with
        computed s_j <= 0 per step), ``n_skipped`` and ``skipped`` (guard,
        cholesky), ``stop_reason`` ("n_support", "tol", "exhausted"),
        ``solution`` = theta.

    Raises
    ------
    ValueError, TypeError
        n_support < 1 or > N, tol < 0, schur_tol < 0, n_candidates < 1, an
        unknown update, bad data or hyper-parameters (named in the message).

    Notes
    -----
    Cost O(N^2) kernel + O(N^2) per step for the new row of (11), plus
    O(|S| N) (cholesky) or O(|S|^2 N) (bordered-inverse) scoring.  The
    objective is non-increasing in exact arithmetic (decrease rho^2/s >= 0).
    """
    X, y, k, p, n_max, tol, schur_tol = _validate(
        X, y, precision=precision, C=C, kernel=kernel, sigma2=sigma2, degree=degree, t=t, task=task,
        n_support=n_support, tol=tol, update=update, schur_tol=schur_tol, n_candidates=n_candidates,
        drift=drift)
    timer = PhaseTimer()
    params = {"C": C, "task": task, "kernel": k.name, **k.params, "tol": tol, "update": update,
              "n_support": n_support, "schur_tol": schur_tol, "n_candidates": n_candidates}
    gen = as_rng("rng", rng)
    RR_PEAK.ensure(X.shape[0], p, r=n_max, what="rr-lssvr")
    with p.context():
        with timer("kernel"):
            K = k(X, precision=p)
            d = p.asarray(y)
        with timer("selection"):
            engine, order, rows, parts, stop, log = _select(
                K, d, C, p, n_max=n_max, tol=tol, schur_tol=schur_tol, update=update,
                n_candidates=n_candidates, rng=gen, drift=bool(drift))
        theta = engine.theta()
        with timer("conditioning"):
            H_S, _ = _assemble(order, rows, *parts, d, len(y), p)
            cond = matrix_conditioning(H_S, p, matrix="H_S of (10)-(11)")
    diag = _diagnostics(log, order, stop, update, theta, n_candidates)
    return make_fit("rr-lssvr", p, coef=np.array(theta[1:], copy=True), bias=theta[0],
                    support=np.array(order, dtype=np.intp), X=X, kernel=k, timer=timer,
                    iterations=len(order), diagnostics=diag, params=params, conditioning=cond)
