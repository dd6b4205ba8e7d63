"""Claims of Abe (primal against dual sparse LS-SVR in the empirical feature space): §2.4, Table 1.

Home section "abe"; records "test-<method>-<set>" (kind ``fit``: solver, seed, status,
test_mae, n_support, time_fit), "cv-<method>-<set>" (kind ``cv``), "breakdown",
"abe-spectrum", "crossover".
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from . import claims_numerics as abe_numerics  # noqa: F401  (registers the numerics claims)
from ...experiments.claims import Verdict, register_claim
from .claims_examples import EX as _EX
from .claims_examples import PRINTED_EXAMPLES, TABLE1
from .claims_examples import SV_PCT as _SV_PCT
from ...experiments.claims.stats import better, fmt_num, grid_edges, loglog_slope, mean_ci, not_worse, paired

__all__ = ["TABLE1", "PRINTED_EXAMPLES"]

_A = "abe"


def _tests(rec, method):
    """Rows of the test fits of one Table 1 method over every set (column 'set' added)."""
    parts = [df.assign(set=k.split("-", 2)[2]) for k, df in rec.items()
             if k.startswith(f"test-{method}-") and len(df)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(
        columns=["set", "solver", "seed", "status", "test_mae", "n_support", "time_fit"])


def _col(df, solver, col):
    g = df[(df.solver == solver) & (df.status == "ok")]
    return pd.to_numeric(g.set_index(["set", "seed"])[col], errors="coerce")


def _per_set(rec, method):
    t = _tests(rec, method)
    return t, sorted(set(t.set)) if len(t) else []


def _sparse_fraction(rec):
    sp, ls = _tests(rec, "sparse"), _tests(rec, "ls")
    parts, out = [], []
    for s in sorted(set(sp.set) & set(ls.set)):
        pct = 100 * _col(sp[sp.set == s], "els-primal", "n_support") / _col(ls[ls.set == s], "lssvm-schur",
                                                                             "n_support")
        m, lo, hi, n = mean_ci(pct)
        one_series = s == "mackey-glass" and n == 1  # the protocol's one series: no sampling spread
        if one_series or (np.isfinite(lo) and lo == hi):
            lo = hi = m
        edges = grid_edges(rec.get(f"cv-sparse-{s}", pd.DataFrame()), "cv_mae", keys=("eta",))
        # N(η) falls as η grows (A-eta-sparsity, float64): an optimum on the grid's small-η edge could move
        # to a smaller η and more columns, one on the large-η edge to fewer.  A set outside the range on the
        # side such a move would bring back in is not decided by the grid's edge.
        toward = (any("smallest" in e for e in edges) and hi < 43) or (any("largest" in e for e in edges)
                                                                        and lo > 77)
        between = _neighbour_pct(rec.get(f"cv-sparse-{s}", pd.DataFrame()), m, more=hi < 43)
        inside = between is not None and (between >= 43 if hi < 43 else between <= 77)
        if not np.isfinite(lo):
            out.append("undecided")
        elif hi >= 43 and lo <= 77:
            out.append("holds")
        elif toward:
            out.append("undecided")
        else:
            out.append("not reproduced" if inside else "does not hold")
        parts.append(f"{s} {m:.0f} %" + (" (one series: exact count)" if one_series else
                                          f" (95 % CI {lo:.0f}–{hi:.0f}, {n} splits)" if n > 1 else " (one split)")
                     + f", printed {_SV_PCT.get(s, np.nan):.0f} %"
                     + (f" [CV chose {', '.join(edges)}"
                        + ("; a wider η grid could bring it into the range: undecided" if toward else
                           "; a wider η grid would move it further out" if out[-1] != "holds" else "")
                        + "]" if edges else "")
                     + (f" [the next η of the grid toward the range keeps ≈ {between:.0f} %: a finer η grid could "
                        "choose a count inside the range (not reproduced)" + "]" if out[-1] == "not reproduced" else
                        f" [the next η of the grid toward the range keeps ≈ {between:.0f} %, outside too]"
                        if out[-1] == "does not hold" and between is not None else ""))
    outcome = ("does not hold" if "does not hold" in out else "undecided" if "undecided" in out or not out
               else "not reproduced" if "not reproduced" in out else "holds")
    return Verdict(outcome, measured="sparse ELS kept " + "; ".join(parts) + " of the LS SVR's support vectors",
                   uncertainty="per set, the 95 % CI of the mean % against the printed range 43–77 % (holds on a "
                   "set if it intersects the range)",
                   cause="Abe prints no η grid: a set whose CV picks η on the grid's edge keeps the η the grid "
                         "allows, not Abe's, and a set decides only where neither a wider grid (beyond the edge) nor "
                         "a finer one (between the optimum and the next η toward the range, whose CV count is "
                         "read) can bring its count into the range (N(η) non-increasing in float64; CV's choice "
                         "between two grid points is taken to lie between them)"
                   if "CV chose" in " ".join(parts) or "next η" in " ".join(parts) else "")


def _neighbour_pct(cv: pd.DataFrame, pct: float, *, more: bool) -> float | None:
    """The % kept at the η next to CV's optimum toward the range (``more``: the smaller η, which keeps more
    columns), at the optimum's C and σ²: ``pct`` scaled by the CV fits' support counts there and at the
    optimum.  None without such a grid point or counts."""
    need = {"eta", "cv_mae", "n_support_mean"}
    if not len(cv) or not need <= set(cv.columns):
        return None
    score = pd.to_numeric(cv.cv_mae, errors="coerce")
    if not score.notna().any():
        return None
    best = cv.loc[score.idxmin()]
    same = cv
    for k in ("C", "sigma2", "seed"):
        if k in cv.columns:
            same = same[same[k] == best[k]]
    etas = pd.to_numeric(same.eta, errors="coerce")
    side = same[etas < float(best.eta)] if more else same[etas > float(best.eta)]
    if not len(side):
        return None
    nb = side.loc[(pd.to_numeric(side.eta) - float(best.eta)).abs().idxmin()]
    n_best, n_nb = float(best.n_support_mean), float(nb.n_support_mean)
    return pct * n_nb / n_best if n_best > 0 and np.isfinite(n_nb) else None


def _log_time_pair(rec, method, s):
    t = _tests(rec, method)
    t = t[t.set == s]
    return np.log(_col(t, "els-primal", "time_fit")), np.log(_col(t, "els-dual", "time_fit"))


def _per_set_timing(rec, method, decide, what):
    _, sets = _per_set(rec, method)
    outs, parts, res, single = [], [], [], []
    for s in sets:
        p, d = _log_time_pair(rec, method, s)
        r = decide(p, d)
        parts.append(f"{s}: median DuLS/PrLS time {fmt_num(float(np.exp(-(p - d).median())))}, "
                     + r[1].text("", what))
        if r[1].n < 2:  # Mackey-Glass's one series in Abe's protocol: reported, decides nothing either way
            parts[-1] += " (left out: one split decides nothing)"
            single.append(f"{s}: " + r[1].resolution(r[2]))
            continue
        outs.append(r[0])
        if r[0] == "undecided":
            res.append(f"{s}: " + r[1].resolution(r[2]))
    outcome = ("does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs or not outs
               else "holds")
    return Verdict(outcome, measured="; ".join(parts), uncertainty="paired over splits per set; every offline set "
                   "with more than one split must decide", cause="; ".join(res if outs else single))


def _dual_faster(rec):
    """log(PrLS/DuLS time) > 0 on the Table 1 fits (their primal forms (7) as one GEMM).  Abe's reason for the
    dual's speed is his formation of (7), "not a dot product" (§2.4): where the GEMM primal is not slower, the
    crossover sweep at N = M with (7) formed as Abe describes decides whether the claim holds under it."""
    v = _per_set_timing(rec, "els", lambda p, d: (better(paired(p, d)), paired(p, d), 0.0), "log(PrLS/DuLS time)")
    xo = rec.get("crossover", pd.DataFrame())
    if v.outcome == "holds" or not len(xo) or "formation" not in xo.columns:
        return v
    g = xo[xo.formation.astype(str) == "as-described"]
    if not len(g):
        return v
    nm, d = _crossover_points(g)[-1]
    if nm < 0.95 or better(replace(d, mean=-d.mean, lo=-d.hi, hi=-d.lo)) != "holds":  # log(t_Du/t_Pr) below 0
        return v
    return replace(v, outcome="holds only when",
                   condition="the primal forms (7) from the outer products h(x_i)h(x_i)ᵀ as Abe describes",
                   measured=v.measured + f"; (7) as Abe forms it, N/M = {fmt_num(nm)} (M = "
                            f"{int(pd.to_numeric(g.M).max())}, the crossover sweep): dual/primal time "
                            f"{fmt_num(float(np.exp(d.mean)))} ({d.text('', 'log(t_Du/t_Pr)')})",
                   cause="with (7) formed as one GEMM (the Table 1 fits) the dual is not faster: "
                         + (v.cause or v.outcome))


def _primal_sparse(rec):
    m = float(np.log(1.1))  # 'equal or faster': the primal not slower by more than 10 %
    return _per_set_timing(rec, "sparse", lambda p, d: (not_worse(paired(d, p), m), paired(d, p), -m),
                           "log(DuLS/PrLS time) against the margin −log 1.1")


def _dual_fits(rec, s):
    parts = [t[(t.solver == "els-dual") & (t.set == s)].assign(method=m)
             for m, t in (("els", _tests(rec, "els")), ("sparse", _tests(rec, "sparse"))) if len(t)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=["solver", "status", "C", "seed"])


def _mg_cv_edges(rec) -> list[str]:
    """The Mackey-Glass CV optima of the ELS and sparse ELS SVRs on the C grid's largest edge (the Table 1
    fits' C): ``["els: C = 1e+05 (largest of 2)", ...]``."""
    out = []
    for m in ("els", "sparse"):
        edges = grid_edges(rec.get(f"cv-{m}-mackey-glass", pd.DataFrame()), "cv_mae", keys=("C", "sigma2"))
        if any(e.startswith("C = ") and "largest" in e for e in edges):
            out.append(f"{m}: " + ", ".join(edges))
    return out


