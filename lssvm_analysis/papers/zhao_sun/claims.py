"""Claims of Zhao & Sun (Pattern Recognition 2009), reduced LSSVR and RR-LSSVR: abstract and §2-§3.

The seed text stops after eq. (11): no table or number of the paper exists, so
the testable claims are structural (SEED_NOTES §2.3).  Home section "zhao-sun";
records "zhao-sun-growth" (kind ``zs-error-growth``, with the objective after each
step), "zhao-sun-ridge" (``zs-ridge``) and "zhao-sun-greedy-<set>" (``zs-greedy-random``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ...experiments.arrays import dumps, loads
from ...experiments.claims import Verdict, register_claim
from ...experiments.claims.stats import better, fmt_num, loglog_slope, paired

__all__ = ["margins", "first_within", "THEORY_EXAMPLES"]

_Z = "zhao-sun"
def _greedy(rec) -> pd.DataFrame:
    parts = [df.assign(set=k.removeprefix(f"{_Z}-greedy-")) for k, df in rec.items()
             if k.startswith(f"{_Z}-greedy-") and len(df)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def margins(g: pd.DataFrame) -> dict:
    """The equivalence margin m per set: the split-to-split sd of the full LSSVR's test RMSE (CLAIMS.md,
    Z-fewer-svs: no sd is printed, so the baseline's own spread, fixed before the reduced models are read)."""
    return {s: float(pd.to_numeric(d.full_rmse, errors="coerce").std(ddof=1)) for s, d in g.groupby("set")}


def first_within(path, full, m):
    """The first |S| of a greedy path whose test RMSE is ≤ full + m (None if none)."""
    hit = np.flatnonzero(np.asarray(path) <= full + m)
    return int(hit[0]) if len(hit) else None


def _paths(d) -> pd.DataFrame:
    """One row per seed, one column per |S| = 0 … (longest path): the greedy path's test RMSE (NaN past the
    end of a path that stopped early: that split drops out of the pairs at that |S|)."""
    paths = {int(r.seed): loads(r.greedy_path_rmse) for r in d.itertuples()}
    n = max(len(v) for v in paths.values())
    return pd.DataFrame({k: np.pad(v.astype(float), (0, n - len(v)), constant_values=np.nan)
                         for k, v in paths.items()}).T


def _fewer(rec):
    g = _greedy(rec)
    ms = margins(g)
    parts, outs, res = [], [], []
    for s, d in g.groupby("set"):
        N, m = int(d.n_train.iloc[0]), ms[s]
        P = _paths(d)
        full = pd.to_numeric(d.set_index("seed").full_rmse, errors="coerce")
        cap = min(P.shape[1] - 1, int(0.1 * N))
        found, last = None, None
        for k in range(1, cap + 1):
            r = paired(P[k], full)
            last = (k, r)
            if r.n >= 2 and np.isfinite(m) and r.lo > -m and r.hi < m:
                found = (k, r)
                break
        if found:
            outs.append("holds")
            parts.append(f"{s}: comparable from |S| = {found[0]} of N = {N} ({100 * found[0] / N:.1f} %): "
                         f"{found[1].text('', 'RMSE RR − full')}, m = {fmt_num(m)}")
        else:
            k, r = last if last else (0, None)
            beyond = r is not None and r.n >= 2 and (r.lo >= m or r.hi <= -m)
            whole = cap >= int(0.1 * N)
            outs.append("does not hold" if (beyond and whole) else "undecided")
            parts.append(f"{s}: not comparable up to |S| = {cap} (0.1·N = {int(0.1 * N)}"
                         + ("" if whole else f", the path stops at {P.shape[1] - 1}") + ")"
                         + (f": at |S| = {k} {r.text('', 'RMSE RR − full')}, m = {fmt_num(m)}" if r else ""))
            if outs[-1] == "undecided" and r is not None and r.n >= 2:
                res.append(f"{s}: {r.resolution(m)}")
    unc = ("per set and |S| ≤ 0.1·N, the 95 % CI of the paired RMSE difference (RR-LSSVR − full LSSVR) over "
           "splits must lie inside ±m, m = the full LSSVR's split sd")
    outcome = "does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs or not outs \
        else "holds"
    return Verdict(outcome, measured="; ".join(parts), uncertainty=unc, cause="; ".join(res))


