"""Which formulation can I trust, in which precision: the grid on the first screen and the kappa ladder.

The plan is a kappa ladder: every registered solver, in every precision it
declares, in its default configuration and in each other variant value one
at a time (each printed formula beside its stable partner), on the same
small problems, over a C ladder at sigma2 = 10.  On sinc (n = 30) the
problem's condition kappa(K + I/C) is ~ 10 C there from C = 10 to 1e16
(lambda_min(K) ~ 2e-24): the ladder runs from kappa ~ 1e2 to past 1/u of
float64 (~ 9e15), so every curve crosses float32's and float64's limits.
(At sigma2 = 1, kappa saturates at kappa(K) ~ 1e8 and never reaches
float64's limit.)

C drives what the dense formulations form (the KKT matrix, K + I/C, Abe's
and Vieira's least-squares matrices), not what the support-set methods form
at their papers' default sizes: at n = 30, pcp-lssvm and sr-lssvm take
r = 0.05 m = 1 pivot and fs-lssvm one prototype (kappa(J) = 1, problem kappa
~ 3 on every rung), reduced-lssvr ceil(N/10) = 3 random supports and
rr-lssvr stops its greedy selection at ~8 (kappa(H) ~ 6e4 and 3e7 from
C = 1e4 to 1e16: at large C the penalty K_SS/C vanishes and the support
alone fixes kappa).  Such a solver declares the paper's keyword that does
drive it (``SolverInfo.ladder``, :class:`~lssvm_analysis.solvers.LadderKnob`):
the support size ``n_support`` at n/4, n/2 and 0.8 n, and 0.9 n for
pcp-, sr-, fs-lssvm and rr-lssvr (rr-lssvr with ``tol = 0``, so that its
greedy selection reaches the size asked for; not n: with every point in the
support at C = 1e16 the problem kappa of (7) is ~ 1.4e21, above every other
row's top), run at the top C of the ladder in every variant and precision
(:func:`knob_rungs`; pcp/sr at sigma2 = 12, below).  Measured at n = 30 in
float64 (r = 8, 15, 24; certified kappa_inf of the formed system, or
``kappa_J`` for pcp/sr, which form only J of (27)), at sigma2 = 10:
pcp-lssvm / sr-lssvm kappa(J) = 7e3, 5e6, 7e14, problem kappa 3e2, 2e5,
7e12, model digits 12.7, 8.9, 1.2 (float32: the rank stops at 17, kappa(J)
<= 1e7, digits 3.7, -0.2, -1.2); reduced-lssvr kappa(H) 6e9, 2e18, 4e17,
problem kappa 8e4, 3e9, 4e17; rr-lssvr 3e7, 1e15, 1e18, problem kappa 5e3,
3e7, 3e10, digits 10.0, 2.5, 0.0; fs-lssvm problem kappa 2e2, 3e6, 2e13,
digits 13.0, 9.7, 1.3, and kappa_2 of its formed ridge matrix
Phi_c^T Phi_c + I/C (``diag_kappa_A``) 2.1e3, 6.0e6, 4.0e14.

Those three rungs left pcp/sr at problem kappa 6.9e12, fs at 2.1e13 and rr
at 1.3e14, under float64's 1/u (9e15).  The rung 0.9 n (27 at n = 30, C =
1e16; mp50, exact model certified to 31 - 41 digits) takes them past it: fs
3.6e16 (M = 28: 5.5e18), rr 3.9e17 (|S| = 28: 1.1e19), pcp/sr 1.9e16 at
sigma2 = 10 (r = 28: 1.3e18), 1.7 decades under the widest row, so pcp/sr
run their rungs at sigma2 = 12: problem kappa 2.7e2, 7.2e5, 1.5e14, 3.9e17.
The hardware precisions choose less there, which the grid shows as their
cells: at sigma2 = 12 float64's pivoted Cholesky stops at rank 25 on r = 27
(1.6e15), float32's at 16 from r = 24 on, float64 model digits 13.1, 7.6,
-0.7, -2.3; rr-lssvr's greedy selection stops at |S| = 20 (float64) and 21
(longdouble), every further candidate skipped by its Schur guard; fs-lssvm
breaks down in float64 at M = 27.

The range of every row (:func:`~.digits_grid.row_ranges`), measured on the
default report: the widest row is rr-lssvr[update=bordered-inverse] (8.6e17,
its greedy choices differ on the 0.9 n rung), then lssvm-kkt (5.1e17); every
other row tops out within 1.5 decades of it (fs-lssvm lowest, 3.6e16), but
op-lssvm[ranking=bordered-inverse] (4.5e14, '‡'): at k_max = 27 its MRSR keeps
9 (float32), 16 (float64, longdouble) and 24 (mp50) columns (``diag_k_star``,
``LadderKnob.chosen``), so no k_max takes it further.

op-lssvm's printed ``ranking`` / ``press`` forms choose k* by their own
PRESS, which keeps kappa_2(D_*) near 1e5 on every C (k* = 10 from C = 1e7
up, float64), so op-lssvm declares k as its knob: ``k_max`` at 0.25 n, 0.5 n and 0.9 n with
``k_rule = "fixed"`` (k* = k_max kept columns).  Measured at C = 1e16
(n = 30, k = 8, 15, 27): kappa_2(D_*) = 1.1e4, 4.2e7, 6.1e16 in float64
(MRSR stops at 26 columns; float32 at 18, kappa 4.6e10); float64 model
digits 13.8, 9.3 and not certified at the top (lstsq), 8.6, 1.7 and a
Cholesky breakdown (``solve = normal-equations``), 13.1, 9.4 and a QR
breakdown (``press = normal-equations``: at a fixed k its PRESS curve
chooses nothing, and the breakdown is its final solve's, a fresh
Householder QR with a rank test where the default form reuses the CGS2
factor of its PRESS curve); the printed ``ranking = bordered-inverse``
stops MRSR at 16 columns (kappa 2.4e7, 9.7 digits: it fails by choosing
fewer columns, which model digits do not count); float32 lstsq 3.9, 0.6,
0.0.  ip-lssvm needs no knob: C already drives its
kappa_2(D_*) to 9.8e16 (27 of 30 columns kept at the paper's p = 0.1), and
a larger pruned fraction keeps a subset of those columns, which cannot raise
kappa_2 (interlacing).

Near-duplicate points are a data knob (``LadderKnob(dataset=True)``): the
ladder's generators take ``near_duplicates = delta`` (every odd training
point is the even one before it moved by delta, drawn from the task's
seed; :func:`~lssvm_analysis.datasets.add_near_duplicates`), and its rungs
run at the bottom C, where C drives least.  They drive the problem kappa
only where a formulation forms a few points it did not choose by looking
at them.  Measured in float64 (default configurations, C = 10 and 1e16,
delta = 1e-2, 1e-4, 1e-6, against no duplicates): the dense LS-SVM family
stays at problem kappa 2e2 - 6.2e2 at C = 10 for every delta (kappa(K + I/C)
<= 1 + C lambda_max(K), whatever the points); els-primal / els-dual at 67 -
92 at C = 10 (the same ridge bound) and 1.3e9 - 1.6e9 at C = 1e16 against
1.7e9 (the threshold drops a copy whose pivot root ~ 1.4 delta /
sqrt(sigma2) is under eta = 1e-3, and a kept one adds a direction no worse
than the smooth kernel's own); pcp-, sr- and fs-lssvm at 3.1 - 3.3 (one greedy
pivot or prototype, never a copy); rr-lssvr's greedy selection 1e5, 1e7,
then 2.5e2 at delta = 1e-6 (its tol stops it before the copy adds
anything), against 1.1e4; op-lssvm's PRESS k* at C = 1e16 5.2e5, 5.5e7,
8e10 against 4.1e13.  reduced-lssvr's random support does not look: at the
seed's support {0, 16, 17} (3 of 30, a pair) delta = 1e-2, 1e-4, 1e-6, 1e-8
give problem kappa 1.5e3, 1.5e5, 1.5e7, 1.5e9 (~ 15 / delta) and formed
kappa(H) 2.3e6, 2.3e10, 2.3e14, 7.5e16 (2.3e18 in mp50) at C = 10, float64
model digits 12.4, 8.1, 4.3, 0.0 (lstsq: the kappa^2 ||r|| term of a
least-squares error) and 10.1, 5.9, 1.8, 0.0 (``ridge = literal``): so
reduced-lssvr alone declares it.  These rungs are where its stable lstsq
form fails in float64 (0.03 digits at kappa(M) = 1.5e9; longdouble 4.0):
at C = 10 the model does not interpolate, and the kappa^2 u tan(theta) term
of every least-squares solution, which QR does not remove, then dominates;
on the C ladder it held to 3e9.

Abe's LS SVRs (els-primal, els-dual) stop at problem kappa 1.7e9 on the C
ladder: their problem is a ridge least squares on the empirical features,
[H 1; I/sqrt(C) 0] with H = K(X, X_S) (``abe.exact_els_model``), whose kappa
is ~ ||H|| sqrt(C) (kappa(K + I/C) grows as C) and at most kappa(H), which
Abe's eta bounds.  eta alone moves it < 2x: at C = 1e16 (mp50), eta = 1e-3,
1e-5, 1e-7, 1e-9 select 23, 28, 29, 30 points and give 1.7e9 to 2.2e9 (the
formed kappa 7.7e17 to 1.4e18); near-duplicates give 1.3e9 - 1.6e9 (above).
So their knob is C itself past the ladder's top, at eta = 1e-9
(``abe.C_LADDER``): C = 1e20, 1e24, 1e28, 1e32 give problem kappa 2.3e11,
2.3e13, 2.6e15, 2.2e17 (mp50, exact model certified to 34 - 41 digits; the
same for every els row), where eta = 1e-3 stops at 9.9e12 (kappa(H), 23
points) from C = 1e28 on.  float32, float64 and longdouble break down on
these rungs, which take the mp50 fit's problem kappa (``rung_conditions``).

The papers' other parameters are not knobs, each for a measured reason.
Chen & Zhou's m lambda is 1/C (R-LSSVM,
W-LSSVM, the J of (27)): the C ladder is its ladder (problem kappa to
5.1e17).  Zhao & Sun's ridge 1e-8 I is a fallback the ``literal`` and
``relative-ridge`` forms add after a Cholesky breakdown, not a parameter of
the problem (its exact model has none); the formed H already reaches 1.9e18
through C and n_support.

The problem kappa on these rungs is still one number per data set,
hyper-parameters (C, sigma2, the knob) and frozen discrete choices, the same
for every formulation of the solver: the certified kappa_2 of the
least-squares matrix of Zhao & Sun's (7) on the support the fit chose (the
pivots, the prototypes, the random or greedy set), which every variant of a
solver shares except where its arithmetic changes the choice (the pivoted
Cholesky's rank stop in float32, recorded in ``diag_rank`` and
``choices_agree``; rr-lssvr's ``update`` variants, whose greedy choices
differ).  A fit without a model sits at its rung's problem kappa, and a rung
whose exact model is certified to fewer than 3 digits is not measured
(:mod:`.digits_grid`).

Where the grid still shows no failure in float64, and why (default profile):
the least-squares families' exact models (formed as normal equations from
a double-double kernel, ~ 29 - 2 log10 kappa certified digits) are formed
again in arb balls when that is too few (precision escalation,
:func:`~lssvm_analysis.analysis.model_error.fit_exact_model`), so every
rung of the ladder is certified (none "not certified" on the C ladder and
the n_support rungs, against 19 rows before; measured before the k knob
was added) and the stable float64 forms are seen failing: reduced-lssvr
(lstsq) keeps >= 3 digits to problem kappa 3e9 and has 0.0 at the next rung
(4e17), op-lssvm to 4e13 (2.7 digits at 1.7e14; on its k knob 9.4 at
k = 15, 4.3e7, and 0.5 at k = 27, 6.1e16, certified to 41), ip-lssvm to 2e11
(2.7 at 1.8e14, 1.4 at 5e16); in longdouble op-lssvm holds on the whole C
ladder (1e17) and ip-lssvm to 2e14.  op-lssvm's printed ``ranking`` / ``press``
forms choose k* by their own PRESS and stay at problem kappa ~ 1e5 on every
C of the C ladder (its k knob takes them to 4.2e7 and to a breakdown at
6.1e16).  The LIBSVM baselines have no exact model.

The page opens with the grid (:mod:`.digits_grid`): rows solver[variant],
printed beside stable; columns precisions; each cell the largest problem
kappa up to which the model keeps >= 3 correct digits against the exact
model, or the kappa where it breaks down.  Under it: one sentence per paper
and one per fragile formula (how many digits the printed form loses, from
which kappa); then model digits against the problem's kappa, one panel per
solver.  The long table per configuration and precision is a CSV in the
appendix section of this module.  Nothing here names a solver or a
precision: both come from the registries.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from ..arith.precision import precisions
from ..experiments import SweepSpec
from ..solvers import LadderKnob, get_solver, solvers
from . import digits_grid as dg
from .digits_grid_render import grid_figure, grid_ref, unmeasured_rows
from .util import config_label, errors_note, num, ok
from .figures import (breakdown_style, fmt_num, log_axes, mark_failures, overlay_width, panel_grid, panel_title,
                      place_legends, precision_rank, precision_style, save_figure,
                      save_table)
from .html import Link, Section
from .registry import register_section

__all__ = ["DigitsSettings", "SETTINGS", "plan", "grid_figure", "grid_ref", "formation_sentence", "unmeasured_rows", "knob_rungs", "render", "render_appendix", "with_settings",
           "ladder_rows", "records_of", "variant_specs"]


@dataclass(frozen=True)
class DigitsSettings:
    """Sizes of the kappa ladder for one profile.

    ``n``: training points of sinc (regression-first solvers) and Ripley's
    mixture (the others); ``sigma2``, ``C``: the ladder; ``precisions`` and
    ``solvers``: None for every registered one (tests restrict them).
    """

    n: int = 30
    sigma2: float = 10.0
    # 1.5 decades of C a rung (kappa ~ 10 C on sinc): adjacent precisions separate where theory puts
    # them apart (longdouble's u is 2^-11 of float64's: 3.3 decades of kappa for a kappa*u loss, 1.7 for
    # kappa^2*u; 3-decade rungs could not tell float64 from longdouble there)
    C: tuple = tuple(float(10.0 ** (1 + 1.5 * k)) for k in range(11))
    precisions: tuple | None = None
    solvers: tuple | None = None


SETTINGS = {
    # n = 16 at sigma2 = 10 saturates at kappa(K) ~ 3e11 (lambda_min 1.8e-11), short of float64's
    # limit; sigma2 = 30 puts lambda_min(K) at 9e-17 (sinc, seed 0), so the quick ladder crosses it too
    "quick": DigitsSettings(n=16, sigma2=30.0, C=(1e1, 1e8, 1e16), precisions=tuple(precisions(hardware=True))),
    "default": DigitsSettings(),
    "full": DigitsSettings(n=60, C=tuple(10.0 ** k for k in range(0, 18))),
}


def with_settings(profile: str, **kw) -> DigitsSettings:
    """A copy of a profile's settings with some fields replaced (tests use tiny settings)."""
    return replace(SETTINGS[profile], **kw)