def _duls_unstable_bd(rec):
    dual = _dual_fits(rec, "mackey-glass")
    bd = dual[dual.status == "breakdown"]
    measured = (f"DuLS broke down in {len(bd)} of {len(dual)} float64 Mackey-Glass Table 1 fits at the CV-chosen "
                "parameters" + ("".join(f"; {r.method}: C = {fmt_num(r.C)}, η = {fmt_num(r.eta)}"
                                        + (f", step {int(r.breakdown_step)}, pivot {fmt_num(r.breakdown_pivot)}"
                                           if "breakdown_step" in bd.columns else "") for r in bd.itertuples())))
    scans = rec.get("breakdown", pd.DataFrame())
    sc = scans[(scans.solver == "els-dual") & (scans.precision == "float64")] if len(scans) else scans
    c_scan = float(pd.to_numeric(sc.C_star, errors="coerce").min()) if len(sc) else np.nan
    if len(sc):
        measured += (f"; the float64 scans (the section's M, σ², η) break down from C = {fmt_num(c_scan)}, CV "
                     f"chose C ≤ {fmt_num(pd.to_numeric(dual.C, errors='coerce').max())}")
    unc = "counts of recorded breakdowns (float64, the protocol's parameters)"
    if not len(dual):
        return Verdict("undecided", measured=measured, uncertainty=unc)
    if len(bd):
        return Verdict("holds", measured=measured, uncertainty=unc)
    edge = _mg_cv_edges(rec)
    if edge:
        # CV's error still falls at the grid's largest C: Abe's CV, over an unbounded C, would go further up,
        # towards the C where κ(Ω_e) = 1 + C‖Ω_e‖ reaches 1/u; our fits stop where the grid does
        where = (f"the regime is reached in the scans from C = {fmt_num(c_scan)}" if np.isfinite(c_scan) else
                 "no scan recorded where DuLS breaks down")
        return Verdict("not reproduced", measured=measured, uncertainty=unc,
                       cause=f"grid edge: CV's optimum lies on the largest C of the grid ({'; '.join(edge)}), so the "
                             f"fits stop below the C a wider CV would choose; {where}, above the grid: a C grid "
                             "reaching it (with σ² off its edge) would decide")
    return Verdict("does not hold", measured=measured, uncertainty=unc,
                   cause="the printed '—' is not reproduced at our CV-chosen parameters, an interior CV optimum "
                         "(Abe's series and parameters are not printed)")


