"""Task kind ``cz-numerics``: Chen & Zhou's equations and comments checked on one small problem.

One row per (precision, seed).  ``options["part"]``:

``"numerics"`` (float32 / float64): sinc regression, m = ``options["m"]`` (200) training points with
the §5.2 target outliers, RBF, C = 1/(m lambda), r = ``options["r"]`` pivots, tau = 2 robust sd of
the targets.  Columns, each the quantity of one claim (``experiments/claims/chen_zhou_numerics.py``):

* ``lemma1_dev`` / ``lemma1_argmin_bad``: (10) minimised over a grid of omega in [0, 2] (the
  function is piecewise linear in omega, so the grid's vertices 0 and 1 hold the minimum) against
  1/2 min(xi^2, tau^2), relative; arg-min against (12), ties |xi| = tau left out.
* ``smooth_max_<p>``: max over xi of |L2_bar - L2| for p = 5, 1e2, 1e4 ((20), xi^2 = tau^2 included).
* ``eq22_ratio``: max over xi of |gamma - gamma_ref| / |xi| / (u (1 + p (xi^2 + tau^2))) for the stable
  (22) (gamma_ref: xi expit(p (xi^2 - tau^2)) in 50 digits; the factor is the amplification of the
  rounding of p (xi^2 - tau^2)); ``eq22_literal_ratio``, ``eq22_literal_overflows`` for (22) as
  printed; ``eq21_vs_diff``: (21) against a 50-digit numerical derivative of (20).
* ``eq23_grad`` (gradient of (19)'s objective at (23)'s solution, relative), ``eq24_dev`` ((24) with
  b eliminated against (23): fitted values), ``kappa_23``.
* ``eq26_dev`` ((26) against a dense least-squares solution of (24) with K = P P^T: fitted values),
  ``eq25_residual``, ``kappa_24r`` (sigma_1 / sigma_r of (24)'s matrix on its rank-r range).
* ``nys_identity_dev`` (P P^T against K_MB K_BB^-1 K_MB^T), ``kappa_KBB``, ``nys_sigma_ratio``
  (sigma_min(P) / (m u ||P||)), ``nys_evals`` / ``nys_evals_raw`` (distinct / all kernel entries
  the factorisation computed) against ``nys_evals_bound`` = m r + m, ``pb_upper_max`` (largest
  entry of P_B above the diagonal), ``best_gap`` (float64 rows: the greedy factor's trace error
  minus the least over every r-subset of landmarks, over 3 instances with m = 14, r = 3, relative
  to trace K).
* ``comment1_dev`` (SR-LSSVM stopped after one cycle against PCP-LSSVM: test predictions),
  ``comment2_dev`` ((28)-(29), J of (27) in its centred form, against the upsilon form's alpha_B and b),
  ``kappa_PB``, ``kappa_J``, ``comment3_dev`` / ``comment3_literal_dev`` (update (31) with the
  stable / the printed smoothing against Comment 2: test predictions).
* ``descent_max_rise``: max over t of (H_bar(t+1) - H_bar(t)) / |H_bar(t)| along SR-LSSVM's
  iterates; ``kkt_<eps>`` / ``kkt_conv_<eps>``: relative stationarity residual of H_bar at the
  stop and whether the stop criterion eps was reached, eps = 1e-2 ... 1e-10.
* ``prop1_dev`` / ``prop1_same_sets`` / ``kappa_A``: the 0/1 IRLS of (13)-(16) against CCCP (19)
  with rule (8) (R-LSSVM-W, tol 1e-12) from the same start.
* ``thm1_orth``, ``thm1_obj_dev``, ``kappa_thm1``: primal CCCP in w for a linear kernel with
  d = 60 > m = 30 from 5 random starts: the part of w orthogonal to span{x_i}, relative.
* ``wy_once_dev``: R-LSSVM-W's CCCP with I + C K factored once against refactored every iteration.

``"timing"`` (float64): ``time_pb_<r>`` (triangular solve with a lower-triangular r x r matrix,
median of 5), ``c2_*`` (Comment 2's step 3 against (28)'s: mean, sd and count of the paired log
time ratios), ``time_c3_S_<|S|>`` / ``time_c3_m_<m>`` (step 3' time against |S_t| and m), ``time_wy_<m>``
(one solve with I + C K's Cholesky factor), ``time_sr_r_<r>`` / ``sr_rank_<r>`` (SR-LSSVM fit time against r, m = 1000 5-D points, and the pivots taken).
"""
from __future__ import annotations