def _greedy_random_size(rec):
    g = _greedy(rec)
    ms = margins(g)
    n_g, n_r = [], []
    for r in g.itertuples():
        path, sizes, rnd = loads(r.greedy_path_rmse), loads(r.sizes).astype(int), loads(r.random_rmse)
        target = float(r.full_rmse) + ms[r.set]
        kg = first_within(path, float(r.full_rmse), ms[r.set])
        hit = [int(sz) for sz, v in zip(sizes, rnd) if v <= target]
        kr = hit[0] if hit else int(r.n_max) + 1  # never within: censored above the largest size tried
        if kg is None:
            kg = len(path)
        n_g.append(((r.set, r.seed), kg)), n_r.append(((r.set, r.seed), kr))
    a = pd.Series(dict(n_g)).astype(float)
    b = pd.Series(dict(n_r)).astype(float)
    d = paired(a, b)
    # the equal-|S| face (the parent row's own measurable): mean log(random/greedy) RMSE over the sizes < N/2
    gains = []
    for r in g.itertuples():
        path, sizes, rnd = loads(r.greedy_path_rmse), loads(r.sizes).astype(int), loads(r.random_rmse)
        k = [i for i, m in enumerate(sizes) if 1 <= m < len(path) and m < int(r.n_train) / 2 and i < len(rnd)]
        if k:
            gains.append(((r.set, r.seed), float(np.mean(np.log(rnd[k] / path[sizes[k]])))))
    gi = pd.Series(dict(gains))
    e = paired(gi, 0 * gi)
    size_out, rmse_out = better(paired(b, a)), better(e)
    measured = (f"|S| to reach the full LSSVR's RMSE + m: greedy median {fmt_num(float(a.median()))}, random "
                f"{fmt_num(float(b.median()))} (censored at n_max + 1 where never reached); at equal |S|: geometric "
                f"mean random/greedy test RMSE {fmt_num(float(np.exp(e.mean)))}")
    unc = (d.text("", "|S| greedy − random") + " over (set, seed) runs; " + e.text("", "mean log(random/greedy)"))
    outs = {size_out, rmse_out}
    outcome = "does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs else "holds"
    cause = ""
    if outcome == "undecided":
        cause = "; ".join(x for x, o in ((d.resolution(0.0), size_out), (e.resolution(0.0), rmse_out))
                          if o == "undecided")
    return Verdict(outcome, measured=measured, uncertainty=unc, cause=cause)


def _predefined(rec):
    g = _greedy(rec)
    early = g[g.stop_reason != "n_support"]
    measured = (f"{len(g) - len(early)} of {len(g)} runs returned exactly n_support = "
                f"{', '.join(sorted({str(int(v)) for v in g.n_max}))} SVs")
    if not len(early):
        return Verdict("holds", measured=measured, uncertainty="counts (deterministic stops)")
    if len(early) < len(g):
        by_set = ", ".join(f"{ds} at {int(e.n_selected.min())}–{int(e.n_selected.max())} SVs in {len(e)} of "
                           f"{int((g.set == ds).sum())} runs ({', '.join(sorted(set(e.stop_reason.astype(str))))})"
                           for ds, e in early.groupby("set"))
        return Verdict("holds only when", condition=f"n_support ≤ the numerical rank of (11) (early stops: {by_set})",
                       measured=measured, uncertainty="counts; 'exhausted' = no candidate's Schur complement "
                                                      "above the guard (the numerical rank reached)")
    return Verdict("does not hold", measured=measured, uncertainty="counts")


def _monotone(rec):
    gr = rec[f"{_Z}-growth"]
    bad, judged = {}, {}
    for r in gr.itertuples():
        J = loads(r.objective)
        n = len(J) - 1
        cond = loads(r.cond) if isinstance(getattr(r, "cond", None), str) else np.full(len(J), np.nan)
        # the inventory's bound: a step's rise counts beyond 10·κ·u·|L|, κ the larger of the system's κ before
        # and after the step; a step with 10·κ·u ≥ 1 (or no κ) resolves nothing and is not judged
        k = np.fmax(cond[:n], cond[1:n + 1]) if len(cond) > n else np.full(n, np.nan)
        tol = 10 * k * float(r.unit_roundoff) * np.abs(J[:-1])
        ok = np.isfinite(tol) & (10 * k * float(r.unit_roundoff) < 1)
        bad.setdefault(r.precision, []).append(int(np.sum(np.diff(J)[ok] > tol[ok])))
        judged.setdefault(r.precision, []).append(int(ok.sum()))
    measured = "; ".join(f"{p}: {sum(v)} rises in {sum(judged[p])} judged steps over {len(v)} runs"
                         for p, v in bad.items())
    good = [p for p, v in bad.items() if sum(v) == 0 and sum(judged[p])]
    fail = [p for p, v in bad.items() if sum(v)]
    unc = "a rise counts when it exceeds 10·κ·u·|L| (the inventory's ≡ rule); steps with 10·κ·u ≥ 1 are not judged"
    if not fail and good:
        return Verdict("holds", measured=measured, uncertainty=unc,
                       cause="bounded below by −dᵀd and non-increasing, so the recursion converges")
    if good:
        return Verdict("holds only when", condition=f"the arithmetic is {' or '.join(good)}", measured=measured,
                       uncertainty=unc)
    if fail:
        return Verdict("does not hold", measured=measured, uncertainty=unc)
    return Verdict("undecided", measured=measured, uncertainty=unc, cause="no step resolvable (10·κ·u < 1)")


def _ridge_rows(rec):
    r = rec[f"{_Z}-ridge"]
    r = r[(r.ridge == "literal") & (r.fit_status == "ok")].copy()
    u = pd.to_numeric(r.unit_roundoff, errors="coerce")
    return r, u


