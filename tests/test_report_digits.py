"""In the report: breakdown maps that never count an unmeasured fit ok, and the first-screen grid.

The records are synthetic (the report reads records only), built with the
fit rows' contract: ``model_error``/``model_digits`` against the exact model,
``problem_condition``, and the solve-error columns.
"""
from __future__ import annotations

import mpmath
import numpy as np
import pandas as pd
import pytest

from lssvm_analysis import datasets, rbf_kernel
from lssvm_analysis.experiments.fit_kind import accepts_combination
from lssvm_analysis.report import digits_grid as dg
from lssvm_analysis.report import sections_digits as sd
from lssvm_analysis.report import sections_precision as sp
from lssvm_analysis.report.html import GRID_COLOURS, Section, contrast_ratio, render_page
from lssvm_analysis.solvers import get_solver, solvers

U32, U64 = 2.0 ** -24, 2.0 ** -53


def _map_rows(**cols) -> pd.DataFrame:
    base = {"status": ["ok", "ok", "ok", "breakdown"], "unit_roundoff": [U32] * 4,
            "solver": ["s"] * 4, "precision": ["float32"] * 4}
    return pd.DataFrame({**base, **cols})


def test_map_outcome_without_a_reference_is_not_measured_never_ok():
    rows = _map_rows(forward_error=[1e-6, 1e-2, np.nan, np.nan])
    assert list(sp.outcomes(rows)) == ["ok", "large-error", "not-measured", "breakdown"]


def test_map_outcome_prefers_the_model_error_to_the_solve_error():
    # the solve error says 'ok' where the model against the exact model lost every digit
    rows = _map_rows(model_error=[1e-6, 1.0, np.nan, np.nan], solve_error=[1e-6, 1e-7, 1e-7, np.nan])
    assert sp.map_error(rows)[0] == "model_error"
    assert list(sp.outcomes(rows)) == ["ok", "large-error", "not-measured", "breakdown"]


def test_map_outcome_of_a_capped_error_above_sqrt_u_is_not_measured():
    """A capped model error is the exact model's certified bound: within sqrt(u) the fit is ok,
    beyond it nothing is known (an mp50 fit against a 12-digit exact model), never large-error."""
    u50 = 10.0 ** -50
    rows = _map_rows(model_error=[1e-30, 1e-12, 1e-12, np.nan], model_digits_capped=[True, True, False, False],
                     unit_roundoff=[u50] * 4, precision=["mp50"] * 4)
    assert list(sp.outcomes(rows)) == ["ok", "not-measured", "large-error", "breakdown"]


# -- the grid ---------------------------------------------------------------------------------

KAPPAS = [1e2, 1e5, 1e8, 1e11, 1e14, 1e17]
U = {"float32": U32, "float64": U64}


def _fit_rows(config, solver, *, lost=0.0, breakdown_from=None, model=True):
    """Synthetic fit rows on the ladder: model digits = -log10(kappa u) - lost (the rule of thumb)."""
    out = []
    for prec, u in U.items():
        for i, k in enumerate(KAPPAS):
            status = "breakdown" if breakdown_from is not None and k >= breakdown_from else "ok"
            row = {"solver": solver, "configuration": config, "precision": prec, "status": status,
                   "dataset": "sinc", "seed": 0, "C": 10.0 ** i, "sigma2": 10.0, "problem_condition": k,
                   "solve_digits": 15.0}
            if model:
                row["model_digits"] = (min(-np.log10(k * u), -np.log10(u)) - lost if status == "ok"
                                       else np.nan)
            out.append(row)
    return out


def _records():
    rows = (_fit_rows("reduced-lssvr", "reduced-lssvr")
            + _fit_rows("reduced-lssvr[ridge=literal]", "reduced-lssvr", lost=6.0)
            + _fit_rows("reduced-lssvr[ridge=relative-ridge]", "reduced-lssvr", breakdown_from=1e11))
    return pd.DataFrame(rows)


def test_grid_cells_give_the_last_kappa_with_three_digits_or_where_it_breaks_down():
    cells = dg.grid_cells(_records()).set_index(["configuration", "precision"])
    # float32 (u = 6e-8): -log10(kappa u) >= 3 up to kappa = 1e2 (5.2 digits), not at 1e5 (2.2)
    assert cells.loc[("reduced-lssvr", "float32"), "kappa_ok"] == 1e2
    assert cells.loc[("reduced-lssvr", "float64"), "kappa_ok"] == 1e11  # 4.9 digits; 1e14: 1.9
    # printed form, 6 digits lost: float32 fails on the first rung, float64 holds to 1e8 (3.9 - ... );
    # the float32 fit returned a model with -0.78 digits: it did not break down, and the cell says so
    lit32 = cells.loc[("reduced-lssvr[ridge=literal]", "float32")]
    assert lit32.text == "< 3 digits at κ ≈ 1e+02 (-0.78)"
    assert lit32.fails_at == 1e2 and lit32.fail_status == "ok" and np.isnan(lit32.breaks_at)
    assert cells.loc[("reduced-lssvr[ridge=literal]", "float64"), "kappa_ok"] == 1e5
    # a breakdown rung ends the ladder even where the rule would still give digits; only a breakdown
    # record fills breaks_at, and only such a cell says "breaks down"
    rr = cells.loc[("reduced-lssvr[ridge=relative-ridge]", "float64")]
    assert rr.kappa_ok == 1e8 and rr.breaks_at == 1e11 and rr.text.endswith("breaks down at κ ≈ 1e+11")
    f64 = cells.loc[("reduced-lssvr", "float64")]
    assert np.isnan(f64.breaks_at) and f64.fails_at == 1e14 and "breaks down" not in f64.text
    assert not cells.whole.any()