import itertools
import time
import warnings

import numpy as np
import scipy.linalg

from ... import datasets
from ...arith.mp import MP_CONTEXT
from ...arith.precision import get_precision
from ...linalg.kernels import make_kernel
from ...solvers import fit
from ...solvers.chen_zhou import smooth_gamma
from ...solvers.nystrom import decision_values
from ...solvers.pivoted_factor import factor
from ...solvers.robust import fit_irls01, wang_gamma
from ...linalg.incomplete_cholesky import pivoted_cholesky
from ...experiments.kinds import register_task_kind, validate_no_solver

__all__ = ["cz_numerics_row", "KKT_TOLS", "SMOOTH_PS"]

#: The stop criteria eps of the stationarity study (Lemma 2 / Theorem 2).
KKT_TOLS = (1e-2, 1e-4, 1e-6, 1e-8, 1e-10, 1e-12, 1e-14)
#: The smoothing parameters of the bound (20): Fig. 2's 5, and 1e2, the paper's 1e4.
SMOOTH_PS = (5.0, 1e2, 1e4)


def _u(dtype) -> float:
    return float(np.finfo(dtype).eps) / 2


def _lemma1(dt):
    xi = np.linspace(-3, 3, 601).astype(dt)
    om = np.linspace(0, 2, 201).astype(dt)
    dev, bad = 0.0, 0
    for tau in (0.5, 1.0, 2.0):
        t2 = dt(tau) ** 2
        vals = dt(0.5) * om[None, :] * xi[:, None] ** 2 + t2 / 2 * np.maximum(dt(1) - om[None, :], dt(0))
        ref = dt(0.5) * np.minimum(xi ** 2, t2)
        dev = max(dev, float(np.max(np.abs(vals.min(axis=1) - ref) / np.maximum(ref, _u(dt) * t2))))
        star = om[vals.argmin(axis=1)]
        tie = xi ** 2 == t2
        bad += int(np.count_nonzero((star != np.where(np.abs(xi) <= tau, 1, 0)) & ~tie))
    return {"lemma1_dev": dev, "lemma1_argmin_bad": bad}


def _smooth_bound(dt):
    tau = dt(1.0)
    xi = np.concatenate([np.linspace(0, 3, 3001), [1.0]]).astype(dt)
    z = xi ** 2 - tau ** 2
    out = {}
    for p in SMOOTH_PS:
        pp = dt(p)
        bar = dt(0.5) * np.maximum(dt(0), z) + np.log1p(np.exp(-pp * np.abs(z))) / (2 * pp)
        out[f"smooth_max_{p:g}"] = float(np.max(np.abs(bar - dt(0.5) * np.maximum(dt(0), z))))
    return out


def _eq22(prec, dt):
    tau, p = 1.0, 1e4
    xi64 = np.concatenate([np.linspace(-3, 3, 1201), [-1.0, 1.0]])
    xi = xi64.astype(dt)
    with MP_CONTEXT.workdps(50):
        ref = np.array([float(MP_CONTEXT.mpf(float(x))
                              / (1 + MP_CONTEXT.exp(-p * (MP_CONTEXT.mpf(float(x)) ** 2 - tau ** 2))))
                        for x in xi])

        def l2bar(x):
            z = x ** 2 - tau ** 2
            return max(0, z) / 2 + MP_CONTEXT.log(1 + MP_CONTEXT.exp(-p * abs(z))) / (2 * p)
        pts = [0.3, 0.9, 0.999, 1.001, 1.2, 2.5]
        d21 = max(abs(float((MP_CONTEXT.diff(l2bar, MP_CONTEXT.mpf(x)) - MP_CONTEXT.mpf(x) / (
            1 + MP_CONTEXT.exp(-p * (MP_CONTEXT.mpf(x) ** 2 - tau ** 2)))) / MP_CONTEXT.mpf(x))) for x in pts)
    amp = _u(dt) * (1 + p * (xi64 ** 2 + tau ** 2))
    nz = xi64 != 0
    out = {"eq21_vs_diff": d21}
    for name, sm in (("eq22_ratio", "stable"), ("eq22_literal_ratio", "literal")):
        g, n_over = smooth_gamma(prec.asarray(xi), tau, p, prec, sm)
        g = np.asarray(g, dtype=float)
        bad = ~np.isfinite(g)
        r = np.abs(g - ref)[nz] / np.abs(xi64[nz]) / amp[nz]
        out[name] = float(np.max(np.where(bad[nz], np.inf, r)))
        if sm == "literal":
            out["eq22_literal_overflows"] = int(n_over)
            out["eq22_literal_nonfinite"] = int(np.count_nonzero(bad))
    return out


