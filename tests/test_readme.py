"""The README's code runs (issue 22): every ``python`` block, every command line it shows.

* The ``python`` blocks are executed in order, in one namespace, as a reader
  pasting them one after the other would; a failure names the block's line.
  The results the README's comments promise are then checked on that
  namespace (the fit's status, the certified digits, the LOO residuals'
  shape), so a block that runs but no longer does what it says fails too.
* Shell blocks are not run (they install, or run for minutes); their
  ``lssvm-analysis`` lines must parse with the real argument parser (and
  pass its conflict checks), and their ``make`` targets must exist in the
  Makefile.
* The performance table sits between its markers (another script rewrites
  what is between them), after the API section.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis import cli
from lssvm_analysis.solvers import unregister as unregister_solver

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)


def readme_blocks(lang: str, text: str | None = None) -> list[tuple[int, str]]:
    """``(first line number, code)`` of every fenced block of ``lang`` in the README."""
    text = README.read_text(encoding="utf-8") if text is None else text
    return [(text.count("\n", 0, m.start()) + 2, m.group("body"))
            for m in _FENCE.finditer(text) if m.group("lang") == lang]


def test_fence_parser_finds_blocks_of_each_language():
    text = "x\n```python\na = 1\n```\n\n```sh\nmake test\n```\n"
    assert readme_blocks("python", text) == [(3, "a = 1\n")]
    assert readme_blocks("sh", text) == [(7, "make test\n")]


@pytest.fixture
def registries_restored():
    """The README registers a solver and a data set ("Your data and your solver"): removed afterwards,
    so that other tests in the process see the package's registries only."""
    solvers, sets = set(la.solvers()), set(la.datasets.datasets())
    yield
    for name in set(la.solvers()) - solvers:
        unregister_solver(name)
    for name in set(la.datasets.datasets()) - sets:
        la.datasets.unregister(name)


def test_python_blocks_run_in_one_namespace(registries_restored):
    blocks = readme_blocks("python")
    assert blocks, "the README has no python block"
    ns: dict = {"__name__": "__readme__"}
    for line, code in blocks:
        try:
            exec(compile(code, f"README.md:{line}", "exec"), ns)  # noqa: S102 - the README's own code
        except Exception as exc:  # pragma: no cover - the message is the point
            pytest.fail(f"README.md python block at line {line} raised {type(exc).__name__}: {exc}")
    la = ns["la"]
    # what the comments of the API block say
    assert ns["fit"].status in ("ok", "breakdown", "not-converged", "overflow")
    assert ns["fit"].status == "ok" and ns["fit"].breakdown is None
    assert ns["ref"].digits >= 30  # reference_solve(..., digits=30) certifies at least that many
    assert ns["r"].shape == (len(ns["y"]),) and np.all(np.isfinite(ns["r"]))
    assert ns["yhat"].shape == (len(ns["X_new"]),)
    assert set(la.precisions()) >= {"float32", "float64", "longdouble", "mp50"}
    assert ns["L"].dtype == np.longdouble
    # "Your data and your solver": what its comments say
    err = ns["err"]
    assert 0 < err.model_digits <= 8 and err.exact_digits > err.model_digits and err.choices_agree is None
    assert ns["ex"].digits == err.exact_digits and "svm-eps" in ns["why"] and ns["printed"]
    assert set(ns["cmp"].answers.solver) == {"lssvm-schur", "krr"} and len(ns["cmp"].frame) == 2 * 2 * 3
    assert "readme-krr" in la.solvers() and len(ns["checks"]) > 10


def _command_lines(prog: str) -> list[tuple[int, list[str]]]:
    out = []
    for line, code in readme_blocks("sh"):
        for i, text in enumerate(code.splitlines()):
            words = shlex.split(text, comments=True)
            if words and Path(words[0]).name == prog:
                out.append((line + i, words[1:]))
    return out


def test_shell_command_lines_parse():
    lines = _command_lines("lssvm-analysis")
    assert len(lines) >= 3
    parser = cli.build_parser()
    for line, argv in lines:
        try:
            args = parser.parse_args(argv)
            # --scheduler / --dask-workers need the dask extra; compare reads its --data file up front
            if not ("--scheduler" in argv or "--dask-workers" in argv or argv[:1] == ["compare"]):
                cli.check_options(parser, args)
        except SystemExit as exc:  # pragma: no cover - the message is the point
            pytest.fail(f"README.md line {line}: lssvm-analysis {' '.join(argv)} is refused ({exc})")


def test_make_targets_exist():
    targets = set(re.findall(r"^([A-Za-z][\w-]*):", (ROOT / "Makefile").read_text(), re.M))
    used = {argv[0] for _, argv in _command_lines("make")}
    used |= set(re.findall(r"`make ([\w-]+)`", README.read_text(encoding="utf-8")))
    assert {"report", "test"} <= used
    assert used <= targets, f"README names make targets the Makefile lacks: {sorted(used - targets)}"


def test_perf_table_between_markers_after_the_api():
    text = README.read_text(encoding="utf-8")
    begin, end = text.find("<!-- perf-table:begin -->"), text.find("<!-- perf-table:end -->")
    assert 0 <= begin < end and text.count("<!-- perf-table:begin -->") == 1
    # written by benchmarks/readme_table.py from asv result files, never by hand
    assert text[begin:end].split("\n", 2)[1].startswith("Generated by `python benchmarks/readme_table.py`")
    assert "| benchmark | parameters | target | measured | floor / what |" in text[begin:end]
    assert text.find("## The API in a few lines") < begin
    # the order the issue asks for: what it answers, the two commands, reading, API, asv, Dask, extras
    heads = [h for h in re.findall(r"^## (.+)$", text, re.M)]
    order = ["Set-up: two commands", "Reading a report", "The API in a few lines",
             "Performance tracking with asv", "Running the sweeps on a Dask cluster",
             "Extras: what each installs"]
    assert [h for h in heads if h in order] == order