def test_rows_that_carry_nothing_leave_the_grid_with_a_reason():
    """A configuration without model digits in any precision (no exact model: svm-c, svm-eps) is not
    a row of the grid; the sentence under it names it and says why."""
    cells = dg.grid_cells(_records())
    extra = cells.iloc[:2].assign(configuration="svm-c", solver="svm-c", text="not measured")
    shown, why = sd.unmeasured_rows(pd.concat([cells, extra], ignore_index=True))
    assert "svm-c" not in set(shown.configuration) and len(shown) == len(cells)
    assert why.startswith("Not in the grid: svm-c: no exact model")
    kept, none = sd.unmeasured_rows(cells)
    assert kept is cells and none == ""  # nothing to leave out: the cells as they are


def test_same_cells_of_adjacent_precisions_say_why():
    """Two precisions with the same cell: the later one names the reason (same rung, same breakdown,
    whole ladder), and cells that differ say nothing."""
    cells = pd.DataFrame([
        {"configuration": "a", "precision": "float64", "kappa_ok": 1e5, "fails_at": 1e8, "fail_status": "ok",
         "whole": False, "text": "x"},
        {"configuration": "a", "precision": "longdouble", "kappa_ok": 1e5, "fails_at": 1e8, "fail_status": "ok",
         "whole": False, "text": "x"},
        {"configuration": "b", "precision": "float32", "kappa_ok": np.nan, "fails_at": 1e2,
         "fail_status": "breakdown", "whole": False, "text": "y"},
        {"configuration": "b", "precision": "float64", "kappa_ok": np.nan, "fails_at": 1e2,
         "fail_status": "breakdown", "whole": False, "text": "y"},
        {"configuration": "c", "precision": "float64", "kappa_ok": 1e16, "fails_at": np.nan, "fail_status": "",
         "whole": True, "text": "z"},
        {"configuration": "c", "precision": "mp50", "kappa_ok": 1e16, "fails_at": np.nan, "fail_status": "",
         "whole": True, "text": "z"},
        {"configuration": "d", "precision": "float64", "kappa_ok": 1e5, "fails_at": 1e8, "fail_status": "ok",
         "whole": False, "text": "w"},
        {"configuration": "d", "precision": "longdouble", "kappa_ok": 1e8, "fails_at": 1e11,
         "fail_status": "ok", "whole": False, "text": "v"}])
    notes = dg.same_cell_notes(cells).tolist()
    assert notes[0] == "" and "same rung" in notes[1] and "too coarse" in notes[1]
    assert "same breakdown rung" in notes[3] and "every rung" in notes[5]
    assert notes[6] == notes[7] == ""


def test_the_grid_is_an_html_table_with_its_legend_first(tmp_path):
    """The grid renders as a <table class="grid"> with the legend before it, text at body size, and
    every colour pair of the legend readable (WCAG contrast >= 4.5:1; the palette gives >= 7)."""
    cells = dg.grid_cells(_records())
    ref = sd.grid_ref(cells, dg.grid_table(cells, ["reduced-lssvr"]), tmp_path)
    sec = Section("1. Grid", "digits")
    sec.grid(ref)
    page = render_page("t", [sec])
    assert page.index('<ul class="legend"') < page.index('<table class="grid">')
    assert "✗ &lt; 3 digits at κ ≈ 1e+02 (-0.78)" in page  # the printed float32 cell: no breakdown claimed
    # reduced-lssvr float64 passes 1e11 with 4.95 digits, fails 1e14 with 1.95: both ends as text
    assert "to κ ≈ 1e+11: 5.0 digits, −1.0/decade<small>✗ at κ ≈ 1e+14: 2.0 digits</small>" in page
    assert 'class="g-c0"' in page and 'class="g-c4"' in page  # rung 1 fails; κ 1e11 in [1e9, 1e12)
    assert "float32<small>u = 6.0e-08</small>" in page  # u per column
    for bg, fg, _ in GRID_COLOURS.values():
        assert contrast_ratio(bg, fg) >= 7.0, (bg, fg)
    assert contrast_ratio("#ffffff", "#000000") == pytest.approx(21.0)
    assert pd.read_csv(tmp_path / "digits-grid.csv").fails_at.notna().any()


def test_grid_table_puts_the_printed_form_after_its_stable_partner_and_marks_it():
    table = dg.grid_table(dg.grid_cells(_records()), ["reduced-lssvr"])
    assert list(table.columns) == ["solver [variant]", "float32", "float64"]
    labels = list(table["solver [variant]"])
    assert labels == ["reduced-lssvr", "reduced-lssvr[ridge=relative-ridge]",
                      "reduced-lssvr[ridge=literal] (printed)"]


