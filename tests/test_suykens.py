"""Gates for the Suykens ch. 3 solvers: KKT, Schur, CG, zero bias, Fisher, pruning, multiclass.

Error measures come from :mod:`lssvm_analysis.analysis.reference` (certified solution) and
:mod:`lssvm_analysis.analysis.measures` (residuals in ball arithmetic, inf-norms).  The bounds used throughout:

* backward error (Rigal-Gaches, ||A z - rhs|| / (||A|| ||z|| + ||rhs||)) of a
  backward-stable direct solve: beta = c N u with c = LAPACK_THRESHOLD = 30,
  the acceptance threshold of LAPACK's own residual tests (xPOT01/xGET01);
* the Schur route and CG: their KKT residual is r_nu - b r_eta (docstring of
  ``lssvm_analysis.solvers.suykens``), so beta = 2 tau with tau the relative
  residual of each SPD solve: 30 N u for Cholesky, rtol + 30 N u for CG.  Two
  assumptions, both true of the data here: no cancellation in alpha = nu - eta b
  (||nu||, |b| ||eta|| <~ ||z||: targets without a large common offset), and,
  for CG, that the true residual drifts from the recursively updated one (which
  its stop tests) by O(k u ||A|| ||x||) after k steps (Greenbaum 1997): the
  30 N u term covers k <= 30 N;
* forward error: Higham (2002) Thm 7.2 with E = |A|-normwise perturbation of
  A and b, ||dz|| / ||z|| <= 2 kappa beta / (1 - kappa beta)  (``_fwd``).
"""
from __future__ import annotations

import numpy as np
import pytest
from conftest import HARDWARE, LAPACK_THRESHOLD, forward_bound, to_f64
from sklearn.datasets import load_iris
from sklearn.kernel_ridge import KernelRidge

import lssvm_analysis as la
from lssvm_analysis.linalg.kernels import rbf_error_bound
from lssvm_analysis.analysis.measures import backward_error, forward_error
from lssvm_analysis.core.exceptions import ConvergenceWarning, UnknownSolverError
from lssvm_analysis.linalg.cg import cg_iteration_bound
from lssvm_analysis.analysis.reference import condition_number, reference_solve
from lssvm_analysis.solvers.multiclass import MulticlassFit, fit_multiclass, hamming_decode, make_code

SUYKENS = ["lssvm-kkt", "lssvm-schur", "lssvm-cg", "krr", "lssvm-fisher"]
DIRECT_KKT = ["lssvm-kkt", "lssvm-schur", "lssvm-cg"]


# -- data and bounds -----------------------------------------------------------------
def _data(rng, n, task, d=2):
    """Dyadic inputs in [-3, 3] (exact in float32), smooth targets or +-1 labels of both classes."""
    X = rng.integers(-192, 193, size=(n, d)) / 64
    if task == "regression":
        return X, np.sin(X @ np.arange(1, d + 1)) / 2
    y = np.where(X[:, 0] + 0.5 * np.sin(3 * X[:, 1]) >= 0, 1.0, -1.0)
    y[:2] = [1.0, -1.0]  # both classes, whatever the draw
    return X, y


def _tasks(solver):
    return ["classification"] if solver == "lssvm-fisher" else ["regression", "classification"]


def _beta(fit, n):
    """A-priori backward-error bound of the fit's own system: the registry's (module docstring)."""
    return la.get_solver(fit.solver).backward_bound(fit, n)


def _system(fit, X, y):
    return la.get_solver(fit.solver).system(X, y, fit)


def _z(fit, y):
    """The solution of the fit's own system, in its precision: [b; alpha], or alpha for krr.

    For (3.5) coef_ = alpha * y, so alpha = coef_ * y (y_k^2 = 1): exact sign flips.
    """
    coef = fit.coef_
    if fit.params["task"] == "classification" and fit.solver in DIRECT_KKT:
        signs = [1 if v > 0 else -1 for v in y]
        coef = coef * (np.array(signs, dtype=object) if coef.dtype == object else
                       np.array(signs, dtype=coef.dtype))
    if fit.solver == "krr":
        return coef
    return np.concatenate([np.array([fit.bias_], dtype=coef.dtype), coef])