def _rel_aaae(rec, method, s):
    t = _tests(rec, method)
    t = t[t.set == s]
    p, d = _col(t, "els-primal", "test_mae"), _col(t, "els-dual", "test_mae")
    return ((d - p) / p).dropna()


def _duls_unstable_aaae(rec):
    r = _rel_aaae(rec, "sparse", "mackey-glass")
    dual = _dual_fits(rec, "mackey-glass")
    nbd = int((dual[dual.method == "sparse"].status == "breakdown").sum()) if len(dual) else 0
    if not len(r):
        return Verdict("undecided", measured=f"no sparse Mackey-Glass pair with both AAAEs ({nbd} DuLS breakdowns)",
                       uncertainty="relative AAAE difference against 1e-3")
    m = float(r.abs().max())
    measured = (f"sparse MG: (AAAE_Du − AAAE_Pr)/AAAE_Pr = {', '.join(f'{v:+.2e}' for v in r)}, printed "
                "+6.3e-02 (0.000336 vs 0.000316)")
    unc = "'different' = relative difference > 1e-3 (the print's 3 significant digits)"
    if m > 1e-3:
        return Verdict("holds", measured=measured, uncertainty=unc)
    edge = [e for e in _mg_cv_edges(rec) if e.startswith("sparse")]
    if edge:  # the forms differ by ~κ(Ω_e)·u = C‖Ω_e‖·u: at a C the grid caps, the difference stays small
        return Verdict("not reproduced", measured=measured, uncertainty=unc,
                       cause=f"grid edge: CV's optimum lies on the largest C of the grid ({edge[0]}); the forms' "
                             "difference grows as κ(Ω_e)·u = (1 + C‖Ω_e‖)·u, so a wider C grid would decide")
    return Verdict("does not hold", measured=measured, uncertainty=unc)


