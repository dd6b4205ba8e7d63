"""Task kinds of the Vieira et al. claims about the algorithm's steps (issue 31), registered at import.

``vieira-steps``       one random split of one data set at a fixed (gamma, sigma2) (``params``:
                       ``C`` = Vieira's gamma, ``sigma2_over_d``): on the training part,

                       * the LS-SVM's alpha: how many are above 1e-8 max|alpha| and how many are
                         exactly zero (V-lssvm-dense);
                       * MRSR on the columns op-lssvm ranks (D's pattern columns with the bias column
                         projected out, the target likewise), in float64 and float32: the number of
                         nonzero rows of the weight matrix after each step against the step number,
                         and the steps whose entering column was a near-tie (V-mrsr-k);
                       * the float64 path against scikit-learn's ``lars_path(method="lar")`` on the
                         same unit-norm columns: first differing entry, the correlation gap there,
                         the first step where either path breaks LAR's own optimality condition, and
                         the largest relative coefficient difference over the agreed prefix with
                         cond_2 of its columns (V-lars);
                       * the op-lssvm model (every row of D kept, the paper) against the same kept
                         columns solved square (the pruned patterns' rows removed too): test ACC of
                         each (V-keep-rows);
                       * with ``options["press_ks"]`` (on the data sets ``options["press_sets"]``,
                         every set if not given): PRESS (hat matrix, the package's
                         :func:`~lssvm_analysis.linalg.press.press_curve`) against explicit
                         leave-one-out refits of the same least-squares fit at those k, with
                         cond_2(D_k) and min(1 - h_ii) (V-press/exact).
``vieira-press-time``  at L = ``params["L"]`` points of one data set: seconds of the PRESS curve over
                       k = 1..K and of explicit leave-one-out refits over the same k, ``repeats``
                       times each (V-press/faster).
"""
from __future__ import annotations

import time

import numpy as np
from sklearn.linear_model import lars_path

from ... import datasets
from ...arith.precision import get_precision, precisions
from ...linalg.kernels import make_kernel
from ...linalg.mrsr import mrsr
from ...solvers import fit
from ...solvers import vieira as V
from ...linalg.press import press_curve
from ...solvers.result import PhaseTimer
from ...experiments.arrays import dumps
from ...experiments.kinds import register_task_kind
from ...experiments.seeding import task_rng

__all__ = ["steps_row", "press_time_row", "MRSR_PRECISIONS", "ALPHA_REL", "lar_violation", "load_split",
           "training_subset"]

NAN = float("nan")
#: The precisions whose MRSR path V-mrsr-k reads: the LAPACK-backed ones, most precise first
#: (float64, float32), asked of the registry's capabilities, not listed by name.
MRSR_PRECISIONS = tuple(sorted(precisions(hardware=True), key=lambda n: get_precision(n).unit_roundoff))
#: |alpha_i| > ALPHA_REL * max|alpha| counts pattern i as a support vector (CLAIMS.md V-lssvm-dense).
ALPHA_REL = 1e-8


def load_split(task):
    """The task's data set, split by its seed, labels in {-1, +1}."""
    return datasets.load(task.dataset, seed=task.seed, **task.dataset_kw).as_pm1()


def training_subset(task, ds):
    """(X, y): L = params["L"] training points of ``ds`` drawn by the task's seed; both classes required."""
    L = int(task.params["L"])
    if L > len(ds.y_train):
        raise ValueError(f"expected L <= {len(ds.y_train)} training points, got L={L}")
    idx = task_rng(task).permutation(len(ds.y_train))[:L]
    X, y = ds.X_train[idx], ds.y_train[idx]
    if len(np.unique(y)) < 2:
        raise ValueError(f"expected both classes in the first L={L} points")
    return X, y


def _ranked_system(X, y, C, s2, p):
    """(D, l, Xr, lr) in the precision p: D and l of Vieira eq. (4), and what op-lssvm's MRSR ranks
    (the pattern columns and l with the bias column projected out, twice: CGS2)."""
    with p.context():
        D, l = V.lssvm_system(X, y, make_kernel("rbf", sigma2=s2), p, C, "classification", PhaseTimer())
        D, l = np.asarray(D), np.asarray(l)
        q0 = D[:, 0] / np.linalg.norm(D[:, 0])
        Xr, lr = D[:, 1:].copy(), l.copy()
        for _ in range(2):
            Xr = Xr - np.outer(q0, q0 @ Xr)
            lr = lr - q0 * (q0 @ lr)
    return D, l, Xr, lr


def lar_violation(Xn, t, w, rel=1e-8) -> bool:
    """Whether the coefficients ``w`` break LAR's optimality: every nonzero coefficient's
    |correlation| equals the largest (within ``rel``), and no column exceeds it."""
    c = np.abs(Xn.T @ (t - Xn @ w))
    nz = np.flatnonzero(w)
    if nz.size == 0:
        return False
    return not (np.ptp(c[nz]) <= rel * c.max() and c.max() <= c[nz].min() * (1 + rel))