def _names(P: DigitsSettings) -> list[str]:
    return list(P.solvers or solvers())


def variant_specs(key: str, name: str, names, values: dict, **spec_kw) -> dict[str, SweepSpec]:
    """Fit sweeps running each solver's variants one option at a time, not their product.

    ``{key: defaults, f"{key}-{option}": the option's other values}``: the
    first spec runs every solver of ``names`` in its default configuration,
    each further one the solvers taking ``option`` with its non-default
    values (the fit kind keeps, per solver, only the values it has).  Every
    spec's grid holds the ``values`` that one of its solvers takes.  The
    product of every option (24 configurations of sr-lssvm) would multiply
    the cost without adding a printed/stable pair.

    Parameters
    ----------
    key, name : str
        The records' key prefix and the specs' name prefix.
    names : list of str
        Registered solvers.
    values : dict
        Grid values (C, sigma2, eta, ...).
    **spec_kw
        ``precisions``, ``datasets``, ``options`` ... of every SweepSpec.
    """
    def spec(suffix, members, extra):
        taken = {k for n in members for k in get_solver(n).params}
        grid = {k: list(v) for k, v in values.items() if k in taken}
        return SweepSpec(f"{name}{suffix}", kind="fit", solvers=members, grid={**grid, **extra}, **spec_kw)

    specs = {key: spec("", list(names), {})}
    options: dict[str, dict[str, list]] = {}
    for n in names:
        for opt, vs in get_solver(n).variant_options().items():
            options.setdefault(opt, {})[n] = [v.value for v in vs[1:]]
    for opt, by_solver in options.items():
        members = [n for n, vals in by_solver.items() if vals]
        if members:
            specs[f"{key}-{opt}"] = spec(f"-{opt}", members,
                                         {opt: list(dict.fromkeys(v for n in members for v in by_solver[n]))})
    return specs