def _duls_only_mg(rec):
    parts, bad = [], []
    for s in ("boston5", "boston14"):
        dual = _dual_fits(rec, s)
        if not len(dual):
            continue
        nbd = int((dual.status == "breakdown").sum())
        rel = pd.concat([_rel_aaae(rec, m, s) for m in ("els", "sparse")])
        mx = float(rel.abs().max()) if len(rel) else np.nan
        parts.append(f"{s}: {nbd} DuLS breakdowns in {len(dual)} fits, max |ΔAAAE|/AAAE {fmt_num(mx)} over "
                     f"{len(rel)} pairs")
        if nbd or not (mx <= 1e-3):
            bad.append(s)
    if not parts:
        return Verdict("undecided", measured="no Boston fits recorded")
    return Verdict("does not hold" if bad else "holds", measured="; ".join(parts),
                   uncertainty="every split: 0 breakdowns and relative AAAE differences ≤ 1e-3 (3 significant digits)",
                   cause=f"differs on {', '.join(bad)}" if bad else "")


def _ls_accurate(rec):
    ls = _tests(rec, "ls")
    outs, parts, res = [], [], []
    for s in sorted(set(ls.set)):
        o_set = []
        for m in ("els", "sparse"):
            t = _tests(rec, m)
            if not len(t) or s not in set(t.set):
                continue
            d = paired(_col(t[t.set == s], "els-primal", "test_mae"), _col(ls[ls.set == s], "lssvm-schur", "test_mae"))
            o_set.append(better(d))  # AAAE(m) − AAAE(LS) > 0: the LS SVR is more accurate
            parts.append(f"{s} {d.text('', f'AAAE {m.upper()} − LS')}")
            if o_set[-1] == "undecided":
                res.append(f"{s} vs {m}: {d.resolution()}")
        outs.append("does not hold" if "does not hold" in o_set else "undecided" if "undecided" in o_set
                    else "holds")
    wins, losses = outs.count("holds"), outs.count("does not hold")
    n = len(outs)
    outcome = "holds" if wins > n / 2 else "does not hold" if losses >= n / 2 else "undecided"
    return Verdict(outcome, measured=f"LS SVR more accurate than both ELS SVRs on {wins} of {n} sets, less or "
                   f"not better on {losses}: " + "; ".join(parts),
                   uncertainty="paired over splits per set; 'most sets': more than half decided in favour "
                   "(one split decides nothing)", cause="; ".join(res) if outcome == "undecided" else "")


def _table1(rec):
    rows, causes = [], []
    for s, by in TABLE1.items():
        for method, (p, sd) in by.items():
            t = _tests(rec, method)
            v = _col(t[t.set == s], "els-primal" if method != "ls" else "lssvm-schur", "test_mae") if len(t) else []
            if not len(v):
                continue
            m, n = float(np.mean(v)), len(v)
            if np.isfinite(sd):  # reproduces: |ours − printed| ≤ 2 s √(1/n + 1/100), s the printed sd
                tol = 2 * sd * np.sqrt(1 / n + 1 / 100)
                off = abs(m - p) > tol
            else:
                off = not (0.5 <= m / p <= 2)
            rows.append(f"{s} {method} {fmt_num(m)} vs {fmt_num(p)}")
            if off:
                edges = grid_edges(rec.get(f"cv-{method}-{s}", pd.DataFrame()), "cv_mae")
                why = ("protocol: CV optimum on the grid's edge (" + ", ".join(edges) + ")" if edges else
                       "data version: the Mackey–Glass series is generated (Abe's sampling is not stated)"
                       if s == "mackey-glass" else
                       f"protocol: Abe prints no grid for C, σ² or η, ours is a reconstruction, and the cell is "
                       f"within the factor 2 MG is judged by (×{fmt_num(m / p)})" if 0.5 <= m / p <= 2 else
                       "unexplained")
                causes.append(f"{s} {method} {fmt_num(m)} vs {fmt_num(p)} printed ({why})")
    rule = ("reproduces: |ours − printed| ≤ 2·s·√(1/n_ours + 1/100), s the printed sd; MG, printed without sd "
            "(one series): within a factor 2; a deviating cell with a named cause (a CV optimum on the grid's edge, "
            "another data version, or, Abe printing no grid, a CV optimum of our reconstructed grid within a factor "
            "2) is explained and decides nothing against the table; a cell beyond a factor 2 at an optimum inside "
            "the grid decides")
    if not rows:
        return Verdict("undecided", measured="no Table 1 cell measured", uncertainty=rule)
    measured = f"{len(rows)} cells: " + "; ".join(rows)
    if not causes:
        return Verdict("holds", measured=measured, uncertainty=rule)
    unexplained = [c for c in causes if c.endswith("(unexplained)")]
    text = (f"{len(causes)} of {len(rows)} cells deviate, {len(causes) - len(unexplained)} explained: "
            + "; ".join(causes))
    if unexplained:
        return Verdict("does not hold", measured=measured, uncertainty=rule, cause=text)
    return Verdict("not reproduced", measured=measured, uncertainty=rule, cause=text)


