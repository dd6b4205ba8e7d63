"""Task kinds of the numerical claims of Suykens ch. 3 (the ledger's S-… rows), registered at import.

One kind, ``suykens-check``, whose task parameter ``check`` names the claim family; each
``<check>_row(task)`` returns JSON scalars (arrays as JSON text, :mod:`.arrays`).

Checks
------
``kkt``       (3.5)/(3.32) at one (gamma, sigma2): inertia and sigma_min of the KKT matrix, LU against
              the Schur/Cholesky elimination (3.25), s > 0, zero alphas, where the large |alpha_k| lie,
              C-SVC's exact zeros and KKT (S-unique, S-kkt/*, S-dense, S-alpha-location).
``cg``        Hestenes-Stiefel CG on H eta = y at one (gamma, sigma2, precision): per iterate the A-norm
              error, the printed bound (3.26), V(x_i) and ||r_i|| (S-cg-bound, S-cg-V, S-cg-residual,
              S-cg-kappa).
``direct``    dense Cholesky (lssvm-schur) against CG (lssvm-cg) time at one N, repeated (S-direct-2000).
``linear``    linear kernel: the dual against LDA's direction and against the primal ridge regression
              (S-lda, S-ridge); zero-bias LS-SVM against kernel ridge and the GP mean (S-gp-krr).
``rank``      numerical rank of polynomial and RBF Gram matrices in float64 and at 50 digits (S-rkhs-dim).
``dual-time`` linear kernel, fixed N, growing n: primal ridge against dual KKT time (S-dual-large-n).
``multiclass`` (3.12) as one block system against n_y solves; Hamming decoding against voting
              (S-block, S-hamming-vote).
``spiral``    two spirals, (gamma, sigma2) by CV: training errors and test accuracy (S-spiral).
``prune``     pruning by smallest |alpha_k| against random removal, test MSE per #SV (S-prune-heuristic).
``noisy-prune`` §3.7's stop (validation MSE above the unpruned P95) on sinc with and without noise
              (S-noisy-prune).
``prune-location`` two Gaussian classes pruned 500 -> 250 -> 50: |f| of the kept SVs; C-SVC (S-prune-location).
``narx``      NARX LS-SVM on a Mackey-Glass series, iterated prediction (S-santafe, stand-in).
``holdout``   one holdout draw against 10-fold CV: test accuracy of each pick and cost (S-cv-vs-holdout).
"""
from __future__ import annotations

import math
import os
import time

import numpy as np
import scipy.linalg
import scipy.stats
import scipy.spatial.distance

from ...analysis.tuning import tune as la_tune
from ...arith.mp import MP_CONTEXT
from ...arith.precision import get_precision
from ...datasets import mackey_glass_series
from ...linalg.cg import hestenes_stiefel_cg
from ...linalg.kernels import linear_kernel, poly_kernel, rbf_kernel
from ...solvers import fit
from ...solvers.kkt import add_ridge
from ...solvers.multiclass import hamming_decode, make_code
from ...experiments.arrays import dumps
from ...experiments.kinds import raw_task_data, register_task_kind

__all__ = ["CHECKS", "boundary_distance", "cg_objective", "check_row"]

NAN = float("nan")
U64 = float(np.finfo(np.float64).eps) / 2


def _timed(f, repeats, *, resolution=0.0):
    """Median wall time per call over ``repeats`` timings of f (and the last result).

    With ``resolution`` > 0 each timing runs f as often as a first call says fits in that many seconds
    (a sub-millisecond call timed alone is mostly clock and scheduler noise)."""
    t0 = time.perf_counter()
    out = f()
    inner = max(1, int(resolution / max(time.perf_counter() - t0, 1e-9))) if resolution else 1
    ts = []
    for _ in range(max(1, int(repeats))):
        t0 = time.perf_counter()
        for _ in range(inner):
            out = f()
        ts.append((time.perf_counter() - t0) / inner)
    return float(np.median(ts)), ts, out