def knob_rungs(P: DigitsSettings) -> list[tuple[str, LadderKnob, dict]]:
    """Every declared knob of the ladder: ``(solver, knob, grid)`` with the grid of its rungs.

    A solver's ``SolverInfo.ladder`` names the keyword that drives the
    condition of what it forms where C alone does not; its rungs run at the
    top C of the C ladder (where the C-driven part is largest), with the
    knob's fixed keywords.  A data knob's (``knob.dataset``) run at the
    bottom C, where C drives least; its values, under ``knob.param`` in the
    grid, are data set keywords (:func:`plan` moves them there).  A knob on
    C itself gives the C of its rungs.
    """
    out = []
    for name in _names(P):
        for knob in get_solver(name).ladder:
            grid = {"C": [min(P.C) if knob.dataset else max(P.C)], "sigma2": [P.sigma2]}
            grid |= {knob.param: knob.rungs(P.n), **{k: [v] for k, v in knob.fixed.items()}}
            out.append((name, knob, grid))
    return out


def plan(profile: str, run) -> dict:
    """The ladder: the C ladder of every solver, then each declared knob's rungs (module docstring).

    One spec per variant option (values one at a time) for the C ladder and
    for each solver's knob (a knob's grid holds keywords only its solver
    takes, e.g. rr-lssvr's tol = 0, so its specs hold that solver alone).
    """
    P = SETTINGS[profile]
    kw = dict(precisions=list(P.precisions or precisions()),
              datasets=[("sinc", {"n_train": P.n, "n_test": 100}),
                        ("ripley-mixture", {"n_train": P.n, "n_test": 100})],
              options={"first_task_only": True})
    specs = variant_specs("ladder", f"{profile}-digits-ladder", _names(P),
                          {"C": P.C, "sigma2": [P.sigma2], "eta": [1e-3]}, **kw)
    for name, knob, grid in knob_rungs(P):
        knob_kw = kw
        if knob.dataset:  # a data knob: one data set entry per rung, the value among its keywords
            values = grid.pop(knob.param)
            knob_kw = {**kw, "datasets": [(d, {**dkw, knob.param: v}) for d, dkw in kw["datasets"] for v in values]}
        specs.update(variant_specs(f"ladder-{knob.param}-{name}", f"{profile}-digits-ladder-{knob.param}-{name}",
                                   [name], grid, **knob_kw))
    return specs


