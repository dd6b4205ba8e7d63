"""la.tune (Suykens §3.4.2's refined grid), leave_one_out, and cross_validate's folds argument."""
import math

import numpy as np
import pytest
from sklearn.model_selection import KFold, StratifiedKFold

import lssvm_analysis as la
from lssvm_analysis.analysis.tuning import chapter_grid
from conftest import U64


@pytest.fixture
def sinc(rng):
    X = rng.uniform(-3, 3, (50, 1))
    return X, np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(50)


def test_tune_without_refinement_is_the_exhaustive_grid(sinc):
    X, y = sinc
    grid = {"C": [0.1, 10.0, 1000.0], "sigma2": [0.05, 0.5, 5.0]}
    res = la.tune("lssvm-schur", X, y, grid=grid, refinements=0, folds=5, seed=1)
    brute = {(C, s2): la.cross_validate("lssvm-schur", X, y, folds=5, seed=1, C=C, sigma2=s2).score.mean()
             for C in grid["C"] for s2 in grid["sigma2"]}
    best = min(brute, key=brute.get)  # MSE: a cost, minimised
    # Closed-form CV (one factorization of the whole set) and the per-fold fits agree to their
    # rounding: held-out values to c N kappa u relative, kappa(H) <= (N + 1/C) C <= 1 + N max(C)
    # for the RBF kernel (lambda_max(K) <= N, lambda_min(H) >= 1/C); c = 10 covers the few solves
    # on each side, and the MSE, a mean of squares of residuals, doubles the relative error.
    kappa = 1 + len(y) * max(grid["C"])
    assert (res.best["C"], res.best["sigma2"]) == best
    assert math.isclose(res.score, brute[best], rel_tol=2 * 10 * len(y) * kappa * U64)
    assert res.route["closed_form"] and res.route["points_closed_form"] == 9
    assert res.n_evaluations == 9 and res.scoring == "mse" and not res.greater_is_better
    refit = la.fit("lssvm-schur", X, y, **res.params)
    assert refit.params["C"] == best[0] and refit.ok


def test_refinements_only_improve_and_stay_in_the_grid(sinc):
    X, y = sinc
    grid = {"C": [0.1, 10.0, 1000.0], "sigma2": [0.05, 0.5, 5.0]}
    coarse = la.tune("lssvm-schur", X, y, grid=grid, refinements=0, folds=5, seed=1)
    fine = la.tune("lssvm-schur", X, y, grid=grid, refinements=3, folds=5, seed=1)
    assert fine.score <= coarse.score  # the initial grid is evaluated first, and kept
    h = fine.history
    assert set(h.stage) == {0, 1, 2, 3} and len(h) == fine.n_evaluations
    for k, v in grid.items():  # refined values are clipped into the initial range
        assert h[k].min() >= min(v) * (1 - 1e-12) and h[k].max() <= max(v) * (1 + 1e-12)


def test_on_edge_flags_optima_at_the_end_of_the_grid(sinc):
    X, y = sinc
    # Noise-free-ish sinc: training on [-3, 3] wants C >> 1e-2 and sigma2 << 100, so the
    # best of these grids is their high C end and their low sigma2 end.
    res = la.tune("lssvm-schur", X, y, grid={"C": [1e-4, 1e-3, 1e-2], "sigma2": [100.0, 1e3, 1e4]},
                  refinements=1, folds=5)
    assert res.on_edge == {"C": "high", "sigma2": "low"}
    one = la.tune("lssvm-schur", X, y, grid={"C": [10.0], "sigma2": [0.5]}, refinements=2, folds=5)
    assert one.on_edge == {} and one.n_evaluations == 1  # a fixed axis has no edge


