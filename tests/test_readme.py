"""The README's code runs: every ``python`` block, every command line it shows.

* The ``python`` blocks are executed in order, in one namespace, as a reader
  pasting them one after the other would; a failure names the block's line.
  A block that cannot run here is marked by ``<!-- not run: REASON -->`` on
  the line before it (blank lines between allowed), and the reason must be
  given.  The results the README's comments promise are then checked on that
  namespace (the fit's status and prediction, the model digits, compare's
  answers), so a block that runs but no longer does what it says fails too.
* Shell blocks are not run (they install, or run for minutes); their
  ``lssvm-analysis`` lines must parse with the real argument parser (and
  pass its conflict checks), and their ``make`` targets must exist in the
  Makefile.
* The README is a landing page (issue 42): at most ~150 lines, its sections
  in the order the issue asks for; the rest is the documentation
  (``tests/test_docs.py``), where the performance table now lives.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from lssvm_analysis import cli

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"

_FENCE = re.compile(r"^```(?P<lang>[A-Za-z]*)\n(?P<body>.*?)^```$", re.M | re.S)
_NOT_RUN = re.compile(r"<!--\s*not run:(?P<reason>.*?)-->\s*\Z", re.S)


def readme_blocks(lang: str, text: str | None = None, *, with_reason: bool = False) -> list:
    """``(first line number, code)`` of every fenced block of ``lang`` in the README.

    With ``with_reason``: ``(line, code, reason)``, where ``reason`` is the text of a
    ``<!-- not run: REASON -->`` just before the block (None when there is none).
    """
    text = README.read_text(encoding="utf-8") if text is None else text
    out = []
    for m in _FENCE.finditer(text):
        if m.group("lang") != lang:
            continue
        line = text.count("\n", 0, m.start()) + 2
        if not with_reason:
            out.append((line, m.group("body")))
            continue
        mark = _NOT_RUN.search(text[:m.start()])
        out.append((line, m.group("body"), mark.group("reason").strip() if mark else None))
    return out


def test_fence_parser_finds_blocks_of_each_language():
    text = "x\n```python\na = 1\n```\n\n```sh\nmake test\n```\n"
    assert readme_blocks("python", text) == [(3, "a = 1\n")]
    assert readme_blocks("sh", text) == [(7, "make test\n")]


def test_a_not_run_mark_applies_to_the_next_block_only():
    text = ("```python\na = 1\n```\n<!-- not run: needs a cluster -->\n\n```python\nb = 2\n```\n"
            "```python\nc = 3\n```\n")
    assert [r for _, _, r in readme_blocks("python", text, with_reason=True)] == [None, "needs a cluster", None]


def test_python_blocks_run_in_one_namespace(registries_restored):
    blocks = readme_blocks("python", with_reason=True)
    assert blocks, "the README has no python block"
    ns: dict = {"__name__": "__readme__"}
    for line, code, reason in blocks:
        if reason is not None:
            assert reason, f"README.md line {line}: a 'not run' mark must give its reason"
            compile(code, f"README.md:{line}", "exec")  # not run, but it must at least be Python
            continue
        try:
            exec(compile(code, f"README.md:{line}", "exec"), ns)  # noqa: S102 - the README's own code
        except Exception as exc:  # pragma: no cover - the message is the point
            pytest.fail(f"README.md python block at line {line} raised {type(exc).__name__}: {exc}")
    la = ns["la"]
    # what the comments of the API block say
    assert set(la.precisions()) >= {"float32", "float64", "longdouble", "mp50"}
    assert {"lssvm-kkt", "lssvm-schur", "sr-lssvm", "svm-c"} <= set(la.solvers())
    assert ns["fit"].status == "ok" and ns["fit"].precision == "float32"
    assert ns["fit"].predict(ns["X_new"]).shape == (len(ns["X_new"]),)
    # float32 keeps at most ~7 digits (u = 6e-8); the exact model is certified to more than the fit has
    err = ns["err"]
    assert 0 < err.model_digits <= 8 and err.exact_digits > err.model_digits and err.problem_condition > 1
    assert set(ns["cmp"].answers.solver) == {"lssvm-schur", "krr"} and len(ns["cmp"].frame) == 2 * 2 * 3
    assert all(isinstance(s, str) and s for s in ns["cmp"].answers.sentence)
    assert hasattr(ns["est"], "dual_coef_") and ns["est"].fit_.precision == "float32"


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


def test_readme_is_a_landing_page():
    """What the suite answers, the two commands, reading a report, the API, asv, Dask, the docs: in that
    order, in at most ~150 lines; everything else is in the documentation (tests/test_docs.py)."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    heads = re.findall(r"^## (.+)$", text, re.M)
    assert heads == ["Set-up: two commands", "Reading a report", "The API in a few lines",
                     "Performance tracking with asv", "Running the sweeps on a Dask cluster", "Documentation"]
    assert "make docs" in text and "build/docs/index.html" in text
    # the asv commands (the quick pass, the crossover alone) with what is known of their time, and the
    # default report's measured time, stay on the landing page
    assert "asv_run.py run --python=same --quick" in text and "--bench 'ElsCrossover\\.'" in text
    assert "one pass of 69 benchmarks: 9.2 min wall at load 2.5-3.7, 512 CPU-s" in text and "167.0 s" in text
    assert "crossover only, M <= 1000: 1.9 min wall at load 3.3, 108 CPU-s" in text
    assert "<!-- perf-table:begin -->" not in text  # the measured table is the documentation's now