def records_of(records: dict, key: str) -> pd.DataFrame:
    """The records of ``key`` and of its per-option specs (``key-<option>``) in one frame."""
    frames = [df for k, df in records.items() if (k == key or k.startswith(f"{key}-")) and len(df)]
    return pd.concat(frames, ignore_index=True, sort=False) if frames else pd.DataFrame()


def ladder_rows(records: dict) -> pd.DataFrame:
    """Every ladder record of the section in one frame."""
    return records_of(records, "ladder")


def formation_sentence(rows: pd.DataFrame, precision: str = "float64") -> str:
    """Where the model digits are limited by the kernel's formation, not by the solve: the configuration
    whose solve keeps most digits more than its model (solve digits against the system as formed,
    model digits against the exact model), with the figures of its top rungs."""
    need = {"solve_digits", dg.HEADLINE, dg.CONDITION}
    if not len(rows) or not need <= set(rows.columns):
        return ""
    r = rows[(rows.precision == precision) & (rows.status == "ok")].assign(_config=config_label)
    r = r.assign(_s=num(r, "solve_digits"), _m=num(r, dg.HEADLINE), _k=num(r, dg.CONDITION))
    r = r[np.isfinite(r._s) & np.isfinite(r._m) & np.isfinite(r._k)]
    if not len(r):
        return ""
    gap = (r._s - r._m).groupby(r._config).max()
    conf = gap.idxmax()
    if gap[conf] < 1.0:
        return (f"In {precision} every configuration's model keeps within 1 digit of its solve of the system "
                "as formed: the grid's limits are the formulations', not the kernel's formation.")
    g = r[r._config == conf].sort_values("_k").groupby("_k").median(numeric_only=True).tail(3)
    ks = " / ".join(dg.kappa_text(float(k)) for k in g.index)
    return (f"The model digits include the error of forming the kernel in the working precision, which no "
            f"solve can undo: {conf} in {precision} solves the system it formed to "
            f"{' / '.join(fmt_num(v, 3) for v in g._s)} digits but keeps "
            f"{' / '.join(fmt_num(v, 3) for v in g._m)} digits of the exact model at κ ≈ {ks}; where its "
            "printed partner's row differs by less than that gap, the gap is the formation's, not the formula's.")