def _crossover_points(g):
    """Per N/M point of one formation's curve: the mean log(t_Du/t_Pr) over the data draws (seeds) with
    its 95 % t interval (:class:`~.stats.Paired`, units "data draws"), in order of N/M."""
    g = g.assign(nm=pd.to_numeric(g.n_over_m, errors="coerce"),
                 lr=np.log(pd.to_numeric(g.time_dual_over_primal, errors="coerce")))
    by = "target_n_over_m" if "target_n_over_m" in g.columns and g.target_n_over_m.notna().all() else "nm"
    pts = []
    for _, h in g.groupby(by):
        d = paired(h.lr.reset_index(drop=True), 0 * h.lr.reset_index(drop=True), units="data draws")
        pts.append((float(h.nm.median()), d))
    return sorted(pts, key=lambda t: t[0])


def _crossover(rec):
    c = rec["crossover"]
    form = c.get("formation", c.get("measured_formation", pd.Series("blas3", index=c.index))).fillna("blas3")
    parts, outs, res = [], {}, []
    for f, g in c.assign(form=form).groupby("form"):
        pts = _crossover_points(g)
        (nm0, lo), (nm1, hi) = pts[0], pts[-1]
        # a sign counts where its interval decides it: a point whose interval holds 0 neither adds nor removes
        # a crossing
        signs = [np.sign(d.mean) for _, d in pts if better(d) != "undecided"]
        changes = int(np.sum(np.diff(signs) != 0)) if len(signs) > 1 else 0
        ends = (better(lo), better(replace(hi, mean=-hi.mean, lo=-hi.hi, hi=-hi.lo)))  # N = M: below 0
        if ends == ("holds", "holds"):
            outs[f] = "holds" if changes == 1 else "does not hold"
        elif "does not hold" in ends:
            outs[f] = "does not hold"
        else:
            outs[f] = "undecided"
            for (x, d), o in zip(((nm0, lo), (nm1, hi)), ends):
                if o == "undecided":
                    res.append(f"{f} at N/M = {fmt_num(x)}: {d.resolution(0.0)}")
        star = next((x for x, d in pts if d.mean < 0), np.nan)
        parts.append(f"{f}: dual/primal time {fmt_num(np.exp(lo.mean))} at N/M = {fmt_num(nm0)} "
                     f"({lo.text('', 'log(t_Du/t_Pr)')}) → {fmt_num(np.exp(hi.mean))} at N/M = {fmt_num(nm1)} "
                     f"({hi.text('', 'log(t_Du/t_Pr)')}), {changes} decided sign change(s)"
                     + (f", dual faster (mean) from N/M = {fmt_num(star)}" if np.isfinite(star) else ""))
    unc = ("per N/M point: 95 % t interval of log(t_Du/t_Pr) over independent data draws, each the best of the "
           "repeated same-run timings; holds: interval above 0 at the smallest N, below 0 at N = M, one sign change "
           "among the points whose interval excludes 0")
    if outs and all(o == "holds" for o in outs.values()):
        return Verdict("holds", measured="; ".join(parts), uncertainty=unc)
    ok_forms = [f for f, o in outs.items() if o == "holds"]
    if ok_forms:
        rest = "; ".join(f"{f}: {o}" for f, o in outs.items() if o != "holds")
        return Verdict("holds only when", condition=f"the formation is {', '.join(ok_forms)}",
                       measured="; ".join(parts), uncertainty=unc, cause=f"other formations: {rest}"
                       + (f" [{'; '.join(res)}]" if res else ""))
    if "does not hold" in outs.values():
        return Verdict("does not hold", measured="; ".join(parts), uncertainty=unc)
    return Verdict("undecided", measured="; ".join(parts), uncertainty=unc, cause="; ".join(res))