# -- accuracy of every solver in every precision ---------------------------------------
@pytest.mark.parametrize("solver", SUYKENS)
def test_every_precision_backward_and_forward_error(solver, precision, n_for, rng):
    """Each solver, in each precision, solves its own system to beta (backward) and 2 kappa beta (forward).

    Also: coef_ and bias_ are of the precision's dtype (mp: mpf of that context).
    """
    n = n_for(precision, 50, 30)
    for task in _tasks(solver):
        X, y = _data(rng, n, task)
        fit = la.fit(solver, X, y, precision=precision.name, C=10.0, sigma2=1.0, task=task)
        assert fit.status == "ok", fit.diagnostics
        assert fit.coef_.dtype == precision.dtype and fit.coef_.shape == (n,)
        if precision.dtype == object:
            assert all(v.context is precision.ctx for v in fit.coef_)
            assert fit.bias_.context is precision.ctx
        else:
            assert np.asarray(fit.bias_).dtype == precision.dtype
        A, rhs, unpack = _system(fit, X, y)
        assert A.dtype == precision.dtype
        z = _z(fit, y)
        out = unpack(z)
        assert np.array_equal(to_f64(out["coef"]), to_f64(fit.coef_))
        beta = _beta(fit, len(rhs))
        be = backward_error(A, z, rhs)
        assert be.value <= beta, (task, be.value / (len(rhs) * precision.unit_roundoff))
        ref = reference_solve(A, rhs, digits=max(20, int(precision.digits) + 5))
        fe = forward_error(z, ref)
        assert fe.value <= forward_bound(ref.cond_estimate, beta), (task, fe.value, ref.cond_estimate)


@pytest.mark.parametrize("task", ["regression", "classification"])
@pytest.mark.parametrize("prec", HARDWARE)
def test_kkt_schur_cg_agree(task, prec, rng):
    """lssvm-kkt == lssvm-schur == lssvm-cg: ||z_i - z_j|| <= (fwd_i + fwd_j) ||z*|| (inf-norms)."""
    n = 80
    X, y = _data(rng, n, task)
    fits = {s: la.fit(s, X, y, precision=prec, C=10.0, sigma2=1.0, task=task) for s in DIRECT_KKT}
    A, rhs, _ = _system(fits["lssvm-kkt"], X, y)
    kappa = reference_solve(A, rhs, digits=20).cond_estimate  # upper estimate of kappa_inf
    z = {s: to_f64(_z(f, y)) for s, f in fits.items()}
    fwd = {s: forward_bound(kappa, _beta(f, n + 1)) for s, f in fits.items()}
    # ||z_a - z_b|| <= (fwd_a + fwd_b) ||z*||  and  ||z*|| <= ||z_kkt|| / (1 - fwd_kkt)
    z_star = np.abs(z["lssvm-kkt"]).max() / (1 - fwd["lssvm-kkt"])
    for i, a in enumerate(DIRECT_KKT):
        for b in DIRECT_KKT[i + 1:]:
            assert np.abs(z[a] - z[b]).max() <= (fwd[a] + fwd[b]) * z_star, (a, b)


@pytest.mark.parametrize("solver", SUYKENS)
def test_float32_agrees_with_float64(solver, rng):
    """float32 vs float64 within fwd(beta32 + delta) + fwd(beta64), delta = the data's float32 rounding.

    delta = max(||A32 - A64|| / ||A64||, ||rhs32 - rhs64|| / ||rhs64||) is measured on the
    systems the two fits formed and checked against its O(u32) bound.
    """
    n = 60
    for task in _tasks(solver):
        X, y = _data(rng, n, task)
        f32 = la.fit(solver, X, y, precision="float32", C=10.0, sigma2=1.0, task=task)
        f64 = la.fit(solver, X, y, precision="float64", C=10.0, sigma2=1.0, task=task)
        A32, b32, _ = _system(f32, X, y)
        A64, b64, _ = _system(f64, X, y)
        delta = max(np.abs(to_f64(A32) - A64).sum(axis=1).max() / np.abs(A64).sum(axis=1).max(),
                    np.abs(to_f64(b32) - b64).max() / np.abs(b64).max())
        # rhs rounded to nearest: <= u32.  A: each kernel entry of precision p is within
        # K_ij e_p of the exact kernel of the (dyadic, exactly representable) data, e_p the
        # first-order bound of the gemm formation (kernels.rbf_error_bound: (3d + 20) u (a_i + b_j)
        # + 6u, exp included), plus 1/C (<= u32): entrywise relative, hence normwise.
        u32 = np.finfo(np.float32).eps / 2
        assert delta <= (rbf_error_bound(X, sigma2=1.0, precision="float32")
                         + rbf_error_bound(X, sigma2=1.0) + u32), delta
        kappa = reference_solve(A64, b64, digits=20).cond_estimate
        z32, z64 = to_f64(_z(f32, y)), to_f64(_z(f64, y))
        # z32 solves (A64 + E) z = b64 + e with ||E||, ||e|| <= (beta32 + delta) (first order)
        fwd32 = forward_bound(kappa, _beta(f32, len(b64)) + delta)
        fwd64 = forward_bound(kappa, _beta(f64, len(b64)))
        z_star = np.abs(z64).max() / (1 - fwd64)
        assert np.abs(z32 - z64).max() <= (fwd32 + fwd64) * z_star, task
        assert f32.coef_.dtype == np.float32