def _paper_sentences(cells: pd.DataFrame, names) -> list[str]:
    out = []
    papers = list(dict.fromkeys(get_solver(n).paper for n in names))
    for paper in papers:
        g = cells[cells.solver.map(lambda s: get_solver(s).paper) == paper] if len(cells) else cells
        held = g[np.isfinite(num(g, "kappa_ok"))] if len(g) else g
        if not len(held):
            out.append(f"{paper}: not measured (no fit carries model digits against the exact model).")
            continue
        parts = []
        for prec in sorted(g.precision.unique(), key=precision_rank):
            h = held[held.precision == prec]
            if len(h):
                best = h.loc[num(h, "kappa_ok").idxmax()]
                parts.append(f"in {prec} {best.configuration} holds 3 digits furthest, to κ ≈ "
                             f"{dg.kappa_text(float(best.kappa_ok))}")
            else:
                parts.append(f"in {prec} no formulation keeps 3 digits on the first rung")
        out.append(f"{paper}: " + "; ".join(parts) + ".")
    return out


#: Line styles of the variants overlaid in one ladder panel (the default first): at most four.
_VARIANT_LINES = ("-", "--", ":", "-.")


def _ladder_panels(rows) -> list[tuple[str, list[str]]]:
    """(title, configurations) of each ladder panel: per solver its default beside at most three others.

    A solver with more variants than fit one panel gets several, each with its
    default as the reference curve (pcp-lssvm, sr-lssvm: 6-7 variants overlaid in
    one panel could not be told apart).
    """
    panels = []
    for name in dict.fromkeys(rows.solver):
        confs = list(dict.fromkeys(rows.loc[rows.solver == name, "_config"]))
        default = get_solver(name).configuration_label(get_solver(name).default_variant())
        first = default if default in confs else confs[0]
        others = [c for c in confs if c != first]
        per = len(_VARIANT_LINES) - 1
        chunks = [others[i:i + per] for i in range(0, len(others), per)] or [[]]
        for k, chunk in enumerate(chunks):
            panels.append((name + (f" ({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""), [first, *chunk]))
    return panels


def _ladder_figure(sec, out, rows):
    # the fits that returned no model, at their rung's κ (records without a status: none)
    failed = rows[(rows["status"] != "ok") & ~np.isfinite(num(rows, dg.HEADLINE))] if "status" in rows.columns \
        else rows.iloc[0:0]
    failed = failed.assign(_kappa=dg.rung_conditions(rows)[failed.index], _config=config_label(failed)) \
        if len(failed) else pd.DataFrame({"_kappa": [], "_config": [], "precision": []})
    rows = rows[np.isfinite(num(rows, dg.HEADLINE)) & np.isfinite(num(rows, dg.CONDITION))]
    if not len(rows):
        sec.note("No fit carries model digits against the exact model yet: the κ ladder is not drawn "
                 "(the solve digits of the system as formed are not a substitute: they cannot see "
                 "what a printed formula loses in forming it).")
        return
    rows = rows.assign(_config=config_label(rows))
    literal = {p["printed"] for p in dg.literal_pairs()}
    precs = sorted(rows.precision.unique(), key=precision_rank)
    panels = _ladder_panels(rows)
    fig, axs = panel_grid(len(panels), 3, width=4.0, height=3.6)
    n_failed = 0
    for a, (title, confs) in zip(axs, panels):
        name = title.split(" (")[0]
        handles = []
        for i, conf in enumerate(confs):
            # variant: line style (the default solid, at most four per panel); precision: its colour
            # and marker, as everywhere in the report.  Drawn in order, each variant thinner than the
            # one before, so a variant equal to an earlier one leaves the earlier one showing.
            ls = _VARIANT_LINES[i]
            for prec in precs:
                d = rows[(rows._config == conf) & (rows.precision == prec)].sort_values(dg.CONDITION)
                if len(d):
                    a.plot(num(d, dg.CONDITION), num(d, dg.HEADLINE), ls=ls, lw=overlay_width(i, len(confs)),
                           **precision_style(prec), label=f"{conf} {prec}")
            variant = conf.removeprefix(name).strip("[]") or "default"
            handles.append(Line2D([], [], ls=ls, lw=1.5, color="0.3",
                                  label=variant + (" (printed)" if conf in literal else "")))
        for prec in precs:  # on top of the curves, once per κ (the panel's variants share the rungs)
            k = failed[failed._config.isin(confs) & (failed.precision == prec)]._kappa
            n_failed += mark_failures(a, k.drop_duplicates(), prec)
        log_axes(a, y=False)
        a.minorticks_off()  # many decades: minor ticks are not readable, and cost layout time
        a.axhline(dg.DIGITS_OK, color="gray", lw=0.6)
        panel_title(a, title)
        a.set_xlabel("problem condition κ [–]")
        a.set_ylabel("model digits [–]")  # against the exact model (the caption): a shorter label fits one row
        a.legend(handles=handles, fontsize=8, handlelength=3)
    key = [Line2D([], [], ls="-", **precision_style(p), label=p) for p in precs]
    if n_failed:
        key.append(Line2D([], [], **{**breakdown_style(precs[0]), "color": "0.45", "mfc": "0.45"},
                          label="no model, at 0"))
    fig.legend(handles=key, loc="outside upper center", ncol=len(key), fontsize=9, title="precision (every panel)",
               title_fontsize=9)
    place_legends(fig, outside="below")
    sec.figure(save_figure(fig, rows.drop(columns=["_config"]), out, "digits-ladder",
                           "Model digits (against the exact model the data define) against the condition "
                           "of the problem (independent of the "
                           "formulation, so the variants of a solver share the axis): colour and marker = "
                           "precision (the key above the panels), line style = variant (the panel's legend; "
                           "'printed' marks the paper's literal formula); a solver with more than four "
                           "variants takes several panels, each with its default as the solid reference; "
                           "later variants drawn thinner over earlier ones; grey line: 3 digits; a cross at 0 "
                           "digits: the fit returned no model (breakdown, overflow, no convergence) at that "
                           "rung's κ."))


def _knob_text(P: DigitsSettings) -> str:
    """The reader's clause on the knob rungs, from the registry (empty without knobs)."""
    groups: dict[str, list[str]] = {}
    for name, knob, grid in knob_rungs(P):
        fixed = "".join(f", {k} = {fmt_num(v)}" for k, v in knob.fixed.items())
        values = ", ".join(fmt_num(v) for v in grid[knob.param])
        what = "the data set's" if knob.dataset else "the solver's"
        at = "" if knob.param == "C" else f" at C = {fmt_num(grid['C'][0])}"
        groups.setdefault(f"{what} {knob.param} = {values}{fixed}{at}", []).append(name)
    if not groups:
        return ""
    return ("; where C alone leaves what a solver forms well conditioned, a knob adds rungs: "
            + "; ".join(f"{', '.join(names)} with {rungs}" for rungs, names in groups.items()))


def _knob_notes(P: DigitsSettings) -> list[str]:
    """One sentence per declared knob: what it does to the formed system (the registry's note)."""
    notes: dict[str, list[str]] = {}
    for name, knob, _ in knob_rungs(P):
        notes.setdefault(knob.note, []).append(name)
    return [f"{', '.join(names)}: {note}." for note, names in notes.items() if note]


def _use_sentence(cells: pd.DataFrame, anchor: str) -> list:
    """The first screen's 'which formulation, in which precision, and where it breaks', from the grid:
    per precision the stable configuration that keeps ≥ 3 digits to the largest κ, with its bracket."""
    literal = {p["printed"] for p in dg.literal_pairs()}
    parts: list = ["Which formulation to use: "]
    precs = sorted(cells.precision.unique(), key=precision_rank)
    for i, prec in enumerate(precs):
        c = cells[(cells.precision == prec) & ~cells.configuration.isin(literal) & np.isfinite(num(cells, "kappa_ok"))]
        if not len(c):
            continue
        top = c[c.kappa_ok == c.kappa_ok.max()]
        best = top.iloc[0]
        lo, hi = dg.kappa_bracket(float(best.kappa_ok), float(best.fails_at))
        where = (f"no rung failed up to the ladder's top, κ ≈ {lo}" if best.whole else
                 f"≥ 3 digits to κ ≈ {lo}, " + ("not certified above" if not np.isfinite(best.fails_at) else
                                                f"{'breaks down' if best.fail_status == 'breakdown' else 'fails'}"
                                                f" at κ ≈ {hi}"))
        others = f" and {len(top) - 1} other{'s' if len(top) > 2 else ''}" if len(top) > 1 else ""
        parts.append(f"in {prec}, {best.configuration}{others} ({where})")
        parts.append("; " if i < len(precs) - 1 else "")
    parts += [" (", Link("the grid", f"#{anchor}"), ")."]
    return parts


def _loss_sentence(losses: pd.DataFrame, names, anchor: str) -> list:
    """The first screen's 'which printed formulas lose how many digits' (in float64 where measured)."""
    pairs = dg.literal_pairs(names)
    if not len(losses):
        return [f"The {len(pairs)} printed formulas have no matched fits with model digits yet."]
    prec = "float64" if (losses.precision == "float64").any() else str(losses.precision.iloc[0])
    g = losses[(losses.precision == prec) & np.isfinite(num(losses, "from_kappa"))].sort_values("loss",
                                                                                                 ascending=False)
    if not len(g):
        return [f"In {prec}, none of the {len(pairs)} printed formulas loses a digit against its stable partner."]
    named = [f"{r.printed} up to {fmt_num(r.loss, 2)} digits from κ ≈ {dg.kappa_text(float(r.from_kappa))}"
             for r in g.head(3).itertuples()]
    more = f", and {len(g) - 3} more" if len(g) > 3 else ""
    return [f"Printed formulas: in {prec}, {len(g)} of {len(pairs)} lose ≥ 1 digit against their stable partner: "
            f"{'; '.join(named)}{more} (", Link("each formula", f"#{anchor}"), ")."]


def render(sec: Section, out, records, profile: str) -> str:
    """The grid, one sentence per paper and per fragile formula, and the ladder; returns the verdict."""
    P = SETTINGS[profile]
    names = _names(P)
    rows = ok(ladder_rows(records))
    sec.p(f"How to read the grid: each cell is the largest condition number κ of the problem (one "
          f"number per data set and hyper-parameters, the same for every formulation) up to which the "
          f"model the solver returns keeps at least {dg.DIGITS_OK:.0f} correct digits against the exact "
          f"model the data define, on a ladder of C = {', '.join(fmt_num(c) for c in P.C)} at σ² = "
          f"{fmt_num(P.sigma2)} (sinc or Ripley's mixture, n = {P.n}){_knob_text(P)}; 'breaks down at "
          "κ ≈ …' when the first rung already fails. A printed (literal) formula sits right after its "
          "stable partner: the difference between the two rows is what the paper's formula costs.")
    for line in _knob_notes(P):
        sec.p(line)
    note = errors_note(ladder_rows(records), "the κ ladder")
    if note:
        sec.note(note)
    cells = dg.grid_cells(rows)
    if not len(cells):
        sec.note("No ladder records.")
        return "no κ-ladder records"
    shown, empty = unmeasured_rows(cells)
    table = dg.grid_table(shown, names)
    png = grid_figure(out, shown, table).png
    notes = [t for t in (formation_sentence(rows), empty, *dg.range_sentences(shown)) if t]
    sec.grid(grid_ref(shown, table, out, png, notes=notes))
    sec.h3("Per paper")
    for s in _paper_sentences(cells, names):
        sec.p(s)
    sec.h3("Each fragile formula, printed against stable")
    losses = dg.pair_losses(rows, names)
    for pair in dg.literal_pairs(names):
        sec.p(dg.loss_sentence(pair, losses))
    sec.answer += [(10, _use_sentence(shown, sec.anchor)), (20, _loss_sentence(losses, names, sec.anchor))]
    sec.h3("Model digits along the κ ladder")
    _ladder_figure(sec, out, rows)
    held = cells[np.isfinite(num(cells, "kappa_ok"))]
    if not len(held):
        return (f"not measured: none of the {len(cells)} grid cells has model digits against the exact "
                "model yet (the fit records carry only the solve error)")
    worse = losses[np.isfinite(num(losses, "from_kappa"))] if len(losses) else losses
    return (f"{len(held)} of {len(cells)} grid cells keep ≥ 3 digits on at least the first rung; "
            f"{len(set(worse.printed)) if len(worse) else 0} of {len(dg.literal_pairs(names))} printed "
            "formulas lose at least one digit against their stable partner somewhere on the ladder")


def render_appendix(sec: Section, out, records, profile: str) -> str:
    """The long table per configuration and precision, as a CSV with its table."""
    rows = ok(ladder_rows(records))
    if not len(rows):
        sec.note("No ladder records.")
        return "no κ-ladder records"
    cells = dg.grid_cells(rows)
    conf = config_label(rows)
    capped = (rows["model_digits_capped"].fillna(False).astype(bool) if "model_digits_capped" in rows.columns
              else pd.Series(False, index=rows.index))
    r = rows.assign(config=conf, model=num(rows, dg.HEADLINE), solve=num(rows, "solve_digits"), capped=capped)
    agg = (r.groupby(["config", "precision"]).agg(fits=("model", "size"), median_model_digits=("model", "median"),
                                                 at_exact_digits=("capped", "sum"),
                                                 median_solve_digits=("solve", "median")).reset_index())
    table = agg.merge(cells.rename(columns={"configuration": "config"})[["config", "precision", "kappa_ok",
                                                                         "breaks_at", "text"]],
                      on=["config", "precision"], how="left")
    table = table.sort_values(["config", "precision"], key=lambda s: s.map(precision_rank)
                              if s.name == "precision" else s)
    sec.table(save_table(
        table.rename(columns={"config": "solver [variant]"}), out, "digits-per-configuration",
        "Per solver configuration and precision along the κ ladder: fits, median model digits (against "
        "the exact model), how many fits agree with the exact model to all its certified digits "
        "(at_exact_digits: their model digits are that lower bound), median solve digits (against the "
        "system as formed), and the grid's cell."))
    return f"{len(table)} configuration × precision rows"


register_section("digits", title="Which formulation, in which precision", order=0, plan=plan, render=render)
register_section("digits-appendix", title="Appendix: digits per solver configuration and precision", order=110,
                 plan=plan, render=render_appendix)