def _mrsr_counts(Xr, lr, k_max, p):
    """(steps, bad, near_ties) of MRSR in p: steps done, steps k with nnz(W^k) != k, and steps whose
    entering column's correlation was within 10 u c_max of the next inactive one (from the path)."""
    path = mrsr(Xr, lr, k_max=k_max, precision=p)
    W = np.asarray(path.coefs, dtype=float)[:, :, 0]
    nnz = np.count_nonzero(W, axis=1)
    steps = len(path.order)
    bad = [int(k) for k in range(1, steps + 1) if nnz[k] != k]
    Xn = np.asarray(Xr, float) / np.linalg.norm(np.asarray(Xr, float), axis=0)
    t = np.asarray(lr, float)
    u = p.unit_roundoff
    ties, active = [], []
    for k, j in enumerate(path.order):
        c = np.abs(Xn.T @ (t - Xn @ (W[k] * np.asarray(path.scale))))
        c[active] = -np.inf
        top = np.sort(c)[-2:]
        if len(top) == 2 and top[1] - top[0] <= 10 * u * top[1]:
            ties.append(k + 1)
        active.append(int(j))
    return path, steps, bad, ties


def _lars_compare(Xr, lr, path, k_max):
    """MRSR (float64) against scikit-learn's LAR path on the same unit-norm columns."""
    Xn = Xr / np.linalg.norm(Xr, axis=0)
    with np.errstate(all="ignore"):
        _, active, coefs = lars_path(Xn, lr, method="lar", max_iter=k_max)
    ours = np.asarray(path.coefs, float)[:, :, 0] * np.asarray(path.scale)[None, :]
    n = min(len(active), len(path.order))
    first = next((i + 1 for i in range(n) if int(active[i]) != int(path.order[i])), n + 1)
    viol_sk = next((k for k in range(coefs.shape[1]) if lar_violation(Xn, lr, coefs[:, k])), None)
    viol_ours = next((k for k in range(ours.shape[0]) if lar_violation(Xn, lr, ours[k])), None)
    # the comparison stops at the first differing entry and at the first breakpoint either path breaks LAR at
    stop = min(first - 1, *(v - 1 for v in (viol_sk, viol_ours) if v is not None)) if n else 0
    stop = max(stop, 0)
    gap = NAN
    if first <= n:  # the correlation gap, at the step before, between the two columns that entered
        c = np.abs(Xn.T @ (lr - Xn @ ours[first - 1]))
        a, b = int(path.order[first - 1]), int(active[first - 1])
        gap = float(abs(c[a] - c[b]) / c.max())
    err = kappa = NAN
    if stop >= 1:
        m = min(stop + 1, ours.shape[0], coefs.shape[1])
        d = np.abs(ours[:m].T - coefs[:, :m]).max()
        err = float(d / max(np.abs(coefs[:, :m]).max(), 1e-300))
        kappa = float(np.linalg.cond(Xn[:, path.order[:stop]]))
    return {"lars_steps": int(len(active)), "lars_first_diff": int(first), "lars_gap": gap,
            "lars_violation_sklearn": NAN if viol_sk is None else int(viol_sk),
            "lars_violation_mrsr": NAN if viol_ours is None else int(viol_ours),
            "lars_compared": int(stop), "lars_rel_err": err, "lars_kappa": kappa}


def _explicit_loo(D, l, cols):
    """Mean squared leave-one-out residual of the least-squares fit on D[:, cols], by N refits."""
    Dk = D[:, cols]
    N = Dk.shape[0]
    keep = np.ones(N, dtype=bool)
    r = np.empty(N)
    for i in range(N):
        keep[i] = False
        z = np.linalg.lstsq(Dk[keep], l[keep], rcond=None)[0]
        keep[i] = True
        r[i] = l[i] - Dk[i] @ z
    return float(np.mean(r ** 2))


def _press_exact(D, l, ranked, ks):
    """PRESS(k) of press_curve against explicit LOO at each k of ``ks``, cond_2(D_k), min(1 - h_ii)."""
    cols = [0] + [int(c) for c in ranked]
    curve = press_curve(D, l, cols, first=2)[0]
    out = {"k": [], "press": [], "loo": [], "kappa": [], "min_one_minus_h": []}
    for k in ks:
        if k > len(cols) - 1:
            continue
        sub = cols[:k + 1]
        Q = np.linalg.qr(D[:, sub])[0]
        out["k"].append(int(k))
        out["press"].append(float(curve[k - 1]))
        out["loo"].append(_explicit_loo(D, l, sub))
        out["kappa"].append(float(np.linalg.cond(D[:, sub])))
        out["min_one_minus_h"].append(float(np.min(1.0 - np.sum(Q * Q, axis=1))))
    return {f"press_{key}": dumps(np.array(v, dtype=float)) for key, v in out.items()}