def _form_cost(rec):
    parts, outs, res = [], [], []
    for s in ("mackey-glass", "boston5", "boston14"):
        t = _tests(rec, "els")
        t = t[(t.set == s)]
        if not len(t) or "time_formation" not in t.columns:
            continue
        d = paired(np.log(_col(t, "els-primal", "time_formation")), np.log(_col(t, "els-dual", "time_formation")))
        parts.append(f"{s} (N ≈ M, BLAS): " + d.text("", "log(t₇/t_Ω)"))
        if d.n < 2:  # one split (Mackey-Glass's one series in Abe's protocol): no evidence either way
            parts[-1] += " (left out: one split decides nothing)"
            continue
        outs.append(better(d))
        if outs[-1] == "undecided":
            res.append(f"{s}: {d.resolution()}")
    c = rec.get("crossover", pd.DataFrame())
    outer = None
    if len(c) and {"time_outer", "time_syrk_dual", "n_over_m"} <= set(c.columns):
        top = c[pd.to_numeric(c.n_over_m, errors="coerce") >= 0.999]
        if len(top):
            # each data draw times both formations in one run: paired over the draws (a draw's rows of the
            # two crossover formations time the same kernels: their mean log time is the draw's)
            key = top.seed if "seed" in top.columns else pd.Series(0, index=top.index)
            lo = np.log(pd.to_numeric(top.time_outer)).groupby(key).mean()
            ls = np.log(pd.to_numeric(top.time_syrk_dual)).groupby(key).mean()
            od = paired(lo, ls, units="data draws")
            outer = better(od)
            parts.append(f"N = M = {int(top.N.iloc[0])}: sum of outer products / Ω_e (syrk) "
                         f"×{fmt_num(float(np.exp(od.mean)))} ({od.text('', 'log ratio')}; each draw the best of "
                         f"{int(top.repeats.iloc[0]) if 'repeats' in top.columns else '?'} repeats)")
    unc = ("paired over splits per set (BLAS formation, the Table 1 fits); outer-product form: paired over the "
           "crossover sweep's data draws at N = M")
    blas = ("holds" if outs and all(o == "holds" for o in outs) else "does not hold" if "does not hold" in outs
            else "undecided")
    if blas == "holds":
        return Verdict("holds", measured="; ".join(parts), uncertainty=unc)
    if outer == "holds":
        return Verdict("holds only when", condition="(7) is formed as a sum of outer products h hᵀ",
                       measured="; ".join(parts), uncertainty=unc,
                       cause=f"formed by BLAS (HᵀH), forming (7) is not shown slower than Ω_e ({blas})")
    if blas == "does not hold":
        return Verdict("does not hold", measured="; ".join(parts), uncertainty=unc)
    return Verdict("undecided", measured="; ".join(parts) or "no formation times", uncertainty=unc,
                   cause="; ".join(res))


#: Sizes from which the cubic term dominates LAPACK's fixed cost in the timings (Cholesky of order 300:
#: 0.6 ms, of order 1000: 29 ms, measured in the crossover sweep's kernels).
_LEADING_FROM = 200
#: A count's log–log slope against the order: the claim is the order, not the constant.  Counts are exact;
#: (n³ − n)/6 has slope 3.004 over n = 10–100 and M²N slope 2 exactly, so lower-order terms move a slope by
#: < 0.01 from n = 10 on, and ± 0.1 separates order 3 from orders 2 and 4 with a wide margin.
_COUNT_SLOPE_TOL = 0.1


def _timing_orders(rec) -> str:
    """The timings' log–log slopes (context for A-cost-orders: a BLAS speeds up with the order, so times are
    not operation counts)."""
    parts_ = [v for k, v in rec.items() if (k == "crossover" or k.startswith("cost-orders")) and len(v)]
    c = pd.concat(parts_, ignore_index=True) if parts_ else pd.DataFrame(columns=["M", "N", "n_over_m"])
    if "formation" in c.columns:
        c = c[c.formation.fillna("blas3") == "blas3"]
    parts = []

    def order(g, x, t, what):
        if t not in g.columns:
            return
        g = g[pd.to_numeric(g[x], errors="coerce") >= _LEADING_FROM]
        xs = pd.to_numeric(g[x], errors="coerce")
        if len(set(xs)) < 2:
            return
        span = float(np.log10(xs.max() / xs.min()))
        parts.append(f"{what} {fmt_num(loglog_slope(xs, g[t]))} over {span:.2f} decades ({x} = "
                     f"{int(xs.min())}–{int(xs.max())})")

    order(c, "N", "time_chol_N", "Cholesky of (7) vs N")
    order(c[pd.to_numeric(c.n_over_m, errors="coerce") >= 0.999], "M", "time_chol_M", "Cholesky of Ω_e vs M")
    return "; ".join(parts)


