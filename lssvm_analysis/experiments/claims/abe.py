"""Claims of Abe (primal against dual sparse LS-SVR in the empirical feature space): §2.4, Table 1.

Home section "abe"; records "test-<method>-<set>" (kind ``fit``: solver, seed, status,
test_mae, n_support, time_fit), "cv-<method>-<set>" (kind ``cv``), "breakdown",
"abe-spectrum", "crossover".
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...arith.precision import get_precision
from ..arrays import dumps, loads
from ._ledger import Verdict, register_claim
from .stats import better, fmt_num, grid_edges, mean_ci, not_worse, paired

__all__ = ["TABLE1"]

_A = "abe"
#: Table 1 as printed: set -> method -> (AAAE, sd or nan, SV % of LS or nan); MG is one series (no sd).
TABLE1 = {"mackey-glass": {"els": (0.000300, np.nan), "sparse": (0.000316, np.nan), "ls": (0.000374, np.nan)},
          "boston5": {"els": (0.0290, 0.00156), "sparse": (0.0292, 0.00160), "ls": (0.0276, 0.00181)},
          "boston14": {"els": (2.36, 0.164), "sparse": (2.38, 0.153), "ls": (2.27, 0.145)}}
_SV_PCT = {"mackey-glass": 77.0, "boston5": 53.0, "boston14": 52.0}


def _tests(rec, method):
    """Rows of the test fits of one Table 1 method over every set (column 'set' added)."""
    parts = [df.assign(set=k.split("-", 2)[2]) for k, df in rec.items()
             if k.startswith(f"test-{method}-") and len(df)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["set", "solver", "seed", "status", "test_mae", "n_support", "time_fit"])


def _col(df, solver, col):
    g = df[(df.solver == solver) & (df.status == "ok")]
    return pd.to_numeric(g.set_index(["set", "seed"])[col], errors="coerce")


def _sparse_fraction(rec):
    sp, ls = _tests(rec, "sparse"), _tests(rec, "ls")
    parts, out = [], []
    for s in sorted(set(sp.set) & set(ls.set)):
        pct = 100 * _col(sp[sp.set == s], "els-primal", "n_support") / _col(ls[ls.set == s], "lssvm-schur",
                                                                             "n_support")
        m, lo, hi, n = mean_ci(pct)
        out.append(43 <= m <= 77)
        parts.append(f"{s} {m:.0f} %" + (f" (95 % CI {lo:.0f}–{hi:.0f}, {n} splits)" if n > 1 and np.isfinite(lo)
                                          else " (one split)") + f", printed {_SV_PCT.get(s, np.nan):.0f} %")
    return Verdict("holds" if all(out) else "does not hold", measured="sparse ELS kept " + "; ".join(parts)
                   + " of the LS SVR's support vectors", uncertainty="mean over splits against the printed range "
                   "43–77 %")


def _log_time_pair(rec, method):
    t = _tests(rec, method)
    return np.log(_col(t, "els-primal", "time_fit")), np.log(_col(t, "els-dual", "time_fit"))


def _dual_faster(rec):
    p, d = _log_time_pair(rec, "els")
    r = paired(p, d)  # log(primal / dual) > 0: the dual is faster
    return Verdict(better(r), measured=f"median DuLS/PrLS time {fmt_num(float(np.exp(-(p - d).median())))} at "
                   "N ≈ M (ELS, η small)", uncertainty=r.text("", "log(PrLS/DuLS time)")
                   + " over (set, split) pairs")


def _primal_sparse(rec):
    p, d = _log_time_pair(rec, "sparse")
    r = paired(d, p)  # log(dual / primal) >= -log 1.1: the primal is not slower by more than 10 %
    return Verdict(not_worse(r, float(np.log(1.1))),
                   measured=f"median DuLS/PrLS time {fmt_num(float(np.exp((d - p).median())))} at N < M (sparse)",
                   uncertainty=r.text("", "log(DuLS/PrLS time)") + "; 'equal or faster': margin 10 %")


def _duls_unstable(rec):
    dual = pd.concat([t[t.solver == "els-dual"] for t in (_tests(rec, m) for m in ("els", "sparse")) if len(t)]
                     or [pd.DataFrame(columns=["solver", "status", "C"])], ignore_index=True)
    nbd = int((dual.status == "breakdown").sum())
    bd = rec.get("breakdown", pd.DataFrame())
    scan = bd[(bd.solver == "els-dual")] if len(bd) else bd
    found = pd.to_numeric(scan.get("C_star", pd.Series(dtype=float)), errors="coerce")
    measured = f"DuLS broke down in {nbd} of {len(dual)} Table 1 fits (at the CV-chosen C)"
    if nbd:
        return Verdict("holds", measured=measured, uncertainty="counts of recorded breakdowns")
    if np.isfinite(found).any():
        chosen = pd.to_numeric(dual.get("C", pd.Series(dtype=float)), errors="coerce")
        return Verdict("holds only when", condition=f"C ≥ {fmt_num(np.nanmin(found))} (the first breakdown of the "
                       "scans)", measured=measured + f"; CV chose C ≤ {fmt_num(chosen.max())}",
                       uncertainty="breakdown C bracketed by bisection in log C", cause="the printed '—' on MG "
                       "is reproduced only at larger C than our CV picks")
    return Verdict("does not hold", measured=measured + "; no scan broke down either",
                   uncertainty="counts of recorded breakdowns")


def _primal_stable(rec):
    bd = rec["breakdown"]
    cs = pd.to_numeric(bd.C_star, errors="coerce").fillna(np.inf).replace(np.nan, np.inf)
    bd = bd.assign(C_star=cs)
    piv = bd.pivot_table(index=["precision", "eta"], columns="solver", values="C_star", aggfunc="min")
    if not {"els-primal", "els-dual"} <= set(piv.columns):
        return Verdict("undecided", measured="the scans lack one of the two forms")
    # neither form broke down up to the scan's C_max (mp50): the scan cannot tell them apart there
    tie = np.isinf(piv["els-primal"]) & np.isinf(piv["els-dual"])
    measured = "; ".join(f"{p} η={fmt_num(e)}: C* PrLS {fmt_num(r['els-primal'])} vs DuLS {fmt_num(r['els-dual'])}"
                         for (p, e), r in piv.iterrows())
    unc = "first breakdown C bracketed by bisection (∞: none up to the scan's C_max)"
    if tie.any():
        unc += "; no contest where neither broke down (" + ", ".join(
            f"{p} η={fmt_num(e)}" for (p, e) in piv.index[tie.to_numpy()]) + ")"
    piv = piv[~tie.to_numpy()]
    if not len(piv):
        return Verdict("undecided", measured=measured, uncertainty=unc)
    win = piv["els-primal"] > piv["els-dual"]
    if win.all():
        return Verdict("holds", measured=measured, uncertainty=unc)
    if win.any():
        lost = sorted({f"{p} η={fmt_num(e)}" for (p, e), w in win.items() if not w})
        return Verdict("holds only when", condition=f"not at {', '.join(lost)}", measured=measured, uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


def _rank(rec):
    sp = rec["abe-spectrum"]
    parts, singular = [], 0
    for _, r in sp.iterrows():
        sv = loads(r["sv"])
        M, N = int(r["M"]), int(r["N"])
        u = get_precision("float64").unit_roundoff
        rank = int(np.sum(sv > max(M, N) * u * sv.max())) if len(sv) else 0
        singular += rank < M
        parts.append(f"η={fmt_num(r['eta'])}: rank(H_m) = {rank}, N = {N}, M = {M}")
    return Verdict("holds" if singular == len(sp) else "does not hold" if singular == 0 else "holds only when",
                   condition="η drops columns (N < M)", measured="; ".join(parts),
                   uncertainty="numerical rank of H_m at the threshold M·u·σ_max (float64 SVD)",
                   cause="rank N < M makes M − N eigenvalues of Ω_e exactly 1/C, so λ_min(Ω_e) → 0 as C → ∞")


def _ls_accurate(rec):
    els, ls = _tests(rec, "els"), _tests(rec, "ls")
    outs, parts = [], []
    for s in sorted(set(els.set) & set(ls.set)):
        d = paired(_col(els[els.set == s], "els-primal", "test_mae"), _col(ls[ls.set == s], "lssvm-schur", "test_mae"))
        outs.append(better(d))
        parts.append(f"{s} {d.text('', 'AAAE ELS − LS')}")
    wins = sum(o == "holds" for o in outs)
    losses = sum(o == "does not hold" for o in outs)
    outcome = "holds" if wins > len(outs) / 2 else "does not hold" if losses >= len(outs) / 2 else "undecided"
    return Verdict(outcome, measured=f"LS SVR lower error on {wins} of {len(outs)} sets: " + "; ".join(parts),
                   uncertainty="paired over splits per set; 'most sets': a majority with CIs above 0")


def _table1(rec):
    rows, causes = [], []
    for s, by in TABLE1.items():
        for method, (p, sd) in by.items():
            t = _tests(rec, method)
            v = _col(t[t.set == s], "els-primal" if method != "ls" else "lssvm-schur", "test_mae") if len(t) else []
            if not len(v):
                continue
            m = float(np.mean(v))
            off = (abs(m - p) / sd > 2) if np.isfinite(sd) else not (0.5 <= m / p <= 2)
            if off:
                edges = grid_edges(rec.get(f"cv-{method}-{s}", pd.DataFrame()), "cv_mae")
                why = ("protocol: CV optimum on the grid's edge (" + ", ".join(edges) + ")" if edges else
                       "data version: the Mackey–Glass series is generated (Abe's sampling is not stated)"
                       if s == "mackey-glass" else "unexplained")
                causes.append(f"{s} {method} {fmt_num(m)} vs {fmt_num(p)} printed ({why})")
            rows.append(s)
    rule = "beyond 2 printed sd (MG, printed without sd: outside a factor 2)"
    return Verdict("holds" if not causes else "does not hold", measured=f"{len(rows)} cells compared",
                   uncertainty=rule, cause=("deviations: " + "; ".join(causes)) if causes else "")


def _crossover(rec):
    c = rec["crossover"]
    form = c.get("formation", c.get("measured_formation", pd.Series("blas3", index=c.index))).fillna("blas3")
    parts, good = [], []
    for f, g in c.assign(form=form).groupby("form"):
        g = g.assign(nm=pd.to_numeric(g.n_over_m, errors="coerce"),
                     r=pd.to_numeric(g.time_dual_over_primal, errors="coerce")).sort_values("nm")
        crosses = g.r.iloc[0] > 1 and g.r.iloc[-1] < 1
        good.append(crosses)
        star = g.nm[g.r < 1].min()
        parts.append(f"{f}: dual/primal time {fmt_num(g.r.iloc[0])} at N/M = {fmt_num(g.nm.iloc[0])} → "
                     f"{fmt_num(g.r.iloc[-1])} at N/M = {fmt_num(g.nm.iloc[-1])}"
                     + (f", dual faster from N/M = {fmt_num(star)}" if np.isfinite(star) else ""))
    unc = "best of the repeated timings per point (ratios measured in one run)"
    forms = sorted(set(form))
    if all(good):
        return Verdict("holds", measured="; ".join(parts), uncertainty=unc)
    if any(good):
        ok_forms = [f for f, x in zip(forms, good) if x]
        return Verdict("holds only when", condition=f"the formation is {', '.join(ok_forms)}",
                       measured="; ".join(parts), uncertainty=unc)
    return Verdict("does not hold", measured="; ".join(parts), uncertainty=unc)


# --------------------------------------------------------------------------- synthetic records
def _fits(method, primal, dual=None, sets=("boston5", "boston14"), seeds=4, **cols):
    out = {}
    rng = np.random.default_rng(2)
    for s in sets:
        rows = []
        for seed in range(seeds):
            for solver, v in (("els-primal" if method != "ls" else "lssvm-schur", primal), ("els-dual", dual)):
                if v is None:
                    continue
                row = {"solver": solver, "seed": seed, "status": "ok", "C": 1e3}
                row.update({k: (val[s] if isinstance(val, dict) else val) * (1 + 0.01 * rng.standard_normal())
                            for k, val in v.items()})
                rows.append(row)
        out[f"test-{method}-{s}"] = pd.DataFrame(rows)
    return out


def _bd(primal, dual):
    return {"breakdown": pd.DataFrame([{"solver": s, "precision": "float64", "eta": 0.1, "C_star": c, "status": "ok"}
                                       for s, c in (("els-primal", primal), ("els-dual", dual))])}


def _spectrum(N, M=10):
    return {"abe-spectrum": pd.DataFrame([{"eta": 0.1, "M": M, "N": N, "sv": dumps(np.linspace(1, 0.1, N)),
                                           "status": "ok"}])}


def _xo(ratios):
    return {"crossover": pd.DataFrame({"n_over_m": [0.2, 0.5, 1.0], "time_dual_over_primal": ratios,
                                       "status": "ok"})}


_EX = {
    "sparse": lambda: {"holds": {**_fits("sparse", {"n_support": 60.0}), **_fits("ls", {"n_support": 100.0})},
                       "does not hold": {**_fits("sparse", {"n_support": 95.0}), **_fits("ls", {"n_support": 100.0})}},
    "dual": lambda: {"holds": _fits("els", {"time_fit": 2.0}, {"time_fit": 1.0}),
                     "does not hold": _fits("els", {"time_fit": 1.0}, {"time_fit": 2.0})},
    "primal": lambda: {"holds": _fits("sparse", {"time_fit": 1.0}, {"time_fit": 2.0}),
                       "does not hold": _fits("sparse", {"time_fit": 2.0}, {"time_fit": 1.0})},
    "unstable": lambda: {"holds": _fits("els", {"time_fit": 1.0}, {"time_fit": 1.0}) | {
                             "test-els-boston5": pd.DataFrame([{"solver": "els-dual", "seed": 0, "status": "breakdown",
                                                                "C": 1e3}])},
                         "holds only when": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 1.0}), **_bd(np.inf, 1e9)},
                         "does not hold": {**_fits("els", {"time_fit": 1.0}, {"time_fit": 1.0}),
                                           **_bd(np.inf, np.nan)}},
    "stable": lambda: {"holds": _bd(np.inf, 1e9), "does not hold": _bd(1e6, 1e9)},
    "rank": lambda: {"holds": _spectrum(5), "does not hold": _spectrum(10)},
    "ls": lambda: {"holds": {**_fits("els", {"test_mae": 2.0}), **_fits("ls", {"test_mae": 1.0})},
                   "does not hold": {**_fits("els", {"test_mae": 1.0}), **_fits("ls", {"test_mae": 2.0})}},
    "table1": lambda: {"holds": _fits("ls", {"test_mae": {"boston5": 0.0276, "boston14": 2.27}}),
                       "does not hold": _fits("ls", {"test_mae": {"boston5": 0.05, "boston14": 4.0}})},
    "crossover": lambda: {"holds": _xo([2.0, 1.5, 0.7]), "does not hold": _xo([2.0, 1.5, 1.2])},
}
_T1 = ("abe-table1",)
register_claim("A-sparse-svs", paper="abe", section=_A, where="§3, Table 1",
               text="the sparse LS-SVRs keep 43–77 % of the support vectors", printed="MG 77 %, B.5 53 %, B.14 52 %",
               records=("test-sparse-*", "test-ls-*"), rule=_sparse_fraction, evidence=_T1, examples=_EX["sparse"])
register_claim("A-dual-faster", paper="abe", section=_A, where="§3, Table 1 times",
               text="with N ≈ M the dual (DuLS) trains faster than the primal (PrLS)",
               printed="DuLS/PrLS 0.69 (MG 1.20 vs 1.74 s), 0.82 (Boston 0.18 vs 0.22 s)",
               records=("test-els-*",), rule=_dual_faster, evidence=_T1, examples=_EX["dual"])
register_claim("A-primal-sparse", paper="abe", section=_A, where="§3, Table 1 times",
               text="with N < M the primal is equally fast or faster", printed="DuLS/PrLS 1.05 (MG), 1.5 (Boston)",
               records=("test-sparse-*",), rule=_primal_sparse, evidence=_T1, examples=_EX["primal"])
register_claim("A-crossover", paper="abe", section=_A, where="§2.4 (cost of forming and factoring)",
               text="there is a crossover: the dual is faster near N = M, the primal below", printed="(qualitative)",
               records=("crossover",), rule=_crossover, evidence=("abe-crossover",), examples=_EX["crossover"])
register_claim("A-duls-unstable", paper="abe", section=_A, where="§3 and §4",
               text="DuLS is unstable: its Cholesky fails on Mackey-Glass", printed="'—' in Table 1 (MG)",
               records=("test-els-*", "test-sparse-*", "breakdown"), rule=_duls_unstable, evidence=("abe-breakdown",),
               examples=_EX["unstable"])
register_claim("A-primal-stable", paper="abe", section=_A, where="§2.4, §4",
               text="the primal form is more stable than the dual for large C", printed="(qualitative)",
               records=("breakdown",), rule=_primal_stable, evidence=("abe-breakdown",), examples=_EX["stable"])
register_claim("A-rank", paper="abe", section=_A, where="§2.4",
               text="Ω_e has rank N at C = ∞, so for N < M it approaches a singular PSD matrix as C grows",
               printed="λ_min(Ω_e) = 1/C for N < M", records=("abe-spectrum",), rule=_rank,
               evidence=("abe-spectra",), examples=_EX["rank"])
register_claim("A-ls-accurate", paper="abe", section=_A, where="§3, Table 1",
               text="the full LS SVR is the most accurate on most sets",
               printed="LS lowest error on O.J., B.5, B.14; ELS on MG", records=("test-els-*", "test-ls-*"),
               rule=_ls_accurate, evidence=_T1, examples=_EX["ls"])
register_claim("A-table1", paper="abe", section=_A, where="Table 1, errors",
               text="Table 1's average absolute errors reproduce on MG and Boston",
               printed="MG 0.000300 / 0.000316 / 0.000374; B.14 2.36 / 2.38 / 2.27",
               records=("test-*", "cv-*"), rule=_table1, evidence=_T1 + ("abe-table1-parameters",),
               examples=_EX["table1"])
register_claim("A-wp-oj", paper="abe", section=_A, where="Table 1, W.P. and O.J. rows",
               text="the water-purification and orange-juice rows of Table 1", printed="W.P. 0.982, O.J. 6.20",
               untestable="the water purification and orange juice data ship in no installed package")