def test_tune_loo_closed_form_and_classification_direction(sinc, rng):
    X, y = sinc
    res = la.tune("lssvm-schur", X, y, grid={"C": [1.0, 100.0], "sigma2": [0.2, 2.0]}, refinements=0,
                  method="loo")
    loo = {(C, s2): la.leave_one_out("lssvm-schur", X, y, C=C, sigma2=s2) for C in (1.0, 100.0)
           for s2 in (0.2, 2.0)}
    # as in the first test: c N kappa u with kappa <= 1 + N max(C), doubled by the squares
    assert math.isclose(res.score, min(loo.values()), rel_tol=2 * 10 * len(y) * (1 + len(y) * 100.0) * U64)
    assert res.method == "loo" and (res.best["C"], res.best["sigma2"]) == min(loo, key=loo.get) and res.route["closed_form"]
    Xc = rng.normal(size=(60, 2))
    yc = np.where(Xc[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    acc = la.tune("lssvm-schur", Xc, yc, grid={"C": [0.01, 1.0, 100.0]}, refinements=0, folds=4,
                  task="classification", sigma2=2.0)
    assert acc.scoring == "accuracy" and acc.greater_is_better
    assert acc.score == acc.history.score.max()


def test_leave_one_out_closed_form_equals_n_refits(sinc):
    X, y = sinc
    C, s2 = 100.0, 0.5
    closed = la.leave_one_out("lssvm-schur", X, y, C=C, sigma2=s2)
    n = len(y)
    held = np.empty(n)
    for i in range(n):
        keep = np.arange(n) != i
        held[i] = la.fit("lssvm-schur", X[keep], y[keep], C=C, sigma2=s2).predict(X[i:i + 1])[0]
    refits = float(np.mean((y - held) ** 2))
    # Each closed-form residual r_i = alpha_i / [A^-1]_ii carries a relative error of at most
    # ~ 2 * 30 (n+1) kappa(A) u (alpha and the diagonal of the inverse, each one backward-stable
    # solve with LAPACK's constant 30); each refit's residual ~ 30 n kappa u.  The MSE of N
    # residuals then differs by at most 2 * max|r| * max|dr|.
    K = la.rbf_kernel(X, sigma2=s2) + np.eye(n) / C
    A = np.block([[np.zeros((1, 1)), np.ones((1, n))], [np.ones((n, 1)), K]])
    kappa = np.linalg.cond(A)
    r = y - held
    dr = 3 * 30 * (n + 1) * kappa * U64 * np.max(np.abs(r))
    assert abs(closed - refits) <= 2 * np.max(np.abs(r)) * dr


def test_leave_one_out_without_closed_form_refits(sinc):
    X, y = sinc
    assert not la.analysis.validation.has_closed_form_loo("ip-lssvm")
    score = la.leave_one_out("ip-lssvm", X[:20], y[:20], C=10.0, sigma2=0.5)
    explicit = la.cross_validate("ip-lssvm", X[:20], y[:20], folds=20, C=10.0, sigma2=0.5)
    # Single-point folds: the pooled MSE is the mean of the per-fold MSEs, same fits.
    assert score == pytest.approx(explicit.score.mean(), rel=20 * U64)


def test_error_score(rng):
    X = rng.normal(size=(20, 2))
    y = np.repeat([-1.0, 1.0], 10)
    # Contiguous 2-fold CV on sorted labels: each training fold has one class.
    res = la.tune("svm-c", X, y, grid={"C": [1.0, 10.0]}, refinements=0, folds=2, sigma2=1.0)
    assert res.best == {} and math.isnan(res.score)
    assert res.history.error.str.contains("two classes").all()
    with pytest.raises(ValueError, match="two classes"):
        la.tune("svm-c", X, y, grid={"C": [1.0]}, refinements=0, folds=2, error_score="raise")


def test_transform_maps_grid_coordinates(sinc):
    X, y = sinc
    res = la.tune("lssvm-schur", X, y, grid={"log_C": [1.0, 2.0], "width": [0.5, 1.0]}, refinements=0,
                  folds=5, transform=lambda q: {"C": 10 ** q["log_C"], "sigma2": q["width"] ** 2})
    assert set(res.params) == {"C", "sigma2"} and set(res.best) == {"log_C", "width"}


def test_chapter_grid():
    g = chapter_grid(4)
    assert g["C"][0] == 0.01 and g["C"][-1] == 1000 and len(g["C"]) == 11
    assert g["sigma2"][0] == pytest.approx((0.5 * 2) ** 2) and len(g["sigma2"]) == 9
    assert list(chapter_grid(4, "linear")) == ["C"]


@pytest.mark.parametrize("kw, exc, name", [
    ({"method": "gcv"}, ValueError, "method"),
    ({"grid": {"gamma": [1.0]}}, ValueError, "gamma"),
    ({"grid": {"C": [-1.0, 1.0]}}, ValueError, "grid\\['C'\\]"),
    ({"grid": {}}, TypeError, "grid"),
    ({"refinements": -1}, ValueError, "refinements"),
    ({"points": 1}, ValueError, "points"),
    ({"error_score": "ignore"}, TypeError, "error_score"),
    ({"transform": 3}, TypeError, "transform"),
    ({"folds": "five"}, TypeError, "folds"),
])
def test_tune_bad_input_is_named(kw, exc, name, sinc):
    X, y = sinc
    with pytest.raises(exc, match=name):
        la.tune("lssvm-schur", X, y, **{"grid": {"C": [1.0]}, **kw})


# --------------------------------------------------------------------------- folds
def test_int_folds_equal_kfold_and_explicit_pairs(sinc):
    X, y = sinc
    by_int = la.cross_validate("lssvm-schur", X, y, folds=5, C=10.0, sigma2=0.5)
    by_splitter = la.cross_validate("lssvm-schur", X, y, folds=KFold(5), C=10.0, sigma2=0.5)
    pairs = list(KFold(5).split(X))
    by_pairs = la.cross_validate("lssvm-schur", X, y, folds=pairs, C=10.0, sigma2=0.5)
    # numpy.array_split and KFold make the same contiguous folds: the same fits, bit for bit.
    np.testing.assert_array_equal(by_int.score, by_splitter.score)
    np.testing.assert_array_equal(by_int.score, by_pairs.score)


def test_stratified_splitter_and_boolean_masks(rng):
    X = rng.normal(size=(40, 2))
    y = np.where(X[:, 0] > 0, 1.0, -1.0)
    df = la.cross_validate("lssvm-schur", X, y, folds=StratifiedKFold(4), task="classification")
    assert len(df) == 4 and (df.status == "ok").all()
    mask = np.arange(40) < 30
    df = la.cross_validate("krr", X, y, folds=[(mask, ~mask)], task="classification")
    assert df.n_train.tolist() == [30] and df.n_test.tolist() == [10]


@pytest.mark.parametrize("folds, exc, match", [
    ("ten", TypeError, "folds"),
    (1, ValueError, "folds >= 2"),
    (99, ValueError, "folds <= N"),
    ([], ValueError, "at least one"),
    ([(np.arange(5),)], TypeError, "folds\\[0\\]"),
    ([(np.arange(5), np.arange(5, 60))], ValueError, "folds\\[0\\] test"),
    ([(np.arange(5), np.arange(3, 8))], ValueError, "disjoint"),
    ([(np.arange(5.0), np.arange(5, 10))], TypeError, "folds\\[0\\] train"),
    ([(np.array([], dtype=int), np.arange(5))], ValueError, "non-empty folds\\[0\\] train"),
])
def test_bad_folds_are_named(folds, exc, match, sinc):
    X, y = sinc
    with pytest.raises(exc, match=match):
        la.cross_validate("lssvm-schur", X, y, folds=folds)


def test_seed_with_explicit_folds_is_refused(sinc):
    X, y = sinc
    with pytest.raises(TypeError, match="seed"):
        la.cross_validate("lssvm-schur", X, y, folds=KFold(3), seed=0)


def test_the_search_forms_each_fold_kernel_once_however_small_the_default_memo(monkeypatch):
    """Every C of a kernel width fits the same fold kernels; the search's memo is sized to hold all of
    them (a least-recently-used store one fold short of a cycle formed each again for every C: 1622
    polynomial kernels in one Suykens search on cmc).  With the memo's floor at 1 byte, the direct
    search of 4 C values on 5 folds forms each fold's two kernels (training, test x training) once."""
    from lssvm_analysis.analysis import tuning
    from lssvm_analysis.linalg.kernels import Kernel

    calls = []
    evaluate = Kernel._evaluate
    monkeypatch.setattr(Kernel, "_evaluate", lambda self, X, Z, p, out: calls.append(
        (X.shape, None if Z is None else Z.shape)) or evaluate(self, X, Z, p, out))
    monkeypatch.setattr(tuning, "KERNEL_MEMO_BYTES", 1)
    rng = np.random.default_rng(3)
    X = rng.uniform(-3, 3, (120, 2))
    y = np.sinc(X[:, 0]) + 0.05 * rng.standard_normal(120)
    before = len(calls)
    la.tune("lssvm-schur", X, y, grid={"C": [1.0, 10.0, 100.0, 1000.0], "sigma2": [1.0]}, folds=5,
            refinements=0, closed_form=False)
    formed = calls[before:]
    first = 1  # the whole-data fit at the grid's first point that refuses bad input before the search
    assert len(formed) == first + 5 * 2, formed
    assert tuning._fold_memo_bytes(982, 10, "float64") >= 9 * 982 ** 2 * 8