def _exact(rec):
    r, u = _ridge_rows(rec)
    ns = r[~r.ridge_applied.astype(bool)]
    u = u[ns.index]
    kappa = pd.to_numeric(ns.cond_H_formed, errors="coerce")
    bound = 10 * kappa * u
    res = ns[bound < 1]
    exc = pd.to_numeric(res.excess, errors="coerce")
    bad = res[exc > bound[res.index]]
    measured = (f"(7) as printed, where R + ZZᵀ is nonsingular (no ridge): objective (6) within 10·κ(R + ZZᵀ)·u of "
                f"the least-squares minimum in {len(res) - len(bad)} of {len(res)} fits with 10·κ·u < 1 (largest "
                f"excess {fmt_num(exc.max() if len(exc) else np.nan)}); {len(ns) - len(res)} fits with 10·κ·u ≥ 1 not "
                "judged")
    unc = "relative excess (J − J*)/J* (J* by lstsq in the finer of longdouble and the fit's precision) against 10·κ·u"
    if not len(res):
        return Verdict("undecided", measured=measured, uncertainty=unc, cause="no nonsingular fit resolvable")
    return Verdict("does not hold" if len(bad) else "holds", measured=measured, uncertainty=unc)


def _ridge(rec):
    r, u = _ridge_rows(rec)
    sing = r[r.ridge_applied.astype(bool)]
    u = u[sing.index]
    norm = pd.to_numeric(sing.norm_H, errors="coerce")
    bound = 10 * (norm + 1e-8) / 1e-8 * u  # κ of the ridged H ≤ (‖H‖ + 1e-8)/1e-8
    exc = pd.to_numeric(sing.excess, errors="coerce")
    within = exc <= bound
    vis = sing.ridge_visible.map(lambda x: bool(x) if x is not None and x == x else False).astype(bool)
    parts = [f"{p} C={fmt_num(c)} |S|={int(n)}: excess {fmt_num(e)} vs {fmt_num(b)}{'' if v else ' (1e-8 < u‖H‖)'}"
             for p, c, n, e, b, v in zip(sing.precision, sing.C, sing.n_support, exc, bound, vis)]
    measured = (f"ridged fits (R + ZZᵀ singular): (6) within 10·κ·u of its minimum in {int(within.sum())} of "
                f"{len(sing)}: " + "; ".join(parts))
    unc = "relative excess over the min-norm least-squares minimum; κ of the ridged matrix ≤ (‖H‖ + 1e-8)/1e-8"
    if not len(sing):
        return Verdict("undecided", measured="no singular R + ZZᵀ in the records", uncertainty=unc)
    if within.all():
        return Verdict("holds", measured=measured, uncertainty=unc)
    if within[vis].all():
        return Verdict("holds only when", condition="the ridge is visible (1e-8 ≥ u‖R + ZZᵀ‖)", measured=measured,
                       uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc,
                   cause="the ridge 1e-8·I moves the solution by more than rounding: its bias, not the singular "
                         "system's rounding, sets the excess (it grows with C)")


def _per_set_better(rec, col, what, at=None):
    """Per set: paired over seeds, mean log(col / RR) at equal |S| (> 0: RR better); at='n_max' reads one size."""
    g = _greedy(rec)
    outs, parts, res = [], [], []
    for s, d in g.groupby("set"):
        vals = {}
        for r in d.itertuples():
            path, sizes = loads(r.greedy_path_rmse), loads(r.sizes).astype(int)
            if at == "n_max":
                v = float(getattr(r, col))
                k = int(r.pruned_n_support)
                if not np.isfinite(v) or k < 1 or k >= len(path):
                    continue
                vals[r.seed] = float(np.log(v / path[k]))
                continue
            other = loads(getattr(r, col)) if isinstance(getattr(r, col, None), str) else None
            if other is None:
                continue
            k = [i for i, m in enumerate(sizes) if 2 <= m < len(path) and m < int(r.n_train) / 2
                 and i < len(other) and np.isfinite(other[i])]
            if k:
                vals[r.seed] = float(np.mean(np.log(other[k] / path[sizes[k]])))
        v = pd.Series(vals, dtype=float)
        if not len(v):
            outs.append("undecided")
            parts.append(f"{s}: no split where both models exist at the same |S|")
            res.append(f"{s}: the greedy path stopped before the baseline's size")
            continue
        e = paired(v, 0 * v)
        outs.append(better(e))
        parts.append(f"{s}: {what} {fmt_num(float(np.exp(e.mean))) if e.n else '—'} ({e.text('', 'mean log ratio')})")
        if outs[-1] == "undecided":
            res.append(f"{s}: {e.resolution()}")
    outcome = "does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs or not outs \
        else "holds"
    return outcome, parts, res


def _reduced_vs_subset(rec):
    out, parts, res = _per_set_better(rec, "subset_rmse", "subset-LSSVM/reduced test RMSE at equal random S")
    return Verdict(out, measured="; ".join(parts), uncertainty="per set, paired over splits, the sizes 2 ≤ |S| < N/2",
                   cause="; ".join(res))


