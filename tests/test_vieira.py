"""Gates of Vieira et al.'s OP-LSSVM (MRSR + PRESS), IP-LSSVM and the P-LSSVM protocol.

Tolerances
----------
* MRSR against scikit-learn's ``lars_path`` (one response, ``method="lar"``,
  same unit-norm columns): both compute the same path in float64 by
  different factorizations; the coefficients of step k are an OLS solution
  on the active columns, so each side has forward error <= c kappa(X_A) u
  with c ~ n (a backward-stable QR/Cholesky solve, n rows).  We assert
  10 n kappa u, kappa the largest cond of the active sets.
* Least squares over the kept columns (op-lssvm step 4): for a solve with
  normwise backward error eps = n u (n rows; the package's LAPACK-style
  ceiling), Wedin's first-order bound (Higham, ASNA 2nd ed., Thm 20.1) is
  ||dz|| / ||z|| <= eps kappa (2 + (kappa + 1) rho), rho = ||r|| / (||D_k|| ||z||).
  The residual term kappa^2 rho is not negligible here (rho ~ 1e-5 at
  kappa ~ 3e5): every least-squares solution has it, QR or not.
* Normal equations: Cholesky of D_k^T D_k is backward stable for the
  *squared* matrix, so the error is ~ kappa^2 u.  We assert the measured
  ratio err / (kappa^2 u) lies in [1e-2, n] (it was 0.07-0.34 in float32
  and float64 over kappa 1e2..4e7): the loss is proportional to kappa^2,
  not hidden.
* PRESS against explicit leave-one-row-out refits: both sides are least-
  squares residuals, each with the Wedin error above relative to ||l||.
"""
import numpy as np
import pytest
from sklearn.linear_model import lars_path

from conftest import HARDWARE

import lssvm_analysis as la
from lssvm_analysis.linalg.kernels import make_kernel
from lssvm_analysis.solvers import vieira as V, vieira_selection
from lssvm_analysis.solvers.result import PhaseTimer


def _data(L=40, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(L, 2))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] + 0.3 * rng.normal(size=L) > 0, 1.0, -1.0)
    return X, y


def _D(X, y, C, sigma2, precision="float64", task="classification"):
    p = la.get_precision(precision)
    return V.lssvm_system(X, y, make_kernel("rbf", sigma2=sigma2), p, C, task, PhaseTimer())


# --------------------------------------------------------------------------- MRSR
@pytest.mark.parametrize("variant", ["qr", "bordered-inverse"])
def test_mrsr_one_response_equals_lars_path(variant):
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 12))
    y = X[:, :4] @ np.array([3.0, -2.0, 1.0, 0.5]) + 0.1 * rng.normal(size=30)
    Xn = X / np.linalg.norm(X, axis=0)
    _, active, coefs = lars_path(Xn, y, method="lar")
    path = la.mrsr(X, y, variant=variant)
    assert path.order.tolist() == list(active)
    ours = path.coefs[:, :, 0] * path.scale[None, :]  # back to the normalised columns
    kappa = np.linalg.cond(Xn[:, active])
    err = np.abs(ours.T - coefs).max() / np.abs(coefs).max()
    assert err <= 10 * X.shape[0] * kappa * 2.0 ** -53, err


def _lar_invariant_holds(Xn, t, w, rel=1e-8):
    """LAR's optimality: every nonzero coefficient's |correlation| equals the maximum."""
    c = np.abs(Xn.T @ (t - Xn @ w))
    nz = np.flatnonzero(w)
    return nz.size == 0 or np.ptp(c[nz]) <= rel * c.max() and c.max() <= c[nz].min() * (1 + rel)


