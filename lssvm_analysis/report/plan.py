"""What the report computes: every registered section's sweeps for one profile.

Every expensive run is a :class:`~lssvm_analysis.experiments.SweepSpec`
executed by :func:`~lssvm_analysis.experiments.run_sweep` into one SQLite
store, so a second report with the same profile recomputes nothing.  The
sections are the ones in :mod:`lssvm_analysis.report.registry`; each plans
its own sweeps (:func:`run_report_sweeps` hands it a ``run`` that executes a
spec and returns its records, for sections whose later stages depend on the
earlier ones, e.g. tune by CV, then test at the chosen point).

Profiles: "quick" (tests, within 60 s), "default" (``make report``, within
240 s cold on 2 cores with every paper), "full" (the papers' protocols).
Each section states its sizes and grids in the report.
"""
from __future__ import annotations

import contextlib
import math
from collections import Counter

import pandas as pd

from ..experiments import SweepProgress, SweepSpec, load_records, run_sweep
from ..experiments.runner import local_pool, run_sweeps, sweep_id
from ..experiments.store import open_store
from .registry import check_profile, report_sections

__all__ = ["REPORT_VERSION", "options", "decades", "run_report_sweeps", "stored_plan", "selected_sections",
           "status_counts", "task_counts"]

#: Part of every spec's options: bump to invalidate every stored report row.
REPORT_VERSION = 1


def options(**extra) -> dict:
    """Options every report spec carries (the report version first)."""
    return {"report_version": REPORT_VERSION, **extra}


def decades(lo, hi, step=1) -> tuple:
    """(10^a, 10^(a+step), ..., 10^b) for lo = 10^a, hi = 10^b."""
    return tuple(float(10.0 ** k) for k in range(int(math.log10(lo)), int(math.log10(hi)) + 1, step))


def selected_sections(only=None) -> list:
    """The registered sections a report runs: every one, or those whose keys ``only`` names.

    A section that reads every section's records (the ledger) is always kept: its rows for the
    sections left out say "not run".  An unknown key is a ValueError naming it.
    """
    regs = report_sections()
    if only is None:
        return regs
    if isinstance(only, str) or not all(isinstance(k, str) for k in only):
        raise TypeError(f"expected a list of section keys for only, got only={only!r}")
    keys = [r.key for r in regs]
    unknown = [k for k in only if k not in keys]
    if unknown or not only:
        raise ValueError(f"expected section keys among {keys}, got only={list(only)!r}")
    return [r for r in regs if r.key in only or r.reads_all]


def run_report_sweeps(store, profile: str, *, n_jobs=None, executor=None,
                      progress=True, only=None) -> dict[str, dict[str, SweepSpec | str]]:
    """Run (or resume) every registered section's sweeps; return ``{section: {key: spec}}``.

    A spec may also be a stored sweep's name (a step that wrote rows itself,
    e.g. the asv-results import).  A sweep whose tasks fail still yields
    rows: the engine records each failing task as an "error" row, and the
    section says so.

    ``progress`` (True, False, "force", or a :class:`SweepProgress` the
    caller keeps, e.g. to read its counts) is one bar over every sweep of the
    report: before anything runs, :func:`stored_plan` announces every sweep
    with its stored tasks counted as done, so the total and the ETA cover
    the whole report from the start.  When every sweep has run, the bar's
    ``stored_counts`` are set to :func:`status_counts` of the returned plan:
    the outcomes as the store holds them, stored and new alike.
    """
    check_profile(profile)
    sections = selected_sections(only)
    with contextlib.ExitStack() as stack:
        if not isinstance(progress, SweepProgress):
            progress = stack.enter_context(SweepProgress(progress, desc=f"report '{profile}'"))
        _expect(store, profile, progress, sections)
        if executor is None:  # one local pool for every sweep of the report, not one per sweep
            pool = stack.enter_context(local_pool(n_jobs))
            specs = _run_sections(store, profile, pool, n_jobs if pool is None else None, progress, sections)
        else:
            specs = _run_sections(store, profile, executor, None, progress, sections)
        progress.stored_counts = status_counts(store, specs)
        return specs