def _vs_pruning(rec):
    o1, p1, r1 = _per_set_better(rec, "pruned_rmse", "pruned/RR test RMSE at the greedy path's final |S|", at="n_max")
    o2, p2, r2 = _per_set_better(rec, "subset_rmse", "subset-LSSVM/RR test RMSE")
    outs = {o1, o2}
    outcome = "does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs else "holds"
    return Verdict(outcome, measured="Suykens pruning: " + "; ".join(p1) + ". Subset LSSVM: " + "; ".join(p2),
                   uncertainty="per set, paired over the splits that ran the baselines (extra_seeds)",
                   cause="; ".join(r1 + r2))


def _dense(rec):
    g = _greedy(rec)
    nnz, N = pd.to_numeric(g.full_nnz, errors="coerce"), pd.to_numeric(g.n_train, errors="coerce")
    short = g[nnz < N]
    measured = (f"|ᾱ_i| > 1e-8·max|ᾱ| for all N in {len(g) - len(short)} of {len(g)} full LSSVR fits"
                + (f" (fewest: {int(nnz.min())} of {int(N[nnz.idxmin()])})" if len(short) else ""))
    return Verdict("does not hold" if len(short) else "holds", measured=measured,
                   uncertainty="counts (every split must have all N)")


def _slower(rec):
    g = _greedy(rec)
    g = g[pd.to_numeric(g.svr_n_support, errors="coerce") >= 0]
    outs, parts, res = [], [], []
    for s, d in g.groupby("set"):
        fewer = bool((pd.to_numeric(d.svr_n_support) < pd.to_numeric(d.n_train)).all())
        t = paired(np.log(pd.to_numeric(d.time_predict_full)), np.log(pd.to_numeric(d.time_predict_svr)))
        o = better(t)
        outs.append("does not hold" if not fewer or o == "does not hold" else o)
        parts.append(f"{s}: ε-SVR keeps {fmt_num(float(pd.to_numeric(d.svr_n_support).median()))} of N = "
                     f"{int(d.n_train.iloc[0])} SVs (median), LSSVR/SVR prediction time "
                     f"{fmt_num(float(np.exp(t.mean)))} ({t.text('', 'log ratio')})")
        if o == "undecided":
            res.append(f"{s}: {t.resolution()}")
    outcome = "does not hold" if "does not hold" in outs else "undecided" if "undecided" in outs or not outs \
        else "holds"
    return Verdict(outcome, measured="; ".join(parts) or "no SVR fits recorded",
                   uncertainty="per set: #SV(SVR) < N in every split and the 95 % CI of log(t_LSSVR/t_SVR) > 0 over "
                               "splits (best of 5 timings of the kernel expansion on 2000 points)",
                   cause="; ".join(res))


def _predict_linear(rec):
    g = _greedy(rec)
    g = g[pd.to_numeric(g.svr_n_support, errors="coerce") >= 0]
    outs, parts = [], []
    for s, d in g.groupby("set"):
        sl, span = [], 0.0
        for r in d.itertuples():
            n, t = loads(r.predict_svs), loads(r.time_predict_svs)
            k = n >= 50
            if k.sum() >= 2:
                sl.append(float(np.polyfit(np.log10(n[k]), np.log10(t[k]), 1)[0]))
                span = float(np.log10(n[k].max() / n[k].min()))
        if not sl:
            continue
        m = float(np.median(sl))
        outs.append("undecided" if span < 1 else "holds" if abs(m - 1) <= 0.3 else "does not hold")
        parts.append(f"{s}: slope {m:.2f} (median of {len(sl)} splits) over {span:.2f} decades of #SV ≥ 50")
    outcome = "does not hold" if "does not hold" in outs else "holds" if "holds" in outs else "undecided"
    return Verdict(outcome, measured="; ".join(parts) or "no timings", uncertainty="ord 1 ± 0.3 over ≥ 1 decade of "
                   "#SV ≥ 50 (sets spanning less are not judged)",
                   cause="" if outcome != "undecided" else "no set spans a decade of #SV ≥ 50 (N ≥ 500 needed)")