def _square_accuracy(ds, f, C, s2):
    """Test ACC (%) of op-lssvm's kept columns solved square: the kept patterns' rows (and the bias
    row) only, D[cols][:, cols] z = l[cols]; (NaN, status) when that square matrix is singular."""
    cols = [int(c) for c in f.diagnostics["columns"]]
    D, l, _, _ = _ranked_system(ds.X_train, ds.y_train, C, s2, get_precision("float64"))
    try:
        z = np.linalg.solve(D[np.ix_(cols, cols)], l[cols])
    except np.linalg.LinAlgError:
        return NAN, "singular"
    pats = np.array(cols[1:]) - 1
    K = make_kernel("rbf", sigma2=s2)(ds.X_test, ds.X_train[pats])
    dec = K @ (z[1:] * ds.y_train[pats]) + z[0]
    return 100 * float(np.mean(np.where(dec >= 0, 1.0, -1.0) == ds.y_test)), "ok"


def steps_row(task) -> dict:
    """The algorithm's steps on one split (kind ``vieira-steps``, module docstring)."""
    ds = load_split(task)
    X, y = ds.X_train, ds.y_train
    L = len(y)
    C = float(task.params["C"])
    s2 = float(task.params["sigma2_over_d"]) * X.shape[1]
    k_max = min(int(task.options.get("k_max", 100)), L)
    row = {"status": "ok", "L": L, "sigma2_used": s2, "k_max": k_max}
    ls = fit("lssvm-kkt", X, y, C=C, sigma2=s2, task="classification")
    a = np.abs(np.asarray(ls.coef_, float))
    row.update({"alpha_above": int(np.sum(a > ALPHA_REL * a.max())), "alpha_zero": int(np.sum(a == 0))})
    paths = {}
    for name in MRSR_PRECISIONS:
        p = get_precision(name)
        D, l, Xr, lr = _ranked_system(X, y, C, s2, p)
        path, steps, bad, ties = _mrsr_counts(Xr, lr, k_max, p)
        paths[name] = (D, l, Xr, lr, path)
        row.update({f"mrsr_steps[{name}]": steps, f"mrsr_nnz_bad[{name}]": dumps(np.array(bad, float)),
                    f"mrsr_ties[{name}]": dumps(np.array(ties, float)), f"mrsr_status[{name}]": path.status})
    D, l, Xr, lr, path = paths["float64"]
    row.update(_lars_compare(Xr, lr, path, k_max))
    f = fit("op-lssvm", X, y, C=C, sigma2=s2, task="classification", conditioning=False, k_max=k_max)
    row["k_star"] = int(f.diagnostics["k_star"])
    row["acc_all_rows"] = (100 * float(np.mean(np.where(f.predict(ds.X_test) >= 0, 1.0, -1.0) == ds.y_test))
                           if f.ok else NAN)
    row["acc_square"], row["status_square"] = _square_accuracy(ds, f, C, s2)
    ks = task.options.get("press_ks")
    sets = task.options.get("press_sets")
    if ks and (sets is None or task.dataset in sets):
        row.update(_press_exact(D, l, f.diagnostics["ranking"], [int(k) for k in ks]))
    return row


def _loo_over_k(D, l, cols, K):
    for k in range(1, K + 1):
        _explicit_loo(D, l, cols[:k + 1])


def press_time_row(task) -> dict:
    """Seconds of the PRESS curve and of explicit LOO refits over k = 1..K at L points (``vieira-press-time``)."""
    X, y = training_subset(task, load_split(task))
    L = len(y)
    C, s2 = float(task.params["C"]), float(task.params["sigma2_over_d"]) * X.shape[1]
    D, l, Xr, lr = _ranked_system(X, y, C, s2, get_precision("float64"))
    K = min(int(task.options.get("K", 10)), L)
    cols = [0] + [int(c) + 1 for c in mrsr(Xr, lr, k_max=K).order]
    K = len(cols) - 1
    t_press, t_loo = [], []
    for _ in range(int(task.options.get("repeats", 3))):
        t0 = time.perf_counter()
        press_curve(D, l, cols, first=2)
        t_press.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        _loo_over_k(D, l, cols, K)
        t_loo.append(time.perf_counter() - t0)
    return {"status": "ok", "K": K, "time_press": dumps(np.array(t_press)), "time_loo": dumps(np.array(t_loo))}


register_task_kind("vieira-steps", steps_row, validate=None)
register_task_kind("vieira-press-time", press_time_row, validate=None)