# -- scikit-learn's KernelRidge -------------------------------------------------------
def test_krr_equals_sklearn_kernel_ridge(rng):
    """krr == KernelRidge(alpha=1/C, kernel='rbf', gamma=1/sigma2): coefficients and predictions.

    Both solve (K + I/C) alpha = y by Cholesky; scikit-learn's K comes from
    ||x||^2 + ||z||^2 - 2 x.z (cancellation), ours from the differences, so the
    two systems differ by dK, measured.  Each solve has backward error <= 30 N u,
    hence ||a_sk - a|| / ||a|| <= fwd(2 * 30 N u + ||dK|| / ||H||) (inf-norms).
    Predictions K_t a differ by at most ||dK_t|| ||a_sk|| + ||K_t|| ||a_sk - a||.
    """
    n, m, d, C, sigma2 = 120, 50, 3, 100.0, 2.0
    X = rng.uniform(-2, 2, size=(n, d))
    y = np.cos(X.sum(axis=1))
    Xt = rng.uniform(-2, 2, size=(m, d))
    fit = la.fit("krr", X, y, C=C, sigma2=sigma2)
    kr = KernelRidge(alpha=1 / C, kernel="rbf", gamma=1 / sigma2).fit(X, y)
    H, rhs, _ = _system(fit, X, y)
    dK = np.abs(kr._get_kernel(X) - la.rbf_kernel(X, sigma2=sigma2)).sum(axis=1).max()
    kappa = reference_solve(H, rhs, digits=20).cond_estimate
    u = np.finfo(np.float64).eps / 2
    rel = forward_bound(kappa, 2 * LAPACK_THRESHOLD * n * u + dK / np.abs(H).sum(axis=1).max())
    a, a_sk = fit.coef_, kr.dual_coef_
    assert np.abs(a_sk - a).max() <= rel * np.abs(a_sk).max() / (1 - rel)
    Kt = la.rbf_kernel(Xt, X, sigma2=sigma2)
    dKt = np.abs(kr._get_kernel(Xt, X) - Kt).sum(axis=1).max()
    bound = dKt * np.abs(a_sk).max() + np.abs(Kt).sum(axis=1).max() * np.abs(a_sk - a).max()
    # + the rounding of the two products themselves: n u |K_t| |a| each (Higham 3.5)
    bound += 2 * n * u * np.abs(Kt).sum(axis=1).max() * np.abs(a_sk).max()
    assert np.abs(kr.predict(Xt) - fit.predict(Xt)).max() <= bound
    assert fit.bias_ == 0


