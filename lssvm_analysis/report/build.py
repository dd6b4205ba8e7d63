"""Assemble the report: run (or resume) the sweeps, read their records, write the page.

Where the records live
----------------------
One SQLite store shared by every report, in a cache directory - not in
``reports/`` (which holds only HTML, PNG and CSV): ``$LSSVM_ANALYSIS_STORE``
if set, else ``$XDG_CACHE_HOME/lssvm_analysis/records.sqlite`` (default
``~/.cache/...``).  Task keys are content hashes (kind, its version, inputs,
``REPORT_VERSION``), so a rerun recomputes nothing, "quick" and "default"
share the tasks they have in common, and rows are never mixed between
different inputs.  ``--store`` chooses another file; deleting it forces a
full recomputation.
"""
from __future__ import annotations

import os
import platform
import time
from pathlib import Path

import pandas as pd

from .. import __version__
from ..experiments import load_records
from ..experiments.asv_import import import_asv_results
from .html import Section, linked_files, write_page
from .plan import run_report_sweeps
from .registry import check_profile, report_sections

__all__ = ["default_store", "build_report", "write_report", "read_records"]


def default_store() -> Path:
    """The record store used when none is given (see the module docstring)."""
    env = os.environ.get("LSSVM_ANALYSIS_STORE")
    if env:
        return Path(env)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "lssvm_analysis" / "records.sqlite"


def read_records(store, specs) -> dict[str, dict[str, pd.DataFrame]]:
    """Every section's specs' stored rows, ``{section: {key: DataFrame}}`` (the sections' only input)."""
    return {sec: {key: load_records(store, spec) for key, spec in by_key.items()}
            for sec, by_key in specs.items()}


def write_report(out, records, profile: str, *, meta=()) -> Path:
    """Write ``index.html`` and every PNG/CSV from records (never runs a solver).

    Each registered section renders from its own records, in page order,
    numbered by its position.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    for i, reg in enumerate(report_sections(), start=1):
        sec = Section(f"{i}. {reg.title}", reg.key)
        sec.verdict = reg.render(sec, out, records.get(reg.key, {}), profile)
        sections.append(sec)
    return write_page(out, "LS-SVM numerical stability report", sections, meta=meta)


def _clean(out: Path):
    """Remove the previous report's files: those its index.html links to, and the page itself.

    Nothing else in ``out`` is touched (a directory that holds no report of ours is left alone).
    """
    old = linked_files(out / "index.html")
    if old is None:
        return
    for name in old + ["index.html"]:
        f = out / name
        if f.is_file() and f.suffix in (".png", ".csv", ".html"):
            f.unlink()


def build_report(out="reports/default", *, quick=False, profile=None, store=None, n_jobs=None,
                 executor=None, progress=True, asv_dir=".asv/results") -> Path:
    """Run the report's sweeps (reusing stored rows) and write ``out/index.html``.

    Parameters
    ----------
    out : path
        Output directory (created; previous PNG/CSV/HTML files removed).
    quick : bool
        Use the "quick" profile instead of "default".
    profile : {"quick", "default", "full"}, optional
        Explicit profile name (overrides ``quick``).
    store : path, optional
        SQLite record store (default :func:`default_store`).
    n_jobs : int, optional
        Local worker processes for the sweeps (default: all cores).
    executor : concurrent.futures.Executor or dask.distributed.Client, optional
        Run the sweeps there instead of local processes.
    progress : {True, False, "force"}
        tqdm progress bars on stderr.
    asv_dir : path
        asv results to import into the store first (crossover figure); none is fine.

    Returns
    -------
    pathlib.Path of ``index.html``.
    """
    name = check_profile(profile or ("quick" if quick else "default"))
    store = Path(store) if store is not None else default_store()
    store.parent.mkdir(parents=True, exist_ok=True)
    out = Path(out)
    t0 = time.perf_counter()
    imported = import_asv_results(store, asv_dir)
    specs = run_report_sweeps(store, name, n_jobs=n_jobs, executor=executor, progress=progress)
    t_runs = time.perf_counter() - t0
    records = read_records(store, specs)
    _clean(out)
    n_rows = sum(len(df) for by_key in records.values() for df in by_key.values())
    meta = [f"lssvm_analysis {__version__}, profile '{name}', Python {platform.python_version()} on "
            f"{platform.machine()}; {n_rows} records from {store} "
            f"(sweeps {t_runs:.1f} s, this run"
            + ("; asv results imported" if imported else "") + ").",
            "Every figure and table links to the CSV it was drawn from; verdicts are computed from the "
            "records."]
    return write_report(out, records, name, meta=meta)
