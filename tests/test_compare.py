"""``la.compare`` and ``lssvm-analysis compare`` (issue 33): the answer grid for a user's data."""
import html
import re
import json

import numpy as np
import pandas as pd
import pytest

import lssvm_analysis as la
from lssvm_analysis import cli
from lssvm_analysis.analysis.compare import answers, default_solvers


def _data(n=30, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.uniform(-3, 3, (n, 2))
    return X, np.sinc(X[:, 0]) + 0.05 * X[:, 1]


@pytest.fixture
def csv_file(tmp_path):
    X, y = _data()
    path = tmp_path / "f.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": y}).to_csv(path, index=False)
    return path


def test_cli_compare_writes_html_png_csv_json(csv_file, tmp_path, capsys):
    out = tmp_path / "out"
    code = cli.main(["compare", "--data", str(csv_file), "--target", "y", "--solvers", "krr,els-primal",
                     "--precisions", "float32,float64", "--out", str(out), "--jobs", "1", "--no-progress"])
    assert code == 0
    for name in ("index.html", "digits-grid.png", "compare-digits-kappa.png", "compare.csv", "answers.json"):
        assert (out / name).is_file() and (out / name).stat().st_size > 0, name
    doc = json.loads((out / "answers.json").read_text())
    assert [a["solver"] for a in doc["answers"]] == ["els-primal", "krr"]
    assert doc["meta"]["n_train"] + doc["meta"]["n_test"] == 30 and doc["meta"]["precisions"] == ["float32", "float64"]
    frame = pd.read_csv(out / "compare.csv")
    # els-primal in its two formations (the printed as-described form beside the stable one), krr, x 2 x 3 C:
    # without --C the documented ladder C/1e3, C, 1e3 C around C = 10
    assert set(frame.configuration) == {"krr", "els-primal", "els-primal[formation=as-described]"}
    assert len(frame) == 3 * 2 * 3 and frame.literal.sum() == 2 * 3
    assert sorted(frame.C.unique()) == [0.01, 10.0, 1e4] and doc["meta"]["C"] == [0.01, 10.0, 1e4]
    page = (out / "index.html").read_text()
    assert all(html.escape(a["sentence"]) in page for a in doc["answers"])   # one sentence per solver
    printed = capsys.readouterr().out
    assert "krr: " in printed and "index.html" in printed


def test_cli_compare_reads_npz(tmp_path):
    X, y = _data(20)
    np.savez(tmp_path / "d.npz", X=X, target=y)
    code = cli.main(["compare", "--data", str(tmp_path / "d.npz"), "--target", "target", "--solvers", "krr",
                     "--precisions", "float64", "--C", "10", "--no-ladder", "--out", str(tmp_path / "o"),
                     "--jobs", "1", "--no-progress"])
    assert code == 0 and len(pd.read_csv(tmp_path / "o" / "compare.csv")) == 1


@pytest.mark.parametrize("content, target, what", [
    ("a,y\nx,1\nz,2\n", "y", "column 'a'"),
    ("a,y\n1,1\n2,2\n", "z", "got --target 'z'"),
])
def test_cli_compare_refuses_a_bad_file_in_one_line_with_exit_2(tmp_path, capsys, content, target, what):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    out = tmp_path / "never"
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", "--data", str(path), "--target", target, "--out", str(out)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and what in err and err.startswith("lssvm-analysis: error:")
    assert not out.exists()   # before any work


def test_cli_compare_refuses_unknown_names_and_missing_files(tmp_path, capsys, csv_file):
    for argv in (["--data", str(tmp_path / "none.csv"), "--target", "y"],
                 ["--data", str(csv_file), "--target", "y", "--solvers", "no-such"],
                 ["--data", str(csv_file), "--target", "y", "--precisions", "float16"]):
        with pytest.raises(SystemExit) as exc:
            cli.main(["compare", *argv])
        assert exc.value.code == 2 and capsys.readouterr().err.count("\n") == 1


def test_compare_api_typed_errors():
    X, y = _data()
    with pytest.raises(la.UnknownSolverError, match="'nope'"):
        la.compare(X, y, solvers=["nope"])
    with pytest.raises(ValueError, match="solver='svm-c'"):
        la.compare(X, y, solvers=["svm-c"])           # a classifier on regression data
    with pytest.raises(ValueError, match="C=-1"):
        la.compare(X, y, solvers=["krr"], C=-1.0)
    with pytest.raises(ValueError, match="non-finite"):
        la.compare(np.where(X > 2, np.nan, X), y, solvers=["krr"])
    with pytest.raises(la.UnknownPrecisionError):
        la.compare(X, y, solvers=["krr"], precisions=["float16"])