# --------------------------------------------------------------------------- where the support values lie
def boundary_distance(X, f_X, decision, *, steps: int = 48) -> np.ndarray:
    """Each row's distance to the decision boundary {f = 0} along the segment to the nearest row of the other sign.

    Bisection on f along the segment from x_i to the nearest x_j with sign f(x_j) ≠ sign f(x_i) finds a
    boundary point on it, so the distance returned is an upper bound of the Euclidean distance to {f = 0}
    (the same estimator for every row; ``inf`` where every row has one sign).  ``decision(P)`` is f at the
    rows of P.
    """
    X = np.asarray(X, dtype=float)
    pos = np.asarray(f_X) >= 0
    d2 = np.sum(X ** 2, 1)[:, None] + np.sum(X ** 2, 1)[None, :] - 2 * X @ X.T
    d2[pos[:, None] == pos[None, :]] = np.inf
    j = np.argmin(d2, axis=1)
    out = np.full(len(X), np.inf)
    has = np.isfinite(d2[np.arange(len(X)), j])
    if not has.any():
        return out
    a, b, side = X[has], X[j[has]], pos[has]
    lo, hi = np.zeros(len(a)), np.ones(len(a))
    for _ in range(steps):
        mid = (lo + hi) / 2
        same = (np.asarray(decision(a + mid[:, None] * (b - a))) >= 0) == side
        lo, hi = np.where(same, mid, lo), np.where(same, hi, mid)
    out[has] = lo * np.linalg.norm(b - a, axis=1)
    return out


def _far(dist) -> np.ndarray:
    """Farther from the boundary than the median training point (by :func:`boundary_distance`)."""
    finite = dist[np.isfinite(dist)]
    return dist > (np.median(finite) if len(finite) else np.inf)


# --------------------------------------------------------------------------- kkt
def _kkt_matrix(Om, C, border):
    n = Om.shape[0]
    A = np.zeros((n + 1, n + 1))
    A[0, 1:] = A[1:, 0] = border
    A[1:, 1:] = Om + np.eye(n) / C
    return A


