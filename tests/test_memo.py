"""Memos of pure computations (core/memo.py) and where the report uses them: the outcome is unchanged.

A memo may only save time.  Each use is checked against the computation it
replaces, bit for bit and warnings included: the kernel memo of a grid search,
the data sets of a task (``raw_task_data``), the data (and outlier boundary) of a Chen &
Zhou task, and whole report rows computed with cold and with warm memos.
"""
from __future__ import annotations

import contextlib
import importlib
import math
import warnings

import numpy as np
import pandas as pd
import pytest

import lssvm_analysis as la
from lssvm_analysis import datasets
from lssvm_analysis.analysis import tuning
from lssvm_analysis.analysis.validation import cv_score
from lssvm_analysis.linalg.kernels import Kernel, kernel_memo, make_kernel
from lssvm_analysis.core.memo import Memo, array_key, json_key
from lssvm_analysis.experiments import SweepSpec
from lssvm_analysis.papers.chen_zhou import kinds as kcz
from lssvm_analysis.experiments.kinds import TASK_DATA_MEMO, raw_task_data
from lssvm_analysis.experiments.runner import TIMING_PREFIX, execute_task


# --------------------------------------------------------------------------- Memo
def test_memo_keeps_the_least_recently_used_within_its_bounds():
    m = Memo(max_entries=2, max_bytes=10)
    calls = []

    def make(v, nbytes=1):
        return lambda: calls.append(v) or (v, nbytes)

    size = lambda value: value[1]  # noqa: E731
    assert m.get("a", make("a"), size=size) == ("a", 1)
    assert m.get("b", make("b"), size=size) == ("b", 1)
    assert m.get("a", make("a!"), size=size) == ("a", 1)  # a hit: "a" is now the most recent
    m.get("c", make("c"), size=size)                        # drops "b", the least recently used
    assert m.get("b", make("b2"), size=size) == ("b2", 1) and calls == ["a", "b", "c", "b2"]
    assert len(m) == 2 and (m.hits, m.misses) == (1, 4)
    m.get("big", make("big", 11), size=size)                 # larger than max_bytes: not kept
    assert "big" not in m._items and m.nbytes <= 10
    m.get("d", make("d", 9), size=size)                      # 9 + 1 fits; the older ones go
    assert m.nbytes <= 10 and len(m) <= 2
    assert m.get(None, lambda: 5) == 5 and m.get(None, lambda: 6) == 6  # None: never stored


def test_memo_raises_the_warnings_of_the_computation_again_on_every_hit():
    m = Memo(max_entries=4)

    def compute():
        warnings.warn("first", RuntimeWarning)
        warnings.warn("second", UserWarning)
        return 1

    for _ in range(3):  # the miss, then two hits: the same warnings in the same order each time
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert m.get("k", compute) == 1
        assert [(w.category, str(w.message)) for w in caught] == [(RuntimeWarning, "first"),
                                                                  (UserWarning, "second")]


def test_memo_stores_nothing_when_the_computation_raises():
    m = Memo(max_entries=4)
    with pytest.raises(ZeroDivisionError):
        m.get("k", lambda: 1 / 0)
    assert len(m) == 0 and m.get("k", lambda: 2) == 2
    with pytest.raises(ValueError, match="max_entries"):
        Memo(max_entries=0)


def test_keys_are_exact_and_refuse_what_is_not_plain_data():
    a = np.arange(6.0).reshape(2, 3)
    assert array_key(a) == array_key(a.copy()) and array_key(a) != array_key(a.reshape(3, 2))
    assert array_key(a) != array_key(a.astype(np.float32))
    b = a.copy()
    b[0, 0] = np.nextafter(0.0, 1.0)  # one ulp apart: another key
    assert array_key(a) != array_key(b)
    assert array_key(a.astype(object)) is None and array_key([1.0, 2.0]) is None
    assert json_key({"b": 1, "a": (1, 2)}) == json_key({"a": [1, 2], "b": 1})
    assert json_key([np.random.default_rng(0)]) is None


# --------------------------------------------------------------------------- kernels
@pytest.mark.parametrize("kernel", [make_kernel("rbf", sigma2=0.7), make_kernel("poly", degree=2, t=1.5),
                                    make_kernel("linear")])
@pytest.mark.parametrize("precision", ["float32", "float64", "longdouble", "mp30"])
def test_kernel_memo_returns_the_evaluation_bit_for_bit_and_a_copy(kernel, precision, rng):
    X, Z = rng.standard_normal((9, 3)), rng.standard_normal((4, 3))
    fresh = kernel(X, precision=precision), kernel(Z, X, precision=precision)
    with kernel_memo() as memo:
        for _ in range(3):
            K, Kzx = kernel(X, precision=precision), kernel(Z, X, precision=precision)
            assert K.dtype == fresh[0].dtype and np.array_equal(K, fresh[0])
            assert np.array_equal(Kzx, fresh[1])
            K[0, 0] = K[0, 1] = -7  # the caller's copy: the next hit is unchanged
        out = np.empty_like(fresh[0])
        assert kernel(X, precision=precision, out=out) is out and np.array_equal(out, fresh[0])
        assert (memo.hits, memo.misses) == (5, 2)
    assert len(memo) == 0  # released when the block ends