def test_pair_losses_say_how_many_digits_the_printed_form_loses_and_from_which_kappa():
    losses = dg.pair_losses(_records(), ["reduced-lssvr"]).set_index("precision")
    assert losses.loc["float64", "loss"] == pytest.approx(6.0)
    assert losses.loc["float64", "from_kappa"] == 1e2
    pair = next(p for p in dg.literal_pairs(["reduced-lssvr"]) if p["literal"] == "literal")
    sentence = dg.loss_sentence(pair, dg.pair_losses(_records(), ["reduced-lssvr"]))
    assert "float64: loses up to 6 digits from κ ≈ 1e+02" in sentence


def test_pair_sentence_gives_the_rank_each_form_reached_where_the_fits_record_one():
    rows = _records()
    assert "rank reached" not in dg.loss_sentence(
        next(p for p in dg.literal_pairs(["reduced-lssvr"]) if p["literal"] == "literal"),
        dg.pair_losses(rows, ["reduced-lssvr"]))
    # a pivoted Cholesky's rank: larger in float64 than in float32, larger printed than stable
    rank = {("reduced-lssvr", "float32"): 17, ("reduced-lssvr", "float64"): 30,
            ("reduced-lssvr[ridge=literal]", "float32"): 20, ("reduced-lssvr[ridge=literal]", "float64"): 32}
    rows = rows.assign(diag_rank=[rank.get((c, p), np.nan) for c, p in zip(rows.configuration, rows.precision)])
    pair = next(p for p in dg.literal_pairs(["reduced-lssvr"]) if p["literal"] == "literal")
    sentence = dg.loss_sentence(pair, dg.pair_losses(rows, ["reduced-lssvr"]))
    assert "float32: loses up to 6 digits from κ ≈ 1e+02, rank reached 17 (stable) and 20 (printed)" in sentence
    assert "rank reached 30 (stable) and 32 (printed)" in sentence
    same = rows.assign(diag_rank=4)  # one rank everywhere: said once
    sentence = dg.loss_sentence(pair, dg.pair_losses(same, ["reduced-lssvr"]))
    assert sentence.endswith("(rank reached: 4 in every precision, both forms).")
    assert sentence.count("rank reached") == 1


def test_without_model_digits_every_cell_is_not_measured_never_the_solve_digits():
    rows = pd.DataFrame(_fit_rows("reduced-lssvr", "reduced-lssvr", model=False))
    rows["correct_digits"] = 15.0  # the old metric must not leak into the grid
    cells = dg.grid_cells(rows)
    assert set(cells.text) == {"not measured"}
    assert dg.pair_losses(rows).empty


def test_every_literal_variant_of_the_registry_has_a_stable_partner_in_the_grid():
    pairs = {(p["solver"], p["option"], p["literal"]) for p in dg.literal_pairs()}
    for name in solvers():
        for v in get_solver(name).variants:
            if v.literal and any(not w.literal for w in get_solver(name).variants if w.option == v.option):
                assert (name, v.option, v.value) in pairs
    for name in solvers():  # the ladder runs every variant value, one option at a time
        configs = dg.ladder_configurations(name)
        for v in get_solver(name).variants:
            assert any(c[v.option] == v.value for c in configs)


def test_render_writes_the_grid_and_says_not_measured_without_model_digits(tmp_path):
    with_model = {"ladder": _records()}
    sec = Section("t", "t")
    verdict = sd.render(sec, tmp_path, with_model, "quick")
    assert (tmp_path / "digits-grid.png").is_file() and (tmp_path / "digits-ladder.png").is_file()
    assert "grid cells keep" in verdict
    text = " ".join(b for k, b in sec.blocks if k == "p")
    assert "zhao-sun: in float32 reduced-lssvr" in text
    bare = {"ladder": pd.DataFrame(_fit_rows("reduced-lssvr", "reduced-lssvr", model=False))}
    assert sd.render(Section("t", "t"), tmp_path, bare, "quick").startswith("not measured")


@pytest.mark.parametrize("profile", ["quick", "default"])
def test_the_ladder_plan_runs_every_solver_variant_and_precision_and_crosses_float64(profile):
    specs = sd.plan(profile, None)
    tasks = [t for s in specs.values() for t in s.tasks() if accepts_combination(t)]
    seen = {(t.solver, opt, t.params.get(opt, get_solver(t.solver).default_variant()[opt]))
            for t in tasks for opt in get_solver(t.solver).variant_options()}
    for name in solvers():
        info = get_solver(name)
        if info.required:  # e.g. pruning's validation set: no grid value can give it
            continue
        assert {t.precision for t in tasks if t.solver == name} == (
            set(info.supported_precisions()) & set(sd.SETTINGS[profile].precisions or info.supported_precisions()))
        for v in info.variants:
            assert (name, v.option, v.value) in seen
    # kappa(K + I/C) ~ lambda_max C on sinc (lambda_max ~ 10, lambda_min ~ 2e-24 at n = 30, sigma2 = 10;
    # ~ 9e-17 at n = 16, sigma2 = 30): the top rung must pass 1/u of float64, the bottom one stay near 1e2
    P = sd.SETTINGS[profile]
    X = datasets.load("sinc", seed=0, n_train=P.n, n_test=100).X_train
    with mpmath.workdps(50):
        K = rbf_kernel(X, X, sigma2=P.sigma2, precision="mp50")
        ev = sorted(mpmath.eigsy(mpmath.matrix(K.tolist()))[0])
        kappa = [float((ev[-1] + 1 / mpmath.mpf(C)) / (ev[0] + 1 / mpmath.mpf(C))) for C in (min(P.C), max(P.C))]
    assert kappa[0] <= 1e3 and kappa[1] > 1 / U64


