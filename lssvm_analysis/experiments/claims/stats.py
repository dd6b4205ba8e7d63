"""Statistics the claims' rules decide with: paired differences over splits, CIs, deviations.

Every comparison of two methods is paired by split (the same training and
test part), so the split-to-split variation cancels; the 95 % confidence
interval of the mean paired difference is Student's t interval, and its
sign decides a "better" claim, its position against a margin an
"equivalent" one.  With one split there is no interval: a single run never
gives "holds" or "does not hold", only "undecided", and every "undecided"
says what would decide it (:meth:`Paired.resolution`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fnmatch import fnmatchcase

import numpy as np
import pandas as pd
from scipy import stats as _st

from ...analysis.tuning import grid_edge
from ._ledger import Verdict


__all__ = ["Paired", "paired", "better", "not_worse", "equivalent", "deviation", "deviations_text", "cause_of", "unexplained_deviations", "fmt_num", "grid_edges",
           "mean_ci", "splits_needed", "all_hold", "undecided_note", "loglog_slope", "slope_ci", "CellClasses",
           "table_cells_verdict"]

#: Confidence level of every interval the ledger prints.
LEVEL = 0.95


@dataclass(frozen=True)
class Paired:
    """Mean paired difference a − b over n units, its 95 % t interval and the two-sided p-value.

    ``units`` names what was paired (random splits by default; domains, (domain, randomisation)
    cells, data draws): the ledger's sentences count them by that name.
    """

    mean: float
    lo: float
    hi: float
    p: float
    n: int
    units: str = "splits"

    @property
    def unit(self) -> str:
        """The singular of :attr:`units` ("split", "domain", "cell", ...)."""
        return _singular(self.units)

    def text(self, unit: str = "", what: str = "Δ") -> str:
        if self.n < 1 or not math.isfinite(self.mean):
            return f"{what}: no paired value (0 {self.units})"
        if self.n < 2:
            return f"{what} = {self.mean:+.3g}{unit} on one {self.unit} (no interval: one {self.unit})"
        return (f"{what} = {self.mean:+.3g}{unit}, 95 % CI {self.interval()} over {self.n} "
                f"paired {self.units} (t test p = {self.p:.2g})")

    def interval(self, fmt: str = "+.3g", unit: str = "") -> str:
        """The 95 % interval as ``[lo, hi]`` in ``fmt``, or ``no interval (1 split)`` where there is none
        (fewer than 2 units): a reader never sees ``[nan, nan]``."""
        if self.n < 2 or not (math.isfinite(self.lo) and math.isfinite(self.hi)):
            return f"no interval ({self.n} {self.unit if self.n == 1 else self.units})"
        return f"[{self.lo:{fmt}}{unit}, {self.hi:{fmt}}{unit}]"

    def short(self, fmt: str = "+.3g") -> str:
        """``mean [lo, hi]`` (or ``mean, no interval (1 split)``): the compact form for a list of comparisons."""
        if self.n < 1 or not math.isfinite(self.mean):
            return f"no paired value (0 {self.units})"
        return f"{self.mean:{fmt}} {self.interval(fmt)}" if self.n >= 2 else f"{self.mean:{fmt}}, {self.interval(fmt)}"

    @property
    def sd(self) -> float:
        """The split-to-split standard deviation of the difference, recovered from the interval."""
        if self.n < 2 or not (math.isfinite(self.lo) and math.isfinite(self.hi)):
            return math.nan
        return (self.hi - self.lo) / 2 / float(_st.t.ppf(0.5 + LEVEL / 2, self.n - 1)) * math.sqrt(self.n)

    def resolution(self, threshold: float = 0.0, unit: str = "") -> str:
        """What it would take to decide against ``threshold``: the units (splits, domains, ...) needed at
        this effect and spread, and the smallest effect the present ones resolve (for an "undecided")."""
        if self.n < 1 or not math.isfinite(self.mean):
            return f"no paired value: ≥ 2 paired {self.units} with both values are needed"
        if self.n < 2:
            return (f"one {self.unit} gives no interval: ≥ 2 paired {self.units} are needed, and the paper's "
                    f"protocol count to judge a difference of {abs(self.mean - threshold):.3g}{unit}")
        need = splits_needed(self.mean - threshold, self.sd)
        t = float(_st.t.ppf(0.5 + LEVEL / 2, self.n - 1))
        smallest = t * self.sd / math.sqrt(self.n)
        need_s = "no finite number (the mean sits on the threshold)" if need is None else f"≈ {need}"
        return (f"deciding needs {need_s} paired {self.units} at this effect ({self.mean - threshold:+.3g}{unit}, "
                f"sd {self.sd:.3g}{unit}); these {self.n} {self.units} resolve an effect of ±{smallest:.3g}{unit}")


def fmt_num(x, digits: int = 3) -> str:
    """Short number for the report's text and tables (the package's one number format).

    '—' for None and NaN, '∞' / '−∞', 'yes' / 'no' for a bool, an integer as it is (a count
    is not rounded), otherwise ``digits`` significant digits, in exponent form outside
    [1e-3, 1e4); anything that is not a number as ``str(x)``.
    """
    if x is None:
        return "—"
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    if not math.isfinite(v):
        return "—" if math.isnan(v) else ("∞" if v > 0 else "−∞")
    if v != 0 and (abs(v) >= 1e4 or abs(v) < 1e-3):
        return f"{v:.{digits - 1}e}"
    return f"{v:.{digits}g}"


def loglog_slope(x, y) -> float:
    """Least-squares slope of log10 y against log10 x over the finite points; NaN for fewer than 2 points
    or a single x."""
    x, y = np.log10(np.asarray(x, float)), np.log10(np.asarray(y, float))
    ok = np.isfinite(x) & np.isfinite(y)
    return float(np.polyfit(x[ok], y[ok], 1)[0]) if ok.sum() >= 2 and np.ptp(x[ok]) > 0 else np.nan


def slope_ci(x, y) -> tuple[float, float, float, int]:
    """OLS slope of y on x with its 95 % t interval: (slope, lo, hi, n); NaN bounds below 3 points."""
    x, y = np.asarray(x, float), np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    if len(x) < 2 or np.ptp(x) == 0:
        return math.nan, math.nan, math.nan, len(x)
    r = _st.linregress(x, y)
    if len(x) < 3:
        return float(r.slope), math.nan, math.nan, len(x)
    h = float(_st.t.ppf(0.975, len(x) - 2) * r.stderr)
    return float(r.slope), float(r.slope - h), float(r.slope + h), len(x)


def mean_ci(x) -> tuple[float, float, float, int]:
    """(mean, lo, hi, n) of the finite values of ``x``: Student's t interval at :data:`LEVEL`."""
    v = np.asarray(pd.to_numeric(pd.Series(x), errors="coerce"), dtype=float)
    v = v[np.isfinite(v)]
    n = len(v)
    if n == 0:
        return math.nan, math.nan, math.nan, 0
    m = float(v.mean())
    if n < 2 or np.all(v == v[0]):
        return m, (math.nan if n < 2 else m), (math.nan if n < 2 else m), n
    h = float(_st.t.ppf(0.5 + LEVEL / 2, n - 1) * v.std(ddof=1) / math.sqrt(n))
    return m, m - h, m + h, n