def test_default_solvers_are_those_with_an_exact_model():
    names = default_solvers("regression")
    assert names and all(la.get_solver(n).exact_model is not None for n in names)
    assert "svm-eps" not in names and "krr" in names


def _rows(solver, config, prec, digits, literal=False, choices=None, exact=25.0):
    return [{"solver": solver, "configuration": config, "literal": literal, "precision": prec, "C": C,
             "status": "ok", "model_digits": d, "model_digits_capped": False, "problem_condition": 10.0 ** (2 + i),
             "exact_digits": exact, "choices_agree": choices} for i, (C, d) in enumerate(zip((1.0, 1e3, 1e6), digits))]


def test_answers_pick_the_cheapest_precision_where_a_form_holds_on_every_c():
    frame = pd.DataFrame(
        _rows("s", "s", "float32", (5.0, 3.5, 2.0)) + _rows("s", "s[f=lit]", "float32", (5.0, 2.0, 1.0), True)
        + _rows("s", "s", "float64", (12.0, 10.0, 8.0)) + _rows("s", "s[f=lit]", "float64", (12.0, 9.0, 3.5), True)
        + _rows("t", "t", "float32", (4.0, 3.2, 3.1), choices=False)
        + _rows("u", "u", "float32", (2.0, 1.0, 0.0)))
    a = answers(frame).set_index("solver")
    # s: float32 fails at C = 1e6 (2.0 < 3): float64, stable form, 8.0 digits, the printed form's 3.5 said
    assert (a.loc["s", "precision"], a.loc["s", "form"], a.loc["s", "min_digits"]) == ("float64", "s", 8.0)
    assert a.loc["s", "sure"] == "sure" and "printed form s[f=lit] keeps 3.5" in a.loc["s", "sentence"]
    # t holds in float32 by 0.1 digit and its choices differ from the wide run's: borderline, both said
    assert a.loc["t", "precision"] == "float32" and a.loc["t", "sure"] == "borderline"
    assert "one digit above" in a.loc["t", "sentence"] and "choices differ" in a.loc["t", "sentence"]
    assert a.loc["u", "precision"] == "" and "no form keeps 3" in a.loc["u", "sentence"]


def test_compare_on_a_dask_cluster_registers_the_data_on_the_workers_and_agrees(tmp_path):
    """The workers are fresh processes: compare registers the user's data there (Client.run); the
    rows are those of the local run (the same tasks on the same bits)."""
    pytest.importorskip("distributed")
    X, y = _data(20)
    kw = dict(solvers=["krr"], precisions=["float64"], C=10.0, ladder=False, sigma2=1.0)
    local = la.compare(X, y, **kw)
    remote = la.compare(X, y, dask_workers=1, store=tmp_path / "d.sqlite", **kw)
    assert (remote.frame.status == "ok").all()
    pd.testing.assert_frame_equal(local.frame.drop(columns=["time_fit"]), remote.frame.drop(columns=["time_fit"]))


# --- compare at any size (issue 42) -------------------------------------------------------------------------

class _Stop(Exception):
    """Raised by a test's ``say`` to end a compare right after its plan's one line."""


@pytest.fixture(scope="module")
def big_csv(tmp_path_factory):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((50_000, 10))
    path = tmp_path_factory.mktemp("big") / "big.csv"
    pd.DataFrame(X, columns=[f"x{i}" for i in range(10)]).assign(y=X[:, 0] - X[:, 1] ** 2).to_csv(path, index=False)
    return path


def test_a_50000_row_file_is_subsampled_with_one_line_before_any_work(big_csv, tmp_path):
    import time

    from lssvm_analysis.report.compare import read_data

    t0 = time.perf_counter()
    X, y, _ = read_data(big_csv, "y")
    said = []

    def say(line):
        said.append((line, time.perf_counter() - t0))
        raise _Stop

    with pytest.raises(_Stop):
        la.compare(X, y, out=tmp_path / "o", n_jobs=2, say=say)
    line, seconds = said[0]
    print(f"the plan's line came {seconds:.2f} s after the start (read_data included): {line}")
    m = re.match(r"compare: subsampled to (\d+) of 50000 rows \(seeded; ~.* estimated for all 50000 rows", line)
    assert m and 20 <= int(m.group(1)) < 50_000, line
    # the same line says what the defaults cover and what they leave out
    assert "\n" not in line and f"then {m.group(1)} rows; 29 forms of 16 solvers (each solver's default form and " \
        "its printed variants; all_forms / --all-forms: all 40) x float32, float64, longdouble x C = 0.01, 10, 1e4" \
        in line and "mp50 left out" in line, line
    assert not (tmp_path / "o" / "compare.sqlite").exists()   # the line came before any fit


