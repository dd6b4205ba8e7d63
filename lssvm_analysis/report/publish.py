"""The published ledger of a profile: ``ledger.csv``, ``cost.csv`` and a short summary page, from a store.

The full profile costs CPU-hours (the papers' protocols); its verdicts are
published with the project (``reports/full/``) so that a reader does not have
to spend them.  :func:`publish` computes nothing: it reads the records a
``report --profile full`` run stored (on local processes or a Dask cluster,
in as many resumed pieces as it took) and writes

* ``ledger.csv``: every claim with its verdict, judged only from the records
  (one sweep each) whose every planned task is stored: a claim reading a
  record run in part gets no verdict from part of its protocol, it says "not
  run" and how many of the record's tasks are stored;
* ``cost.csv``: per section, the tasks planned and stored, their outcomes, and
  the CPU seconds they took (``time_task_cpu``, the worker thread's CPU time,
  which a loaded or niced machine does not inflate) beside their wall seconds;
* ``index.html``: the count of outcomes, the ledger table, and one short
  section per report section with its cost, which the ledger's evidence
  links point to.

``make full`` runs the full profile on a 2-worker LocalCluster (resumable:
rerun it) and then this.
"""
from __future__ import annotations

import math
import platform
from collections import Counter
from pathlib import Path

import pandas as pd

from .. import __version__
from ..experiments import SweepSpec
from ..experiments.claims import ledger_frame
from ..experiments.store import Store, StoreError
from .build import git_commit, library_versions, read_records
from .html import Section, write_page
from .ledger import answer_sentence, ledger_table
from .plan import stored_plan
from .registry import check_profile, report_sections

__all__ = ["section_costs", "publish"]

#: cost.csv's columns, in order.
COST_COLUMNS = ["section", "title", "tasks", "stored", "complete", "outcomes", "cpu_seconds", "wall_seconds"]


def section_costs(store, profile: str = "full") -> pd.DataFrame:
    """Per registered section: tasks planned, stored, complete or not, outcomes, CPU and wall seconds.

    A task two sections plan is counted under the first (the order of the page).  ``cpu_seconds`` sums
    ``time_task_cpu`` (rows stored before that column existed count their ``time_task`` instead);
    ``wall_seconds`` sums ``time_task``.  Runs nothing.

    Parameters
    ----------
    store : path or Store
        An existing record store.
    profile : {"quick", "default", "full"}
    """
    check_profile(profile)
    st, owned = _open_existing(store)
    try:
        return _costs(st, stored_plan(st, profile))
    finally:
        if owned:
            st.close()


def _costs(st: Store, plan: dict) -> pd.DataFrame:
    """:func:`section_costs` of an open store and its profile's plan (``{section: {key: spec}}``)."""
    seen, rows = set(), []
    for reg in report_sections():
        keys = [t.key for spec in plan.get(reg.key, {}).values() if isinstance(spec, SweepSpec)
                for t in spec.tasks()]
        keys = list(dict.fromkeys(k for k in keys if k not in seen))
        seen.update(keys)
        if reg.reads_all and not keys:
            continue
        got = {r["key"]: r for r in st.rows(keys=keys)}
        cpu = sum(_num(r.get("time_task_cpu", r.get("time_task"))) for r in got.values())
        wall = sum(_num(r.get("time_task")) for r in got.values())
        outcomes = Counter(str(r.get("status")) for r in got.values())
        rows.append({"section": reg.key, "title": reg.title, "tasks": len(keys), "stored": len(got),
                     "complete": len(got) == len(keys),
                     "outcomes": " ".join(f"{s}={n}" for s, n in sorted(outcomes.items())),
                     "cpu_seconds": round(cpu, 1), "wall_seconds": round(wall, 1)})
    return pd.DataFrame(rows, columns=COST_COLUMNS)


def _record_states(st: Store, plan: dict) -> dict:
    """``{(section, key): (stored, planned)}`` of every sweep of the plan: a record is complete when equal."""
    states = {}
    for sec, specs in plan.items():
        for key, spec in specs.items():
            if isinstance(spec, SweepSpec):
                keys = list(dict.fromkeys(t.key for t in spec.tasks()))
                states[sec, key] = (len(st.statuses(keys)), len(keys))
    return states


