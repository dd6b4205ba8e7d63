"""What the report computes: every registered section's sweeps for one profile.

Every expensive run is a :class:`~lssvm_analysis.experiments.SweepSpec`
executed by :func:`~lssvm_analysis.experiments.run_sweep` into one SQLite
store, so a second report with the same profile recomputes nothing.  The
sections are the ones in :mod:`lssvm_analysis.report.registry`; each plans
its own sweeps (:func:`run_report_sweeps` hands it a ``run`` that executes a
spec and returns its records, for sections whose later stages depend on the
earlier ones, e.g. tune by CV, then test at the chosen point).

Profiles: "quick" (tests, about a minute), "default" (``make report``, within
5 minutes on 2 cores with every paper), "full" (the papers' protocols).
Each section states its sizes and grids in the report.
"""
from __future__ import annotations

import math

import pandas as pd

from ..experiments import SweepSpec, load_records, run_sweep
from ..experiments.runner import local_pool
from .registry import check_profile, report_sections

__all__ = ["REPORT_VERSION", "options", "decades", "run_report_sweeps"]

#: Part of every spec's options: bump to invalidate every stored report row.
REPORT_VERSION = 1


def options(**extra) -> dict:
    """Options every report spec carries (the report version first)."""
    return {"report_version": REPORT_VERSION, **extra}


def decades(lo, hi, step=1) -> tuple:
    """(10^a, 10^(a+step), ..., 10^b) for lo = 10^a, hi = 10^b."""
    return tuple(float(10.0 ** k) for k in range(int(math.log10(lo)), int(math.log10(hi)) + 1, step))


def run_report_sweeps(store, profile: str, *, n_jobs=None, executor=None,
                      progress=True) -> dict[str, dict[str, SweepSpec | str]]:
    """Run (or resume) every registered section's sweeps; return ``{section: {key: spec}}``.

    A spec may also be a stored sweep's name (a step that wrote rows itself,
    e.g. the asv-results import).  A sweep whose tasks fail still yields
    rows: the engine records each failing task as an "error" row, and the
    section says so.
    """
    check_profile(profile)
    if executor is None:  # one local pool for every sweep of the report, not one per sweep
        with local_pool(n_jobs) as pool:
            return _run_sections(store, profile, pool, n_jobs if pool is None else None, progress)
    return _run_sections(store, profile, executor, None, progress)


def _run_sections(store, profile, executor, n_jobs, progress):
    def run(spec: SweepSpec) -> pd.DataFrame:
        run_sweep(spec, store, n_jobs=n_jobs, executor=executor, progress=progress, retry_errors=True)
        return load_records(store, spec)

    out = {}
    for sec in report_sections():
        specs = sec.plan(profile, run)
        for spec in specs.values():
            if isinstance(spec, SweepSpec):
                run(spec)
        out[sec.key] = specs
    return out