def test_mrsr_ranks_op_lssvm_columns_like_lars():
    """On the (projected, unit-norm) D that op-lssvm ranks, MRSR = LARS (p = 1) as long as
    scikit-learn's path is a LAR path.  Finding: on this D (31 x 30, column cosines up to
    0.9967) lars_path's breakpoint 7 violates LAR's own optimality condition (a nonzero
    coefficient with |correlation| 0.978 above alpha 0.909) and it never enters column 24;
    our path keeps the condition at every step, so we compare up to sklearn's first violation."""
    X, y = _data(30)
    D, l = _D(X, y, C=10.0, sigma2=1.0)
    Xr, lr, colmap = vieira_selection._ranking_inputs(D, l, la.get_precision("float64"), False, "unit-norm")
    Xn = Xr / np.linalg.norm(Xr, axis=0)
    _, active, coefs = lars_path(Xn, lr, method="lar", max_iter=15)
    path = la.mrsr(Xr, lr, k_max=15)
    ours = path.coefs[:, :, 0] * path.scale[None, :]
    assert all(_lar_invariant_holds(Xn, lr, ours[k]) for k in range(len(path.order)))
    valid = next((k for k in range(coefs.shape[1]) if not _lar_invariant_holds(Xn, lr, coefs[:, k])),
                 coefs.shape[1])
    assert valid >= 6
    assert path.order.tolist()[:valid - 1] == list(active)[:valid - 1]


def test_mrsr_multiresponse_keeps_active_correlations_equal():
    """Eq. (10): after each step the active columns share c = (1 - beta) c_max (l1 across responses)
    and no inactive column exceeds it; checked to 100 n u relative."""
    rng = np.random.default_rng(3)
    X, T = rng.normal(size=(25, 10)), rng.normal(size=(25, 3))
    path = la.mrsr(X, T, k_max=6)
    Xn = X / path.scale
    for k in range(1, 6):
        W = path.coefs[k] * path.scale[:, None]
        c = np.abs(Xn.T @ (T - Xn @ W)).sum(axis=1)
        act, inact = path.order[:k], np.setdiff1d(np.arange(10), path.order[:k])
        level = c[act].mean()
        assert np.ptp(c[act]) <= 100 * 25 * 2.0 ** -53 * level
        assert c[inact].max() <= level * (1 + 100 * 25 * 2.0 ** -53)


@pytest.mark.parametrize("precision", ["float32", "longdouble", "mp30"])
def test_mrsr_ranking_agrees_across_precisions_when_well_conditioned(precision):
    X, y = _data(16)
    D, l = _D(X, y, C=10.0, sigma2=1.0)
    ref = la.mrsr(D, l, k_max=8, precision="mp50").order
    got = la.mrsr(D, l, k_max=8, precision=precision).order
    assert got.tolist() == ref.tolist()


def test_mrsr_bad_input_named():
    with pytest.raises(ValueError, match="k_max=0"):
        la.mrsr(np.eye(3), np.ones(3), k_max=0)
    with pytest.raises(ValueError, match="variant='lu'"):
        la.mrsr(np.eye(3), np.ones(3), variant="lu")


# --------------------------------------------------------------------------- PRESS
@pytest.mark.parametrize("variant", ["qr", "normal-equations"])
def test_press_equals_explicit_leave_one_row_out_refits(variant):
    X, y = _data(20)
    D, l = _D(X, y, C=10.0, sigma2=1.0)
    f = la.fit("op-lssvm", X, y, task="classification", C=10.0, sigma2=1.0, k_max=8)
    cols = [0] + list(f.diagnostics["ranking"])
    curve, guarded, _, _ = V.press_curve(D, l, cols, variant=variant, first=2)
    N, u = D.shape[0], 2.0 ** -53
    for k in (1, 4, 8):
        Dk = D[:, cols[:k + 1]]
        loo = np.empty(N)
        for i in range(N):
            keep = np.arange(N) != i
            z = np.linalg.lstsq(Dk[keep], l[keep], rcond=None)[0]
            loo[i] = l[i] - Dk[i] @ z
        explicit = np.mean(loo ** 2)
        s = np.linalg.svd(Dk, compute_uv=False)
        kappa = s[0] / s[-1]
        # squared residuals: twice the Wedin bound with rho <= ||l|| / (||D_k|| ||z||) taken as 1
        power = 2 if variant == "normal-equations" else 1
        bound = 2 * N * u * kappa ** power * (2 + kappa + 1)
        assert guarded[k - 1] == 0
        assert abs(curve[k - 1] - explicit) <= bound * explicit, (k, curve[k - 1], explicit)