def _singular(units: str) -> str:
    head, _, tail = units.partition(" ")  # "cells (domain, randomisation)" -> "cell (domain, randomisation)"
    return (head[:-1] if head.endswith("s") else head) + (" " + tail if tail else "")


def paired(a: pd.Series, b: pd.Series, *, units: str = "splits") -> Paired:
    """The paired difference a − b over the index both share; ``units`` names that index's units
    (random splits by default; "domains", "cells (domain, randomisation)", "data draws", ...)."""
    d = (pd.to_numeric(a, errors="coerce") - pd.to_numeric(b, errors="coerce")).dropna()
    m, lo, hi, n = mean_ci(d)
    if n >= 2 and np.ptp(d.to_numpy(float)) > 0:
        p = float(_st.ttest_1samp(d.to_numpy(float), 0.0).pvalue)
    else:
        p = math.nan if n < 2 else (1.0 if m == 0 else 0.0)
    return Paired(m, lo, hi, p, n, units)


def splits_needed(effect: float, sd: float, *, limit: int = 100_000) -> int | None:
    """The number n of paired splits whose 95 % t interval half-width t_{n-1}·sd/√n is below
    ``|effect|`` (None for a zero effect, or beyond ``limit``); 2 at least."""
    e, s = abs(float(effect)), float(sd)
    if not (math.isfinite(e) and math.isfinite(s)) or e == 0:
        return None
    if s == 0:
        return 2
    n = max(2, math.ceil((1.96 * s / e) ** 2))
    while n <= limit and float(_st.t.ppf(0.5 + LEVEL / 2, n - 1)) * s / math.sqrt(n) >= e:
        n += 1
    return n if n <= limit else None