# -- the knobs of the ladder (SolverInfo.ladder) ---------------------------------------------------

def test_the_quick_ladder_runs_every_knob_rung_in_every_variant_and_precision():
    """Every declared knob's rungs, for every configuration of its solver, in every precision."""
    P = sd.SETTINGS["quick"]
    tasks = [t for s in sd.plan("quick", None).values() for t in s.tasks() if accepts_combination(t)]
    knobs = 0
    for name in solvers():
        info = get_solver(name)
        for knob in info.ladder:
            knobs += 1
            for config in dg.ladder_configurations(name):
                for prec in set(P.precisions or info.supported_precisions()) & set(info.supported_precisions()):
                    for value in knob.rungs(P.n):
                        # a data knob's value is a keyword of the data set, its rungs at the bottom C; a knob
                        # on C itself sets the C of its rungs
                        where = (lambda t: t.dataset_kw) if knob.dataset else (lambda t: t.params)
                        C = value if knob.param == "C" else min(P.C) if knob.dataset else max(P.C)
                        assert any(t.solver == name and t.precision == prec and where(t).get(knob.param) == value
                                   and t.params["C"] == C
                                   and all(t.params.get(k) == v for k, v in knob.fixed.items())
                                   and all(t.params.get(o, info.default_variant()[o]) == v for o, v in config.items())
                                   for t in tasks), (name, config, prec, knob.param, value)
    assert knobs  # the support-set families declare one (a registry without knobs would pass vacuously)


def test_a_knob_rung_is_matched_with_its_own_rung_in_the_printed_stable_pairs():
    rows = pd.DataFrame([{"solver": "pcp-lssvm", "configuration": c, "precision": "float64", "status": "ok",
                          "dataset": "sinc", "seed": 0, "C": 1e16, "sigma2": 10.0, "n_support": r,
                          "problem_condition": 10.0 ** r, "model_digits": d}
                         for c, r, d in (("pcp-lssvm", 4, 12.0), ("pcp-lssvm", 8, 9.0),
                                         ("pcp-lssvm[j_form=literal]", 4, 10.0),
                                         ("pcp-lssvm[j_form=literal]", 8, 2.0))])
    losses = dg.pair_losses(rows, ["pcp-lssvm"]).set_index("printed")
    # matched on n_support: 2 pairs, losses 2 and 7 digits (not the 4 cross pairs, whose max would be 10)
    assert losses.loc["pcp-lssvm[j_form=literal]", "matched"] == 2
    assert losses.loc["pcp-lssvm[j_form=literal]", "loss"] == pytest.approx(7.0)