def test_kernel_memo_misses_on_any_other_input_and_is_off_outside_the_block(rng):
    X = rng.standard_normal((8, 2))
    with kernel_memo() as memo:
        make_kernel("rbf", sigma2=1.0)(X)
        make_kernel("rbf", sigma2=2.0)(X)
        make_kernel("rbf", sigma2=1.0, formation="differences")(X)
        make_kernel("rbf", sigma2=1.0)(X, precision="float32")
        make_kernel("rbf", sigma2=1.0)(X[:-1])
        make_kernel("rbf", sigma2=1.0)(X.tolist())  # not an array: evaluated, not memoized
        with kernel_memo() as inner:  # nested blocks share the outer memo
            make_kernel("rbf", sigma2=1.0)(X)
        assert inner is memo and (memo.hits, memo.misses) == (1, 5)
    make_kernel("rbf", sigma2=1.0)(X)
    assert (memo.hits, memo.misses) == (1, 5)


def test_bad_input_is_refused_inside_the_memo_as_outside(rng):
    X = rng.standard_normal((5, 2))
    X[1, 1] = np.nan
    with kernel_memo(), pytest.raises(ValueError, match="finite"):
        Kernel("rbf", {"sigma2": 1.0})(X)
    with kernel_memo(), pytest.raises(ValueError, match="out"):
        Kernel("rbf", {"sigma2": 1.0})(np.ones((3, 2)), out=np.empty((2, 2)))


# --------------------------------------------------------------------------- CV scores
@pytest.mark.parametrize("n", [1, 5, 8, 10, 17])
def test_cv_mean_is_the_mean_pandas_takes(n, rng):
    from lssvm_analysis.analysis.validation import skipna_mean
    for trial in range(20):
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n)
        if trial % 3 == 1:
            v[rng.integers(0, n)] = np.nan
        if trial % 7 == 2:
            v[:] = np.nan
        want = pd.Series(v).mean()
        got = skipna_mean(v)
        assert (math.isnan(want) and math.isnan(got)) or got == want


def test_cv_score_is_cross_validate_s_mean_and_nan_when_a_fold_fails(rng):
    X = rng.uniform(-3, 3, (40, 1))
    y = np.sinc(X[:, 0])
    for C, s2 in ((10.0, 0.5), (1e3, 0.05)):
        df = la.cross_validate("lssvm-schur", X, y, folds=5, seed=2, C=C, sigma2=s2)
        assert cv_score("lssvm-schur", X, y, folds=5, seed=2, C=C, sigma2=s2) == df.score.mean()
    # float32 at C = 1e16: the fold systems break down, a failed fold makes the point NaN
    df = la.cross_validate("lssvm-cg", X, y, folds=4, C=1e16, sigma2=10.0, precision="float32", maxiter=3)
    assert not (df.status == "ok").all()
    assert math.isnan(cv_score("lssvm-cg", X, y, folds=4, C=1e16, sigma2=10.0, precision="float32",
                               maxiter=3))


def test_tune_scores_every_point_as_cross_validate_does(rng):
    """The history of a refined search (kernel memo on) against cross_validate at each point (memo off)."""
    X = rng.standard_normal((45, 3))
    y = np.where(X[:, 0] + 0.3 * rng.standard_normal(45) > 0, 1.0, -1.0)
    res = la.tune("lssvm-schur", X, y, grid={"C": [0.1, 10.0, 1e3], "sigma2": [0.5, 5.0]}, refinements=2,
                  folds=5, seed=3, task="classification")
    for _, row in res.history.iterrows():
        df = la.cross_validate("lssvm-schur", X, y, folds=5, seed=3, C=row.C, sigma2=row.sigma2,
                               task="classification")
        assert row.score == df.score.mean()


# --------------------------------------------------------------------------- data sets
def test_task_data_are_shared_by_the_tasks_of_a_split():
    spec = SweepSpec("memo-data", kind="fit", solvers=["lssvm-schur", "krr"], precisions=["float64"],
                     datasets=[("ripley-mixture", {"n_train": 30, "n_test": 20})], seeds=[3, 4],
                     grid={"C": [1.0], "sigma2": [1.0]})
    t3a, t3b, t4 = [t for t in spec.tasks() if t.seed == 3][:2] + [t for t in spec.tasks() if t.seed == 4][:1]
    TASK_DATA_MEMO.clear()
    a, b = raw_task_data(t3a), raw_task_data(t3b)
    assert b is a and not a.X_train.flags.writeable
    fresh = datasets.load("ripley-mixture", seed=3, n_train=30, n_test=20)
    assert all(np.array_equal(getattr(a, k), getattr(fresh, k)) for k in ("X_train", "y_train", "X_test", "y_test"))
    assert not np.array_equal(raw_task_data(t4).X_train, a.X_train)