def better(d: Paired) -> str:
    """'holds' if the interval lies above 0, 'does not hold' if at or below, else 'undecided'.

    One split gives no interval, so no decision: 'undecided' (:meth:`Paired.resolution` says
    what would decide it).
    """
    if d.n < 2 or not math.isfinite(d.mean):
        return "undecided"
    if d.lo > 0:
        return "holds"
    if d.hi <= 0:
        return "does not hold"
    return "undecided"


def not_worse(d: Paired, margin: float) -> str:
    """Non-inferiority of a against b by ``margin`` (a − b > −margin): the interval against −margin."""
    if d.n < 2 or not math.isfinite(d.mean):
        return "undecided"
    if d.lo > -margin:
        return "holds"
    if d.hi < -margin:
        return "does not hold"
    return "undecided"


def equivalent(d: Paired, margin: float) -> str:
    """Equivalence within ±``margin``: 'holds' if the interval lies inside (−margin, margin), 'does not hold' if
    it lies wholly outside it, else 'undecided' (one split: 'undecided')."""
    if d.n < 2 or not math.isfinite(d.mean):
        return "undecided"
    if -margin < d.lo and d.hi < margin:
        return "holds"
    if d.lo >= margin or d.hi <= -margin:
        return "does not hold"
    return "undecided"


def all_hold(outs) -> str:
    """'holds' when every outcome holds, 'does not hold' when one does not, else 'undecided' (none: 'undecided')."""
    return "holds" if outs and all(o == "holds" for o in outs) else "does not hold" if "does not hold" in outs \
        else "undecided"


def undecided_note(d: Paired, o, unit="") -> str:
    """`` [what would decide it]`` (:meth:`Paired.resolution`) after an 'undecided' outcome ``o``; else ''."""
    return f" [{d.resolution(0, unit)}]" if o == "undecided" else ""


def deviation(measured, printed: float, printed_sd: float) -> tuple[float, float]:
    """(mean measured, |mean − printed| in units of the printed sd) ; the sd floored at 0.1 % of |printed|.

    The papers' sd is over their splits, so it is the scale a reproduction with the same protocol
    should fall within (2 sd: a deviation to investigate).
    """
    m = float(np.nanmean(pd.to_numeric(pd.Series(measured), errors="coerce")))
    sd = max(float(printed_sd) if np.isfinite(printed_sd) else 0.0, 1e-3 * abs(printed), 1e-12)
    return m, abs(m - printed) / sd


def cause_of(label: str, causes: dict) -> str:
    """The known cause of a cell ``label``: ``causes[label]``, else the first glob pattern matching it, else ''."""
    return causes.get(label) or next((v for k, v in causes.items() if fnmatchcase(label, k)), "")


def unexplained_deviations(rows, causes: dict) -> int:
    """How many of ``rows`` (label, measured, printed, sd) deviate beyond 2 sd with no cause in ``causes``."""
    return sum(1 for label, m, p, sd in rows
               if np.isfinite(z := deviation(m, p, sd)[1]) and z > 2 and not cause_of(label, causes))


def deviations_text(rows, causes: dict) -> tuple[int, str]:
    """Deviations beyond 2 sd with their cause: ``rows`` of (label, measured, printed, sd).

    ``causes`` maps a label, or a glob pattern of labels (``"acc * RIP"``), to its known cause; the
    exact label first, then the first matching pattern; every other deviation is "unexplained".
    Returns (count, text).
    """
    out = []
    for label, m, p, sd in rows:
        mm, z = deviation(m, p, sd)
        if not np.isfinite(z) or z <= 2:
            continue
        cause = cause_of(label, causes) or "unexplained"
        out.append(f"{label} {fmt_num(mm, 4)} vs {fmt_num(p, 4)} printed ({z:.1f} sd; cause: {cause})")
    return len(out), ("deviations > 2 sd: " + "; ".join(out)) if out else "every value within 2 sd of the printed"


def grid_edges(cv: pd.DataFrame, score: str, keys=("C", "sigma2", "eta"), *, minimize: bool = True) -> list[str]:
    """The hyper-parameters whose CV optimum lies on the edge of the grid searched (``cv``: one row a point).

    Returns e.g. ``["C = 1e+07 (largest of 4)"]``; axes with a single value are not flagged (nothing
    was searched), and an empty list means the optimum is interior on every searched axis.
    """
    s = pd.to_numeric(cv.get(score, pd.Series(dtype=float)), errors="coerce")
    if not len(cv) or not s.notna().any():
        return []
    best = cv.loc[s.idxmin() if minimize else s.idxmax()]
    out = []
    for k in keys:
        if k not in cv.columns:
            continue
        vals = pd.to_numeric(cv[k], errors="coerce").dropna().unique()
        edge = grid_edge(vals, float(best[k]))
        if edge is not None:
            out.append(f"{k} = {fmt_num(float(best[k]))} ({'smallest' if edge == 'low' else 'largest'} "
                       f"of {len(vals)})")
    return out