def _problem(task, dt):
    o = task.options
    m = int(o.get("m", 200))
    ds = datasets.load("sinc", n_train=m, n_test=200, seed=int(task.seed))
    y = datasets.inject_target_outliers(ds.y_train, seed=np.random.default_rng([int(task.seed), 11]),
                                        noise_std=float(o.get("noise_std", 0.5))).y
    y = y.astype(float)
    tau = 2 * 1.4826 * float(np.median(np.abs(y - np.median(y))))
    P = task.params
    return ds.X_train.astype(float), y, ds.X_test.astype(float), ds.y_test, float(P.get("C", 100.0)), \
        float(P.get("sigma2", 0.5)), int(o.get("r", 20)), tau


def _fit(name, X, y, prec, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit(name, X, y, precision=prec, **kw)


def _pred(f, X):
    """The kernel expansion (also the last iterate of a fit that did not converge)."""
    return np.asarray(decision_values(f, X), dtype=float)


def _rel(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-300))


class _Counting:
    """A kernel that counts the entries it computes, all and distinct (columns by their point)."""

    def __init__(self, kernel):
        self.kernel, self.name, self.raw, self.cols, self.diag = kernel, "counted-" + kernel.name, 0, set(), 0

    def __call__(self, X, Z=None, *, precision="float64", out=None):
        K = self.kernel(X, Z, precision=precision)
        self.raw += int(np.prod(K.shape))
        if Z is None and K.shape == (1, 1):
            self.diag += 1
        elif Z is not None and K.shape[1] == 1:
            self.cols.add(np.asarray(Z, dtype=float).tobytes())
        return K


def _nystrom(X, k, prec, dt, r):
    m = len(X)
    sel, _ = factor(X, k, prec, r, None, "relative")
    P, B = np.asarray(sel.G, dtype=dt), np.asarray(sel.indices)
    K = np.asarray(k(X, precision=prec), dtype=float)
    KMB, KBB = K[:, B], K[np.ix_(B, B)]
    N = KMB @ np.linalg.solve(KBB, KMB.T)
    P64 = P.astype(float)
    s = np.linalg.svd(P64, compute_uv=False)
    cnt = _Counting(make_kernel("rbf", sigma2=k.params["sigma2"]))
    pivoted_cholesky(X, cnt, rank=r, trace_tol=0.0, precision=prec, keep_columns=False)
    return {"nys_identity_dev": float(np.linalg.norm(P64 @ P64.T - N) / np.linalg.norm(N)),
            "kappa_KBB": float(np.linalg.cond(KBB)), "nys_sigma_ratio": float(s[-1] / (m * _u(dt) * s[0])),
            "nys_evals": cnt.diag + m * len(cnt.cols), "nys_evals_raw": cnt.raw, "nys_evals_bound": m * r + m,
            "pb_upper_max": float(np.max(np.abs(np.triu(P[B], 1)))) if len(B) > 1 else 0.0}, P, B, K


def _best_gap(seed):
    """Greedy pivoted Cholesky's trace error against the best r-subset of landmarks (exhaustive)."""
    rng = np.random.default_rng([int(seed), 31])
    gap = 0.0
    for s2 in (0.3, 1.0, 3.0):
        X = rng.uniform(-1, 1, (14, 2))
        k = make_kernel("rbf", sigma2=s2)
        K = np.asarray(k(X), dtype=float)
        sel = pivoted_cholesky(X, k, rank=3, trace_tol=0.0)
        G = np.asarray(sel.G, dtype=float)
        greedy = float(np.trace(K) - np.sum(G * G))
        best = min(float(np.trace(K - K[:, S] @ np.linalg.solve(K[np.ix_(S, S)], K[S, :])))
                   for S in map(list, itertools.combinations(range(14), 3)))
        gap = max(gap, (greedy - best) / float(np.trace(K)))
    return gap