def test_the_pivot_count_knob_raises_the_condition_of_j_monotonically():
    """pcp/sr-lssvm's knob r: kappa_2(J) of the formed J = m lambda I + P_c^T P_c cannot fall as r grows.

    Theory: the greedy pivots are nested (the first r columns of P do not
    depend on the cap), so the exact J_r is the leading r x r block of J_r'
    (r < r') and, by Cauchy interlacing, lambda_min(J_r') <= lambda_min(J_r)
    and lambda_max(J_r') >= lambda_max(J_r).  The formed J~ = J + E with
    |E_ij| <= gamma_m (|P_c|^T |P_c|)_ij (one dot product of length m per
    entry, Higham (3.5)), so ||E||_2 <= ||E||_F <= gamma_m ||P_c||_F^2 =: e,
    and by Weyl the formed blocks obey
    lambda~_min(J_r') <= lambda~_min(J_r) + 2e and
    lambda~_max(J_r') >= lambda~_max(J_r) - 2e, hence
    kappa_2(J~_r') >= (lambda~_max(J_r) - 2e) / (lambda~_min(J_r) + 2e) (the
    formed J~ may be indefinite at the top rung, whose exact smallest
    eigenvalue m lambda = 1/C lies below e).  The eigenvalues of the formed (float64) matrices are computed in
    mpmath at 50 digits, so they add no error of their own.
    """
    from lssvm_analysis.solvers._common import validate_xy
    from lssvm_analysis.solvers.chen_zhou import form_j
    from lssvm_analysis.solvers.pivoted_factor import factor

    knob = get_solver("pcp-lssvm").ladder[0]
    assert get_solver("sr-lssvm").ladder == get_solver("pcp-lssvm").ladder  # one knob, one J
    n, C = 16, 1e16  # the quick profile's n
    ds = datasets.load("sinc", seed=0, n_train=n, n_test=10)
    X, _, kern, p = validate_xy(ds.X_train, ds.y_train, C=C, sigma2=10.0, precision="float64")
    gamma_m = n * U64 / (1 - n * U64)
    spectra, factors = [], []
    for r in knob.rungs(n):
        sel, _ = factor(X, kern, p, r, None, "relative")
        G = np.array(sel.G)
        J, Pc, _ = form_j(G.copy(), p.reciprocal(C), p, "centered")
        with mpmath.workdps(50):
            ev = [float(v) for v in mpmath.eigsy(mpmath.matrix(J.tolist()))[0]]
        spectra.append((min(ev), max(ev), min(map(abs, ev)), gamma_m * float(np.sum(Pc * Pc))))
        factors.append(G)
    for (G, G2) in zip(factors, factors[1:]):
        np.testing.assert_array_equal(G2[:, :G.shape[1]], G)  # nested pivots: the premise of interlacing
    kappas = [hi / small for _, hi, small, _ in spectra]  # kappa_2 = max |lambda| / min |lambda|
    for (lo, hi, _, e), (lo2, hi2, small2, e2) in zip(spectra, spectra[1:]):
        e = max(e, e2)
        assert lo2 <= lo + 2 * e and hi2 >= hi - 2 * e
        # the exact J_r' is SPD (m lambda > 0), so lambda~_min(J_r') >= -e: min |lambda~| <= lo + 2e
        assert hi2 / small2 >= (hi - 2 * e) / (lo + 2 * e)
    # the knob's purpose: its top rung passes float32's 1/u, its bottom one does not
    assert kappas[-1] > 1 / U32 and kappas[0] < 1 / U32


def test_a_breakdown_without_its_own_kappa_ends_the_cell_at_its_rung():
    """A fit without a model has no exact model: it sits at its rung's problem kappa (the other fits')."""
    rows = pd.DataFrame(_fit_rows("krr", "krr"))
    top = rows.C == rows.C.max()
    rows.loc[top & (rows.precision == "float64"), ["status", "model_digits", "problem_condition"]] = \
        ["breakdown", np.nan, np.nan]
    rows.loc[top & (rows.precision == "float32"), "model_digits"] = 1.0  # measured, keeps its kappa 1e17
    cells = dg.grid_cells(rows).set_index(["configuration", "precision"])
    assert dg.rung_conditions(rows)[top].tolist() == [1e17, 1e17]
    # float64: 1.9 digits at 1e14 already fails; the breakdown rung (kappa 1e17 from float32) is after it
    assert cells.loc[("krr", "float64"), "kappa_ok"] == 1e11
    assert cells.loc[("krr", "float64"), "rungs"] == len(KAPPAS)  # the breakdown rung is counted, not dropped


def test_a_fit_agreeing_with_an_exact_model_certified_below_three_digits_is_not_measured():
    rows = pd.DataFrame(_fit_rows("reduced-lssvr", "reduced-lssvr"))
    rows["exact_digits"], rows["model_digits_capped"] = 30.0, False
    top = (rows.problem_condition >= 1e14) & (rows.precision == "float64")
    # the exact model of the top rungs certifies 2 digits and the fit agrees to both: unknown
    rows.loc[top, ["exact_digits", "model_digits", "model_digits_capped"]] = [2.0, 2.0, True]
    cells = dg.grid_cells(rows).set_index(["configuration", "precision"])
    assert cells.loc[("reduced-lssvr", "float64"), "kappa_ok"] == 1e11
    assert cells.loc[("reduced-lssvr", "float64"), "text"].endswith(dg.UNCERTIFIED_TAIL)
    assert not cells.loc[("reduced-lssvr", "float64"), "whole"]  # the rungs above are not known to hold
    # a fit that differs from that exact model by more than its 2 certified digits is a measured failure
    rows.loc[top, ["model_digits", "model_digits_capped"]] = [1.0, False]
    cells = dg.grid_cells(rows).set_index(["configuration", "precision"])
    assert cells.loc[("reduced-lssvr", "float64"), "fails_at"] == 1e14  # a measured failure, not a breakdown


def test_a_top_rung_where_every_fit_breaks_down_ends_the_cell():
    """No fit of the top C has a problem kappa: the breakdowns sit above every measured rung."""
    rows = pd.DataFrame(_fit_rows("krr", "krr", breakdown_from=KAPPAS[-1]))
    rows.loc[rows.status == "breakdown", "problem_condition"] = np.nan
    assert np.isinf(dg.rung_conditions(rows)[rows.status == "breakdown"]).all()
    cells = dg.grid_cells(rows).set_index(["configuration", "precision"])
    assert cells.loc[("krr", "float64"), "kappa_ok"] == 1e11  # 1e14 keeps 1.9 digits: fails anyway
    rows.loc[rows.status == "ok", "model_digits"] = 10.0  # every measured rung holds
    cell = dg.grid_cells(rows).set_index(["configuration", "precision"]).loc[("krr", "float64")]
    assert cell.kappa_ok == 1e14 and np.isinf(cell.breaks_at) and "whole ladder" not in cell.text
    assert not cell.whole and cell.fail_status == "breakdown"