def _cost_orders(rec):
    c = rec.get("op-counts", pd.DataFrame())
    times = _timing_orders(rec)
    context = (f"; times (not the sentence's quantity: BLAS-3 runs faster per flop as the order grows) have "
               f"log–log slopes {times}" if times else "")
    unc = ("exact counts of the generic kernels (the code longdouble and mpN run; LAPACK's potrf does the same "
           f"multiplications in blocks); log–log slope over ≥ 1 decade of orders, ± {_COUNT_SLOPE_TOL} (the "
           "order, not the constant)")
    need = {"M", "N", "chol_mul", "chol_sqrt", "form_mul"}
    if not len(c) or not need <= set(c.columns):
        return Verdict("undecided", measured="no operation counts" + context, uncertainty=unc,
                       cause="the op-counts sweep did not run")
    c = c.assign(**{k: pd.to_numeric(c[k], errors="coerce") for k in need}).sort_values("M")
    Ms = c.M.to_numpy(float)
    span = float(np.log10(Ms.max() / Ms.min())) if len(Ms) >= 2 else 0.0
    k_chol, k_form = loglog_slope(Ms, c.chol_mul), loglog_slope(Ms, c.form_mul)
    Nf = sorted(set(c.N.astype(int)))
    big = c.iloc[-1]
    roots = bool((c.chol_sqrt == c.M).all())
    measured = (f"Cholesky of order n (Ω_e: n = M; (7): n = N, the same kernel): multiplications ∝ n^"
                f"{fmt_num(k_chol)} over n = {int(Ms.min())}–{int(Ms.max())} ({int(big.chol_mul)} at n = "
                f"{int(big.M)}: {fmt_num(big.chol_mul / big.M ** 3)}·n³, theory (n³ − n)/6), square roots = n at "
                f"{'every' if roots else 'not every'} n; forming Ω_e = H Hᵀ at N = {', '.join(map(str, Nf))}: "
                f"multiplications ∝ M^{fmt_num(k_form)} ({int(big.form_mul)} = {fmt_num(big.form_mul / big.M ** 2 / big.N)}"
                f"·M²N at M = {int(big.M)}; Abe's count M²N/2 uses the symmetry)" + context)
    if span < 1 or len(Nf) != 1:
        return Verdict("undecided", measured=measured, uncertainty=unc,
                       cause="the counts need one decade of orders at one N")
    ok = abs(k_chol - 3) <= _COUNT_SLOPE_TOL and abs(k_form - 2) <= _COUNT_SLOPE_TOL and roots
    return Verdict("holds" if ok else "does not hold", measured=measured, uncertainty=unc)


_T1 = ("abe-table1",)
register_claim("A-sparse-svs", paper="abe", section=_A, where="§3, Table 1",
               text="the sparse LS-SVRs keep 43–77 % of the support vectors", printed="MG 77 %, B.5 53 %, B.14 52 %",
               records=("test-sparse-*", "test-ls-*", "cv-sparse-*"), rule=_sparse_fraction, evidence=_T1,
               examples=_EX["sparse"])
register_claim("A-dual-faster", paper="abe", section=_A, where="§3, Table 1 times",
               text="with N ≈ M the dual (DuLS) trains faster than the primal (PrLS)",
               printed="DuLS/PrLS 0.69 (MG 1.20 vs 1.74 s), 0.82 (Boston 0.18 vs 0.22 s)",
               records=("test-els-*", "crossover"), rule=_dual_faster, evidence=_T1, examples=_EX["dual"])
register_claim("A-primal-sparse", paper="abe", section=_A, where="§3, Table 1 times",
               text="with N < M the primal is equally fast or faster", printed="DuLS/PrLS 1.05 (MG), 1.5 (Boston)",
               records=("test-sparse-*",), rule=_primal_sparse, evidence=_T1, examples=_EX["primal"])
register_claim("A-crossover", paper="abe", section=_A, where="§2.4 (cost of forming and factoring)",
               text="there is a crossover: the dual is faster near N = M, the primal below", printed="(qualitative)",
               records=("crossover",), rule=_crossover, evidence=("abe-crossover",), examples=_EX["crossover"],
               reading="each point of the crossover sweep is timed on independent data draws (seeds; each the "
                       "best of its same-run repeats): the 95 % t interval of log(t_Du/t_Pr) over the draws must lie "
                       "above 0 at the smallest N and below 0 at N = M, with one sign change among the points whose "
                       "interval excludes 0 (the inventory's P95 threshold)")