def _hbar(ups, b, P, y, mlam, tau, p):
    """H_bar of (18) with L2 smoothed by (20), in the upsilon form (alpha^T K alpha = ||upsilon||^2), /m."""
    m = len(y)
    xi = y - P @ ups - b
    z = xi ** 2 - tau ** 2
    l2 = 0.5 * np.maximum(0, z) + np.log1p(np.exp(-p * np.abs(z))) / (2 * p)
    return 0.5 * mlam / m * float(ups @ ups) + float(np.sum(0.5 * xi ** 2 - l2)) / m


def _kkt(ups, b, P, y, mlam, tau, p, prec):
    m = len(y)
    xi = y - P @ ups - b
    g = np.asarray(smooth_gamma(prec.asarray(xi), tau, p, get_precision("float64"), "stable")[0], dtype=float)
    gu = mlam / m * ups - P.T @ (xi - g) / m
    gb = -np.sum(xi - g) / m
    scale = mlam / m * np.linalg.norm(ups) + np.linalg.norm(P, 2) * np.linalg.norm(xi) / m
    return float(np.hypot(np.linalg.norm(gu), gb) / scale)


def _sr_checks(X, y, Xt, C, s2, r, tau, prec, dt, P, B):
    kw = dict(C=C, sigma2=s2, n_support=r, tau=tau)
    out = {}
    sr = _fit("sr-lssvm", X, y, prec, **kw)
    pcp = _fit("pcp-lssvm", X, y, prec, C=C, sigma2=s2, n_support=r)
    sr1 = _fit("sr-lssvm", X, y, prec, max_iter=1, **kw)
    out["comment1_dev"] = _rel(_pred(sr1, Xt), _pred(pcp, Xt))
    out["kappa_J"] = float(sr.diagnostics["kappa_J"])
    # (28)-(29) as printed at the gamma of SR's last solve
    m, mlam = len(y), 1.0 / C
    Pd = P.astype(dt)
    gam = np.asarray(sr.diagnostics["gamma"], dtype=dt)
    z = y.astype(dt) - gam
    e = np.ones(m, dtype=dt)
    Pc = Pd - np.sum(Pd, axis=0) / dt(m)  # J of (27) in its centred form (the solver's): Comment 2 alone differs
    J = dt(mlam) * np.eye(len(B), dtype=dt) + Pc.T @ Pc
    ups = np.linalg.solve(J, Pd.T @ (z - np.sum(z) / dt(m)))
    PB = Pd[B]
    a28 = scipy.linalg.solve_triangular(PB, ups, lower=True, trans="T")
    b29 = (np.sum(z) - e @ (Pd @ (PB.T @ a28))) / dt(m)
    coef = np.asarray([float(c) for c in sr.coef_])
    out["comment2_dev"] = max(_rel(a28, coef), abs(float(b29) - float(sr.bias_)) / max(abs(float(sr.bias_)), 1e-300))
    out["kappa_PB"] = float(np.linalg.cond(PB.astype(float)))
    # (26): alpha_B from (28), alpha_N = 0, against a dense least-squares solution of (24) with K = P P^T
    Kt = (P @ P.T).astype(float)
    z64 = z.astype(float)
    M = mlam * Kt + Kt @ Kt - np.outer(Kt.sum(axis=1), Kt.sum(axis=0)) / m
    rhs = Kt @ (z64 - z64.mean())
    sv = np.linalg.svd(M, compute_uv=False)
    a_dense = np.linalg.lstsq(M, rhs, rcond=len(B) and sv[len(B) - 1] / sv[0] / 10)[0]
    b_dense = (z64.sum() - Kt.sum(axis=0) @ a_dense) / m
    fit_dense = Kt @ a_dense + b_dense
    fit26 = (Pd @ (PB.T @ a28)).astype(float) + float(b29)
    out["eq26_dev"] = _rel(fit26, fit_dense)
    out["kappa_24r"] = float(sv[0] / sv[len(B) - 1])
    r25 = J @ (PB.T @ a28) - Pd.T @ (z - np.sum(z) / dt(m))
    out["eq25_residual"] = float(np.linalg.norm(r25.astype(float)) / np.linalg.norm((Pd.T @ (z - np.sum(z) / dt(m))).astype(float)))
    # Comment 3 against Comment 2, with the stable and the printed smoothing
    c3 = _fit("sr-lssvm", X, y, prec, update="comment3", **kw)
    c3l = _fit("sr-lssvm", X, y, prec, update="comment3", smoothing="literal", **kw)
    base = _pred(sr, Xt)
    out["comment3_dev"], out["comment3_literal_dev"] = _rel(_pred(c3, Xt), base), _rel(_pred(c3l, Xt), base)
    out["comment3_same_iterations"] = bool(c3.iterations == sr.iterations)
    # CCCP descent along the iterates (max_iter = t stops after t cycles of one deterministic run)
    P64, y64 = P.astype(float), y.astype(float)
    H = [_hbar(np.asarray(f.diagnostics["upsilon"], dtype=float), float(f.bias_), P64, y64, mlam, tau, 1e4)
         for f in (_fit("sr-lssvm", X, y, prec, max_iter=t, **kw) for t in range(1, min(sr.iterations, 15) + 1))]
    rises = [(H[i + 1] - H[i]) / abs(H[i]) for i in range(len(H) - 1)]
    out["descent_max_rise"] = float(max(rises)) if rises else 0.0
    out["descent_steps"] = len(rises)
    for eps in KKT_TOLS:
        f = _fit("sr-lssvm", X, y, prec, tol=eps, **kw)
        out[f"kkt_{eps:g}"] = _kkt(np.asarray(f.diagnostics["upsilon"], dtype=float), float(f.bias_), P64, y64,
                                   mlam, tau, 1e4, prec)
        out[f"kkt_conv_{eps:g}"] = bool(f.status == "ok")
    return out