# -- CG ----------------------------------------------------------------------------
@pytest.mark.parametrize("prec", HARDWARE)
@pytest.mark.parametrize("task", ["regression", "classification"])
def test_cg_iterations_within_bound_327(task, prec, rng):
    """Each CG run stops within the (3.27) count for the measured kappa(H) and the eps it achieved.

    eps = ||x_i - x*||_H / ||x*||_H (x_0 = 0) against the certified solution of the
    system the solver formed; kappa(H) from the certified-reference machinery
    (float64 eigenvalues, accurate to ~ N u64 kappa).  Also: the solver's own
    ``cg_bound`` (eps = rtol / sqrt(kappa)) is never exceeded, and kappa_H agrees
    with the measured kappa to N u64 kappa (Weyl).
    """
    n = 80
    X, y = _data(rng, n, task)
    fit = la.fit("lssvm-cg", X, y, precision=prec, C=100.0, sigma2=1.0, task=task)
    assert fit.ok
    A, rhs, _ = _system(fit, X, y)
    H = A[1:, 1:]
    kappa = condition_number(H)
    u64 = np.finfo(np.float64).eps / 2
    assert abs(fit.diagnostics["kappa_H"] / kappa - 1) <= LAPACK_THRESHOLD * n * u64 * kappa
    H64 = to_f64(H)
    for name, b in (("eta", A[1:, 0]), ("nu", rhs[1:])):
        x = fit.diagnostics[name]
        ref = reference_solve(H, b, digits=25)
        e = to_f64(la.get_precision("mp40").asarray(x) - ref.x)  # exact difference, then rounded
        xs = ref.x_float64()
        eps = np.sqrt(e @ H64 @ e) / np.sqrt(xs @ H64 @ xs)
        its = fit.diagnostics[f"iterations_{name}"]
        assert its <= cg_iteration_bound(kappa, eps), (name, its, eps)
        assert its <= fit.diagnostics["cg_bound"], (name, its)
    assert fit.iterations == fit.diagnostics["iterations_eta"] + fit.diagnostics["iterations_nu"]
    assert fit.history["eta_residual_norm"].shape == (fit.diagnostics["iterations_eta"] + 1,)


def test_cg_not_converged_is_recorded(rng):
    """maxiter too small: status "not-converged", no model, a ConvergenceWarning, the history kept."""
    X, y = _data(rng, 40, "regression")
    with pytest.warns(ConvergenceWarning, match="did not converge"):
        fit = la.fit("lssvm-cg", X, y, C=100.0, maxiter=2)
    assert fit.status == "not-converged" and fit.coef_ is None
    assert fit.diagnostics["reason_eta"] == "maxiter" and fit.iterations == 4
    with pytest.raises(RuntimeError, match="not-converged"):
        fit.predict(X)


def test_cg_v_rule_can_be_switched_on(rng):
    """vtol > 0 turns Suykens' V(x)-decrease stop on; the stop reason says which test fired."""
    X, y = _data(rng, 60, "regression")
    fit = la.fit("lssvm-cg", X, y, C=1e3, vtol=np.finfo(np.float64).eps / 2)
    assert fit.ok and fit.params["vtol"] > 0
    assert {fit.diagnostics["reason_eta"], fit.diagnostics["reason_nu"]} <= {"V-decrease", "residual"}
    off = la.fit("lssvm-cg", X, y, C=1e3)
    assert off.diagnostics["reason_eta"] == off.diagnostics["reason_nu"] == "residual"


# -- pruning (§3.7) -------------------------------------------------------------------
def _sinc_set(rng, n):
    X = rng.uniform(-10, 10, size=(n, 1))
    return X, np.sinc(X[:, 0] / np.pi)  # sin(x) / x, noiseless


def test_pruning_noiseless_sinc_reaches_50_support_vectors(rng):
    """Suykens Fig. 3.9 (noiseless sinc, RBF, gamma and sigma fixed): 500 SV -> <= 50 SV.

    gamma = C = 1e3, sigma^2 = 8 (sinc's lobes are ~pi wide: sigma ~ 2.8 spans one).
    Stop rule: validation MSE may exceed the best so far by atol = 1e-4, i.e. the
    validation RMSE stays below ~1e-2 (1 % of sinc's range).  Stated test bound:
    RMSE on 1000 fresh points <= 2e-2 = 2 sqrt(atol) (same distribution as the
    validation set; the factor 2 covers the sampling spread of a 200-point
    validation set).  Measured over 100 seeds: the path stops at 8-40 SV with
    test RMSE 0.002-0.011 (median 0.0085), on the jump of the error to ~1e-1
    that removing the last points of a lobe causes.
    """
    X, y = _sinc_set(rng, 500)
    val = _sinc_set(rng, 200)
    Xt, yt = _sinc_set(rng, 1000)
    fit = la.fit("lssvm-pruned", X, y, C=1e3, sigma2=8.0, validation=val, atol=1e-4)
    h = fit.history
    assert fit.ok and fit.n_support <= 50
    assert h["n_support"][0] == 500 and h["n_support"][1] == 475  # 5 % of the current set per step
    assert np.all(np.diff(h["n_support"]) < 0)
    assert np.sqrt(np.mean((fit.predict(Xt) - yt) ** 2)) <= 2 * np.sqrt(1e-4)
    # the stop rule as documented: every accepted index within atol of the best before it
    best = np.minimum.accumulate(h["index"])
    acc = h["accepted"]
    assert np.all(h["index"][1:][acc[1:]] <= best[:-1][acc[1:]] + 1e-4)
    if fit.diagnostics["stop_reason"] == "degraded":
        assert not acc[-1] and h["index"][-1] > best[-2] + 1e-4
        assert fit.n_support == h["n_support"][-2]