def test_press_guard_records_rows_with_unit_leverage():
    """A row whose own column is kept has h_ii -> 1 as C -> inf; PRESS is inf there, recorded."""
    X, y = _data(12)
    D, l = _D(X, y, C=1e3, sigma2=0.01)  # nearly diagonal kernel: D_k ~ identity columns
    curve, guarded, _, _ = V.press_curve(D, l, list(range(D.shape[1])), first=1)
    assert guarded[-1] > 0 and np.isinf(curve[-1])  # all L+1 columns: H = I, every 1 - h_ii = 0


# --------------------------------------------------------------------------- step 4 forward error
def _ls_errors(C, sigma2, k, precision):
    X, y = _data(60)
    f = la.fit("op-lssvm", X, y, task="classification", C=C, sigma2=sigma2, k_max=40)
    cols = [0] + list(f.diagnostics["ranking"][:k])
    p, mp = la.get_precision(precision), la.get_precision("mp40")
    D, l = _D(X, y, C, sigma2, precision)
    with mp.context():
        Dm, lm = mp.asarray(D), mp.asarray(l)  # the exact LS solution of the D formed in p
        zr = V.solve_kept(Dm, lm, cols, mp, "lstsq")
        z_ref, r = mp.to_float64(zr), mp.to_float64(lm - Dm[:, cols] @ zr)
    s = np.linalg.svd(p.to_float64(D)[:, cols], compute_uv=False)
    kappa, rho = s[0] / s[-1], np.linalg.norm(r) / (s[0] * np.linalg.norm(z_ref))
    out = {}
    for solve in ("lstsq", "normal-equations"):
        try:
            z = p.to_float64(V.solve_kept(D, l, cols, p, solve))
            out[solve] = np.linalg.norm(z - z_ref) / np.linalg.norm(z_ref)
        except (la.CholeskyBreakdownError, np.linalg.LinAlgError):
            out[solve] = np.nan
    return out, kappa, rho, D.shape[0], p.unit_roundoff


@pytest.mark.parametrize("precision", HARDWARE)
@pytest.mark.parametrize("C, sigma2, k", [(1e4, 4.0, 5), (1e4, 4.0, 20), (1e6, 10.0, 10), (1e6, 10.0, 30)])
def test_lstsq_meets_wedin_bound_normal_equations_lose_kappa_squared(C, sigma2, k, precision):
    err, kappa, rho, n, u = _ls_errors(C, sigma2, k, precision)
    if kappa * n * u >= 1:  # QR rejects a numerically dependent column: recorded, not a number
        assert np.isnan(err["lstsq"])
        return
    assert err["lstsq"] <= n * u * kappa * (2 + (kappa + 1) * rho), (err, kappa, rho)
    if kappa ** 2 * u < 0.1:  # else Cholesky of D_k^T D_k breaks down (recorded as breakdown)
        ratio = err["normal-equations"] / (kappa ** 2 * u)
        assert 1e-2 <= ratio <= n, ratio
    if kappa >= 1e3 and kappa ** 2 * u < 0.1:
        assert err["normal-equations"] >= 30 * err["lstsq"]  # the digits lost, shown


def test_normal_equations_breakdown_is_recorded_not_raised():
    X, y = _data(60)
    f = la.fit("op-lssvm", X, y, task="classification", C=1e6, sigma2=10.0, k_max=40,
               precision="float32", solve="normal-equations", press="normal-equations")
    assert f.status in ("ok", "breakdown")
    assert np.isinf(f.diagnostics["press"]).any() or f.diagnostics["press_stop"] is not None


# --------------------------------------------------------------------------- solvers
def test_op_lssvm_keeps_bias_and_is_sparse_and_accurate():
    X, y = _data(120, seed=4)
    f = la.fit("op-lssvm", X, y, task="classification", C=10.0, sigma2=2.0)
    full = la.fit("lssvm-kkt", X, y, task="classification", C=10.0, sigma2=2.0)
    d = f.diagnostics
    assert d["columns"][0] == 0 and f.n_support == d["k_star"] < 120
    assert len(d["press"]) == min(100, 120) and d["k_star"] == int(np.argmin(d["press"])) + 1
    acc = np.mean(np.sign(f.predict(X)) == y)
    acc_full = np.mean(np.sign(full.predict(X)) == y)
    assert acc >= acc_full - 0.05
    assert np.all(np.diff(d["cond_Dk"]) >= -1e-8 * d["cond_Dk"][1:])  # cond grows with columns