register_claim("A-form-cost", paper="abe", section=_A, where="§2.4",
               text="forming (7) is less efficient than forming Ω_e", printed="(qualitative)",
               records=("test-els-*", "crossover"), rule=_form_cost, evidence=("abe-crossover",),
               examples=_EX["form"],
               reading="BLAS formation timed in the Table 1 ELS fits (N ≈ M), paired over splits per set (a set "
                       "with one split, Mackey-Glass in Abe's protocol, is reported and left out: it decides "
                       "nothing); the outer-product form from the crossover sweep at N = M, paired over its draws")
register_claim("A-cost-orders", paper="abe", section=_A, where="§2.4",
               text="the Cholesky of Ω_e costs O(M³) (and of (7) O(N³)); forming Ω_e O(M²N)",
               printed="(operation counts, no times)", records=("op-counts", "crossover", "cost-orders-*"),
               rule=_cost_orders, evidence=("abe-crossover",), examples=_EX["orders"],
               reading="an operation count, so counted (multiplications and square roots of the Cholesky, "
                       "multiplications of H Hᵀ) in the generic kernels, not timed: a BLAS runs faster per flop "
                       "as the order grows, so a time's slope is below the count's (printed beside it); "
                       "the CLAIMS row's timing reading is kept as context")
register_claim("A-duls-unstable", paper="abe", section=_A, where="§3 and §4",
               text="DuLS is unstable: its Cholesky fails on Mackey-Glass, and its AAAE differs",
               printed="'—' and (0.000336) in Table 1 (MG)", parts=True)
register_claim("A-duls-unstable/bd", paper="abe", section=_A, where="§3, Table 1 (MG)",
               text="DuLS's Cholesky fails (negative pivot) on Mackey-Glass at the protocol's parameters",
               printed="'—' (ELS dual, MG)",
               records=("test-els-*", "test-sparse-*", "breakdown", "cv-els-mackey-glass", "cv-sparse-mackey-glass"),
               rule=_duls_unstable_bd, evidence=("abe-breakdown",), examples=_EX["bd"],
               reading="judged on the float64 Table 1 fits at the CV-chosen (C, σ², η), never on the float32 "
                       "breakdown C of the scans (reported beside them); no breakdown where CV chose the grid's "
                       "largest C is 'not reproduced' (grid edge: a wider grid moves C towards the breakdown), and "
                       "the float64 scans say from which C the regime is reached")
register_claim("A-duls-unstable/aaae", paper="abe", section=_A, where="§3, Table 1 (MG)",
               text="the sparse DuLS's AAAE on Mackey-Glass differs from PrLS's",
               printed="0.000336 (DuLS) vs 0.000316 (PrLS)",
               records=("test-sparse-*", "test-els-*", "cv-sparse-mackey-glass"),
               rule=_duls_unstable_aaae, evidence=_T1, examples=_EX["aaae"])
register_claim("A-duls-only-mg", paper="abe", section=_A, where="§3",
               text="except on Mackey-Glass, DuLS neither broke down nor differed", printed="(Boston rows: one AAAE "
               "for both forms)", records=("test-els-*", "test-sparse-*"), rule=_duls_only_mg, evidence=_T1,
               examples=_EX["only-mg"])
register_claim("A-ls-accurate", paper="abe", section=_A, where="§3, Table 1",
               text="the full LS SVR is the most accurate on most sets",
               printed="LS lowest error on W.P., O.J., B.5, B.14; ELS on MG", records=("test-*",),
               rule=_ls_accurate, evidence=_T1, examples=_EX["ls"],
               reading="'most accurate' = lower AAAE than both the ELS and the sparse ELS SVR (paired per set)")
register_claim("A-table1", paper="abe", section=_A, where="Table 1, errors",
               text="Table 1's average absolute errors reproduce on MG and Boston",
               printed="MG 0.000300 / 0.000316 / 0.000374; B.14 2.36 / 2.38 / 2.27",
               records=("test-*", "cv-*"), rule=_table1, evidence=_T1 + ("abe-table1-parameters",),
               examples=_EX["table1"],
               reading="MG prints no sd (one series): its cells are judged within a factor 2 (our series is "
                       "generated; Abe's sampling is not stated)")
register_claim("A-wp-oj", paper="abe", section=_A, where="Table 1, W.P. and O.J. rows",
               text="the water-purification and orange-juice rows of Table 1", printed="W.P. 0.982, O.J. 6.20",
               untestable="the water purification and orange juice data ship in no installed package")