def _recursive_inverse(rec):
    gr = rec[f"{_Z}-growth"]
    gr = gr[gr["update"] == "bordered-inverse"]
    good, bad, parts, ratios, slopes = [], [], [], [], []
    for r in gr.itertuples():
        drift, cond = loads(r.drift_operator), loads(r.cond)
        n = min(len(drift), len(cond))
        k = np.arange(1, n + 1)
        bound = 10 * (k + 1) * cond[:n] * float(r.unit_roundoff)  # k updates + the direct inverse, 10·κ·u each
        over = np.flatnonzero(np.isfinite(drift[:n]) & (drift[:n] > bound) & (bound < 1))
        judged = bound < 1
        (bad if len(over) else good).append((r.precision, int(over[0]) if len(over) else
                                             (int(np.flatnonzero(judged)[-1]) if judged.any() else -1)))
        worst = float(np.nanmax(drift[:n][judged] / bound[judged])) if judged.any() else np.nan
        if len(over):
            ratios.append(worst)
            slopes.append(_drift_order(drift[:n], cond[:n], bound[:n], float(r.unit_roundoff)))
        parts.append(f"{r.precision}: max drift/bound {fmt_num(worst)} over the {int(judged.sum())} steps with "
                     "10·(k+1)·κ·u < 1"
                     + (f", first beyond at step {int(over[0])}" if len(over) else ""))
    unc = ("‖X_rec − X_dir‖/‖X_dir‖ (max norm, against a fresh Cholesky inverse) ≤ 10·(k+1)·κ_k·u at step k: the "
           "inventory's 10·k·κ·u for the k updates plus 10·κ·u for the direct inverse, itself computed")
    measured = "; ".join(parts)
    if not bad:
        return Verdict("holds", measured=measured, uncertainty=unc)
    first = min(k for _, k in bad)
    short = [p for p, last in good if last < first]  # judged only on steps before the others' first failure
    good = [p for p, last in good if last >= first]
    bad = [p for p, _ in bad]
    fin = [x for x in slopes if np.isfinite(x)]
    if fin and min(fin) > 1.3:  # drift ∝ κ^s·u with s well above a backward-stable inverse's 1
        why = (f"the drift grows as κ^s·u with s = {fmt_num(min(fin))}–{fmt_num(max(fin))} (log–log fit over the "
               "steps with κ ≥ 1e3): faster than the κ·u of a direct inverse, so the recursion amplifies its "
               "own error as κ grows")
    elif max(ratios) <= 10 * min(ratios):
        why = ("the same factor in every precision, so the update's error constant is larger than 10·(k+1), not a "
               "loss of precision")
    else:
        why = "the excess differs between the precisions and no power of κ explains it: cause unexplained"
    cause = (f"the drift exceeds the bound by {fmt_num(min(ratios))}–{fmt_num(max(ratios))}× in "
             f"{', '.join(bad)} (from step {first}): {why}"
             + (f"; {', '.join(short)} resolves no step from {first} on (κ·u too large): no evidence either way"
                if short else ""))
    if good:
        return Verdict("holds only when", condition=f"the arithmetic is {' or '.join(good)}", measured=measured,
                       uncertainty=unc, cause=cause)
    return Verdict("does not hold", measured=measured, uncertainty=unc, cause=cause)


def _drift_order(drift, cond, bound, u) -> float:
    """The exponent s of drift ≈ c·κ^s·u: log–log slope over the judged steps (bound < 1) with κ ≥ 1e3, where
    the leading term dominates; NaN on fewer than 3 such steps or under one decade of κ."""
    ok = (cond >= 1e3) & (bound < 1) & np.isfinite(drift) & (drift > 0)
    if ok.sum() < 3 or np.ptp(np.log10(cond[ok])) < 1:
        return np.nan
    return loglog_slope(cond[ok], drift[ok] / u)


def _eq9(rec):
    r = rec[f"{_Z}-identities"]
    bound = 10 * pd.to_numeric(r.n_train) * pd.to_numeric(r.unit_roundoff)
    e9, e11 = pd.to_numeric(r.eq9_rel_dev), pd.to_numeric(r.eq11_rel_dev)
    ok = (e9 <= bound) & (e11 <= bound)
    measured = "; ".join(f"{p}: (9) vs (2/C)(6) − dᵀd {fmt_num(a)}, (11)'s blocks {fmt_num(b)} (bound {fmt_num(c)})"
                         for p, a, b, c in zip(r.precision, e9, e11, bound))
    return Verdict("holds" if ok.all() else "does not hold", measured=measured,
                   uncertainty="relative to the sum of absolute terms; bound 10·N·u (the rounding of sums of N terms)")


def _contribution(rec):
    r = rec[f"{_Z}-identities"]
    r = r[pd.to_numeric(r.greedy_steps, errors="coerce") > 0]
    if not len(r):
        return Verdict("undecided", measured="no brute-force check recorded")
    sf = float(pd.to_numeric(r.greedy_max_shortfall).max())
    measured = (f"over {int(r.greedy_steps.sum())} steps, the chosen pattern's decrease of (9) fell short of the best "
                f"candidate's by at most {fmt_num(sf)} × the tolerance 10·κ·u·|L|; {int(r.greedy_ties.sum())} steps "
                "had ties within it")
    return Verdict("holds" if sf <= 1 else "does not hold", measured=measured,
                   uncertainty="brute force: (7) refitted (lstsq, float64) for every candidate at every step")


# --------------------------------------------------------------------------- synthetic records
def _greedy_rows(greedy, random, stop="n_support", seeds=4, full=1.0, n_train=100, sizes=(1, 2, 3), **extra):
    rows = []
    for s in range(seeds):
        f = 1 + 0.02 * ((-1) ** s)  # the split's difficulty scales the full and the reduced models alike
        path = np.asarray(greedy, float) * f
        rows.append({"seed": s, "status": "ok", "n_train": n_train, "n_max": len(path) - 1,
                     "n_selected": len(path) - 1, "stop_reason": stop, "greedy_path_rmse": dumps(path),
                     "sizes": dumps(np.array(sizes)), "random_rmse": dumps(np.asarray(random, float)),
                     "full_rmse": full * f,
                     **{k: (v(s) if callable(v) else v) for k, v in extra.items()}})
    return {f"{_Z}-greedy-sinc": pd.DataFrame(rows)}


