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

import ast
import itertools
import json
from pathlib import Path

import pandas as pd

from .kinds import register_task_kind
from .runner import run_sweep
from .spec import SweepSpec

__all__ = ["ASV_SWEEP", "ASV_BENCHMARKS", "import_asv_results", "asv_crossover_table",
           "load_asv_crossover"]

#: The stored sweep name of the last asv import.
ASV_SWEEP = "asv-results"


#: asv benchmarks of benchmarks/bench_crossover.py read by :func:`load_asv_crossover`: column -> names
#: (the crossover's M = 2000 and 4000 rows are in the ``*Large`` classes, left out of the quick asv pass).
ASV_BENCHMARKS = {
    "primal_fit_seconds": ("bench_crossover.ElsPrimalTime.time_fit", "bench_crossover.ElsPrimalTimeLarge.time_fit"),
    "dual_fit_seconds": ("bench_crossover.ElsDualTime.time_fit", "bench_crossover.ElsDualTimeLarge.time_fit"),
    "dual_over_primal": ("bench_crossover.ElsCrossover.track_dual_over_primal",
                         "bench_crossover.ElsCrossoverLarge.track_dual_over_primal"),
    "model_dual_over_primal": ("bench_crossover.ElsCrossover.track_model_dual_over_primal",
                               "bench_crossover.ElsCrossoverLarge.track_model_dual_over_primal"),
    "n_over_m": ("bench_crossover.ElsCrossover.track_n_over_m", "bench_crossover.ElsCrossoverLarge.track_n_over_m"),
}


def _asv_records(path: Path):
    """Long records (column, params dict, value) of the crossover benchmarks in one asv result file."""
    data = json.loads(path.read_text())
    cols = data.get("result_columns", ["result", "params"])
    results = data.get("results", {})
    for column, bench_names in ASV_BENCHMARKS.items():
        for name in bench_names:
            entry = results.get(name)
            if not entry:
                continue
            values, params = entry[cols.index("result")], entry[cols.index("params")]
            names = ["M", "target_n_over_m", "precision"] if "ElsDualTime" in name else \
                ["M", "target_n_over_m", "formation", "precision"]
            if values is None or len(params) != len(names):
                continue
            for value, combo in zip(values, itertools.product(*params)):
                key = dict(zip(names, (ast.literal_eval(c) for c in combo)))
                yield column, key, (float("nan") if value is None else float(value))


def load_asv_crossover(results_dir=".asv/results"):
    """The crossover suite's latest asv results as a table, or None when there are none.

    Parameters
    ----------
    results_dir : str or Path
        asv's ``results_dir`` (``.asv/results`` in this project's asv.conf.json).

    Returns
    -------
    pandas.DataFrame or None
        One row per (M, target N/M, formation, precision) of the most recent
        result file (by asv's ``date``) holding the crossover benchmarks:
        ``M``, ``target_n_over_m``, ``formation``, ``precision``,
        ``n_over_m`` (achieved), ``N``, ``primal_fit_seconds``,
        ``dual_fit_seconds`` (asv's time of a whole fit; the dual has one
        formation, its time is repeated on both formations' rows),
        ``dual_over_primal`` (formation + factorization + solve phases,
        measured in one process), ``model_dual_over_primal``,
        ``commit_hash``, ``machine``, ``env_name``, ``date`` (ms since the
        epoch).  NaN where asv skipped or failed a combination.  The columns
        that also exist in :func:`measure_crossover` mean the same.
    """
    root = Path(results_dir)
    files = [] if not root.is_dir() else [
        f for f in root.glob("*/*.json") if f.name not in ("machine.json", "benchmarks.json")]
    latest, best_date = None, -1
    for f in files:
        try:
            data = json.loads(f.read_text())
        except (OSError, ValueError):
            continue
        has = any(name in data.get("results", {}) for names in ASV_BENCHMARKS.values() for name in names)
        if has and data.get("date", 0) > best_date:
            latest, best_date = (f, data), data.get("date", 0)
    if latest is None:
        return None
    f, data = latest
    rows = {}
    dual = {}
    for column, key, value in _asv_records(f):
        if column == "dual_fit_seconds":
            dual[key["M"], key["target_n_over_m"], key["precision"]] = value
            continue
        k = (key["M"], key["target_n_over_m"], key["formation"], key["precision"])
        rows.setdefault(k, dict(zip(("M", "target_n_over_m", "formation", "precision"), k)))[column] = value
    if not rows:
        return None
    df = pd.DataFrame(list(rows.values()))
    for column in ("primal_fit_seconds", "dual_over_primal", "model_dual_over_primal", "n_over_m"):
        if column not in df:
            df[column] = float("nan")
    df["dual_fit_seconds"] = [dual.get((m, r, p), float("nan"))
                              for m, r, p in zip(df.M, df.target_n_over_m, df.precision)]
    df["N"] = (df["n_over_m"] * df["M"]).round().astype("Int64")
    df["commit_hash"] = data.get("commit_hash")
    df["machine"] = data.get("params", {}).get("machine", f.parent.name)
    df["env_name"] = data.get("env_name")
    df["date"] = data.get("date")
    return df.sort_values(["formation", "precision", "M", "target_n_over_m"]).reset_index(drop=True)


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