def test_pruning_strict_rule_stops_at_once_on_noiseless_data(rng):
    """Finding: with the literal rule "prune unless the index degrades" (atol = rtol = 0),
    noiseless data stop within a step or two: removing any point raises the validation
    error a little.  Fig. 3.9's 500 -> 50 path needs a tolerance (test above).

    Asserted: the run ends on a rejected step whose index exceeds the best before it.
    """
    X, y = _sinc_set(rng, 300)
    fit = la.fit("lssvm-pruned", X, y, C=1e3, sigma2=8.0, validation=_sinc_set(rng, 100))
    h = fit.history
    assert fit.diagnostics["stop_reason"] == "degraded"
    assert not h["accepted"][-1] and h["index"][-1] > h["index"][:-1].min()
    assert fit.n_support == h["n_support"][-2]


def test_pruned_model_is_the_base_fit_on_its_support(rng):
    """The returned model is the base solver refitted on support_ (same arithmetic: bitwise equal)."""
    X, y = _data(rng, 120, "classification")
    for base in ("lssvm-schur", "lssvm-kkt"):
        fit = la.fit("lssvm-pruned", X, y, task="classification", C=10.0, base=base,
                     index=lambda f: 0.0, max_steps=3)
        assert fit.iterations == 3 and fit.diagnostics["stop_reason"] == "max_steps"
        assert fit.n_support == 120 - 6 - 5 - 5  # floor(5 % of 120, 114, 109)
        ref = la.fit(base, X[fit.support_], y[fit.support_], task="classification", C=10.0)
        assert np.array_equal(fit.coef_, ref.coef_) and fit.bias_ == ref.bias_
        assert set(fit.timings) >= {"kernel", "formation", "factorization", "selection"}


# -- multiclass (§3.2) -----------------------------------------------------------------
@pytest.mark.parametrize("code", ["moc", "1vsa", "1vs1", "ecoc"])
def test_multiclass_iris(code, rng):
    """Each code on iris (3 classes), RBF LS-SVM: test accuracy >= 85 %.

    Suykens Table 3.5 reports 97.6 % (std 2.3) for RBF LS-SVM on iris; 85 % is that
    minus 5 std, so a sound decomposition/decoding passes on any split.
    """
    X, y = load_iris(return_X_y=True)
    X = (X - X.mean(axis=0)) / X.std(axis=0)
    perm = rng.permutation(len(y))
    tr, te = perm[:100], perm[100:]
    m = fit_multiclass(X[tr], y[tr], code=code, C=10.0, sigma2=4.0)
    assert isinstance(m, MulticlassFit) and m.status == "ok"
    assert m.codebook.shape == (3, {"moc": 2, "1vsa": 3, "1vs1": 3, "ecoc": 3}[code])
    assert len(m.fits) == m.codebook.shape[1]
    assert np.mean(m.predict(X[te]) == y[te]) >= 0.85


def test_multiclass_1vs1_hamming_is_majority_vote(rng):
    """1vs1 Hamming decoding (zeros ignored) == majority vote of the pairwise classifiers.

    4 overlapping Gaussian blobs so that ties occur; both rules give ties to the first class.
    """
    centers = np.array([[0, 0], [1.5, 0], [0, 1.5], [1.5, 1.5]])
    lab = rng.integers(0, 4, size=200)
    X = centers[lab] + rng.normal(size=(200, 2))
    y = np.array(["a", "b", "c", "d"])[lab]
    m = fit_multiclass(X, y, code="1vs1", C=1.0, sigma2=2.0)
    Xq = rng.uniform(-2, 3.5, size=(500, 2))
    f = m.decision_function(Xq)
    votes = np.zeros((len(Xq), 4), dtype=int)
    for col, (i, j) in enumerate((i, j) for i in range(4) for j in range(i + 1, 4)):
        votes[np.arange(len(Xq)), np.where(f[:, col] >= 0, i, j)] += 1
    assert np.array_equal(m.predict(Xq), m.classes_[np.argmax(votes, axis=1)])
    assert set(m.predict(X)) <= set(y.tolist())


