"""Claims of Zhao & Sun (Pattern Recognition 2009), reduced LSSVR and RR-LSSVR: abstract and §2-§3.

The seed text stops after eq. (11): no table or number of the paper exists, so
the testable claims are structural (SEED_NOTES §2.3).  Home section "zhao-sun";
records "zhao-sun-growth" (kind ``zs-error-growth``, with the objective after each
step), "zhao-sun-ridge" (``zs-ridge``) and "zhao-sun-greedy-<set>" (``zs-greedy-random``).
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..arrays import dumps, loads
from ._ledger import Verdict, register_claim
from .stats import better, fmt_num, paired

__all__ = ["SIMILAR"]

_Z = "zhao-sun"
#: "similar error": within 5 % of the full LS-SVM's test RMSE (our decision; the paper's is unknown).
SIMILAR = 0.05


def _greedy(rec) -> pd.DataFrame:
    parts = [df.assign(set=k.removeprefix(f"{_Z}-greedy-")) for k, df in rec.items()
             if k.startswith(f"{_Z}-greedy-") and len(df)]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def _first_within(path, full):
    hit = np.flatnonzero(np.asarray(path) <= full * (1 + SIMILAR))
    return int(hit[0]) if len(hit) else None


def _fewer(rec):
    g = _greedy(rec)
    parts, reached = [], []
    for s, d in g.groupby("set"):
        ns = [_first_within(loads(r.greedy_path_rmse), float(r.full_rmse)) for r in d.itertuples()]
        got = [n for n in ns if n is not None]
        N = int(d.n_train.iloc[0])
        reached.append(len(got) == len(ns))
        parts.append(f"{s}: {len(got)} of {len(ns)} runs within {SIMILAR:.0%} of the full LS-SVM"
                     + (f" at median |S| = {int(np.median(got))} of N = {N}" if got else f" (N = {N})"))
    unc = f"per seed: the first |S| of the greedy path with RMSE ≤ (1 + {SIMILAR:g}) × the full LS-SVM's"
    if all(reached):
        return Verdict("holds", measured="; ".join(parts), uncertainty=unc)
    if any(reached):
        sets = [s for s, r in zip(sorted(set(g.set)), reached) if r]
        return Verdict("holds only when", condition=f"the data are {', '.join(sets)}", measured="; ".join(parts),
                       uncertainty=unc)
    return Verdict("does not hold", measured="; ".join(parts), uncertainty=unc)


def _greedy_random(rec):
    g = _greedy(rec)
    gains = []
    for r in g.itertuples():
        path, sizes, rnd = loads(r.greedy_path_rmse), loads(r.sizes).astype(int), loads(r.random_rmse)
        k = [i for i, m in enumerate(sizes) if 1 <= m < len(path) and i < len(rnd)]
        if k:
            gains.append((r.set, r.seed, float(np.mean(np.log(rnd[k] / path[sizes[k]])))))
    gi = pd.DataFrame(gains, columns=["set", "seed", "gain"]).set_index(["set", "seed"]).gain
    d = paired(gi, 0 * gi)
    return Verdict(better(d), measured=f"random/greedy test RMSE at equal |S|: geometric mean ratio "
                   f"{fmt_num(float(np.exp(d.mean)))}", uncertainty=d.text("", "mean log(random/greedy)")
                   + " over (set, seed) runs")


def _predefined(rec):
    g = _greedy(rec)
    early = g[g.stop_reason != "n_support"]
    measured = (f"{len(g) - len(early)} of {len(g)} runs returned exactly n_support = "
                f"{', '.join(sorted({str(int(v)) for v in g.n_max}))} SVs")
    if not len(early):
        return Verdict("holds", measured=measured, uncertainty="counts (deterministic stops)")
    if len(early) < len(g):
        return Verdict("holds only when", condition=f"n_support ≤ the numerical rank of (11) (early stops at "
                       f"{int(early.n_selected.min())} SVs)", measured=measured, uncertainty="counts")
    return Verdict("does not hold", measured=measured, uncertainty="counts")


def _monotone(rec):
    gr = rec[f"{_Z}-growth"]
    bad = {}
    for r in gr.itertuples():
        J = loads(r.objective)
        tol = float(r.n_train) * float(r.unit_roundoff) * np.abs(J[:-1])  # rounding of a sum of N terms
        bad.setdefault(r.precision, []).append(int(np.sum(np.diff(J) > tol)))
    measured = "; ".join(f"{p}: {sum(v)} rises over {len(v)} runs" for p, v in bad.items())
    good = [p for p, v in bad.items() if sum(v) == 0]
    unc = "a rise counts when it exceeds N·u·|J| (the rounding of a sum of N squared residuals)"
    if len(good) == len(bad):
        return Verdict("holds", measured=measured, uncertainty=unc,
                       cause="bounded below by −dᵀd and non-increasing, so the recursion converges")
    if good:
        return Verdict("holds only when", condition=f"the arithmetic is {' or '.join(good)}", measured=measured,
                       uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


def _exact(rec):
    r = rec[f"{_Z}-ridge"]
    lit = r[(r.ridge == "literal") & (r.fit_status == "ok")].copy()
    bound = pd.to_numeric(lit.cond_M, errors="coerce") ** 2 * pd.to_numeric(lit.unit_roundoff, errors="coerce")
    lit["within"] = pd.to_numeric(lit.excess, errors="coerce") <= bound
    res = lit[bound < 1]
    fails = r[(r.ridge == "literal") & (r.fit_status != "ok")]
    measured = (f"(7) as printed matched the minimiser of (6) within κ(M)²u in {int(res.within.sum())} of {len(res)} "
                f"fits where κ(M)²u < 1; {len(fails)} literal fits broke down (κ(M)²u ≥ 1)")
    unc = "excess (J − J*)/J* (mp50) against κ(M)²·u, the normal equations' first-order bound"
    if len(res) and res.within.all() and not len(fails):
        return Verdict("holds", measured=measured, uncertainty=unc)
    if len(res) and res.within.all():
        return Verdict("holds only when", condition="κ(M)² u < 1 (the formed R + ZZᵀ resolvable)", measured=measured,
                       uncertainty=unc)
    return Verdict("does not hold", measured=measured, uncertainty=unc)


# --------------------------------------------------------------------------- synthetic records
def _greedy_rows(greedy, random, stop="n_support", seeds=4):
    rows = []
    for s in range(seeds):
        path = np.asarray(greedy, float) * (1 + 0.01 * s)
        rows.append({"seed": s, "status": "ok", "n_train": 100, "n_max": len(path) - 1, "n_selected": len(path) - 1,
                     "stop_reason": stop, "greedy_path_rmse": dumps(path), "sizes": dumps(np.array([1, 2, 3])),
                     "random_rmse": dumps(np.asarray(random, float)), "full_rmse": 1.0})
    return {f"{_Z}-greedy-sinc": pd.DataFrame(rows)}


def _growth(J32, J64=(3.0, 2.0, 1.0)):
    return {f"{_Z}-growth": pd.DataFrame([{"precision": p, "n_train": 10, "unit_roundoff": u, "status": "ok",
                                           "objective": dumps(np.asarray(J, float))}
                                          for p, u, J in (("float32", 6e-8, J32), ("float64", 1.1e-16, J64))])}


def _ridge(excess, ok=True):
    return {f"{_Z}-ridge": pd.DataFrame([{"ridge": "literal", "fit_status": "ok" if ok else "breakdown", "cond_M": 10.0,
                                          "unit_roundoff": 1.1e-16, "excess": excess, "status": "ok"}])}


_EX = {
    "fewer": lambda: {"holds": _greedy_rows([3, 2, 1.02, 1.0], [3, 2.5, 2]),
                      "does not hold": _greedy_rows([3, 2, 1.5, 1.4], [3, 2.5, 2])},
    "random": lambda: {"holds": _greedy_rows([3, 2, 1.5, 1.2], [3, 2.5, 2]),
                       "does not hold": _greedy_rows([3, 3, 2.6, 2.2], [2, 2.0, 1.5])},
    "predefined": lambda: {"holds": _greedy_rows([3, 2, 1, 1], [3, 2, 1]),
                           "does not hold": _greedy_rows([3, 2, 1, 1], [3, 2, 1], stop="guard")},
    "monotone": lambda: {"holds": _growth((3.0, 2.0, 1.0)), "holds only when": _growth((3.0, 2.0, 2.5)),
                         "does not hold": _growth((3.0, 2.0, 2.5), (3.0, 2.0, 2.5))},
    "exact": lambda: {"holds": _ridge(1e-20), "does not hold": _ridge(1e-3)},
}
_G = ("zhao-sun-greedy-random", "zhao-sun-greedy-table")
register_claim("Z-fewer-svs", paper="zhao-sun", section=_Z, where="abstract, claim (c)",
               text="RR-LSSVR generalises like the full LSSVR with far fewer support vectors",
               printed="(no number in the seed)", records=(f"{_Z}-greedy-*",), rule=_fewer, evidence=_G,
               examples=_EX["fewer"])
register_claim("Z-greedy-random", paper="zhao-sun", section=_Z, where="abstract, claim (d)",
               text="at equal |S| the greedy subset beats a random reduced LSSVR", printed="(no number in the seed)",
               records=(f"{_Z}-greedy-*",), rule=_greedy_random, evidence=_G, examples=_EX["random"])
register_claim("Z-predefined", paper="zhao-sun", section=_Z, where="abstract, claim (b)",
               text="the number of support vectors can be arbitrarily predefined", printed="(no number in the seed)",
               records=(f"{_Z}-greedy-*",), rule=_predefined, evidence=_G, examples=_EX["predefined"])
register_claim("Z-converges", paper="zhao-sun", section=_Z, where="abstract, claim (e)",
               text="the recursion converges (objective (9) non-increasing, bounded below)",
               printed="'convergence is proved' (proof not in the seed)", records=(f"{_Z}-growth",), rule=_monotone,
               evidence=("zhao-sun-error-growth",), examples=_EX["monotone"])
register_claim("Z-eq7", paper="zhao-sun", section=_Z, where="eqs. (6)–(7)",
               text="(7) solves the reduced problem (6) exactly (with the 1e-8 ridge when R + ZZᵀ is singular)",
               printed="(7) with ridge 1e-8", records=(f"{_Z}-ridge",), rule=_exact, evidence=("zhao-sun-ridge",),
               examples=_EX["exact"])
register_claim("Z-classification", paper="zhao-sun", section=_Z, where="abstract, claim (f)",
               text="RR-LSSVR extends to classification", printed="(no number in the seed)",
               untestable="the extension is described after eq. (11), where the seed text stops")
register_claim("Z-background", paper="zhao-sun", section=_Z, where="§1, claim (g)",
               text="SVM training is O(N³); RSVM is 'a little' less accurate than SVM (Lin & Lin)",
               printed="(cited, no number)", untestable="a statement about cited work whose experiments are not in "
                                                         "the seeds")