@dataclass(frozen=True)
class CellClasses:
    """A printed table's deviating cells (beyond 2 in the units of the inventory's "reproduces"), sorted by
    what they can say about a sentence that reports the accuracy each method reaches.

    ``higher``: ours above the printed (texts); ``explained``: below, with a named cause of our protocol
    or data (texts); ``deciding``: below, unexplained ((z, text) pairs); ``total``: the cells judged.
    """

    higher: list
    explained: list
    deciding: list
    total: int

    @classmethod
    def of(cls, rows, cause_of) -> CellClasses:
        """Sort ``rows`` of (label, values, printed, scale) (deviations in units of ``scale``, the inventory's 2
        the limit) by ``cause_of(label)``: the named cause of our protocol or data, or "" when none."""
        higher, explained, deciding = [], [], []
        for label, m, p, sd in rows:
            mm, z = deviation(m, p, sd)
            if not np.isfinite(z) or z <= 2:
                continue
            text = f"{label} {fmt_num(mm, 4)} vs {fmt_num(p, 4)} printed ({z:.1f} sd"
            c = cause_of(label)
            if mm > p:
                higher.append(text + ")")
            elif c:
                explained.append(text + f"; cause: {c})")
            else:
                deciding.append((z, text + "; unexplained)"))
        return cls(higher, explained, deciding, len(rows))


def table_cells_verdict(cells: CellClasses, *, uncertainty: str, reports: str, source: str, more: str,
                        cells_word: str = "cells", over: str = "", power_note: str = "") -> Verdict:
    """"Reproduces in every cell" of a printed accuracy table, judged as the sentence reads.

    Only a cell *below* its printed value with no named cause can refute (a cell above it, on other splits
    of a data version that may differ, is no evidence against the method), and only beyond the family-wise
    bound over the cells judged (5 %, Bonferroni: at 2 sd a table of 35 cells that all reproduce flags one
    by chance 80 % of the time).  Below the bound: "undecided" (``more`` would decide); only explained or
    higher cells deviating: "not reproduced" with the causes.

    Parameters
    ----------
    cells : CellClasses
    uncertainty : str
        What a cell's deviation is measured in (the start of the verdict's uncertainty).
    reports, source, more : str
        The table ("Table 2"), whose splits and data ("the paper's") and what would decide
        ("more splits (the paper's 30)").
    cells_word, over, power_note : str
        Wording of the measured line ("accuracy cells", " over 5 split(s) a set") and a note after the
        power (" (3 randomisation(s) a cell)").
    """
    higher, explained, deciding, total = cells.higher, cells.explained, cells.deciding, cells.total
    if not total:
        return Verdict("undecided", measured="no cell of the table in the records", cause="no records")
    zc = float(_st.norm.ppf(1 - 0.025 / total))
    strong = [t for z, t in deciding if z > zc]
    n_dev = len(higher) + len(explained) + len(deciding)
    measured = (f"{total - n_dev} of {total} {cells_word} reproduce{over}; {len(deciding)} deviating cell(s) below "
                f"the printed with no cause decide, {len(explained)} below with a named cause and {len(higher)} "
                f"above the printed do not")
    unc = (uncertainty + f"; a deciding cell refutes beyond the family-wise bound {zc:.2f} (5 % over {total} cells); "
           f"power: a true shortfall of {zc + 1.645:.1f} such units in a cell is found 95 % of the time{power_note}")
    cause = " | ".join(
        ([f"below, unexplained: {'; '.join(t for _, t in deciding)}"] if deciding else [])
        + ([f"below, explained: {'; '.join(explained)}"] if explained else [])
        + ([f"above the printed (no evidence against the accuracy {reports} reports; our splits and data "
            f"{source}): {'; '.join(higher)}"] if higher else []))
    if strong:
        return Verdict("does not hold", measured=measured, uncertainty=unc, cause=cause)
    if deciding:
        return Verdict("undecided", measured=measured, uncertainty=unc,
                       cause=cause + f" | the unexplained cells lie within the family-wise bound {zc:.2f}: {more} "
                                     "decide")
    if n_dev:
        return Verdict("not reproduced", measured=measured, uncertainty=unc, cause=cause)
    return Verdict("holds", measured=measured, uncertainty=unc, cause="every value within 2 sd of the printed")