def _eq23(K, y, gamma, C, dt):
    m, mlam = len(y), 1.0 / C
    Kd, z = K.astype(dt), (y - gamma).astype(dt)
    e = np.ones(m, dtype=dt)
    A = np.block([[dt(mlam) * Kd + Kd @ Kd.T, (Kd @ e)[:, None]], [(e @ Kd.T)[None, :], np.array([[dt(m)]])]])
    sol = np.linalg.solve(A, np.concatenate([Kd @ z, [np.sum(z)]]))
    a, b = sol[:m].astype(float), float(sol[m])
    z64 = z.astype(float)
    res = z64 - K @ a - b
    ga = (mlam * K @ a - K @ res) / m
    gb = -np.sum(res) / m
    grad = float(np.hypot(np.linalg.norm(ga), gb) / (np.linalg.norm(K, 2) * np.linalg.norm(z64) / m))
    M = dt(mlam) * Kd + Kd @ Kd - np.outer(Kd @ e, e @ Kd) / dt(m)
    a24 = np.linalg.solve(M, Kd @ (z - np.sum(z) / dt(m))).astype(float)
    b24 = (np.sum(z64) - e.astype(float) @ (K @ a24)) / m
    return {"eq23_grad": grad, "eq24_dev": _rel(K @ a24 + b24, K @ a + b), "kappa_23": float(np.linalg.cond(A.astype(float)))}


