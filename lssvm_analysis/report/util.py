"""Small helpers the sections share: reading records defensively, stating ranges."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from .figures import fmt_num

__all__ = ["num", "ok", "errors_note", "no_records", "span", "decades", "col", "config_label"]


def col(df: pd.DataFrame, name: str, default=np.nan) -> pd.Series:
    """Column ``name`` or a Series of ``default`` (records of a kind may lack a column)."""
    if name in df.columns:
        return df[name]
    return pd.Series(default, index=df.index, dtype=float if isinstance(default, float) else object)


def config_label(rows: pd.DataFrame) -> pd.Series:
    """The configuration label of each row (``solver[variant=...]``), the solver where a row has
    none (older records, NaN or '')."""
    solver = rows["solver"].astype(str)
    if "configuration" not in rows.columns:
        return solver
    conf = rows["configuration"]
    return conf.where(conf.notna() & (conf.astype(str) != ""), solver).astype(str)


def num(df: pd.DataFrame, name: str) -> pd.Series:
    """Column ``name`` as float (NaN where missing or not numeric)."""
    return pd.to_numeric(col(df, name), errors="coerce").astype(float)


def ok(df: pd.DataFrame) -> pd.DataFrame:
    """Rows whose task ran (status other than the engine's "error")."""
    if not len(df) or "status" not in df.columns:
        return df.iloc[0:0] if len(df) else df
    return df[df["status"] != "error"]


def no_records(sec, rows: pd.DataFrame, df: pd.DataFrame, what: str, otherwise: str) -> bool:
    """True, with a note in ``sec``, when ``rows`` (what a subsection draws from ``df``) is empty.

    The note is :func:`errors_note` of ``df`` about ``what`` (why the sweep gave
    nothing), else ``otherwise`` (e.g. "No CG records.").
    """
    if len(rows):
        return False
    sec.note(errors_note(df, what) or otherwise)
    return True


def errors_note(df: pd.DataFrame, what: str) -> str | None:
    """A sentence about rows with status "error" (None if there are none)."""
    if not len(df) or "status" not in df.columns:
        return f"No records for {what}: the sweep produced nothing."
    bad = df[df["status"] == "error"]
    if not len(bad):
        return None
    msg = str(col(bad, "message", "").iloc[0]).strip().splitlines()
    first = msg[0][:200] if msg else ""
    return (f"{len(bad)} of {len(df)} tasks for {what} failed with an error and are left out "
            f"(first: {first!r}); they are retried on the next run.")


def span(values, unit: str = "") -> str:
    """'a–b' range of finite values in short format ('—' if none)."""
    v = np.asarray(pd.to_numeric(pd.Series(values), errors="coerce"), dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        return "—"
    lo, hi = v.min(), v.max()
    s = fmt_num(lo) if math.isclose(lo, hi, rel_tol=1e-3) else f"{fmt_num(lo)}–{fmt_num(hi)}"
    return f"{s}{unit}"


def decades(x: float) -> str:
    """'1e+06'-style power of ten nearest to x."""
    if not (isinstance(x, (int, float)) and math.isfinite(x) and x > 0):
        return "—"
    return f"1e{round(math.log10(x)):+03d}"