def test_op_lssvm_rank_bias_literal_reading():
    X, y = _data(40)
    f = la.fit("op-lssvm", X, y, task="classification", C=10.0, sigma2=1.0, rank_bias=True)
    assert f.ok and 0 in set(f.diagnostics["ranking"])  # the bias column is ranked like any other


def test_op_lssvm_authors_code_reading():
    """The authors' MATLAB (OPLSSVM.m): MRSR ranks the columns of Omega + I/gamma against the labels,
    nothing projected, and the bias column is put in front of the ranked columns afterwards."""
    X, y = _data(40)
    f = la.fit("op-lssvm", X, y, task="classification", C=10.0, sigma2=1.0, reading="authors-code")
    D, _ = _D(X, y, C=10.0, sigma2=1.0)
    path = la.mrsr(D[1:, 1:], y, k_max=40)
    assert f.ok and f.diagnostics["columns"][0] == 0  # the bias, added after the ranking
    assert f.diagnostics["ranking"].tolist() == (path.order + 1).tolist()  # columns of D: patterns from 1
    paper = la.fit("op-lssvm", X, y, task="classification", C=10.0, sigma2=1.0)
    assert paper.diagnostics["ranking"].tolist() != f.diagnostics["ranking"].tolist()  # another reading
    with pytest.raises(ValueError, match="reading="):
        la.fit("op-lssvm", X, y, task="classification", reading="matlab")
    with pytest.raises(ValueError, match="rank_bias"):
        la.fit("op-lssvm", X, y, task="classification", reading="authors-code", rank_bias=True)


@pytest.mark.parametrize("solve", ["lstsq", "normal-equations"])
def test_op_lssvm_k_by_training_accuracy_is_the_authors_loop(solve):
    """k_rule="training-accuracy" (OPLSSVM.m): k = 1, 3, 5, ..., each fit's accuracy on the training set,
    k* = the first k of largest accuracy.  Checked against refits at every k with k_rule="fixed" and
    the model's own predictions (``fit.predict``), so the decision values read off the rows of D are
    the model's."""
    X, y = _data(60, seed=3)
    kw = dict(task="classification", C=10.0, sigma2=0.5, solve=solve, conditioning=False)
    f = la.fit("op-lssvm", X, y, k_rule="training-accuracy", k_max=30, **kw)
    ks, acc = f.diagnostics["training_accuracy_k"], f.diagnostics["training_accuracy"]
    assert ks.tolist() == list(range(1, 31, V.TRAINING_ACCURACY_STEP))[:len(ks)] and len(ks) >= 5
    for k, a in zip(ks, acc):
        g = la.fit("op-lssvm", X, y, k_rule="fixed", k_max=int(k), **kw)
        assert g.diagnostics["k_star"] == k
        assert a == np.mean(np.where(g.predict(X) >= 0, 1.0, -1.0) == y)
    assert f.diagnostics["k_star"] == ks[int(np.argmax(acc))] and f.n_support == f.diagnostics["k_star"]
    assert acc.max() > acc[0]  # the rule has something to choose: accuracy moves with k here
    press = la.fit("op-lssvm", X, y, k_max=30, **kw)
    assert press.diagnostics["k_star"] == int(np.argmin(press.diagnostics["press"])) + 1
    assert press.diagnostics["k_rule"] == "press" and "training_accuracy" not in press.diagnostics


def test_op_lssvm_k_rule_bad_input():
    X, y = _data(20)
    with pytest.raises(ValueError, match="k_rule="):
        la.fit("op-lssvm", X, y, task="classification", k_rule="cv")
    with pytest.raises(ValueError, match="task='regression'"):
        la.fit("op-lssvm", X, y, task="regression", k_rule="training-accuracy")
    f = la.fit("op-lssvm", X, y, task="classification", k_rule="fixed", k_max=7)
    assert f.diagnostics["k_star"] == 7 and len(f.diagnostics["columns"]) == 8  # + the bias column


