"""Shared closed-form CV (analysis.cv_closed.CVShare) gives the unshared searches' results.

What is shared (issue 43): LS-SVM_F's factorizations with its LS-SVM twin, a code's columns solved
together as one (N, c) target matrix, 1vs1 kernels sliced from the whole set's, polynomial kernels
from one X X^T.  Selections and CV scores must be equal; held-out values equal to c N kappa u where
the shared computation rounds differently (a (N, c) right-hand side, a sliced kernel).
"""
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.analysis.cv_closed import CVShare, KernelCV
from lssvm_analysis.analysis.validation import check_folds
from lssvm_analysis.experiments import SweepSpec
from lssvm_analysis.linalg.kernels import make_kernel
from lssvm_analysis.papers.suykens import kinds_tables as kt
from conftest import U64

OPTIONS = {"folds": 4, "sigma_factors": [0.5, 5, 50], "gammas": [0.1, 10, 1000], "refinements": 1, "points": 3,
           "degrees": [2, 3], "svm_max_iter": 10000}


def _problem(seed, n=70, d=3):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    return X, np.where(X[:, 0] + 0.5 * rng.standard_normal(n) > 0, 1.0, -1.0)


def _kappa(K, C, bias=True):
    n = len(K)
    H = K + np.eye(n) / C
    return np.linalg.cond(np.block([[np.zeros((1, 1)), np.ones((1, n))], [np.ones((n, 1)), H]]) if bias else H)


@pytest.mark.parametrize("method", ["eigen", "cholesky"])
def test_columns_solved_together_equal_each_alone(method):
    X, y = _problem(0)
    rng = np.random.default_rng(1)
    Y = np.column_stack([y, np.sign(rng.standard_normal(len(y))), -y])
    tests = [te for _, te in check_folds(7, X, y, seed=2)]
    K = make_kernel("rbf", sigma2=3.0)(X)
    cv = KernelCV(K, tests, method=method)
    for C in (0.1, 100.0):
        together = cv.held_out(C, Y)
        kappa = _kappa(K, C)
        for j in range(Y.shape[1]):
            alone = cv.held_out(C, Y[:, j])
            for a, b in zip(alone, together):
                # the same formulas; only the products P d and the fold solves take c right-hand sides
                # instead of one (gemm instead of gemv: another summation order).  Each side is within
                # c N kappa u of the exact values relative to their scale (test_cv_closed_form.py), c = 10.
                scale = max(np.max(np.abs(a)), 1.0)
                assert np.max(np.abs(a - b[:, j])) <= 10 * len(y) * kappa * U64 * scale


def test_sliced_and_gram_kernels():
    X, y = _problem(3)
    share = CVShare(X)
    rows = np.flatnonzero(y > 0)[::2]
    p = la.get_precision("float64")
    for name, kp in (("rbf", {"sigma2": 2.0}), ("poly", {"degree": 4, "t": 1.5})):
        k = make_kernel(name, **kp)
        key = (k.name, tuple(sorted(k.params.items())), k.formation)
        # the poly kernel from the shared X X^T is the kernel's own operations: bit for bit
        whole = share.kernel(k, key, p, None)
        if name == "poly":
            assert np.array_equal(whole, k(X))
        # a slice of the whole set's kernel against the kernel of the rows: the kernel's formation
        # rounds each entry once more or less (|exp| <= 1, gemm of d = 3 terms): 10 d u relative
        sub = share.kernel(k, key, p, rows)
        ref = k(X[rows])
        assert np.max(np.abs(sub - ref)) <= 10 * X.shape[1] * U64 * np.max(np.abs(ref)) * (1 + np.max(X ** 2))


@pytest.mark.parametrize("solver", ["lssvm-schur", "lssvm-fisher"])
@pytest.mark.parametrize("kernel,grid,extra", [("rbf", None, {}),
                                               ("poly", {"t": [0.5, 2.0, 8.0], "C": [0.1, 1.0, 10.0, 100.0]},
                                                {"degree": 3})])
def test_tune_with_a_share_equals_tune_alone(solver, kernel, grid, extra):
    X, y = _problem(4)
    kw = dict(grid=grid, folds=10, seed=1, task="classification", kernel=kernel, **extra)
    alone = la.tune(solver, X, y, **kw)
    share = CVShare(X)
    twin = "lssvm-fisher" if solver == "lssvm-schur" else "lssvm-schur"
    la.tune(twin, X, y, share=share, **kw)  # the twin first: its factorizations are read below
    shared = la.tune(solver, X, y, share=share, **kw)
    assert share.counts["factorizations_shared"] > 0
    # the same factorization, the same targets: the same numbers, bit for bit
    assert shared.best == alone.best and shared.score == alone.score
    assert np.array_equal(shared.history.score.to_numpy(), alone.history.score.to_numpy())


