"""V-table2's cells judged as the sentence reads: Table 2 reports the accuracy each classifier reaches, so only a
cell *below* its printed value with no named cause in our protocol or data can refute it (a cell above it, on
other splits of a data version that may differ, is no evidence against the classifier), and only beyond the
family-wise bound over the cells judged (5 %, Bonferroni); :mod:`.claims` registers the rule.
"""
from __future__ import annotations

import json

import pandas as pd

from ...analysis.tuning import grid_edge
from ...experiments.claims import Verdict
from ...experiments.claims.stats import CellClasses, cause_of, table_cells_verdict

__all__ = ["cells_verdict", "edge_causes", "edges_text"]


def cells_verdict(rows, causes: dict, *, unc: str, n_splits: int) -> Verdict:
    """Verdict of "reproduces in every cell" from ``rows`` of (label, values, printed, scale) (deviations in
    units of ``scale``, the inventory's 2 the limit) and ``causes`` (label or glob → a named cause)."""
    total = len(rows)
    if not total:
        return Verdict("undecided", measured="no cell of the table in the records", cause="no records")
    return table_cells_verdict(CellClasses.of(rows, lambda label: cause_of(label, causes)), uncertainty=unc, reports="Table 2",
                               source="versions differ from the paper's", more="more splits (the paper's 30)",
                               cells_word="accuracy cells", over=f" over {n_splits} split(s) a set")


def edge_causes(table) -> dict:
    """A method whose CV optimum of γ sits on the grid's edge in most splits: its cells' deviations are the grid's."""
    out = {}
    if "options" not in table.columns or not len(table):
        return out
    o = table.options.iloc[0]
    gC = [2.0 ** k for k in (json.loads(o) if isinstance(o, str) else dict(o)).get("log2_C", [])]
    for who, method in (("lssvm", "LSSVM"), ("svm", "SVM"), ("op", "OP-LSSVM")):
        c = pd.to_numeric(table.get(f"C_{who}", pd.Series(dtype=float)), errors="coerce").dropna()
        if len(gC) > 1 and len(c) and sum(grid_edge(gC, v) is not None for v in c) > len(c) / 2:
            out[f"acc {method} *"] = "grid edge: the CV optimum of γ on the edge of the paper's grid in most splits"
    return out


def edges_text(table: pd.DataFrame) -> str:
    """How often each tuned gamma (C) or sigma2 sits on the edge of the CV grid, over the splits."""
    if "options" not in table.columns or not len(table):
        return ""
    o = table.options.iloc[0]
    o = json.loads(o) if isinstance(o, str) else dict(o)
    gC = [2.0 ** k for k in o.get("log2_C", [])]
    parts = []
    for who in ("lssvm", "svm", "op"):
        c = pd.to_numeric(table.get(f"C_{who}", pd.Series(dtype=float)), errors="coerce")
        if len(gC) > 1 and c.notna().any():
            n = sum(grid_edge(gC, v) is not None for v in c)
            if n:
                parts.append(f"γ of {who} on the grid's edge in {n} of {int(c.notna().sum())} splits")
    return ("optima on the edge of the tuning grid: " + "; ".join(parts)) if parts else ""