def stored_plan(store, profile: str, sections=None) -> dict[str, dict[str, SweepSpec | str]]:
    """Every section's specs as planned from the rows already stored; runs nothing.

    A dependent stage (tune, then test at the chosen point) reads the stored
    rows of the stage before it, as in :func:`run_report_sweeps`.  Once the
    report has run, this is exactly its plan; before, a dependent stage whose
    input is not stored yet is planned at the section's fallback point, which
    has the same number of tasks (what the progress bar needs).
    """
    check_profile(profile)
    st, owned = open_store(store)
    try:
        out = {}
        for sec in (report_sections() if sections is None else sections):
            out[sec.key] = sec.plan(profile, lambda spec: load_records(st, spec))
        return out
    finally:
        if owned:
            st.close()


def status_counts(store, specs) -> Counter:
    """Stored status of every distinct task of ``specs`` (``{section: {key: spec}}``), read from ``store``.

    Tasks of the plan with no row in the store count under "missing".
    """
    keys = list(dict.fromkeys(t.key for by_key in specs.values() for spec in by_key.values()
                              if isinstance(spec, SweepSpec) for t in spec.tasks()))
    st, owned = open_store(store)
    try:
        stored = st.statuses(keys)
    finally:
        if owned:
            st.close()
    counts = Counter(stored.values())
    if len(stored) < len(keys):
        counts["missing"] = len(keys) - len(stored)
    return counts


def _expect(store, profile, progress, sections=None) -> None:
    st, owned = open_store(store)
    try:
        for by_key in stored_plan(st, profile, sections).values():
            for spec in by_key.values():
                if isinstance(spec, SweepSpec):
                    keys = [t.key for t in spec.tasks()]
                    stored = st.statuses(keys)  # error rows are retried: not done
                    done = [k for k, s in stored.items() if s != "error"]
                    progress.expect(spec.name, len(keys), len(done), sweep_id=sweep_id(keys), keys=keys,
                                    stored_keys=done)
    finally:
        if owned:
            st.close()


def _run_sections(store, profile, executor, n_jobs, progress, sections=None):
    done = set()  # specs run in this report: a second run would only retry their errors again

    def run(spec: SweepSpec) -> pd.DataFrame:
        keys = tuple(t.key for t in spec.tasks())
        if keys not in done:
            run_sweep(spec, store, n_jobs=n_jobs, executor=executor, progress=progress,
                      retry_errors=True)
            done.add(keys)
        return load_records(store, spec)

    out = {}
    for sec in (report_sections() if sections is None else sections):
        progress.label(sec.key)
        specs = sec.plan(profile, run)   # a dependent stage runs here, before the stage that reads it
        # the section's other sweeps in one pass: no worker waits at the end of a sweep for its last task
        todo = {}  # task keys -> spec: a spec run before (or twice in the plan) runs once
        for spec in specs.values():
            if isinstance(spec, SweepSpec):
                keys = tuple(t.key for t in spec.tasks())
                if keys not in done:
                    todo.setdefault(keys, spec)
        if todo:
            run_sweeps(todo.values(), store, n_jobs=n_jobs, executor=executor, progress=progress,
                       retry_errors=True)
            done.update(todo)
        out[sec.key] = specs
    return out


def task_counts(specs) -> pd.DataFrame:
    """Distinct tasks per section and sweep of a plan (``{section: {key: spec}}``, e.g. :func:`stored_plan`).

    A task two sweeps share (the same key) is counted once, under the first sweep that plans it, so
    the column sums to the number of tasks the report runs.  Columns: section, key, sweep, tasks.
    """
    seen, rows = set(), []
    for section, by_key in specs.items():
        for key, spec in by_key.items():
            if not isinstance(spec, SweepSpec):
                continue
            new = {t.key for t in spec.tasks()} - seen
            seen |= new
            rows.append({"section": section, "key": key, "sweep": spec.name, "tasks": len(new)})
    return pd.DataFrame(rows, columns=["section", "key", "sweep", "tasks"])