def _growth(J32, J64=(3.0, 2.0, 1.0), cond=(1.0, 10.0, 100.0)):
    return {f"{_Z}-growth": pd.DataFrame([{"precision": p, "n_train": 10, "unit_roundoff": u, "status": "ok",
                                           "objective": dumps(np.asarray(J, float)),
                                           "cond": dumps(np.asarray(cond, float))}
                                          for p, u, J in (("float32", 6e-8, J32), ("float64", 1.1e-16, J64))])}


def _drift(d32, d64=1e-15):
    return {f"{_Z}-growth": pd.DataFrame([{"precision": p, "update": "bordered-inverse", "unit_roundoff": u,
                                           "drift_operator": dumps(np.array([0.0, d, d])),
                                           "cond": dumps(np.array([1.0, 10.0, 100.0])), "status": "ok"}
                                          for p, u, d in (("float32", 6e-8, d32), ("float64", 1.1e-16, d64))])}


def _ridge_rec(excess, applied=False, visible=True, kappa=10.0, norm=1e3):
    return {f"{_Z}-ridge": pd.DataFrame([{"ridge": "literal", "fit_status": "ok", "cond_H_formed": kappa,
                                          "precision": "float64", "C": 1.0, "n_support": 5, "ridge_applied": applied,
                                          "ridge_visible": visible, "norm_H": norm, "unit_roundoff": 1.1e-16,
                                          "excess": excess, "status": "ok"}])}


def _ident(e9=1e-16, e11=0.0, short=0.0):
    return {f"{_Z}-identities": pd.DataFrame([{"precision": "float64", "n_train": 60, "unit_roundoff": 1.1e-16,
                                               "eq9_rel_dev": e9, "eq11_rel_dev": e11, "greedy_steps": 10,
                                               "greedy_max_shortfall": short, "greedy_ties": 0, "status": "ok"}])}


_PATH = [3, 2, 1.5, 1.2, 1.1, 1.02, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
_SIZES = (1, 2, 5, 10)


def _baselines(sub=2.0, pruned=2.0, svr_n=40, t_full=2e-3, t_svr=1e-3, slope=1.0):
    svs = np.array([50.0, 100.0, 200.0, 500.0])
    return dict(subset_rmse=dumps(np.array([4.0, 3.0, 2.0, 1.5]) * sub / 2), pruned_rmse=pruned, pruned_n_support=10,
                svr_n_support=svr_n, full_nnz=100, time_predict_full=lambda s: t_full * (1 + 0.01 * s),
                time_predict_svr=lambda s: t_svr * (1 + 0.02 * s), predict_svs=dumps(svs),
                time_predict_svs=dumps(1e-6 * svs ** slope))


#: Zhao & Sun print no number (the seed stops after eq. (11)): every example here is built from the
#: theory the inventory states (CLAIMS.md §3): claim id -> (outcome, records).
THEORY_EXAMPLES = {
    # 'similar generalisation' with |S| ≤ 0.1 N: the path reaches the full RMSE within its split sd
    "Z-fewer-svs": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], full=1.0, sizes=_SIZES)),
    # greedy reaches the target with fewer SVs and is lower at equal |S|
    "Z-greedy-random/size": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES)),
    "Z-predefined": lambda: ("holds", _greedy_rows(_PATH, [3, 2, 1, 1], sizes=_SIZES)),
    # (9) is a sum of N squared residuals minus a constant: non-increasing as S grows
    "Z-converges": lambda: ("holds", _growth((3.0, 2.0, 1.0))),
    "Z-eq7/exact": lambda: ("holds", _ridge_rec(1e-20)),
    # the ridge's bias: min(6) + 1e-8‖θ‖² differs from min(6) by more than rounding once ‖θ‖ is large
    "Z-eq7/ridge": lambda: ("does not hold", _ridge_rec(1e-2, applied=True)),
    "Z-eq9": lambda: ("holds", _ident()),
    "Z-greedy-contribution": lambda: ("holds", _ident()),
    "Z-recursive-inverse": lambda: ("holds", _drift(1e-6)),
    "Z-reduced-vs-subset": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines())),
    "Z-vs-pruning": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines())),
    "Z-lssvr-dense": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines())),
    "Z-lssvm-slower": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines())),
    "Z-predict-linear": lambda: ("holds", _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines())),
}


def _th(cid):
    return THEORY_EXAMPLES[cid]()[1]


