"""The asv results as records: an import step that writes rows into the record store.

``asv run`` leaves its measurements in ``.asv/results``; the report must read
records only, so :func:`import_asv_results` turns the latest results of the
crossover suite into one row of kind "asv-crossover" (the table as JSON
text), keyed like every task by its content: the results directory and the
fingerprint of the result file (commit and date).  New asv results make a
new row; the sweep name :data:`ASV_SWEEP` always names the last import, so
the report shows the most recent measurement and says where it came from.
"""
from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from ..analysis.crossover import load_asv_crossover
from .kinds import register_task_kind
from .runner import run_sweep
from .spec import SweepSpec

__all__ = ["ASV_SWEEP", "import_asv_results", "asv_crossover_table"]

#: The stored sweep name of the last asv import.
ASV_SWEEP = "asv-results"


def _no_names(spec) -> None:
    """The import takes no solver, precision or data set."""


def asv_crossover_row(task) -> dict:
    """Row function of kind "asv-crossover": the crossover table of ``options["results_dir"]``."""
    df = load_asv_crossover(task.options["results_dir"])
    if df is None:
        return {"status": "missing", "message": f"no crossover results in {task.options['results_dir']}"}
    return {"table": df.to_json(orient="records"), "n_rows": int(len(df)),
            "commit_hash": str(df["commit_hash"].iloc[0]), "machine": str(df["machine"].iloc[0]),
            "date": int(df["date"].iloc[0]) if pd.notna(df["date"].iloc[0]) else 0}


register_task_kind("asv-crossover", asv_crossover_row, validate=_no_names)


def import_asv_results(store, results_dir, *, progress=False) -> bool:
    """Import the latest crossover results of ``results_dir`` into ``store``; False if there are none.

    The row's key holds the directory and the result's commit and date, so a
    re-import of the same results computes nothing.
    """
    df = load_asv_crossover(results_dir) if results_dir is not None else None
    if df is None:
        return False
    fingerprint = f"{df['commit_hash'].iloc[0]}@{df['date'].iloc[0]}"
    spec = SweepSpec(ASV_SWEEP, kind="asv-crossover",
                     options={"results_dir": str(Path(results_dir).resolve()), "fingerprint": fingerprint})
    run_sweep(spec, store, n_jobs=1, progress=progress)
    return True


def asv_crossover_table(records: pd.DataFrame) -> pd.DataFrame | None:
    """The crossover table of an imported "asv-crossover" row (None when absent)."""
    if records is None or not len(records) or "table" not in records.columns:
        return None
    good = records[records.status == "ok"]
    if not len(good):
        return None
    return pd.DataFrame(json.loads(good["table"].iloc[-1]))