def _tasks(kind, dataset, grid, options, max_train=80):
    spec = SweepSpec("t-share", kind=kind, datasets=[(dataset, {"max_train": max_train})], seeds=[0],
                     grid=grid, options=options)
    return spec.tasks()


def _rows(tasks, fn, share):
    """The rows, and the counts of the process's share (None: no share was made)."""
    kt._SHARES.clear()
    rows = [fn(t) for t in _with_share(tasks, share)]
    counts = [s.counts for s in kt._SHARES.values()]
    kt._SHARES.clear()
    return rows, (counts[0] if counts else None)


def _with_share(tasks, share):
    import dataclasses
    return [dataclasses.replace(t, options={**t.options, "share": share}) for t in tasks]


def _same(a, b):
    for k in a:
        if k.startswith("time_"):
            continue
        va, vb = a[k], b[k]
        assert (va == vb) or (isinstance(va, float) and np.isnan(va) and np.isnan(vb)), (k, va, vb)
    assert set(a) == set(b)


def test_binary_rows_shared_equal_unshared():
    methods = ["RBF LS-SVM", "RBF LS-SVM_F", "Pol LS-SVM", "Pol LS-SVM_F", "Lin LS-SVM", "Lin LS-SVM_F"]
    tasks = _tasks("suykens-table-binary", "suykens-hea", {"method": methods}, OPTIONS)
    (shared, counts), (alone, none) = _rows(tasks, kt.binary_row, True), _rows(tasks, kt.binary_row, False)
    assert none is None and counts["factorizations_shared"] > 0  # LS-SVM_F read its twin's
    for a, b in zip(shared, alone):
        _same(a, b)


@pytest.mark.parametrize("code", ["moc", "1vs1", "1vsa", "ecoc"])
def test_multi_rows_shared_equal_unshared(code):
    tasks = _tasks("suykens-table-multi", "suykens-iri", {"method": ["RBF LS-SVM", "RBF LS-SVM_F"],
                                                            "code": [code]}, OPTIONS, max_train=90)
    (shared, counts), (alone, none) = _rows(tasks, kt.multi_row, True), _rows(tasks, kt.multi_row, False)
    assert none is None and counts["factorizations_shared"] > 0
    if code != "1vs1":  # every column at each point computed once, read by the other columns' searches
        assert counts["held_out_shared"] > 0
    for a, b in zip(shared, alone):
        _same(a, b)


#: Row keys that say how the SVM's points were scored (they differ by construction between the routes).
_ROUTE_KEYS = ("cv_kernel", "cv_fits", "cv_fits_capped", "cv_fits_skipped")


@pytest.mark.filterwarnings("ignore::lssvm_analysis.core.exceptions.ConvergenceWarning")  # the per-fold fits at the cap
def test_svm_rows_on_a_precomputed_kernel_equal_the_per_fold_fits():
    """RBF and Lin SVM: one precomputed kernel per sigma across C and folds (share) against la.tune's
    per-fold LIBSVM fits (no share): the same selected (C, sigma2), CV accuracy, evaluations and test
    accuracy; the linear SVM's largest C stops at the iteration cap and ends its point early."""
    o = {**OPTIONS, "gammas": [0.1, 10, 1e4], "svm_max_iter": 2000}
    tasks = _tasks("suykens-table-binary", "suykens-hea", {"method": ["RBF SVM", "Lin SVM"]}, o)
    (shared, _), (alone, _) = _rows(tasks, kt.binary_row, True), _rows(tasks, kt.binary_row, False)
    for a, b in zip(shared, alone):
        assert a["cv_kernel"] == "precomputed" and b["cv_kernel"] == "libsvm"
        _same({k: v for k, v in a.items() if k not in _ROUTE_KEYS},
              {k: v for k, v in b.items() if k not in _ROUTE_KEYS})
    lin = shared[1]
    assert lin["cv_fits_capped"] >= 1 and lin["cv_fits"] + lin["cv_fits_skipped"] == o["folds"] * lin["n_evals"]