# --------------------------------------------------------------------------- whole rows
def _rows(tasks, clear):
    out = []
    for task in tasks:
        if clear:
            clear()
        row = execute_task(task)
        out.append({k: v for k, v in row.items() if not k.startswith(TIMING_PREFIX)})
    return out


def _same(a, b):
    assert len(a) == len(b)
    for ra, rb in zip(a, b):
        assert ra.keys() == rb.keys()
        for k in ra:
            x, y = ra[k], rb[k]
            assert x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)), k


def test_chen_zhou_rows_are_the_same_with_cold_and_warm_memos():
    spec = SweepSpec("memo-cz", kind="cz-fit", solvers=["lssvm-schur", "pcp-lssvm", "r-lssvm-w"],
                     datasets=[("ripley-mixture", {"n_train": 60, "n_test": 40})], seeds=[0, 1],
                     grid={"C": [10.0], "sigma2": [0.5], "tau": [0.5]},
                     options={"rate": 0.2, "r_fraction": 0.2, "scale": "minmax"}, precisions=["float64"])
    tasks = spec.tasks()

    def clear():
        kcz._DATA_MEMO.clear()
        TASK_DATA_MEMO.clear()

    cold = _rows(tasks, clear)
    warm = _rows(tasks, None)
    _same(cold, warm)
    assert kcz._DATA_MEMO.hits >= len(tasks) - 2  # one miss per seed


def test_tune_results_are_the_same_with_and_without_the_kernel_memo(monkeypatch):
    """la.tune's per-fold path (closed_form=False: extended precisions, lssvm-cg, other fold schemes) shares
    each fold's kernel across the C of one width through the kernel memo; without it, the same history.

    (Suykens' tables no longer reach the memo: their LS-SVM searches factor once per kernel in
    cv_closed.CVShare; tests/test_suykens_sharing.py holds their shared-against-unshared equality.)
    """
    rng = np.random.default_rng(3)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=60) > 0, 1.0, -1.0)
    kw = dict(grid={"C": [1.0, 1e2, 1e4], "sigma2": [0.5, 2.0]}, refinements=1, folds=5, seed=0,
              closed_form=False)
    served, memo_block = [], tuning.kernel_memo

    @contextlib.contextmanager
    def counted(*args, **kwargs):
        with memo_block(*args, **kwargs) as memo:
            yield memo
        served.append(memo.hits)

    monkeypatch.setattr(tuning, "kernel_memo", counted)
    warm = tuning.tune("lssvm-schur", X, y, **kw)
    assert sum(served) > 0  # the memo served fold kernels: the comparison is not vacuous
    monkeypatch.setattr(tuning, "kernel_memo", contextlib.nullcontext)
    cold = tuning.tune("lssvm-schur", X, y, **kw)
    assert warm.best == cold.best and warm.score == cold.score
    pd.testing.assert_frame_equal(warm.history, cold.history)


def test_zhao_sun_ridge_rows_are_the_same_with_cold_and_warm_memos():
    from lssvm_analysis.papers.zhao_sun import kinds as kzs
    spec = SweepSpec("memo-zs", kind="zs-ridge", solvers=["reduced-lssvr"], precisions=["float32", "float64"],
                     datasets=[("sinc", {"n_train": 40, "n_test": 10})], seeds=[0],
                     grid={"C": [1e6], "n_support": [8], "ridge": ["lstsq", "literal", "relative-ridge"],
                           "sigma2": [50.0]})
    tasks = spec.tasks()
    cold = _rows(tasks, kzs._REFERENCE_MEMO.clear)
    kzs._REFERENCE_MEMO.clear()
    warm = _rows(tasks, None)
    _same(cold, warm)
    assert kzs._REFERENCE_MEMO.hits >= 2  # the three rules of a precision chose one support


def test_suykens_sets_are_parsed_once_per_process_and_split_as_before():
    suykens_uci = importlib.import_module("lssvm_analysis.datasets.suykens_uci")
    suykens_uci._RAW.clear()
    before = suykens_uci._RAW.misses, suykens_uci._RAW.hits
    cold = datasets.load("suykens-hea", seed=2)
    warm = [datasets.load("suykens-hea", seed=s) for s in (1, 2)]
    assert (suykens_uci._RAW.misses - before[0], suykens_uci._RAW.hits - before[1]) == (1, 2)
    for k in ("X_train", "y_train", "X_test", "y_test"):
        assert np.array_equal(getattr(cold, k), getattr(warm[1], k))
    assert not np.array_equal(warm[0].y_train, warm[1].y_train)
    X, labels = suykens_uci._load_raw("hea")[:2]
    assert not X.flags.writeable and not labels.flags.writeable