def _num(value) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return 0.0
    return v if math.isfinite(v) else 0.0


def _open_existing(store) -> tuple[Store, bool]:
    """``(Store, owned)`` of an existing store: publishing never creates one (a typo is not an empty run)."""
    if isinstance(store, Store):
        return store, False
    path = Path(store) if isinstance(store, (str, Path)) else None
    if path is None:
        raise TypeError(f"expected a path of a record store, got store={store!r}")
    if not path.is_file():
        raise StoreError(f"expected an existing record store (a report run writes it), got store={str(store)!r}")
    return Store(path), True


def _hours(seconds: float) -> str:
    return f"{seconds / 3600:.2f} CPU-h" if seconds >= 3600 else f"{seconds / 60:.1f} CPU-min"


def publish(store, out="reports/full", *, profile: str = "full") -> Path:
    """Write ``ledger.csv``, ``cost.csv`` and ``index.html`` of ``profile`` into ``out`` from ``store``.

    Computes nothing: a record (one sweep) whose planned tasks are not all stored is not read, so the
    claims that read it say "not run" with its count of stored tasks, and ``cost.csv`` says how far each
    section got.  Returns the page's path.

    Raises
    ------
    StoreError
        ``store`` is not an existing record store.
    ValueError
        An unknown ``profile``.
    """
    check_profile(profile)
    out = Path(out)
    st, owned = _open_existing(store)
    try:
        plan = stored_plan(st, profile)  # planned once: the costs and the records read the same plan
        costs = _costs(st, plan)
        states = _record_states(st, plan)
        records = read_records(st, {sec: {k: spec for k, spec in specs.items()
                                          if (sec, k) not in states or states[sec, k][0] == states[sec, k][1]}
                                    for sec, specs in plan.items()})
    finally:
        if owned:
            st.close()
    out.mkdir(parents=True, exist_ok=True)
    partial = {f"{sec}/{k}": f"{got} of {n} tasks stored" for (sec, k), (got, n) in states.items() if got < n}
    frame = ledger_frame(records, partial)
    meta = _meta(profile, costs)  # before any file is written: the commit it names is not "dirty" by them
    costs.to_csv(out / "cost.csv", index=False)
    return write_page(out, f"LS-SVM claims ledger, profile '{profile}'",
                      _sections(frame, costs, out, profile, partial), meta=meta)


def _meta(profile, costs) -> list:
    done = costs[costs.complete]
    return [f"lssvm_analysis {__version__} (commit {git_commit()}), Python {platform.python_version()}, "
            f"{library_versions()}. Written by `lssvm-analysis publish --profile {profile}` from a record store, "
            "without computing anything.",
            f"{len(done)} of {len(costs)} sections ran completely: {_hours(done.cpu_seconds.sum())} for "
            f"{int(done.tasks.sum())} tasks. A claim whose records are stored only in part says 'not run'."]


def _sections(frame, costs, out, profile, partial) -> list:
    ledger = Section("Claims ledger", "ledger")
    ledger.answer.append((30, answer_sentence(frame)))
    ledger.ledger(ledger_table(frame, out, "ledger", f"The claims ledger of the '{profile}' profile: each claim "
                               "with its verdict, our number beside the printed one, and the rule's sentence "
                               "(click a claim). The evidence links point to the section's cost below; the "
                               "figures are in the report this ledger was judged from."))
    secs = [ledger]
    for row in costs.itertuples():
        sec = Section(row.title, row.section)
        mine = [f"{k.rpartition('/')[2]} ({d})" for k, d in partial.items() if k.rpartition("/")[0] == row.section]
        state = ("every planned task is stored" if row.complete else
                 f"run in part ({row.stored} of {row.tasks} tasks stored; records run in part: "
                 f"{', '.join(mine) or 'none'}): the claims that read those say 'not run'")
        sec.p(f"{row.tasks} tasks, {state}; outcomes {row.outcomes or 'none'}; {row.cpu_seconds:.0f} CPU-s "
              f"({_hours(row.cpu_seconds)}) and {row.wall_seconds:.0f} s of task wall time.")
        secs.append(sec)
    return secs