def test_cli_refuses_a_50000_row_file_with_no_subsample_in_one_line(big_csv, tmp_path, capsys):
    import time

    t0 = time.perf_counter()
    code = cli.main(["compare", "--data", str(big_csv), "--target", "y", "--out", str(tmp_path / "o"),
                     "--no-subsample", "--no-progress"])
    err = capsys.readouterr().err
    print(f"refused in {time.perf_counter() - t0:.2f} s: {err.strip()}")
    assert code == 2 and err.count("\n") == 1
    assert "compare: refused: ~" in err and "for all 50000 rows" in err


def test_median_sigma2_samples_pairs_in_linear_memory_and_is_exact_when_small():
    from lssvm_analysis.analysis.compare import SIGMA2_PAIRS, median_sigma2

    rng = np.random.default_rng(0)
    X = rng.standard_normal((60, 3))
    i, j = np.triu_indices(60, 1)
    assert median_sigma2(X) == float(np.median(((X[i] - X[j]) ** 2).sum(axis=1)))   # every pair: exact
    big = rng.standard_normal((200_000, 3))
    s = median_sigma2(big, seed=1)
    assert s == median_sigma2(big, seed=1)                       # seeded
    # the squared distance of two N(0, I_3) points is 2 chi2_3: median 2 * 2.366 = 4.73; a sample of
    # SIGMA2_PAIRS pairs has a median within a few 1/sqrt(pairs) relative (here 3 % is > 4 sigma)
    assert SIGMA2_PAIRS >= 10_000 and abs(s / 4.7322 - 1) < 0.03


# --- bad files: the column, the row and the cell (issue 42) -------------------------------------------------