def kkt_row(task) -> dict:
    ds = raw_task_data(task)
    ds = ds.as_pm1() if ds.task == "classification" else ds
    X, y = ds.X_train, ds.y_train
    C, s2 = float(task.params["C"]), float(task.params["sigma2"])
    K = rbf_kernel(X, sigma2=s2)
    n = len(y)
    out = {"n": n}
    for form, Om, border, rhs in (("cls", K * np.outer(y, y), y, np.ones(n)), ("reg", K, np.ones(n), y)):
        A = _kkt_matrix(Om, C, border)
        ev = np.linalg.eigvalsh(A)
        norm = float(np.max(np.abs(ev)))
        sv = np.abs(ev)
        res = 10 * (n + 1) * U64 * norm
        b_full = np.concatenate([[0.0], rhs])
        z = scipy.linalg.solve(A, b_full)                  # LU (partial pivoting) of the indefinite matrix
        H = Om + np.eye(n) / C
        chol_ok = True
        try:
            L = scipy.linalg.cho_factor(H, lower=True)
            eta, nu = scipy.linalg.cho_solve(L, border), scipy.linalg.cho_solve(L, rhs)
            s = float(border @ eta)
            b = float(eta @ rhs) / s
            alpha = nu - eta * b
        except np.linalg.LinAlgError:
            chol_ok, s, b, alpha = False, NAN, NAN, np.full(n, NAN)
        zz = np.concatenate([[b], alpha])
        cond = float(sv.max() / sv.min())
        out.update({f"{form}_n_neg": int(np.sum(ev < -res)), f"{form}_n_pos": int(np.sum(ev > res)),
                    f"{form}_n_unresolved": int(np.sum(np.abs(ev) <= res)),
                    f"{form}_sigma_min": float(sv.min()), f"{form}_norm": norm, f"{form}_cond": cond,
                    f"{form}_resolution": res, f"{form}_chol_ok": chol_ok, f"{form}_s": s,
                    f"{form}_dev": float(np.max(np.abs(z - zz)) / max(np.max(np.abs(z)), 1e-300)),
                    f"{form}_tol": 10 * cond * U64})
        if form == "cls":
            a = z[1:]
            f_tr = K @ (a * y) + z[0]
            top = np.argsort(-np.abs(a))[:max(1, n // 10)]
            w, b0 = a * y, z[0]
            far = _far(boundary_distance(X, f_tr, lambda P, w=w, b0=b0: rbf_kernel(P, X, sigma2=s2) @ w + b0))
            out.update({"alpha_zero": int(np.sum(a == 0)),
                        "alpha_tiny": int(np.sum(np.abs(a) <= 1e-8 * np.max(np.abs(a)))),
                        "alpha_sorted": dumps(np.sort(np.abs(a))[::-1]),
                        "top_close": float(np.mean(np.abs(f_tr[top]) < 0.5)),
                        "top_far": float(np.mean(np.abs(f_tr[top]) > 1.5)),
                        "top_far_geo": float(np.mean(far[top])),
                        "top_far_geo_wrong": float(np.mean(far[top] & (y[top] * f_tr[top] < 0))),
                        "train_acc": float(np.mean(np.sign(f_tr) == y))})
    if ds.task == "classification":
        svc = fit("svm-c", X, y, C=C, sigma2=s2, kernel="rbf")
        if svc.ok:
            sv_idx = svc.support_
            out.update({"svc_n_support": int(len(sv_idx)), "svc_zero": int(n - len(sv_idx)),
                        **_svc_kkt(svc, X, y, s2)})
    return out


# --------------------------------------------------------------------------- cg
def cg_objective(x, H, b) -> tuple[float, float]:
    """V(x) = ½xᵀHx − xᵀb evaluated in float64, and what that evaluation can get wrong.

    The bound is γ_n(½|x|ᵀ|H||x| + |x|ᵀ|b|) + u|V|, γ_n = nu/(1 − nu) (Higham, *Accuracy and Stability*,
    §3.1 and Thm 3.5 for the products and sums); near x* with κ large, |x|ᵀ|H||x| is up to ~κ|V|, so V's
    rounding can far exceed u|V|.
    """
    u = np.finfo(np.float64).eps / 2
    n = len(b)
    gamma = (n + 2) * u / (1 - (n + 2) * u)  # n for each product, 2 more for the ½ and the subtraction
    ax = np.abs(x)
    v = float(0.5 * x @ H @ x - x @ b)
    return v, float(gamma * (0.5 * ax @ np.abs(H) @ ax + ax @ np.abs(b)) + u * abs(v))


def cg_row(task) -> dict:
    """CG on H eta = y (x_0 = 0) run to a residual of 10 u or 3 n steps; every iterate's A-norm error
    against x* = the float64 Cholesky solution of H as formed in the precision."""
    ds = raw_task_data(task)
    X, y = ds.X_train, ds.y_train
    C, s2 = float(task.params["C"]), float(task.params["sigma2"])
    p = get_precision(task.precision or "float64")
    K = rbf_kernel(X, sigma2=s2)
    n = len(y)
    with p.context():
        H = add_ridge(p.asarray(K), C, p)
        H64 = p.to_float64(H)
        b = p.asarray(y)
        b64 = p.to_float64(b)
        try:
            xs = scipy.linalg.cho_solve(scipy.linalg.cho_factor(H64), b64)
        except np.linalg.LinAlgError as exc:
            # H as formed in the precision is not positive definite (the kernel's rounding, ~u·‖K‖, exceeds
            # the ridge 1/C): there is no x* to measure CG against; a recorded breakdown, not an error
            lam = np.linalg.eigvalsh(H64)
            return {"status": "breakdown", "message": f"H = K + I/C as formed in {p.name} is not positive "
                    f"definite ({exc}): lambda_min {lam[0]:.3g} against 1/C = {1 / C:.3g}, so no x* exists",
                    "n": n, "u": p.unit_roundoff, "lambda_min": float(lam[0]), "lambda_max": float(lam[-1])}
        its = []
        res = hestenes_stiefel_cg(H, b, rtol=10 * p.unit_roundoff, vtol=0, maxiter=3 * n, precision=p,
                                  callback=lambda i, x: its.append(p.to_float64(x).copy()))
    lam = np.linalg.eigvalsh(H64)
    kappa = float(lam[-1] / lam[0])
    e0 = math.sqrt(float(xs @ H64 @ xs))
    err = [e0] + [math.sqrt(max(float((x - xs) @ H64 @ (x - xs)), 0.0)) for x in its]
    V, V_round = map(list, zip((0.0, 0.0), *(cg_objective(x, H64, b64) for x in its)))
    rho = (math.sqrt(kappa) - 1) / (math.sqrt(kappa) + 1)
    return {"n": n, "kappa": kappa, "u": p.unit_roundoff, "iterations": res.iterations, "reason": res.reason,
            "anorm_x": e0, "V_star": float(-0.5 * xs @ b64), "rho": rho,
            "err": dumps(np.array(err)), "V": dumps(np.array(V)), "V_round": dumps(np.array(V_round)),
            "residual": dumps(np.asarray(res.history["residual_norm"], dtype=float))}


# --------------------------------------------------------------------------- direct vs CG
def direct_row(task) -> dict:
    ds = raw_task_data(task)
    X, y = ds.X_train, ds.y_train
    kw = {"C": float(task.params["C"]), "sigma2": float(task.params["sigma2"]), "kernel": "rbf"}
    reps = int(task.options.get("repeats", 3))
    t_d, ts_d, fd = _timed(lambda: fit("lssvm-schur", X, y, **kw), reps)
    t_c, ts_c, fc = _timed(lambda: fit("lssvm-cg", X, y, **kw), reps)
    agree = (float(np.max(np.abs(fd.predict(ds.X_test) - fc.predict(ds.X_test)))) if fd.ok and fc.ok else NAN)
    return {"N": len(y), "t_dense": t_d, "t_cg": t_c, "t_dense_all": dumps(np.array(ts_d)),
            "t_cg_all": dumps(np.array(ts_c)), "cg_status": fc.status, "cg_iterations": fc.iterations or -1,
            "pred_diff": agree, "bytes_dense": 8.0 * len(y) ** 2,
            "mem_bytes": float(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))}


# --------------------------------------------------------------------------- linear kernel identities
def linear_row(task) -> dict:
    ds = raw_task_data(task).as_pm1()
    X, y, Xt = ds.X_train, ds.y_train, ds.X_test
    g = float(task.params["C"])
    n, N = X.shape[1], len(y)
    # classification LS-SVM (3.5), linear kernel: w = sum alpha_k y_k x_k
    A = _kkt_matrix(linear_kernel(X) * np.outer(y, y), g, y)
    z = scipy.linalg.solve(A, np.concatenate([[0.0], np.ones(N)]))
    w = X.T @ (z[1:] * y)
    m1, m2 = X[y > 0].mean(0), X[y < 0].mean(0)
    Sw = np.cov(X[y > 0].T, bias=True) * (y > 0).sum() + np.cov(X[y < 0].T, bias=True) * (y < 0).sum()
    v = scipy.linalg.solve(Sw, m1 - m2)
    cosang = float(w @ v / (np.linalg.norm(w) * np.linalg.norm(v)))
    angle = float(np.linalg.norm(w / np.linalg.norm(w) - v / np.linalg.norm(v)))
    # LDA's bias: midpoint of the projected class means (equal priors)
    b_lda = -0.5 * float(v @ (m1 + m2))
    lab_ls = np.sign(Xt @ w + z[0])
    lab_lda = np.sign(Xt @ v + b_lda)
    out = {"n_inputs": n, "N": N, "N1": int((y > 0).sum()), "N2": int((y < 0).sum()),
           "lda_angle": angle, "lda_one_minus_cos": 1 - cosang, "cond_kkt_cls": float(np.linalg.cond(A)),
           "cond_Sw": float(np.linalg.cond(Sw)), "lda_label_agree": float(np.mean(lab_ls == lab_lda))}
    # regression (3.32) with a linear kernel against the primal ridge [w; b], b unpenalised
    t = ds.y_train  # the +-1 labels as targets: an identity, any targets do
    A = _kkt_matrix(linear_kernel(X), g, np.ones(N))
    z = scipy.linalg.solve(A, np.concatenate([[0.0], t]))
    w_dual = X.T @ z[1:]
    Z = np.hstack([X, np.ones((N, 1))])
    P = Z.T @ Z + np.diag(np.r_[np.ones(n) / g, 0.0])
    wb = scipy.linalg.solve(P, Z.T @ t)
    pd_, pp = Xt @ w_dual + z[0], Xt @ wb[:n] + wb[n]
    kap = max(float(np.linalg.cond(A)), float(np.linalg.cond(P)))
    out.update({"ridge_dev_w": float(np.max(np.abs(w_dual - wb[:n])) / np.max(np.abs(wb[:n]))),
                "ridge_dev_pred": float(np.max(np.abs(pd_ - pp)) / np.max(np.abs(pp))), "ridge_kappa": kap})
    # zero-bias LS-SVM (3.62)-(3.63) against kernel ridge and the GP posterior mean (independent code)
    from_ls = fit("krr", X, t, C=g, kernel="rbf", sigma2=float(task.params.get("sigma2", 1.0)),
                  task="regression")
    s2 = float(task.params.get("sigma2", 1.0))
    Kt = np.exp(-scipy.spatial.distance.cdist(Xt, X, "sqeuclidean") / s2)
    Kx = np.exp(-scipy.spatial.distance.cdist(X, X, "sqeuclidean") / s2)
    CN = Kx + np.eye(N) / g
    krr = Kt @ scipy.linalg.solve(CN, t, assume_a="pos")        # kernel ridge, alpha = 1/gamma
    gp = Kt @ scipy.linalg.cho_solve(scipy.linalg.cho_factor(CN, lower=True), t)  # GP mean (3.60)
    ours = from_ls.predict(Xt) if from_ls.ok else np.full(len(Xt), NAN)
    out.update({"krr_dev": float(np.max(np.abs(ours - krr)) / np.max(np.abs(krr))),
                "gp_dev": float(np.max(np.abs(ours - gp)) / np.max(np.abs(gp))),
                "krr_kappa": float(np.linalg.cond(CN))})
    return out


# --------------------------------------------------------------------------- ranks
def _mp_gram(X, kern, degree, sigma2, digits):
    """The Gram matrix formed at ``digits`` digits from the (exact) float64 inputs."""
    with MP_CONTEXT.workdps(digits):
        P = [[MP_CONTEXT.mpf(float(v)) for v in row] for row in X]
        N = len(P)
        K = MP_CONTEXT.matrix(N, N)
        for i in range(N):
            for j in range(i + 1):
                if kern == "poly":
                    v = (MP_CONTEXT.fsum(a * b for a, b in zip(P[i], P[j])) + 1) ** degree
                else:
                    v = MP_CONTEXT.exp(-MP_CONTEXT.fsum((a - b) ** 2 for a, b in zip(P[i], P[j]))
                                       / MP_CONTEXT.mpf(sigma2))
                K[i, j] = K[j, i] = v
        return K


def _mp_rank(X, kern, degree, sigma2, digits=50):
    """Numerical rank at ``digits`` digits: eigenvalues above 10 N 10^-digits max|lambda|."""
    with MP_CONTEXT.workdps(digits):
        ev = [abs(e) for e in MP_CONTEXT.eigsy(_mp_gram(X, kern, degree, sigma2, digits), eigvals_only=True)]
        tol = 10 * len(X) * MP_CONTEXT.mpf(10) ** (-digits) * max(ev)
        return int(sum(e > tol for e in ev))


def rank_row(task) -> dict:
    rng = np.random.default_rng(task.seed or 0)
    N, n = int(task.params["N"]), int(task.params["n_inputs"])
    X = rng.uniform(-1, 1, (N, n))
    kern = task.params["kernel"]
    d, s2 = int(task.params.get("degree", 2)), float(task.params.get("sigma2", 1.0))
    if kern == "poly":
        K = poly_kernel(X, degree=d, t=1.0)
        expected = min(N, math.comb(n + d, d))
    else:
        K = rbf_kernel(X, sigma2=s2)
        expected = N
    ev = np.abs(np.linalg.eigvalsh(K))
    r64 = int(np.sum(ev > 10 * N * U64 * ev.max()))
    return {"expected": expected, "rank_float64": r64, "rank_mp50": _mp_rank(X, kern, d, s2),
            "lambda_min": float(ev.min()), "lambda_max": float(ev.max())}


# --------------------------------------------------------------------------- primal vs dual time
def dual_time_row(task) -> dict:
    rng = np.random.default_rng(task.seed or 0)
    N, n = int(task.params["N"]), int(task.params["n_inputs"])
    X = rng.standard_normal((N, n))
    t = X @ rng.standard_normal(n) / math.sqrt(n) + 0.1 * rng.standard_normal(N)
    g = float(task.params["C"])
    reps = int(task.options.get("repeats", 5))

    def primal():
        Z = np.hstack([X, np.ones((N, 1))])
        P = Z.T @ Z
        P[np.arange(n), np.arange(n)] += 1 / g
        return scipy.linalg.solve(P, Z.T @ t, assume_a="sym")

    def dual():
        A = _kkt_matrix(X @ X.T, g, np.ones(N))
        return scipy.linalg.solve(A, np.concatenate([[0.0], t]), assume_a="sym")

    res = float(task.options.get("resolution", 0.01))
    tp, tps, _ = _timed(primal, reps, resolution=res)
    td, tds, _ = _timed(dual, reps, resolution=res)
    return {"t_primal": tp, "t_dual": td, "t_primal_all": dumps(np.array(tps)),
            "t_dual_all": dumps(np.array(tds))}


# --------------------------------------------------------------------------- multiclass
def multiclass_row(task) -> dict:
    ds = raw_task_data(task)
    X, yi, Xt = ds.X_train, ds.y_train.astype(int), ds.X_test
    C, s2 = float(task.params["C"]), float(task.params["sigma2"])
    reps = int(task.options.get("repeats", 5))
    K = rbf_kernel(X, sigma2=s2)
    N = len(yi)
    M = make_code("1vsa", len(ds.classes))
    Y = M[yi].astype(float)                              # (N, n_y) targets of (3.12)
    ny = Y.shape[1]

    def whole():
        big = scipy.linalg.block_diag(*[_kkt_matrix(K * np.outer(Y[:, j], Y[:, j]), C, Y[:, j])
                                        for j in range(ny)])
        rhs = np.concatenate([np.r_[0.0, np.ones(N)] for _ in range(ny)])
        return scipy.linalg.solve(big, rhs).reshape(ny, N + 1)

    def separate():
        return np.stack([scipy.linalg.solve(_kkt_matrix(K * np.outer(Y[:, j], Y[:, j]), C, Y[:, j]),
                                            np.r_[0.0, np.ones(N)]) for j in range(ny)])

    res = float(task.options.get("resolution", 0.01))
    tw, tws, zw = _timed(whole, reps, resolution=res)
    tsep, tss, zs = _timed(separate, reps, resolution=res)
    cond = max(float(np.linalg.cond(_kkt_matrix(K * np.outer(Y[:, j], Y[:, j]), C, Y[:, j]))) for j in range(ny))
    # 1vs1: Hamming decoding against majority voting on the test points
    M1 = make_code("1vs1", len(ds.classes))
    outs = []
    for j in range(M1.shape[1]):
        rows = np.flatnonzero(M1[yi, j] != 0)
        f = fit("lssvm-schur", X[rows], M1[yi[rows], j].astype(float), C=C, sigma2=s2, kernel="rbf",
                task="classification")
        outs.append(np.where(f.decision_function(Xt) >= 0, 1, -1))
    O = np.stack(outs, axis=1)
    votes = np.zeros((len(Xt), M1.shape[0]))
    for j in range(M1.shape[1]):
        i, k = np.flatnonzero(M1[:, j] == 1)[0], np.flatnonzero(M1[:, j] == -1)[0]
        votes[:, i] += O[:, j] == 1
        votes[:, k] += O[:, j] == -1
    vote = np.argmax(votes, axis=1)                       # ties: the lowest class index
    ham = hamming_decode(O, M1)
    return {"N": N, "n_y": ny, "block_dev": float(np.max(np.abs(zw - zs)) / np.max(np.abs(zs))),
            "block_tol": 10 * cond * U64, "t_whole": tw, "t_separate": tsep,
            "t_whole_all": dumps(np.array(tws)), "t_separate_all": dumps(np.array(tss)),
            "n_test": len(Xt), "decode_mismatch": int(np.sum(vote != ham)),
            "vote_ties": int(np.sum(np.sort(votes, axis=1)[:, -1] == np.sort(votes, axis=1)[:, -2]))}


# --------------------------------------------------------------------------- two spirals
def _grid(o):
    return {"C": [float(v) for v in o.get("gammas", (1.0, 1e2, 1e4))],
            "sigma2": [float(v) for v in o.get("sigma2s", (0.1, 1.0, 10.0))]}


def spiral_row(task) -> dict:
    ds = raw_task_data(task).as_pm1()
    o = task.options
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    res = la_tune("lssvm-schur", X, y, grid=_grid(o), refinements=int(o.get("refinements", 1)), points=3,
                  folds=int(o.get("folds", 10)), seed=task.seed or 0, scoring="accuracy", kernel="rbf",
                  task="classification")
    f = fit("lssvm-schur", X, y, kernel="rbf", task="classification", **res.best)
    return {"n_train": len(y), "n_test": len(yt), "train_errors": int(np.sum(np.sign(f.decision_function(X)) != y)),
            "test_acc": float(np.mean(np.sign(f.decision_function(Xt)) == yt)),
            **{f"tuned_{k}": float(v) for k, v in res.best.items()}}


# --------------------------------------------------------------------------- pruning
def prune_row(task) -> dict:
    ds = raw_task_data(task)
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    kw = {"C": float(task.params["C"]), "sigma2": float(task.params["sigma2"]), "kernel": "rbf"}
    N = len(y)
    f = fit("lssvm-pruned", X, y, validation=(Xt, yt), rtol=1e12, min_support=max(2, N // 10), **kw)
    n_sv = np.asarray(f.history.get("n_support", []), dtype=int)
    err = np.asarray(f.history.get("index", []), dtype=float)
    perm = np.random.default_rng(1000 + (task.seed or 0)).permutation(N)  # nested random subsets
    rnd = []
    for k in n_sv:
        g = fit("lssvm-schur", X[perm[:k]], y[perm[:k]], **kw)
        rnd.append(float(np.mean((g.predict(Xt) - yt) ** 2)) if g.ok else NAN)
    return {"N": N, "path_n_support": dumps(n_sv.astype(float)), "path_mse": dumps(err),
            "random_mse": dumps(np.array(rnd))}


def noisy_prune_row(task) -> dict:
    """§3.7's stop on sinc with and without noise: the #SV where the validation MSE first exceeds the
    upper 95 % t bound of the unpruned model's validation MSE (validation targets as noisy as the data)."""
    s2, C, N = float(task.params["sigma2"]), float(task.params["C"]), int(task.params["N"])
    out = {}
    for noise in (0.0, float(task.params["noise"])):
        rng = np.random.default_rng(7000 + (task.seed or 0))
        X, Xv = rng.uniform(-10, 10, (N, 1)), rng.uniform(-10, 10, (N, 1))
        y = np.sinc(X[:, 0] / np.pi) + noise * rng.standard_normal(N)
        yv = np.sinc(Xv[:, 0] / np.pi) + noise * rng.standard_normal(N)
        kw = {"C": C, "sigma2": s2, "kernel": "rbf"}
        f0 = fit("lssvm-schur", X, y, **kw)
        e = (f0.predict(Xv) - yv) ** 2
        bound = float(e.mean() + scipy.stats.t.ppf(0.975, N - 1) * e.std(ddof=1) / math.sqrt(N))
        f = fit("lssvm-pruned", X, y, validation=(Xv, yv), rtol=1e12, min_support=2, **kw)
        n_sv = np.asarray(f.history.get("n_support", []), dtype=int)
        err = np.asarray(f.history.get("index", []), dtype=float)
        above = np.nonzero(err > bound)[0]
        stop = int(n_sv[above[0] - 1]) if len(above) and above[0] > 0 else int(n_sv[-1] if len(above) == 0 else N)
        tag = "noiseless" if noise == 0 else "noisy"
        out.update({f"stop_{tag}": stop, f"bound_{tag}": bound})
    return out


def _svc_kkt(svc, X, y, sigma2) -> dict:
    """C-SVC's support vectors with y·f > 1 beyond what LIBSVM's stop allows (``svc_kkt_violations``).

    LIBSVM stops with every SV's y·f − 1 below its tol (1e-3) as *it* computes f, from a kernel cache held in
    float (Qfloat): f in float64 may differ by u₃₂·Σ_j|α_j K_ij| (twice: the cache and the gradient's updates).
    ``svc_beyond_tol`` counts against the bare 1 + 1e-3.
    """
    sv = np.asarray(svc.support_)
    yf = y[sv] * svc.decision_function(X[sv])
    slack = 1e-3 + 2 * 2.0 ** -24 * (rbf_kernel(X[sv], X[sv], sigma2=sigma2) @ np.abs(np.asarray(svc.coef_, float)))
    return {"svc_kkt_violations": int(np.sum(yf > 1 + slack)), "svc_beyond_tol": int(np.sum(yf > 1 + 1e-3))}


def prune_location_row(task) -> dict:
    rng = np.random.default_rng(task.seed or 0)
    N = int(task.params["N"])
    y = np.where(np.arange(N) < N // 2, 1.0, -1.0)
    X = rng.standard_normal((N, 2)) + np.outer(y, [1.0, 1.0])     # equal covariance, means +-(1, 1)
    kw = {"C": float(task.params["C"]), "sigma2": float(task.params["sigma2"]), "kernel": "rbf",
          "task": "classification"}
    out = {}
    for keep in task.options.get("keep", (250, 50)):
        f = fit("lssvm-pruned", X, y, index="training", rtol=1e12, min_support=int(keep), **kw)
        fx = np.abs(f.decision_function(X[f.support_])) if f.ok else np.array([NAN])
        geo = (_far(boundary_distance(X, f.decision_function(X), f.decision_function))[f.support_] if f.ok
               else np.zeros(0, bool))
        out.update({f"n_sv[{keep}]": int(f.n_support) if f.ok else -1,
                    f"close[{keep}]": int(np.sum(fx < 0.5)), f"far[{keep}]": int(np.sum(fx > 1.5)),
                    f"far_geo[{keep}]": int(np.sum(geo))})
    svc = fit("svm-c", X, y, **{k: v for k, v in kw.items() if k != "task"})
    out.update({"svc_n_support": int(svc.n_support), **_svc_kkt(svc, X, y, kw["sigma2"])})
    return out


# --------------------------------------------------------------------------- NARX
def narx_row(task) -> dict:
    """NARX LS-SVM x(t) = f(x(t-1), ..., x(t-q)) on a Mackey-Glass series sampled at unit steps:
    trained on ``n_train`` windows, iterated ``horizon`` steps past them (Fig. 3.6's protocol)."""
    o = task.options
    q, Ntr, H = int(task.params["q"]), int(task.params["n_train"]), int(task.params["horizon"])
    s = mackey_glass_series(float(q + Ntr + H + 200), tau=17.0, dt=0.1)[::10][200:]   # drop the transient
    s = (s - s[:q + Ntr].mean()) / s[:q + Ntr].std()
    X = np.stack([s[i:i + q][::-1] for i in range(Ntr)])
    y = s[q:q + Ntr]
    res = la_tune("lssvm-schur", X, y, grid=_grid(o), refinements=int(o.get("refinements", 0)), points=3,
                  folds=int(o.get("folds", 10)), seed=0, scoring="mse", kernel="rbf", task="regression")
    f = fit("lssvm-schur", X, y, kernel="rbf", task="regression", **res.best)
    hist = list(s[Ntr:Ntr + q][::-1])                  # the last q training values, newest first
    pred = []
    for _ in range(H):
        v = float(f.predict(np.array(hist[:q])[None, :])[0])
        pred.append(v)
        hist.insert(0, v)
    truth = s[q + Ntr:q + Ntr + H]
    nmse = float(np.mean((np.array(pred) - truth) ** 2) / np.var(truth))
    return {"nmse": nmse, **{f"tuned_{k}": float(v) for k, v in res.best.items()}}


# --------------------------------------------------------------------------- holdout vs CV
def holdout_row(task) -> dict:
    """One validation draw (the task's seed): (gamma, sigma2) picked by a 2/3-1/3 holdout of the training
    part and by 10-fold CV on it; the test accuracy of each pick and the time of each selection."""
    ds = raw_task_data(task).as_pm1()
    o = task.options
    X, y, Xt, yt = ds.X_train, ds.y_train, ds.X_test, ds.y_test
    grid = [(c, s) for c in _grid(o)["C"] for s in [f * f * X.shape[1] for f in o.get("sigma_factors", (0.5, 2, 8))]]
    rng = np.random.default_rng(5000 + (task.seed or 0))
    perm = rng.permutation(len(y))
    cut = (2 * len(y)) // 3
    tr, va = perm[:cut], perm[cut:]
    folds = np.array_split(rng.permutation(len(y)), int(o.get("folds", 10)))

    def acc(Xa, ya, Xb, yb, c, s):
        f = fit("lssvm-schur", Xa, ya, C=c, sigma2=s, kernel="rbf", task="classification")
        return float(np.mean(np.sign(f.decision_function(Xb)) == yb)) if f.ok else -1.0

    t0 = time.perf_counter()
    hold = max(grid, key=lambda g: acc(X[tr], y[tr], X[va], y[va], *g))
    t_hold = time.perf_counter() - t0
    t0 = time.perf_counter()
    cv = max(grid, key=lambda g: np.mean([acc(np.delete(X, k, 0), np.delete(y, k), X[k], y[k], *g)
                                          for k in folds]))
    t_cv = time.perf_counter() - t0
    return {"acc_holdout": 100 * acc(X, y, Xt, yt, *hold), "acc_cv": 100 * acc(X, y, Xt, yt, *cv),
            "t_holdout": t_hold, "t_cv": t_cv, "n_train": len(y)}


CHECKS = {"kkt": kkt_row, "cg": cg_row, "direct": direct_row, "linear": linear_row, "rank": rank_row,
          "dual-time": dual_time_row, "multiclass": multiclass_row, "spiral": spiral_row, "prune": prune_row,
          "prune-location": prune_location_row, "noisy-prune": noisy_prune_row, "narx": narx_row, "holdout": holdout_row}


def check_row(task) -> dict:
    """The row of the task's ``check`` (kind ``suykens-check``)."""
    name = task.params.get("check")
    if name not in CHECKS:
        raise ValueError(f"expected a check in {sorted(CHECKS)}, got check={name!r}")
    return CHECKS[name](task)


def _validate(spec) -> None:
    for c in spec.grid.get("check", ()):
        if c not in CHECKS:
            raise ValueError(f"expected a check in {sorted(CHECKS)}, got check={c!r}")


register_task_kind("suykens-check", check_row, validate=_validate, version=4,  # 3: batched timings; 4: V_round, far_geo
                   measurements=("t_*",))  # the timings of the checks (t_dense, t_cg, ..., t_*_all)