@pytest.mark.parametrize("code", ["moc", "1vs1"])
def test_svm_multi_rows_on_a_precomputed_kernel_equal_the_per_fold_fits(code):
    tasks = _tasks("suykens-table-multi", "suykens-iri", {"method": ["RBF SVM"], "code": [code]}, OPTIONS,
                   max_train=90)
    (shared, _), (alone, _) = _rows(tasks, kt.multi_row, True), _rows(tasks, kt.multi_row, False)
    for a, b in zip(shared, alone):
        assert a["cv_kernel"] == "precomputed" and b["cv_kernel"] == "libsvm"
        assert a["cv_fits"] + a["cv_fits_skipped"] == OPTIONS["folds"] * a["n_evals"]
        _same({k: v for k, v in a.items() if k not in _ROUTE_KEYS},
              {k: v for k, v in b.items() if k not in _ROUTE_KEYS})


def test_share_budget_holds_a_polynomial_search():
    """The tables' share keeps a quarter of the memory per core (at least CVShare's default): on a
    machine of >= 4 GiB per core the Pol LS-SVM search of N = 460 (575 MiB measured) is kept whole."""
    import os
    budget = kt.share_bytes()
    assert kt.GRID_CV_BYTES <= budget <= kt.SHARE_BYTES_MAX
    phys = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    assert budget == min(max(phys // (4 * os.cpu_count()), kt.GRID_CV_BYTES), kt.SHARE_BYTES_MAX)
    kt._SHARES.clear()
    X, _ = _problem(0)
    task = _tasks("suykens-table-binary", "suykens-hea", {"method": ["Pol LS-SVM"]}, OPTIONS)[0]
    assert kt.share_for(task, X, {"share_bytes": 12345}).max_bytes == 12345
    kt._SHARES.clear()
    assert kt.share_for(task, X, {}).max_bytes == budget
    kt._SHARES.clear()


def _alone_rows(tasks, fn):
    """Each task's row with a share of its own (nothing read from another task), and what it made."""
    rows, made = [], 0
    for t in tasks:
        kt._SHARES.clear()
        rows.append(fn(t))
        made += sum(s.counts["factorizations"] for s in kt._SHARES.values())
    kt._SHARES.clear()
    return rows, made


@pytest.mark.parametrize("kind,dataset,grid", [
    ("suykens-table-binary", "suykens-hea", {"method": ["Pol LS-SVM", "Pol LS-SVM_F"]}),
    ("suykens-table-multi", "suykens-iri", {"method": ["Pol LS-SVM", "Pol LS-SVM_F"], "code": ["moc"]}),
    ("suykens-table-multi", "suykens-iri", {"method": ["RBF LS-SVM", "RBF LS-SVM_F"], "code": ["1vs1"]}),
])
def test_twins_in_one_batch_give_their_rows_alone_and_factor_once(kind, dataset, grid):
    """A method and its LS-SVM_F on one split are one batch (twin_group); run together, degree by degree,
    LS-SVM_F reads the factorizations its twin made, and each row is the row it has alone."""
    from lssvm_analysis.experiments.runner import execute_task, execute_tasks
    tasks = _tasks(kind, dataset, grid, OPTIONS, max_train=90)
    assert len(tasks) == 2 and kt.twin_group(tasks[0]) == kt.twin_group(tasks[1]) is not None
    alone, made_alone = _alone_rows(tasks, execute_task)
    kt._SHARES.clear()
    together = execute_tasks(tasks)  # the engine's batch (the kind's binary_rows / multi_rows)
    counts = next(iter(kt._SHARES.values())).counts
    kt._SHARES.clear()
    assert all("time_batch_cpu" in r for r in together)
    # the twin's searches made no factorization the other had made: fewer in all, and many read twice
    assert counts["factorizations"] < made_alone and counts["factorizations_shared"] > 0
    for a, b in zip(together, alone):
        assert a["status"] == "ok"
        _same({k: v for k, v in a.items() if k not in ("warnings", "time_batch_cpu")},
              {k: v for k, v in b.items() if k != "warnings"})
        assert set(a["warnings"].split("\n")) == set(b["warnings"].split("\n"))


def test_the_svms_and_the_shared_tuning_comparison_run_alone():
    tasks = _tasks("suykens-table-multi", "suykens-iri", {"method": ["RBF SVM", "Lin SVM"], "code": ["moc"]},
                   OPTIONS)
    assert all(kt.twin_group(t) is None for t in tasks)
    shared = _tasks("suykens-table-multi", "suykens-iri", {"method": ["RBF LS-SVM"], "code": ["moc"],
                                                            "tuning": ["shared"]}, OPTIONS)
    assert kt.twin_group(shared[0]) is None