_EX = {
    "fewer": lambda: {"holds": _th("Z-fewer-svs"),
                      "does not hold": _greedy_rows([3, 2, 1.5, 1.4] * 3, [3, 2.5, 2, 1.5], sizes=_SIZES),
                      "undecided": _greedy_rows([3, 2, 1.5], [3, 2.5], sizes=(1, 2))},
    "size": lambda: {"holds": _th("Z-greedy-random/size"),
                     "does not hold": _greedy_rows([3, 3, 2.6, 2.2, 2.0, 1.9, 1.5, 1.4, 1.3, 1.2, 1.1, 1.0],
                                                   [2, 2.0, 1.0, 0.9], sizes=_SIZES)},
    "predefined": lambda: {"holds": _th("Z-predefined"),
                           "does not hold": _greedy_rows([3, 2, 1, 1], [3, 2, 1], stop="guard")},
    "monotone": lambda: {"holds": _th("Z-converges"), "holds only when": _growth((3.0, 2.0, 2.5)),
                         "does not hold": _growth((3.0, 2.0, 2.5), (3.0, 2.0, 2.5)),
                         # κ·u ≥ 1/10 at every step: nothing resolvable
                         "undecided": _growth((3.0, 2.0, 2.5), (3.0, 2.0, 2.5), cond=(1e15, 1e16, 1e17))},
    "exact": lambda: {"holds": _th("Z-eq7/exact"), "does not hold": _ridge_rec(1e-3)},
    "ridge": lambda: {"does not hold": _th("Z-eq7/ridge"), "holds": _ridge_rec(1e-12, applied=True),
                      "holds only when": {f"{_Z}-ridge": pd.concat([_ridge_rec(1e-12, applied=True)[f"{_Z}-ridge"],
                                                                    _ridge_rec(1e-2, applied=True, visible=False)[
                                                                        f"{_Z}-ridge"]], ignore_index=True)}},
    "eq9": lambda: {"holds": _th("Z-eq9"), "does not hold": _ident(e9=1e-6)},
    "contribution": lambda: {"holds": _th("Z-greedy-contribution"), "does not hold": _ident(short=5.0)},
    "inverse": lambda: {"holds": _th("Z-recursive-inverse"), "holds only when": _drift(1.0),
                        "does not hold": _drift(1.0, 1.0)},
    "subset": lambda: {"holds": _th("Z-reduced-vs-subset"),
                       "does not hold": _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines(sub=0.5))},
    "pruning": lambda: {"holds": _th("Z-vs-pruning"),
                        "does not hold": _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES,
                                                      **_baselines(pruned=0.5))},
    "dense": lambda: {"holds": _th("Z-lssvr-dense"),
                      "does not hold": _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES,
                                                    **{**_baselines(), "full_nnz": 90})},
    "slower": lambda: {"holds": _th("Z-lssvm-slower"),
                       "does not hold": _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES,
                                                     **_baselines(t_full=1e-3, t_svr=2e-3))},
    "linear": lambda: {"holds": _th("Z-predict-linear"),
                       "does not hold": _greedy_rows(_PATH, [3, 2.5, 2, 1.5], sizes=_SIZES, **_baselines(slope=2.0))},
}
_G = ("zhao-sun-greedy-random", "zhao-sun-greedy-table")
_GR = (f"{_Z}-greedy-*",)
register_claim("Z-fewer-svs", paper="zhao-sun", section=_Z, where="abstract, claim (c)",
               text="RR-LSSVR generalises like the full LSSVR with far fewer support vectors",
               printed="(no number in the seed)", records=_GR, rule=_fewer, evidence=_G, examples=_EX["fewer"])
register_claim("Z-greedy-random", paper="zhao-sun", section=_Z, where="§3, abstract, claim (d)",
               text="a random subset is either not parsimonious enough or less accurate than the greedy one",
               printed="(no number in the seed)", parts=True,
               reading="the ledger holds inventory ids only and a parent of sub-claims is their conjunction, so this "
                       "row's own measurable (test RMSE at equal |S|) is judged inside its one sub-claim /size")
register_claim("Z-greedy-random/size", paper="zhao-sun", section=_Z, where="§1",
               text="RR-LSSVR needs a smaller subset than random selection (and is more accurate at equal |S|)",
               printed="(no number in the seed)", records=_GR, rule=_greedy_random_size, evidence=_G,
               examples=_EX["size"],
               reading="judges both faces of the parent's 'either … or': |S| to reach the full RMSE + m (random: one "
                       "draw per size and split, not the median of 20; never reached = censored at n_max + 1) and "
                       "the RMSE at equal |S| < N/2; both must hold")
register_claim("Z-predefined", paper="zhao-sun", section=_Z, where="abstract, claim (b)",
               text="the number of support vectors can be arbitrarily predefined", printed="(no number in the seed)",
               records=_GR, rule=_predefined, evidence=_G, examples=_EX["predefined"])
register_claim("Z-reduced-vs-subset", paper="zhao-sun", section=_Z, where="§1",
               text="keeping all N constraints (7) generalises better than an LSSVR on the subset alone",
               printed="(no number in the seed)", records=_GR, rule=_reduced_vs_subset, evidence=_G,
               examples=_EX["subset"])
register_claim("Z-vs-pruning", paper="zhao-sun", section=_Z, where="abstract; §1",
               text="RR-LSSVR beats the common parsimonious tricks (pruning, subset LSSVR) at equal n_sv",
               printed="(no number in the seed)", records=_GR, rule=_vs_pruning, evidence=_G, examples=_EX["pruning"],
               reading="equal n_sv = the greedy path's end (n_max ≈ 0.1·N, where Z-fewer-svs is judged, or its early "
                       "stop); pruning follows Suykens' path (5 % of the current set a step) with every step accepted "
                       "down to that size")
register_claim("Z-converges", paper="zhao-sun", section=_Z, where="abstract, claim (e)",
               text="the recursion converges (objective (9) non-increasing, bounded below)",
               printed="'convergence is proved' (proof not in the seed)", records=(f"{_Z}-growth",), rule=_monotone,
               evidence=("zhao-sun-error-growth",), examples=_EX["monotone"],
               reading="κ is the recorded condition of the recursion's system at each step (the larger of the "
                       "two around the step); (6) ≥ 0 > −dᵀd bounds L below")