def test_ip_lssvm_keeps_the_table_counts():
    # Vieira Table 2: L = 201 -> 181/161/141, L = 825 -> 742/660/577
    for L, counts in ((201, (181, 161, 141)), (825, (742, 660, 577))):
        assert tuple(V._n_keep(L, p) for p in (0.1, 0.2, 0.3)) == counts
    X, y = _data(50)
    f = la.fit("ip-lssvm", X, y, task="classification", C=10.0, sigma2=1.0, prune_fraction=0.2)
    assert f.n_support == 40
    alpha = f.diagnostics["alpha_full"]
    assert set(f.support_) == set(np.argsort(-alpha, kind="stable")[:40])


@pytest.mark.parametrize("kw, name", [({"prune_fraction": 0.0}, "prune_fraction"),
                                      ({"prune_fraction": 1.0}, "prune_fraction"),
                                      ({"order_by": "size"}, "order_by")])
def test_ip_lssvm_bad_input(kw, name):
    X, y = _data(20)
    with pytest.raises(ValueError, match=name):
        la.fit("ip-lssvm", X, y, task="classification", **kw)


@pytest.mark.parametrize("kw, name", [({"k_max": 0}, "k_max"), ({"normalize": "l1"}, "normalize"),
                                      ({"ranking": "lu"}, "ranking")])
def test_op_lssvm_bad_input(kw, name):
    X, y = _data(20)
    with pytest.raises(ValueError, match=name):
        la.fit("op-lssvm", X, y, task="classification", **kw)


@pytest.mark.parametrize("name", ["op-lssvm", "ip-lssvm"])
def test_one_class_is_named(name):
    X, _ = _data(20)
    with pytest.raises(ValueError, match="one class"):
        la.fit(name, X, np.ones(20), task="classification")


# --------------------------------------------------------------------------- P-LSSVM protocol
def test_pruned_vieira_protocol_steps_and_stop():
    X, y = _data(100, seed=5)
    f = la.fit("lssvm-pruned", X, y, task="classification", C=10.0, sigma2=1.0, fraction=0.01,
               fraction_of="original", index="training", reference="initial", atol=0.025)
    n = f.history["n_support"]
    assert np.all(-np.diff(n) == 1)  # 1 % of the original L = 100 per step
    idx = f.history["index"]
    acc = f.history["accepted"]
    assert np.all(idx[acc] <= idx[0] + 0.025 + 1e-12)  # within 2.5 points of the unpruned model
    if f.diagnostics["stop_reason"] == "degraded":
        assert idx[-1] > idx[0] + 0.025


def test_pruned_default_behaviour_unchanged():
    X, y = _data(60, seed=6)
    kw = dict(task="classification", C=10.0, sigma2=1.0, validation=(X[::2], y[::2]))
    a = la.fit("lssvm-pruned", X, y, **kw)
    b = la.fit("lssvm-pruned", X, y, fraction_of="current", reference="best", **kw)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.history["n_support"], b.history["n_support"])


# --------------------------------------------------------------------------- data
@pytest.mark.parametrize("name, kw, sizes", [
    ("haberman", {}, (201, 105)), ("pima-uci", {}, (506, 262)),
    ("breast-cancer-wisconsin", {"missing": "median", "test_fraction": 238 / 699}, (461, 238)),
    ("ripley-synth", {"test_fraction": 425 / 1250}, (825, 425)),
    ("penbased", {"classes": (3, 4)}, (1466, 733))])
def test_vieira_table1_sizes_and_training_zscore(name, kw, sizes):
    from lssvm_analysis import datasets as ds

    d = ds.load(name, seed=3, **kw)
    assert (len(d.y_train), len(d.y_test)) == sizes
    np.testing.assert_allclose(d.X_train.mean(axis=0), 0, atol=1e-12)
    assert not np.isnan(d.X_train).any() and not np.isnan(d.X_test).any()


def test_vieira_unavailable_sets_are_named():
    from lssvm_analysis import datasets as ds

    assert set(ds.VIEIRA_UNAVAILABLE) == {"vertebral-column", "dermatology"}
    with pytest.raises(ValueError, match="classes"):
        ds.load("penbased", classes=(3, 42))