def test_a_knob_names_keywords_the_solver_takes_and_its_rungs_fit_n():
    from lssvm_analysis.solvers import LadderKnob, register

    knob = LadderKnob("n_support", (0.25, 0.5, 0.8), per_point=True)
    assert knob.rungs(30) == [8, 15, 24] and knob.rungs(2) == [1, 2]  # ceil, clipped to 1..n, distinct
    assert LadderKnob("eta", (1e-3, 1e-6)).rungs(30) == [1e-3, 1e-6]
    def throwaway(X, y, *, precision="float64", n_support=None):  # takes n_support, not tol
        raise AssertionError("never fitted")

    deco = register("throwaway-ladder", tasks=("regression",), paper="x", equations="-",
                    ladder=(LadderKnob("n_support", (1,), fixed={"tol": 0.0}),))
    with pytest.raises(ValueError, match="ladder keywords.*'tol'"):
        deco(throwaway)
    assert "throwaway-ladder" not in solvers()
    # a data knob's keyword is the data set's, not the solver's: only its fixed keywords are checked
    deco = register("throwaway-ladder", tasks=("regression",), paper="x", equations="-",
                    ladder=(LadderKnob("near_duplicates", (1e-2,), dataset=True, fixed={"tol": 0.0}),))
    with pytest.raises(ValueError, match=r"ladder keywords.*\['tol'\]"):
        deco(throwaway)
    assert "throwaway-ladder" not in solvers()


def _knob_rows(monkeypatch, name, param, **settings):
    """Fit rows of the default ladder's ``param`` knob rungs of ``name`` (default configuration only)."""
    from lssvm_analysis.experiments import execute_task

    monkeypatch.setitem(sd.SETTINGS, "quick", sd.with_settings("default", solvers=(name,), **settings))
    spec = sd.plan("quick", None)[f"ladder-{param}-{name}"]
    rows = pd.DataFrame([execute_task(t) for t in spec.tasks() if accepts_combination(t)])
    assert len(rows) and (rows.status == "ok").all(), rows[["status", "message"]]
    return rows


def test_op_lssvm_k_knob_drives_kappa_of_the_kept_columns_to_where_float64_fails(monkeypatch):
    """op-lssvm's knob k_max (k_rule = fixed) at the top C: kappa_2(D_*) rises with k, to where float64 fails.

    Theory: MRSR's ranking does not depend on its cap, so the kept columns are nested (the first k of
    one order: the premise, checked), and kappa_2 of a matrix cannot fall when columns are added
    (interlacing of singular values: sigma_max grows, sigma_min shrinks).  The figure: at sinc, n = 30,
    sigma2 = 10, C = 1e16 the kernel columns are numerically dependent (lambda_min(K) ~ 2e-24), and
    so are the top rung's kept columns.  How many MRSR keeps there depends on the
    rounding of its steps: with OpenBLAS' default kernels it stops at 26 (certified problem kappa
    6.1e16, past 1/u64 = 9.0e15, 0.47 float64 model digits), with its SandyBridge kernels at 24 (2.5e15,
    1.8 digits); the paper's PRESS k* stays at kappa ~ 1e5 on the same rung.  So the assertion is the
    rung's purpose: the certified problem kappa (the exact model's, ``problem_condition``) is past
    1e-3 / u64, where kappa u64 no longer bounds the error below 10^-3, and the float64 fit does keep
    fewer than 3 digits there.  ``cond_D_star`` (the float64 QR's kappa_2 of the kept columns) is the
    monotone figure; it does not resolve beyond ~ 1/u64.
    """
    rows = _knob_rows(monkeypatch, "op-lssvm", "k_max", precisions=("float64",))
    rows = rows[rows.configuration == "op-lssvm"].sort_values("k_max")
    # six rungs (issue 34): fine enough that adjacent precisions separate where theory puts them apart
    assert list(rows.k_max) == get_solver("op-lssvm").ladder[0].rungs(30) == [8, 12, 15, 18, 23, 27]
    assert (rows.diag_k_rule == "fixed").all()
    kappa = rows.diag_cond_D_star.to_numpy(float)
    assert (np.diff(kappa) >= 0).all()
    problem = rows.problem_condition.to_numpy(float)
    assert kappa[0] < 1 / U32 and problem[-1] > 1e-3 / U64
    assert rows.model_digits.to_numpy(float)[-1] < 3