@pytest.mark.parametrize("content, expected", [
    ("a,y\n1.547726,1\nabc,2\n3,3\n", "got 'abc' in column 'a', row 1 (line 3 of the file)"),   # not the number
    ("a,y\n", "got a header only (columns ['a', 'y'])"),
    ("a,y\n1,2\n2,3\nNaN,4\n", "got 'NaN' in column 'a', row 2 (line 4 of the file)"),
    ("a,y\n1,2\n2,\n", "got '' in column 'y', row 1 (line 3 of the file)"),
    ("a,y\n1,2\n", "expected at least 8 data rows"),
    ("a,y\n1,inf\n2,3\n", "got inf in --target 'y' at row 0"),
])
def test_cli_names_the_column_row_and_cell_of_a_bad_file(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(SystemExit) as exc:
        cli.main(["compare", "--data", str(path), "--target", "y", "--out", str(tmp_path / "never")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and err.count("\n") == 1 and expected in err, err
    assert "test_fraction" not in err and "1.547726" not in err
    assert not (tmp_path / "never").exists()


def test_a_constant_target_warns_in_one_line(tmp_path, capsys):
    X, _ = _data(20)
    path = tmp_path / "c.csv"
    pd.DataFrame({"a": X[:, 0], "b": X[:, 1], "y": 3.0}).to_csv(path, index=False)
    code = cli.main(["compare", "--data", str(path), "--target", "y", "--solvers", "krr", "--precisions", "float64",
                     "--C", "10", "--no-ladder", "--out", str(tmp_path / "o"), "--jobs", "1", "--no-progress"])
    said = capsys.readouterr()
    lines = said.err.splitlines()
    # the warning in one line on stderr; the line every CLI run says (what it covers) first on stdout
    assert code == 0 and len(lines) == 1 and "the target is constant (every value 3.0)" in lines[0]
    first = said.out.splitlines()[0]
    assert first.startswith("compare: 20 rows; 1 form of 1 solver (") and ": 1 fit, ~" in first
    with pytest.warns(UserWarning, match="target is constant"):
        la.compare(X, np.full(20, 3.0), solvers=["krr"], precisions=["float64"], C=10.0, ladder=False)


# --- compare's defaults and its first screen (issue 42) ---------------------------------------------------

def test_default_forms_are_each_default_and_its_printed_variants():
    from lssvm_analysis.analysis.compare import form_values, n_forms

    names = default_solvers("regression")
    for n in names:
        info = la.get_solver(n)
        default = info.default_variant()
        printed = {(v.option, v.value) for v in info.variants if v.literal and default[v.option] != v.value}
        every = {(v.option, v.value) for v in info.variants if default[v.option] != v.value}
        assert {(o, v) for o, vs in form_values(n).items() for v in vs} == printed, n
        assert {(o, v) for o, vs in form_values(n, all_forms=True).items() for v in vs} == every, n
    assert n_forms(names) == len(names) + sum(len(vs) for n in names for vs in form_values(n).values())
    assert n_forms(names) < n_forms(names, all_forms=True)
    assert form_values("w-lssvm") == {} and form_values("r-lssvm-w") == {}   # no printed variant besides the default


def test_the_defaults_plan_500_rows_within_the_budget_on_two_cores():
    """The plan's estimate for the benchmark's scenario (500 rows, defaults, 2 workers): every row, the
    three hardware/longdouble precisions, within 60 s -- mp50 left out, said; benchmarks/bench_compare.py
    measures the real time."""
    from lssvm_analysis.analysis.compare import DEFAULT_PRECISIONS, TIME_BUDGET, n_forms, plan_size

    names = default_solvers("regression")
    plan = plan_size(500, train_fraction=0.75, solvers=names, configs=n_forms(names), precisions=DEFAULT_PRECISIONS,
                     n_C=3, workers=2, budget=TIME_BUDGET)
    assert plan.rows == 500 and plan.precisions == ("float32", "float64", "longdouble") and plan.seconds <= 60
    assert plan.action == "run" and "mp50 left out" in plan.line
    every = plan_size(500, train_fraction=0.75, solvers=names, configs=n_forms(names, all_forms=True),
                      precisions=DEFAULT_PRECISIONS, n_C=3, workers=2, budget=TIME_BUDGET, all_forms=True)
    assert every.seconds > plan.seconds   # every variant costs more, and the plan says so


def _kind_rows(solver, prec, digits, n_support, n_train=30):
    return [{**r, "n_support": n_support, "n_train": n_train} for r in _rows(solver, solver, prec, digits)]


def test_the_headline_is_one_answer_and_says_where_the_others_lose_digits():
    from lssvm_analysis.analysis.compare import headline

    frame = pd.DataFrame(_kind_rows("full-a", "float32", (5.0, 3.0, 1.0), 30) + _kind_rows("full-a", "float64", (14.0, 12.0, 9.0), 30)
                         + _kind_rows("full-b", "float32", (4.0, 2.0, 0.5), 30) + _kind_rows("full-b", "float64", (13.0, 11.0, 10.0), 30)
                         + _kind_rows("sparse", "float32", (6.0, 5.0, 4.0), 7) + _kind_rows("sparse", "float64", (14.0, 13.0, 12.0), 7))
    a = answers(frame).set_index("solver")
    assert a.loc["full-a", "model"] == "full" and a.loc["sparse", "model"] == "reduced"
    # the reduced solver's sentence says what its digits are measured against
    assert "digits against its own reduced problem (the 7 support points / columns it chose of 30), not the full " \
           "LS-SVM" in a.loc["sparse", "sentence"] and "reduced problem" not in a.loc["full-a", "sentence"]
    text = headline(frame, a.reset_index())
    # the sparse solver holds in float32, but the answer is a full model's: full-b in float64 keeps 10.0 > 9.0
    assert text.startswith("Use full-b in float64 on these data: it keeps at least 10.0 correct digits"), text
    assert "in float32 2 of 3 forms keep fewer than 3 digits on some C (weakest: full-b 0.5 at C = 1e6, " \
           "full-a 1.0 at C = 1e6)" in text and "in float64 every form keeps 3 or more on every C" in text


def test_the_page_opens_on_the_answer_then_the_solvers_by_model(tmp_path):
    X, y = _data(30)
    res = la.compare(X, y, solvers=["lssvm-schur", "fs-lssvm"], precisions=["float64"], C=10.0, ladder=False,
                     sigma2=1.0, out=tmp_path / "o")
    page = (tmp_path / "o" / "index.html").read_text()
    first_h2 = page.index("<h2>")
    assert html.escape(res.headline) in page[:first_h2] and res.headline.startswith("Use ")
    full, reduced = page.index("<h2>Full model"), page.index("<h2>Reduced or sparse")
    assert first_h2 == full < reduced
    assert "Digits against its own reduced problem (the k* columns / the support set it chose" in page[reduced:]
    model = res.answers.set_index("solver").model
    assert (model["lssvm-schur"], model["fs-lssvm"]) == ("full", "reduced")
    assert html.escape("What ran: 30 rows; 3 forms of 2 solvers (every variant of each solver) x float64 x C = 10: "
                       "3 fits, ~") in page