def test_codes_are_deterministic_and_separating():
    """ECOC: exhaustive code for n_C <= 7 (min row distance 2^(n_C-2) >= 3 from 4 classes),
    a seeded random code beyond; MOC / 1vsA / 1vs1 shapes; every column splits the classes."""
    for n in range(2, 11):
        for code in ("moc", "1vsa", "1vs1", "ecoc"):
            M = make_code(code, n)
            assert np.array_equal(M, make_code(code, n))
            assert np.all((M == 1).any(axis=0) & (M == -1).any(axis=0))
            dist = [np.sum((M[i] != M[j]) & (M[i] != 0) & (M[j] != 0)) for i in range(n)
                    for j in range(i + 1, n)]
            assert min(dist) >= 1  # every pair of classes is separated by some classifier
        ecoc = make_code("ecoc", n)
        if 4 <= n <= 7:
            assert ecoc.shape[1] == 2 ** (n - 1) - 1 and min(
                np.sum(ecoc[i] != ecoc[j]) for i in range(n) for j in range(i + 1, n)) == 2 ** (n - 2)
        if n > 7:
            assert min(np.sum(ecoc[i] != ecoc[j]) for i in range(n) for j in range(i + 1, n)) >= 3
    assert make_code("moc", 5).shape == (5, 3) and make_code("1vs1", 5).shape == (5, 10)
    assert np.array_equal(hamming_decode([[1, -1, 1]], make_code("1vs1", 3)), [0])


# -- bad input, untouched input, breakdown ---------------------------------------------
def _bad_cases(rng):
    X, y = _data(rng, 20, "classification")
    Xn = X.copy()
    Xn[3, 1] = np.nan
    return [
        ("one class", dict(X=X, y=np.ones(20), task="classification"), ValueError, "one class"),
        ("labels not +-1", dict(X=X, y=(y > 0).astype(float), task="classification"), ValueError,
         "labels"),
        ("C = 0", dict(X=X, y=y, C=0.0), ValueError, "C=0.0"),
        ("C < 0", dict(X=X, y=y, C=-1.0), ValueError, "C=-1.0"),
        ("C not a number", dict(X=X, y=y, C="big"), TypeError, "C='big'"),
        ("sigma2 = 0", dict(X=X, y=y, sigma2=0.0), ValueError, "sigma2=0.0"),
        ("NaN in X", dict(X=Xn, y=y), ValueError, "X"),
        ("NaN in y", dict(X=X, y=np.where(np.arange(20) == 5, np.nan, y)), ValueError, "y"),
        ("lengths", dict(X=X, y=y[:-1]), ValueError, "X.shape=(20, 2), y.shape=(19,)"),
        ("unknown task", dict(X=X, y=y, task="ranking"), ValueError, "task='ranking'"),
    ]


@pytest.mark.parametrize("solver", SUYKENS + ["lssvm-pruned"])
def test_bad_input_raises_typed_errors(solver, rng):
    """Every bad input gives a ValueError/TypeError naming the argument and the value."""
    for what, kw, exc, msg in _bad_cases(rng):
        kw = dict(kw)
        X, y = kw.pop("X"), kw.pop("y")
        if solver == "lssvm-fisher":
            kw.setdefault("task", "classification")
        if solver == "lssvm-pruned":
            kw["validation"] = (X[:5], y[:5])
        with pytest.raises(exc, match=msg.replace("(", r"\(").replace(")", r"\)")):
            la.fit(solver, X, y, **kw)