def test_near_duplicates_drive_reduced_lssvrs_kappa_as_one_over_delta_at_the_bottom_c(monkeypatch):
    """reduced-lssvr's data knob: kappa(M) ~ 1/delta, kappa(H) = kappa(M)^2 ~ 1/delta^2, at C = 10.

    Theory: the random support S drawn from the task's seed 0 is {0, 16, 17} (3 = ceil(N / 10) of
    30 points; a support of 3 holds a pair with probability 3/29), and 17 is 16 moved by delta: the
    columns K(X, x_16) and K(X, x_17) of Z^T differ by O(delta / sqrt(sigma2)) (the RBF kernel's
    derivative), so the stacked M = [Z^T; L_S^T / sqrt(C)] of (7) has a singular value ~ delta and
    kappa(M) = c / delta with c independent of delta: kappa(M) delta is one constant over the rungs,
    here to within a factor 2 (the O(delta^2) terms leave less).  C = 10 alone gives kappa(M) = 2.3e2
    (no duplicates).  The formed H = M^T M (``system_condition``, kappa_inf of H as formed in
    float64) squares it: ~ 2e6 at delta = 1e-2, past 1/u64 = 9e15 at delta = 1e-8.
    """
    rows = _knob_rows(monkeypatch, "reduced-lssvr", "near_duplicates", precisions=("float64",))
    rows = rows[rows.configuration == "reduced-lssvr"]
    delta = rows.dataset_kw.map(lambda s: __import__("json").loads(s)["near_duplicates"]).to_numpy(float)
    assert sorted(delta, reverse=True) == list(get_solver("reduced-lssvr").ladder[1].values)
    assert (rows.C == 10.0).all()
    scaled = rows.problem_condition.to_numpy(float) * delta
    assert scaled.max() / scaled.min() < 2.0
    formed = rows.sort_values("problem_condition").system_condition.to_numpy(float)
    assert (np.diff(formed) > 0).all() and formed[0] < 1 / U32 and formed[-1] > 1 / U64


def test_a_cell_says_from_which_kappa_the_choices_differ_from_the_wide_run():
    """A formulation that holds by choosing differently (op-lssvm's printed ranking stopping MRSR
    early) is flagged at the smallest kappa with choices_agree False; rows in a precision at least
    as fine as the wide run's, and rows without a comparison, do not count."""
    rows = pd.DataFrame({
        "solver": "op-lssvm", "configuration": "op-lssvm", "status": "ok", "dataset": "sinc", "seed": 0,
        "sigma2": 10.0, "C": [1e1, 1e4, 1e7, 1e1, 1e4],
        "precision": ["float64"] * 3 + ["mp50"] * 2,
        "model_digits": [12.0, 11.0, 10.0, 30.0, 30.0],
        "problem_condition": [1e2, 1e5, 1e8, 1e2, 1e5],
        "choices_agree": [True, None, False, False, False]})
    cells = dg.grid_cells(rows).set_index("precision")
    assert cells.loc["float64", "choices_differ_from"] == 1e8
    assert "choices differ from the mp30 run's from κ ≈ 1e+08" in cells.loc["float64", "text"]
    assert np.isnan(cells.loc["mp50", "choices_differ_from"]) and "choices" not in cells.loc["mp50", "text"]


# --------------------------------------------------------------------------- issue 41: a grid that cannot mislead
def _best_class_never_below_a_worse_one(csv) -> list:
    """Columns where a cell of the column's best colour class reached a lower κ than a worse-class cell."""
    cells = pd.read_csv(csv)
    cells = cells[cells.colour_rank >= 0]  # -1: not measured, no colour class of the scale
    bad = []
    for prec, g in cells.groupby("precision"):
        reached = g.kappa_ok.fillna(0.0)  # the first rung fails: nothing reached
        best = g.colour_rank == g.colour_rank.max()
        if best.any() and (~best).any() and reached[best].min() < reached[~best].max():
            bad.append(prec)
    return bad


def test_no_cell_of_the_best_colour_reached_less_kappa_than_a_worse_one(tmp_path):
    """digits-grid.csv: per column, every cell of the best colour class reached at least the κ of every
    cell of a worse class, and a ladder that ends before its cell fails is coloured by its last rung
    (issue 41: a short printed ladder 'whole' at κ 2e4 was green above a stable cell at 1e5)."""
    recs = _records()
    short = recs[(recs.configuration == "reduced-lssvr") & (recs.problem_condition <= 1e2)]
    recs = pd.concat([recs, short.assign(configuration="reduced-lssvr[ridge=short]")], ignore_index=True)
    cells = dg.grid_cells(recs)
    whole = cells[cells.whole]
    assert len(whole) and (whole.kappa_ok == 1e2).all()  # the short ladder ends at 1e2 without failing
    sd.grid_ref(cells, dg.grid_table(cells), tmp_path)
    assert _best_class_never_below_a_worse_one(tmp_path / "digits-grid.csv") == []
    ranks = pd.read_csv(tmp_path / "digits-grid.csv").set_index(["configuration", "precision"]).colour_rank
    assert ranks[("reduced-lssvr[ridge=short]", "float64")] < ranks[("reduced-lssvr", "float64")]