register_claim("Z-eq7", paper="zhao-sun", section=_Z, where="eqs. (6)–(7)",
               text="(7) solves the reduced problem (6) exactly (with the 1e-8 ridge when R + ZZᵀ is singular)",
               printed="(7) with ridge 1e-8", parts=True)
register_claim("Z-eq7/exact", paper="zhao-sun", section=_Z, where="eqs. (6)–(7)",
               text="(7) solves (6) when R + ZZᵀ is nonsingular", printed="(7)", records=(f"{_Z}-ridge",),
               rule=_exact, evidence=("zhao-sun-ridge",), examples=_EX["exact"],
               reading="measured on the objective (6) against its least-squares minimum (the solution's error is "
                       "not recorded); a relative excess is second order in the solution's error, so 10·κ·u is a "
                       "generous bound")
register_claim("Z-eq7/ridge", paper="zhao-sun", section=_Z, where="§2, L90",
               text="the ridge R + ZZᵀ + 1e-8 I finds the solution when R + ZZᵀ is singular", printed="1e-8",
               records=(f"{_Z}-ridge",), rule=_ridge, evidence=("zhao-sun-ridge",), examples=_EX["ridge"])
register_claim("Z-eq9", paper="zhao-sun", section=_Z, where="eqs. (9)–(11)",
               text="(9) is (6) rescaled, and (11) unfolds ZZᵀ blockwise", printed="(algebra)",
               records=(f"{_Z}-identities",), rule=_eq9, examples=_EX["eq9"],
               threshold="relative deviation ≤ 10·N·u of the sum of absolute terms (two evaluations of one quadratic: "
                         "the rounding of sums of N terms, not κ·u)",
               reading="the identity is checked on the support the recursion chose, at a random θ. The inventory's "
                       "≡ (c·κ·u) is replaced by 10·N·u: both sides evaluate one quadratic at the same θ with no "
                       "linear solve between them, so κ never enters; their difference is the rounding of sums of "
                       "N terms, ≤ N·u times the sum of absolute terms to first order (Higham §3.1), c = 10")
register_claim("Z-greedy-contribution", paper="zhao-sun", section=_Z, where="abstract; §3",
               text="the chosen pattern is the one that lowers the objective most", printed="(no number in the seed)",
               records=(f"{_Z}-identities",), rule=_contribution, examples=_EX["contribution"],
               reading="the selection rule is past the seed's end (SEED_NOTES §2.3's reconstruction): this checks the "
                       "reconstruction's greedy choice against brute-force refits, the paper's wording as we read it")
register_claim("Z-recursive-inverse", paper="zhao-sun", section=_Z, where="§3.1",
               text="the inverse of R + ZZᵀ is updated recursively (as accurate as a direct inversion)",
               printed="(formula past the seed's end)", records=(f"{_Z}-growth",), rule=_recursive_inverse,
               evidence=("zhao-sun-error-growth",), examples=_EX["inverse"],
               reading="the bordered-inverse update of the reconstruction (SEED_NOTES §2.3); the Cholesky update's "
                       "drift is in the section's table. Two computed inverses are compared, so the bound adds the "
                       "direct inverse's own 10·κ·u to the inventory's 10·k·κ·u for k updates: 10·(k+1)·κ·u (the "
                       "pair argument of C-theorem2's 20·κ·u, with one side k updates long)")
register_claim("Z-predict-linear", paper="zhao-sun", section=_Z, where="§1",
               text="prediction time is proportional to the number of support vectors", printed="(cited)",
               records=_GR, rule=_predict_linear, evidence=_G, examples=_EX["linear"])
register_claim("Z-lssvr-dense", paper="zhao-sun", section=_Z, where="§2, eq. (5)",
               text="the full LSSVR is not parsimonious (every α_i nonzero)", printed="(no number)", records=_GR,
               rule=_dense, evidence=_G, examples=_EX["dense"])
register_claim("Z-lssvm-slower", paper="zhao-sun", section=_Z, where="§1",
               text="LSSVM is not parsimonious, so it predicts slower than an SVM", printed="(no number)", records=_GR,
               rule=_slower, evidence=_G, examples=_EX["slower"],
               reading="ε-SVR at the LSSVR's (C, σ²) with ε = 0.1·sd(y) (the tuned ε is not in the seed); the "
                       "prediction of both timed as the same kernel expansion")
register_claim("Z-classification", paper="zhao-sun", section=_Z, where="abstract, claim (f)",
               text="RR-LSSVR extends to classification", printed="(no number in the seed)",
               untestable="the extension is described after eq. (11), where the seed text stops")
register_claim("Z-background", paper="zhao-sun", section=_Z, where="§1, claim (g)",
               text="SVM training is O(N³); RSVM is 'a little' less accurate than SVM (Lin & Lin)",
               printed="(cited, no number)", untestable="a statement about cited work whose experiments are not in "
                                                         "the seeds")