def _prop1(X, y, Xt, C, s2, tau, prec):
    w = _fit("r-lssvm-w", X, y, prec, C=C, sigma2=s2, tau=tau, tol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ir = fit_irls01(X, y, precision=prec, C=C, sigma2=s2, tau=tau)
    trunc_w = np.asarray(prec.nonzero(w.diagnostics["gamma"]), dtype=bool)
    same = bool(np.array_equal(trunc_w, ~np.asarray(ir.diagnostics["omega"], dtype=bool)))
    K = np.asarray(make_kernel("rbf", sigma2=s2)(X), dtype=float)
    return {"prop1_dev": _rel(_pred(ir, Xt), _pred(w, Xt)), "prop1_same_sets": same,
            "kappa_A": float(np.linalg.cond(np.eye(len(y)) + C * K))}


def _wy_once(X, y, C, s2, tau, dt, prec, iters=8):
    """R-LSSVM-W's CCCP (the solver's loop) with I + C K factored once against refactored every iteration."""
    K = np.asarray(make_kernel("rbf", sigma2=s2)(X), dtype=float).astype(dt)
    A = np.eye(len(y), dtype=dt) + dt(C) * K
    yd = y.astype(dt)
    e = np.ones(len(y), dtype=dt)
    res = []
    for once in (True, False):
        F = scipy.linalg.cho_factor(A)
        g = np.zeros_like(yd)
        for _ in range(iters):
            if not once:
                F = scipy.linalg.cho_factor(A)
            nu, eta = scipy.linalg.cho_solve(F, yd - g), scipy.linalg.cho_solve(F, e)
            b = (e @ nu) / np.sum(eta)
            beta = nu - eta * b
            g = np.asarray(wang_gamma(beta + g, tau, None, prec), dtype=dt)
        res.append(np.concatenate([beta, [b]]))
    return {"wy_once_dev": _rel(res[1], res[0])}


def _thm1(seed, dt, m=30, d=60, starts=5, tau=1.0, p=1e4, C=10.0):
    rng = np.random.default_rng([int(seed), 41])
    X = rng.standard_normal((m, d))
    y = X @ (rng.standard_normal(d) / np.sqrt(d)) + 0.1 * rng.standard_normal(m)
    y[: m // 10] += 5.0
    mlam = 1.0 / C
    Xd, yd = X.astype(dt), y.astype(dt)
    Xc = Xd - Xd.mean(axis=0)
    A = dt(mlam) * np.eye(d, dtype=dt) + Xc.T @ Xc
    Q = np.linalg.qr(X.T)[0]  # span{x_i} in R^d
    prec = get_precision(np.dtype(dt).name)
    orth, objs = 0.0, []
    for _ in range(starts):
        w = (3 * rng.standard_normal(d)).astype(dt)
        b = dt(0)
        for _ in range(100):
            xi = yd - Xd @ w - b
            g = np.asarray(smooth_gamma(prec.asarray(xi), tau, p, prec, "stable")[0], dtype=dt)
            z = yd - g
            w_new = np.linalg.solve(A, Xc.T @ (z - np.sum(z) / dt(m)))
            b = np.sum(z - Xd @ w_new) / dt(m)
            done = np.linalg.norm((w_new - w).astype(float)) < 1e-12 * np.linalg.norm(w_new.astype(float))
            w = w_new
            if done:
                break
        w64 = w.astype(float)
        orth = max(orth, float(np.linalg.norm(w64 - Q @ (Q.T @ w64)) / np.linalg.norm(w64)))
        xi = y - X @ w64 - float(b)
        objs.append(0.5 * mlam * float(w64 @ w64) / m * m + float(np.sum(0.5 * np.minimum(xi ** 2, tau ** 2))) / m)
    return {"thm1_orth": orth, "thm1_obj_spread": float((max(objs) - min(objs)) / abs(min(objs))),
            "kappa_thm1": float(np.linalg.cond(A.astype(float)))}


def _numerics(task):
    prec = get_precision(task.precision)
    dt = prec.dtype.type
    X, y, Xt, yt, C, s2, r, tau = _problem(task, dt)
    k = make_kernel("rbf", sigma2=s2)
    row = {"u": _u(dt), "m": len(y), "r": r, "tau": tau, **_lemma1(dt), **_smooth_bound(dt), **_eq22(prec, dt)}
    nys, P, B, K = _nystrom(X, k, prec, dt, r)
    row.update(nys)
    if task.precision == "float64":
        row["best_gap"] = _best_gap(task.seed)
    row.update(_sr_checks(X, y, Xt, C, s2, r, tau, prec, dt, P, B))
    sr = _fit("sr-lssvm", X, y, prec, C=C, sigma2=s2, n_support=r, tau=tau)
    # (23)-(24) with the exact K of a narrow kernel (the wide one's K is singular to working precision,
    # where no equality can be resolved): sigma2 = options["eq23_sigma2"]
    K23 = np.asarray(make_kernel("rbf", sigma2=float(task.options.get("eq23_sigma2", 0.01)))(X), dtype=float)
    row.update(_eq23(K23, y, np.asarray(sr.diagnostics["gamma"], dtype=float), C, dt))
    row.update(_prop1(X, y, Xt, C, s2, tau, prec))
    row.update(_wy_once(X, y, C, s2, tau, dt, prec))
    row.update(_thm1(task.seed, dt))
    return row


def _median_time(f, reps=5):
    ts = []
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t0)
    return float(np.median(ts))


def _timing(task):
    rng = np.random.default_rng([int(task.seed), 51])
    row = {}
    for r in (250, 500, 1000, 2500):
        L = np.tril(rng.standard_normal((r, r)) / np.sqrt(r)) + 2 * np.eye(r)
        v = rng.standard_normal(r)
        row[f"time_pb_{r}"] = _median_time(lambda L=L, v=v: scipy.linalg.solve_triangular(L, v, lower=True, trans="T"))
    # Comment 2 (upsilon only) against (28)-(29) (alpha_B by a triangular solve, b through P P_B^T alpha_B)
    m, r = 5000, 100
    P = rng.standard_normal((m, r)) / np.sqrt(r)
    PB = np.tril(P[:r]) + np.eye(r)
    Pc = P - P.mean(axis=0)
    LJ = scipy.linalg.cho_factor(np.eye(r) + Pc.T @ Pc)
    y, g = rng.standard_normal(m), np.where(rng.random(m) < 0.1, rng.standard_normal(m), 0.0)

    def ups_form():
        z = y - g
        u = scipy.linalg.cho_solve(LJ, P.T @ (z - z.mean()))
        return u, (z.sum() - P.sum(axis=0) @ u) / m

    def form28():
        z = y - g
        a = scipy.linalg.solve_triangular(PB, scipy.linalg.cho_solve(LJ, P.T @ (z - z.mean())), lower=True, trans="T")
        return a, (z.sum() - np.sum(P @ (PB.T @ a))) / m
    lr = [np.log(_median_time(form28, 3) / _median_time(ups_form, 3)) for _ in range(7)]
    row.update(time_c2_logratio_mean=float(np.mean(lr)), time_c2_logratio_sd=float(np.std(lr, ddof=1)), c2_n=len(lr))
    # Comment 3, step 3': P_S^T gamma_S - (e^T gamma / m) P_hat, then one solve with J, at fixed r
    for mm in (5000, 50000):
        Pm = rng.standard_normal((mm, r))
        Phat = Pm.sum(axis=0)
        for nS in ((100, 300, 1000, 3000) if mm == 50000 else (300,)):
            S = np.sort(rng.choice(mm, nS, replace=False))
            gS = rng.standard_normal(nS)
            t = _median_time(lambda Pm=Pm, S=S, gS=gS, mm=mm, Phat=Phat:
                             scipy.linalg.cho_solve(LJ, Pm[S].T @ gS - (gS.sum() / mm) * Phat), 7)
            row[f"time_c3_S_{nS}" if mm == 50000 else f"time_c3_m_{mm}"] = t
            if nS == 300:
                row[f"time_c3_m_{mm}"] = t
    # one extra R-LSSVM-W iteration: a solve with the Cholesky factor of I + C K
    for mm in (250, 500, 1000, 2500):
        Xm = rng.uniform(-1, 1, (mm, 3))
        F = scipy.linalg.cho_factor(np.eye(mm) + 10.0 * np.asarray(make_kernel("rbf", sigma2=1.0)(Xm)))
        v = rng.standard_normal(mm)
        row[f"time_wy_{mm}"] = _median_time(lambda F=F, v=v: scipy.linalg.cho_solve(F, v))
    # SR-LSSVM's fit time against r at fixed m, on 5-D inputs with a narrow kernel (numerical rank >> 600,
    # so every requested pivot is taken: sr_rank_<r> records it)
    Xr = rng.uniform(-1, 1, (1000, 5))
    yr = np.sin(Xr.sum(axis=1)) + 0.1 * rng.standard_normal(1000)
    for rr in (60, 120, 240, 600):
        fits = []
        row[f"time_sr_r_{rr}"] = _median_time(lambda fits=fits, rr=rr: fits.append(_fit(
            "sr-lssvm", Xr, yr, "float64", C=100.0, sigma2=0.1, n_support=rr, tau=0.5)), 3)
        row[f"sr_rank_{rr}"] = int(fits[-1].diagnostics["rank"])
    return row


def cz_numerics_row(task) -> dict:
    """One row of the numerics (``options["part"] = "numerics"``) or timing (``"timing"``) study."""
    part = task.options.get("part", "numerics")
    if part not in ("numerics", "timing"):
        raise ValueError(f"expected options['part'] in ('numerics', 'timing'), got part={part!r}")
    return _numerics(task) if part == "numerics" else _timing(task)


# cz-numerics version 2: the timing columns named time_* (issue 32: tools that drop time_* to compare
# runs must see every timing)
register_task_kind("cz-numerics", cz_numerics_row, validate=validate_no_solver, version=2)