def _unstated_row_ranges(csv) -> list:
    """Rows of digits-grid.csv whose κ range is not stated: every measured cell gives the row's top κ
    (``row_kappa_top``, finite) and the grid's widest; a row more than RANGE_SLACK_DECADES short of the
    widest declares it in ``range_note`` and in every cell's text, a row within the slack declares nothing."""
    cells = pd.read_csv(csv, keep_default_na=True)
    cells = cells[cells.text != "not measured"]
    bad = []
    for config, g in cells.groupby("configuration"):
        top, widest = g.row_kappa_top.iloc[0], g.widest_kappa_top.iloc[0]
        note = g.range_note.fillna("")
        short = np.log10(widest) - np.log10(top) > dg.RANGE_SLACK_DECADES
        if not (np.isfinite(top) and np.isfinite(widest) and (g.row_kappa_top == top).all()):
            bad.append(f"{config}: no finite row κ range ({top})")
        elif short and not ((note.str.startswith(f"ladder cannot reach κ > {dg.kappa_text(top)}")).all()
                            and all(n in t for n, t in zip(note, g.text))):
            bad.append(f"{config}: tops at κ {top:g} against {widest:g} and does not say so")
        elif not short and (note != "").any():
            bad.append(f"{config}: within the widest row's range but declares a short ladder")
    return bad


def test_every_row_states_its_kappa_range(tmp_path):
    """A row whose ladder stays short of the widest row (its choices keep its problem well conditioned)
    says so in every cell, with its top κ; the others state their top κ in the CSV and say nothing."""
    recs = _records()
    short = recs[recs.configuration == "reduced-lssvr"]
    short = short[short.problem_condition <= 1e5].assign(configuration="reduced-lssvr[ridge=short]")
    cells = dg.grid_cells(pd.concat([recs, short], ignore_index=True))
    sd.grid_ref(cells, dg.grid_table(cells), tmp_path)
    assert _unstated_row_ranges(tmp_path / "digits-grid.csv") == []
    grid = pd.read_csv(tmp_path / "digits-grid.csv").set_index(["configuration", "precision"])
    top = recs.problem_condition.max()
    assert (grid.widest_kappa_top == top).all()
    row = grid.loc[("reduced-lssvr[ridge=short]", "float64")]
    assert row.row_kappa_top == 1e5 and row.range_note.startswith("ladder cannot reach κ > 1e+05")
    # what the ladder moved for this solver: C and its declared knobs (SolverInfo.ladder)
    # and the rung where its records reached their top (C = 10 of the short row's two rungs)
    assert row.text.endswith(row.range_note) and ("C, n_support and near_duplicates are what its ladder moves, "
                                                  "and its highest rung (dataset = sinc, C = 10, sigma2 = 10) "
                                                  "reaches κ ≈ 1e+05") in row.range_note
    assert pd.isna(grid.loc[("reduced-lssvr", "float64")].range_note)  # the widest row: no note (empty CSV cell)


def test_a_bracket_prints_its_two_ends_apart():
    """9.97e4 and 1.07e5 are both '1e+05' at one significant digit: the bracket adds digits until they differ
    (issue 41: '≥ 3 digits to κ ≈ 1e+05 then breaks down at κ ≈ 1e+05')."""
    assert dg.kappa_bracket(9.968829e4, 1.066841e5) == ("1.0e+05", "1.1e+05")
    assert dg.kappa_bracket(1.0e5, 1.04e5) == ("1.00e+05", "1.04e+05")
    assert dg.kappa_bracket(2e4, 6e5) == ("2e+04", "6e+05")
    assert dg.kappa_bracket(2e4, float("nan"))[0] == "2e+04"


def test_the_slope_is_higham_s_digit_per_decade_where_the_ladder_has_one():
    """-log10(κ u) loses one digit per decade of κ; a flat ladder (the exact model's cap) shows no slope."""
    ks = np.array([1e2, 1e4, 1e6, 1e8])
    assert dg.digits_slope(ks, -np.log10(ks * 1.1e-16)) == pytest.approx(1.0)
    assert np.isnan(dg.digits_slope(ks, np.full(4, 15.0)))
    assert np.isnan(dg.digits_slope(ks[:2], [14.0, 12.0]))  # two rungs: no slope claimed


def _deuteranopia_lab(hex_colour: str) -> np.ndarray:
    """CIE L*a*b* (D65) of a colour seen with deuteranopia (Machado, Oliveira & Fernandes 2009, severity 1)."""
    rgb = np.array([int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                  [-0.011820, 0.042940, 0.968881]])
    lin = np.clip(m @ lin, 0, 1)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    v = xyz @ lin / xyz.sum(axis=1)
    f = np.where(v > (6 / 29) ** 3, np.cbrt(v), v / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def test_the_colour_classes_stay_apart_under_deuteranopia():
    """Every two classes differ by CIE76 ΔE >= 10 under simulated deuteranopia (issue 41 measured 1.8 between
    'whole ladder' and 'only below 1e4'); ΔE ≈ 2.3 is a just noticeable difference, 10 is clear at a glance.
    The κ classes get lighter as κ grows (the order survives any colour vision)."""
    labs = {k: _deuteranopia_lab(bg) for k, (bg, _, _) in GRID_COLOURS.items()}
    keys = list(labs)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            assert np.linalg.norm(labs[a] - labs[b]) >= 10.0, (a, b)
    light = [labs[f"g-c{i}"][0] for i in range(7)]
    assert light == sorted(light)
