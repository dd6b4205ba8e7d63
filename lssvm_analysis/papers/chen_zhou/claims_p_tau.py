"""Rules of Chen & Zhou's claims on the smoothing parameter p and the truncation threshold τ (§4.1, §4.3).

They read the "p-sweep" and "tau-sweep" records of kind ``cz-fit``; :mod:`.chen_zhou_tables` registers
them (C-smooth-negligible, C-p-insensitive, C-tau, C-tau-schedule) in the ledger's order.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as st

from ...experiments.claims import Verdict
from .claims_sets import DECIDING, data_role, decision_note, judge_sets
from .printed import SR
from ...experiments.claims.stats import all_hold, better, equivalent, fmt_num, paired

__all__ = ["smooth_negligible", "p_insensitive", "tau", "tau_schedule"]


def _p_rows(rec):
    d = rec.get("p-sweep", pd.DataFrame())
    return d[d.solver == SR] if len(d) else d


def _by_p(d, p):
    g = d[np.isclose(pd.to_numeric(d.p, errors="coerce"), p)]
    return pd.to_numeric(g.set_index("seed").rmse, errors="coerce")


def _p_margin(d):
    v = _by_p(d, 1e4)
    return float(v.std(ddof=1)) if len(v) > 1 else math.nan


def _idle(d):
    """The robust loss truncates nothing at the reference run: p and τ have nothing to act on."""
    return "n_truncated" in d.columns and bool((pd.to_numeric(d.n_truncated, errors="coerce").fillna(0) == 0).all())


def _p_open(d):
    """The undecided verdict of a p sweep that cannot test p (none run, or the robust loss idle), else None."""
    if not len(d):
        return Verdict("undecided", measured="no p sweep")
    if _idle(d):
        return Verdict("undecided", measured="SR-LSSVM truncates no training point at any p",
                       cause="the robust loss is idle on this set: the sweep cannot test p")
    return None


def smooth_negligible(rec):
    d = _p_rows(rec)
    if _p_open(d) is not None:
        return _p_open(d)
    m = _p_margin(d)
    dd = paired(_by_p(d, 1e4), _by_p(d, 1e12))
    o = equivalent(dd, m)
    tr = d.groupby("p").n_truncated.mean()
    return Verdict(o, measured=dd.text("", "RMSE(p = 1e4) − RMSE(p = 1e12 ≈ rule (8))") + decision_note(dd, o)
                   + f"; truncated points p = 1e4: {fmt_num(float(tr.get(1e4, np.nan)))}, p = 1e12: "
                   + f"{fmt_num(float(tr.get(1e12, np.nan)))}",
                   uncertainty=f"equivalent: 95 % CI inside ±{fmt_num(m)} (SR's split sd at p = 1e4 on this stand-in)")


def p_insensitive(rec):
    d = _p_rows(rec)
    if _p_open(d) is not None:
        return _p_open(d)
    m = _p_margin(d)
    outs, parts = [], []
    for p in sorted(set(pd.to_numeric(d.p, errors="coerce"))):
        if p == 1e4 or p > 1e6:
            continue
        dd = paired(_by_p(d, p), _by_p(d, 1e4))
        o = equivalent(dd, m)
        if p >= 1e3:
            outs.append(o)
        parts.append(f"p = {p:g}: " + dd.text("", "RMSE − RMSE(1e4)")
                     + (decision_note(dd, o) if p >= 1e3 else " (below 1e3: reported)"))
    return Verdict(all_hold(outs), measured="; ".join(parts),
                   uncertainty=f"equivalent: 95 % CI inside ±{fmt_num(m)} (SR's split sd at p = 1e4) for every p ≥ 1e3")


def _tau_rows(rec, schedule):
    d = rec.get("tau-sweep", pd.DataFrame())
    if not len(d):
        return d
    s = d.tau_schedule.astype(str).str.lower().isin(["true", "1", "1.0"]) if "tau_schedule" in d.columns else False
    return d[(d.solver == SR) & (s if schedule else ~s)]


def tau(rec):
    d = _tau_rows(rec, False)
    if not len(d):
        return Verdict("undecided", measured="no τ sweep")
    taus = sorted(set(pd.to_numeric(d.tau, errors="coerce")))
    by = {t: pd.to_numeric(d[np.isclose(d.tau, t)].set_index("seed").rmse, errors="coerce") for t in taus}
    inner = taus[1:-1]
    best = min(inner, key=lambda t: by[t].mean())
    outs, parts = [], []
    for t in (taus[0], taus[-1]):
        dd = paired(by[t], by[best])
        o = better(dd)
        outs.append(o)
        parts.append(f"τ = {fmt_num(t)} (grid end): " + dd.text("", f"RMSE − RMSE(τ = {fmt_num(best)})") + decision_note(dd, o))
    o, cause = all_hold(outs), ""
    ends = [t for t in (taus[0], taus[-1]) if by[t].mean() <= by[best].mean()]
    if ends:
        cause = (f"the mean RMSE is lowest at the grid's end τ = {fmt_num(ends[0])}: the grid does not reach a "
                 "τ improper on that side")
    role, ds, note = data_role(d)
    o, _stand_in, why, _count = judge_sets([(ds, role, note, o)], deciding=DECIDING)  # a stand-in refutes nothing
    cause = "; ".join(c for c in (why, cause) if c)
    return Verdict(o, measured="mean RMSE per τ " + ", ".join(f"{fmt_num(t)}: {fmt_num(float(by[t].mean()))}"
                                                              for t in taus) + "; " + "; ".join(parts),
                   uncertainty="interior optimum: both grid ends worse than the best interior τ (95 % CI); only the "
                               "paper's data (or a faithful equivalent) at its tabled τ refutes", cause=cause)


def tau_schedule(rec):
    a, b = _tau_rows(rec, False), _tau_rows(rec, True)
    if not (len(a) and len(b)):
        return Verdict("undecided", measured="no τ sweep with and without the schedule")
    va = a.groupby("tau").rmse.mean()
    vb = b.groupby("tau").rmse.mean()
    f = float(va.var(ddof=1) / vb.var(ddof=1)) if vb.var(ddof=1) > 0 else math.inf
    n1, n2 = len(va) - 1, len(vb) - 1
    crit = float(st.f.ppf(0.95, n1, n2))
    low = 1 / float(st.f.ppf(0.95, n2, n1))
    o = "holds" if f > crit else "does not hold" if f < low else "undecided"
    # the power of the F-test: the variance ratios these τ values tell from 1 (either side)
    power = (f" [refutes with {len(va)} and {len(vb)} τ values, which resolve a variance ratio outside "
             f"[{fmt_num(low)}, {fmt_num(crit)}]]") if o == "does not hold" else ""
    return Verdict(o, measured=f"sd over the starting τ of the mean RMSE: fixed τ {fmt_num(float(va.std(ddof=1)))}, "
                               f"schedule {fmt_num(float(vb.std(ddof=1)))}; F = {fmt_num(f)} (95 % critical "
                               f"{fmt_num(crit)}){power}",
                   uncertainty=f"one-sided F-test on {len(va)} τ values (df {n1}, {n2}); the schedule's δ = 0.5 and "
                               "halving are our reading (unstated)")
