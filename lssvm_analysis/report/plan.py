"""What the report computes: profiles ("quick", "default") and their sweeps.

Every expensive run is a :class:`~lssvm_analysis.experiments.SweepSpec`
executed by :func:`~lssvm_analysis.experiments.run_sweep` into one SQLite
store, so a second report with the same profile recomputes nothing.
Abe's Table 1 needs three dependent stages (cross-validation of C and
sigma2, then of C and eta with that sigma2, then the test fits with the
chosen values); the choice is made here from stored CV rows, by the same
code the report uses to display it (:func:`choose`).

Grids are deliberately small so that the default report stays within
5 minutes on 2 cores and ``--quick`` within 60 s; the report states them.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from ..experiments import SweepSpec, load_records, run_sweep
from ..experiments import report_kinds  # noqa: F401  (registers the report's task kinds)

__all__ = ["Profile", "PROFILES", "get_profile", "independent_specs", "run_report_sweeps", "choose",
           "TABLE_METHODS", "REPORT_VERSION"]

#: Part of every spec's options: bump to invalidate every stored report row.
REPORT_VERSION = 1


def _decades(lo, hi, step=1):
    return [float(10.0 ** k) for k in range(int(math.log10(lo)), int(math.log10(hi)) + 1, step)]


@dataclass(frozen=True)
class Profile:
    """Sizes and grids of one report profile (see :data:`PROFILES`).

    ``abe_*``: the Mackey-Glass conditioning study (M points, sigma2, the eta
    and C grids); ``mp_max_n``: largest N checked in mp30; ``breakdown_*``,
    ``bisect``: the breakdown scans; ``pd_*``: primal-dual agreement;
    ``table_*``, ``cv_*``, ``els_eta``, ``sparse_etas``: Abe's Table 1 (data
    sets with loader keywords, random splits, CV grids); ``crossover_*``:
    in-process timing; ``sinc_*``, ``accuracy_*``, ``kkt_*``, ``cg_*``,
    ``prune_*``: Suykens and the precisions; ``map_*``: the breakdown maps.
    """

    name: str
    # Abe: conditioning on a Mackey-Glass subset
    abe_M: int = 200
    abe_sigma2: float = 1.0
    abe_etas: tuple = (1e-4, 1e-3, 1e-2, 0.1)
    abe_C: tuple = tuple(_decades(1e-2, 1e14))
    mp_max_n: int = 60
    breakdown_etas: tuple = (1e-3, 0.1)
    breakdown_precisions: tuple = ("float32", "float64", "longdouble")
    bisect: int = 8
    pd_C: tuple = tuple(_decades(1e-2, 1e14, 2))
    pd_precisions: tuple = ("float32", "float64")
    # Abe: Table 1
    table_datasets: tuple = (("mackey-glass", (("n_train", 500), ("n_test", 500))),
                             ("boston5", ()), ("boston14", ()))
    table_splits: int = 5
    cv_C: tuple = (1e1, 1e3, 1e5, 1e7)
    cv_sigma2: dict = field(default_factory=lambda: {"mackey-glass": (0.1, 0.3, 1.0),
                                                     "boston5": (5.0, 20.0, 80.0),
                                                     "boston14": (5.0, 20.0, 80.0)})
    els_eta: float = 1e-4
    sparse_etas: tuple = (1e-3, 1e-2, 5e-2)
    # primal/dual crossover (in-process timing when no asv results exist)
    crossover_M: int = 600
    crossover_ratios: tuple = (0.1, 0.2, 0.3, 0.5, 0.7, 1.0)
    crossover_formations: tuple = ("blas3", "as-described")
    crossover_repeats: int = 3
    # Suykens and the precisions
    sinc_n: int = 30
    sinc_sigma2: float = 1.0
    accuracy_C: tuple = tuple(_decades(1e-2, 1e10, 2))
    accuracy_solvers: tuple = ("lssvm-kkt", "lssvm-schur", "lssvm-cg", "krr", "els-primal", "els-dual")
    accuracy_precisions: tuple = ("float32", "float64", "longdouble", "mp50")
    kkt_n: int = 60
    kkt_C: tuple = tuple(_decades(1e-2, 1e12))
    cg_n: int = 100
    cg_C: tuple = tuple(_decades(1e-2, 1e8))
    cg_precisions: tuple = ("float32", "float64")
    prune_n: int = 500
    prune_C: float = 1e4
    prune_sigma2: float = 1.0
    prune_min_support: int = 20
    # breakdown maps
    map_M: int = 100
    map_C: tuple = tuple(_decades(1e0, 1e16, 2))
    map_sigma2: tuple = (0.03, 0.1, 0.3, 1.0, 3.0)
    map_solvers: tuple = ("els-dual", "els-primal", "lssvm-schur", "lssvm-kkt")
    map_precisions: tuple = ("float32", "float64")

    def options(self, **extra) -> dict:
        return {"report_version": REPORT_VERSION, **extra}


PROFILES = {
    "default": Profile("default"),
    "quick": Profile(
        "quick", abe_M=100, abe_etas=(1e-3, 1e-2, 0.1), abe_C=tuple(_decades(1e-2, 1e14, 2)),
        mp_max_n=50, breakdown_etas=(0.1,), bisect=4, pd_C=tuple(_decades(1e-2, 1e14, 4)),
        table_datasets=(("mackey-glass", (("n_train", 150), ("n_test", 150))), ("boston5", ()),
                        ("boston14", ())),
        table_splits=1, cv_C=(1e2, 1e5),
        cv_sigma2={"mackey-glass": (0.1, 1.0), "boston5": (10.0, 50.0), "boston14": (10.0, 50.0)},
        sparse_etas=(1e-2, 5e-2), crossover_M=300, crossover_ratios=(0.1, 0.3, 0.6, 1.0),
        crossover_formations=("blas3",), crossover_repeats=1, sinc_n=20,
        accuracy_C=tuple(_decades(1e-2, 1e10, 4)), kkt_n=30, kkt_C=tuple(_decades(1e-2, 1e12, 2)),
        cg_n=40, cg_C=tuple(_decades(1e-2, 1e8, 2)), prune_n=100, map_M=60,
        map_C=tuple(_decades(1e0, 1e16, 4)), map_sigma2=(0.1, 1.0), map_solvers=("els-dual", "els-primal"),
        map_precisions=("float32", "float64")),
}


def get_profile(name: str) -> Profile:
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"expected a report profile in {sorted(PROFILES)}, got profile={name!r}") from None


def _mg(n):
    return ("mackey-glass", {"n_train": n, "n_test": n})


def _sinc(n):
    return ("sinc", {"n_train": n, "n_test": max(n, 100)})


def independent_specs(P: Profile) -> dict[str, SweepSpec]:
    """The sweeps that depend on nothing else, by section key."""
    from ..solvers import solvers

    have = set(solvers())
    s = {}
    mg = [_mg(P.abe_M)]
    s["abe-spectrum"] = SweepSpec(f"{P.name}-abe-spectrum", kind="abe-spectrum", datasets=mg,
                                  grid={"sigma2": [P.abe_sigma2], "eta": list(P.abe_etas)},
                                  options=P.options(mp_max_n=P.mp_max_n))
    s["breakdown"] = SweepSpec(f"{P.name}-breakdown", kind="breakdown-scan",
                               solvers=["els-dual", "els-primal"],
                               precisions=list(P.breakdown_precisions), datasets=mg,
                               grid={"sigma2": [P.abe_sigma2], "eta": list(P.breakdown_etas)},
                               options=P.options(bisect=P.bisect, C_max=1e30))
    s["primal-dual"] = SweepSpec(f"{P.name}-primal-dual", kind="primal-dual",
                                 precisions=list(P.pd_precisions), datasets=mg,
                                 grid={"C": list(P.pd_C), "sigma2": [P.abe_sigma2],
                                       "eta": list(P.breakdown_etas)}, options=P.options())
    s["accuracy"] = SweepSpec(f"{P.name}-accuracy", kind="fit",
                              solvers=[x for x in P.accuracy_solvers if x in have],
                              precisions=list(P.accuracy_precisions), datasets=[_sinc(P.sinc_n)],
                              grid={"C": list(P.accuracy_C), "sigma2": [P.sinc_sigma2],
                                    "eta": [1e-3]})
    s["kkt"] = SweepSpec(f"{P.name}-kkt", kind="kkt-condition", precisions=["float64"],
                         datasets=[_sinc(P.kkt_n)],
                         grid={"C": list(P.kkt_C), "sigma2": [P.sinc_sigma2]}, options=P.options())
    s["cg"] = SweepSpec(f"{P.name}-cg", kind="cg-iterations", precisions=list(P.cg_precisions),
                        datasets=[_sinc(P.cg_n)],
                        grid={"C": list(P.cg_C), "sigma2": [P.sinc_sigma2]}, options=P.options())
    if "lssvm-pruned" in have:
        s["pruning"] = SweepSpec(f"{P.name}-pruning", kind="pruning-path", precisions=["float64"],
                                 datasets=[_sinc(P.prune_n)],
                                 grid={"C": [P.prune_C], "sigma2": [P.prune_sigma2],
                                       "rtol": [1e12], "min_support": [P.prune_min_support]},
                                 options=P.options())
    s["maps"] = SweepSpec(f"{P.name}-maps", kind="fit",
                          solvers=[x for x in P.map_solvers if x in have],
                          precisions=list(P.map_precisions), datasets=[_mg(P.map_M)],
                          grid={"C": list(P.map_C), "sigma2": list(P.map_sigma2), "eta": [0.1]})
    s["crossover"] = SweepSpec(f"{P.name}-crossover", kind="crossover-timing",
                               precisions=["float64"],
                               grid={"M": [P.crossover_M], "ratio": list(P.crossover_ratios),
                                     "formation": list(P.crossover_formations)},
                               options=P.options(repeats=P.crossover_repeats))
    return s


# --------------------------------------------------------------------------- #
# Abe's Table 1: CV stages and test fits
# --------------------------------------------------------------------------- #
#: Table 1 columns: (key, solvers, label).  ELS and sparse ELS: PrLS, DuLS in parentheses.
TABLE_METHODS = (("els", ("els-primal", "els-dual"), "ELS"),
                 ("sparse", ("els-primal", "els-dual"), "Sparse ELS"),
                 ("ls", ("lssvm-schur",), "LS SVR"))


def _cv_spec(P, name, dname, dkw, solver, grid):
    return SweepSpec(f"{P.name}-cv-{name}-{dname}", kind="cv", solvers=[solver], precisions=["float64"],
                     datasets=[(dname, dict(dkw))], grid=grid, seeds=[0], options=P.options(folds=5))


def choose(cv: pd.DataFrame, keys=("C", "sigma2", "eta")) -> dict:
    """The grid point with the smallest CV mean absolute error (ties: first in task order).

    Returns ``{}`` when no point has a finite error (every fold broke down).
    """
    ok = cv[np.isfinite(pd.to_numeric(cv.get("cv_mae"), errors="coerce"))] if len(cv) else cv
    if not len(ok):
        return {}
    best = ok.loc[ok["cv_mae"].astype(float).idxmin()]
    return {k: float(best[k]) for k in keys if k in best and pd.notna(best[k])}


def table_cv_specs(P: Profile, store, *, n_jobs, progress, executor=None) -> dict[str, SweepSpec]:
    """Run the two CV stages; return every CV spec and the test-fit specs (by key)."""
    out = {}
    for dname, dkw in P.table_datasets:
        s2 = list(P.cv_sigma2[dname])
        els = _cv_spec(P, "els", dname, dkw, "els-primal",
                       {"C": list(P.cv_C), "sigma2": s2, "eta": [P.els_eta]})
        ls = _cv_spec(P, "ls", dname, dkw, "lssvm-schur", {"C": list(P.cv_C), "sigma2": s2})
        for spec in (els, ls):
            run_sweep(spec, store, n_jobs=n_jobs, progress=progress, retry_errors=True, executor=executor)
        best_els = choose(load_records(store, els)) or {"C": P.cv_C[0], "sigma2": s2[0], "eta": P.els_eta}
        best_ls = choose(load_records(store, ls)) or {"C": P.cv_C[0], "sigma2": s2[0]}
        sparse = _cv_spec(P, "sparse", dname, dkw, "els-primal",
                          {"C": list(P.cv_C), "sigma2": [best_els["sigma2"]],
                           "eta": list(P.sparse_etas)})
        run_sweep(sparse, store, n_jobs=n_jobs, progress=progress, retry_errors=True, executor=executor)
        best_sp = choose(load_records(store, sparse)) or {"C": P.cv_C[0], "sigma2": best_els["sigma2"],
                                                          "eta": P.sparse_etas[0]}
        out.update({f"cv-els-{dname}": els, f"cv-ls-{dname}": ls, f"cv-sparse-{dname}": sparse})
        seeds = [0] if dname == "mackey-glass" else list(range(P.table_splits))
        for key, solvers_, _ in TABLE_METHODS:
            best = {"els": best_els, "sparse": best_sp, "ls": best_ls}[key]
            grid = {k: [v] for k, v in best.items()}
            out[f"test-{key}-{dname}"] = SweepSpec(
                f"{P.name}-test-{key}-{dname}", kind="fit", solvers=list(solvers_),
                precisions=["float64"], datasets=[(dname, dict(dkw))], grid=grid, seeds=seeds,
                options={"reference": False})
    return out


def run_report_sweeps(store, profile: Profile, *, n_jobs=None, progress=True,
                      executor=None) -> dict[str, SweepSpec]:
    """Run (or resume) every sweep of the report; return the specs by key.

    A sweep whose kind cannot run here (e.g. a module that is not installed)
    still yields rows: the engine records each failing task as an "error" row.
    ``executor`` (a Dask ``Client`` or a concurrent.futures executor) runs the
    tasks instead of local processes.
    """
    run = dict(n_jobs=n_jobs, progress=progress, executor=executor)
    specs = independent_specs(profile)
    for spec in specs.values():
        run_sweep(spec, store, retry_errors=True, **run)
    specs.update(table_cv_specs(profile, store, **run))
    for key, spec in specs.items():
        if key.startswith("test-"):
            run_sweep(spec, store, retry_errors=True, **run)
    return specs


def with_overrides(profile: Profile, **kw) -> Profile:
    """A copy of ``profile`` with some fields replaced (tests use tiny profiles)."""
    return replace(profile, **kw)