def test_bad_options_raise_typed_errors(rng):
    """Unknown solver / code, and the CG, pruning and multiclass options."""
    X, y = _data(rng, 20, "classification")
    with pytest.raises(UnknownSolverError, match="solver='lssvm-nope'"):
        la.fit("lssvm-nope", X, y)
    with pytest.raises(ValueError, match="rtol=0"):
        la.fit("lssvm-cg", X, y, rtol=0)
    with pytest.raises(ValueError, match="vtol=-1"):
        la.fit("lssvm-cg", X, y, vtol=-1)
    with pytest.raises(ValueError, match="maxiter >= 1, got maxiter=0"):
        la.fit("lssvm-cg", X, y, maxiter=0)
    with pytest.raises(TypeError, match="estimate_kappa='no'"):
        la.fit("lssvm-cg", X, y, estimate_kappa="no")
    with pytest.raises(TypeError, match="rtol='x'"):
        la.fit("lssvm-pruned", X, y, index=lambda f: 0.0, rtol="x")
    with pytest.raises(ValueError, match="fraction"):
        la.fit("lssvm-pruned", X, y, fraction=1.5, index=lambda f: 0.0)
    with pytest.raises(ValueError, match="got neither"):
        la.fit("lssvm-pruned", X, y)
    with pytest.raises(ValueError, match="atol=-1"):
        la.fit("lssvm-pruned", X, y, index=lambda f: 0.0, atol=-1)
    with pytest.raises(UnknownSolverError, match="base='nope'"):   # issue 32: it said solver=
        la.fit("lssvm-pruned", X, y, base="nope", index=lambda f: 0.0)
    with pytest.raises(ValueError, match="code='2vs2'"):
        fit_multiclass(X, y, code="2vs2")
    with pytest.raises(ValueError, match="one class"):
        fit_multiclass(X, np.zeros(20))
    with pytest.raises(UnknownSolverError, match="solver='nope'"):
        fit_multiclass(X, y, solver="nope")
    with pytest.raises(ValueError, match="got task='regression'"):
        la.fit("lssvm-fisher", X, y, task="regression")


@pytest.mark.parametrize("solver", SUYKENS + ["lssvm-pruned", "multiclass"])
def test_inputs_never_modified(solver, rng):
    """X, y (and the validation set) are bitwise unchanged; the Fit shares no memory with them."""
    X, y = _data(rng, 40, "classification")
    Xc, yc = X.copy(), y.copy()
    Xv, yv = X[:10].copy(), y[:10].copy()
    if solver == "multiclass":
        m = fit_multiclass(X, y, code="1vs1")
        fits = m.fits
    else:
        kw = {"validation": (Xv, yv)} if solver == "lssvm-pruned" else {}
        fits = [la.fit(solver, X, y, task="classification", **kw)]
    assert np.array_equal(X, Xc) and np.array_equal(y, yc)
    assert np.array_equal(Xv, X[:10]) and np.array_equal(yv, y[:10])
    for f in fits:
        for arr in (f.coef_, f.X_support_, f.support_):
            assert not np.shares_memory(arr, X) and not np.shares_memory(arr, y)


@pytest.mark.parametrize("solver", ["lssvm-schur", "krr", "lssvm-fisher", "lssvm-pruned"])
def test_float32_breakdown_is_recorded(solver, rng):
    """schur/krr/fisher in float32 with huge C on a singular kernel: status "breakdown" with the record.

    X[1] = X[0] makes rows 0 and 1 of K equal (K_00 = K_01 = K_11 = 1 exactly), and
    1/C = 1e-12 < u32 vanishes in 1 + 1/C, so any Cholesky computes l_10 = 1 and the
    pivot 1 - 1 = 0 exactly at step 1.  In float64 the same data factor (pivot ~ 2e-12).
    """
    X, y = _data(rng, 30, "classification")
    X[1] = X[0]
    kw = {"validation": (X, y)} if solver == "lssvm-pruned" else {}
    fit = la.fit(solver, X, y, precision="float32", C=1e12, task="classification", **kw)
    assert fit.status == "breakdown" and fit.coef_ is None
    rec = fit.breakdown
    assert (rec.step, rec.pivot, rec.n, rec.precision) == (1, 0.0, 30, "float32")
    with pytest.raises(RuntimeError, match="breakdown"):
        fit.predict(X)
    assert la.fit(solver, X, y, precision="float64", C=1e12, task="classification", **kw).ok


def test_pruning_runs_in_every_precision(precision, n_for, rng):
    """lssvm-pruned in each precision: coef_ of the precision's dtype, equal to the base refit."""
    n = n_for(precision, 60, 30)
    X, y = _sinc_set(rng, n)
    fit = la.fit("lssvm-pruned", X, y, precision=precision.name, C=100.0, sigma2=8.0,
                 index=lambda f: 0.0, max_steps=2)
    assert fit.ok and fit.coef_.dtype == precision.dtype and fit.iterations == 2
    ref = la.fit("lssvm-schur", X[fit.support_], y[fit.support_], precision=precision.name,
                 C=100.0, sigma2=8.0)
    assert np.array_equal(to_f64(fit.coef_), to_f64(ref.coef_))
