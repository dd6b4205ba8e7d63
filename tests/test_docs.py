"""The documentation builds and says what runs.

* ``sphinx-build -W`` (warnings are errors, as ``make docs`` and CI run it)
  builds ``lssvm_analysis/docs`` into a temporary folder, offline; the key
  pages exist, and the API reference documents every public callable of
  ``lssvm_analysis``, ``lssvm_analysis.testing``, ``lssvm_analysis.datasets``
  and the engine names of ``lssvm_analysis.experiments``.
* The ``python`` blocks of the tour, ``compare`` and plugin pages run, in
  that order, in one namespace, as a reader pasting them would; a block that
  cannot run here is marked by a comment ``..`` whose text starts with
  ``not run:`` and gives the reason.  The sixth paper's block is the module
  ``tests/test_papers.py`` installs and runs, word for word.
* The performance table sits between its markers in
  ``performance-table.md``, which ``benchmarks/readme_table.py`` writes.

Skipped, with the reason, where Sphinx is not installed (it comes with the
``test`` and ``docs`` extras).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import lssvm_analysis as la

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "lssvm_analysis" / "docs"
#: The pages whose python blocks run, in this order, in one namespace (a reader's path through them).
RUN_PAGES = ("tour.rst", "compare.rst", "plugins.rst", "cluster.rst")
KEY_PAGES = ("index", "questions", "setup", "report", "tour", "compare", "plugins", "cluster", "performance",
             "api/index", "api/toplevel", "api/testing", "api/datasets", "api/experiments")
#: Public names the generated list leaves out, each described by hand on its page (api/toplevel.rst says why).
BY_HAND = {"ELSRegressor", "solvers"}  # solvers: a callable module, which autodoc lists as a module

_DIRECTIVE = re.compile(r"^\.\. code-block:: (?P<lang>\S+)\s*$")


def rst_blocks(text: str, lang: str) -> list[tuple[int, str, str | None]]:
    """``(line, code, reason)`` of every ``.. code-block:: lang`` of a page.

    ``reason`` is the text after ``not run:`` of a comment (``..`` and an indented
    text) just before the block, None when there is none.
    """
    lines = text.splitlines()
    out, reason = [], None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = _DIRECTIVE.match(line)
        if line.strip() == ".." or line.startswith(".. not run:"):
            j = i + 1
            body = [line[2:].strip()] if line.startswith(".. not run:") else []
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith(" ")):
                body.append(lines[j].strip())
                j += 1
            comment = " ".join(b for b in body if b)
            reason = comment[len("not run:"):].strip() if comment.startswith("not run:") else None
            i = j
            continue
        if m:
            j = i + 1
            code = []
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith("   ")):
                code.append(lines[j][3:])
                j += 1
            if m.group("lang") == lang:
                out.append((i + 1, textwrap.dedent("\n".join(code)).strip("\n") + "\n", reason))
            reason = None
            i = j
            continue
        if line.strip():
            reason = None
        i += 1
    return out


def test_block_parser_reads_not_run_marks():
    text = textwrap.dedent("""\
        Text.

        .. code-block:: python

           a = 1

        ..
           not run: needs a cluster

        .. code-block:: python

           b = 2

        .. code-block:: sh

           make docs
        """)
    assert rst_blocks(text, "python") == [(3, "a = 1\n", None), (10, "b = 2\n", "needs a cluster")]
    assert rst_blocks(text, "sh") == [(14, "make docs\n", None)]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The documentation built with warnings as errors (the command of ``make docs``)."""
    pytest.importorskip("sphinx", reason="Sphinx is not installed (pip install -e '.[docs]' or '.[test]')")
    out = tmp_path_factory.mktemp("docs")
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1", MPLBACKEND="Agg")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          str(DOCS), str(out), "-d", str(out / ".doctrees")],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"sphinx-build -W failed:\n{run.stderr[-4000:]}"
    return out


def test_the_site_builds_with_its_key_pages(site):
    for page in KEY_PAGES:
        assert (site / f"{page}.html").is_file(), page
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in KEY_PAGES[1:9]:
        assert f'href="{page}.html"' in index, f"{page} is not in the index's table of contents"
    plugins = (site / "plugins.html").read_text(encoding="utf-8")
    assert "lssvm_analysis.solvers" in plugins and "lssvm_analysis.papers" in plugins and "X-square" in plugins
    assert "breaks down at" in (site / "report.html").read_text(encoding="utf-8")
    assert "--scheduler" in (site / "cluster.html").read_text(encoding="utf-8")


def _documented(html: str) -> set[str]:
    return set(re.findall(r'<dt class="sig sig-object py" id="([\w.]+)"', html))


def test_the_api_reference_documents_every_public_callable(site):
    import lssvm_analysis.datasets as ds
    import lssvm_analysis.experiments as ex
    import lssvm_analysis.testing as testing

    for module, page, skip in ((la, "toplevel", BY_HAND | {"datasets"}), (testing, "testing", set()),
                               (ds, "datasets", set()), (ex, "experiments", set())):
        ids = _documented((site / "api" / f"{page}.html").read_text(encoding="utf-8"))
        public = {n for n in module.__all__ if callable(getattr(module, n)) and n not in skip}
        missing = sorted(n for n in public if f"{module.__name__}.{n}" not in ids)
        assert not missing, f"api/{page}: no entry for {missing}"
    top = (site / "api" / "toplevel.html").read_text(encoding="utf-8")
    assert all(f'id="lssvm_analysis.{n}"' in top for n in BY_HAND)  # described by hand


def test_python_blocks_run_in_one_namespace(registries_restored):
    ns: dict = {"__name__": "__docs__"}
    ran = 0
    for page in RUN_PAGES:
        for line, code, reason in rst_blocks((DOCS / page).read_text(encoding="utf-8"), "python"):
            where = f"lssvm_analysis/docs/{page}:{line}"
            if reason is not None:
                assert reason, f"{where}: a 'not run' mark must give its reason"
                compile(code, where, "exec")  # not run, but it must at least be Python
                continue
            try:
                exec(compile(code, where, "exec"), ns)  # noqa: S102 - the documentation's own code
            except Exception as exc:  # pragma: no cover - the message is the point
                pytest.fail(f"{where}: the python block raised {type(exc).__name__}: {exc}")
            ran += 1
    assert ran >= 6
    # what the tour's comments say
    assert ns["fit"].status == "ok" and ns["fit"].breakdown is None
    assert ns["ref"].digits >= 30  # reference_solve(..., digits=30) certifies at least that many
    assert ns["r"].shape == (len(ns["y"]),)
    assert ns["yhat"].shape == (len(ns["X_new"]),) and ns["L"].dtype == np.longdouble
    # compare.rst: float32 keeps at most ~7 digits; the exact model is certified to more than the fit has
    err = ns["err"]
    assert 0 < err.model_digits <= 8 and err.exact_digits > err.model_digits and err.choices_agree is None
    assert ns["ex"].digits == err.exact_digits and "svm-eps" in ns["why"] and ns["printed"]
    assert set(ns["cmp"].answers.solver) == {"lssvm-schur", "krr"} and len(ns["cmp"].frame) == 2 * 2 * 3
    # plugins.rst: the solver registered, and the battery ran
    assert "my-krr" in la.solvers() and len(ns["checks"]) > 10


def test_the_sixth_paper_block_is_the_module_test_papers_runs():
    sys.path.insert(0, str(ROOT / "tests"))
    try:
        import test_papers
    finally:
        sys.path.remove(str(ROOT / "tests"))
    blocks = [code for _, code, reason in rst_blocks((DOCS / "plugins.rst").read_text(encoding="utf-8"), "python")
              if "register_paper(" in code]
    assert len(blocks) == 1
    assert blocks[0].strip() == textwrap.dedent(test_papers.SIXTH).strip()


def test_perf_table_between_markers_written_by_readme_table():
    sys.path.insert(0, str(ROOT))
    try:
        from benchmarks import readme_table as rt
    finally:
        sys.path.remove(str(ROOT))
    assert rt.TABLE == DOCS / "performance-table.md"
    text = rt.TABLE.read_text(encoding="utf-8")
    begin, end = text.find(rt.BEGIN), text.find(rt.END)
    assert 0 <= begin < end and text.count(rt.BEGIN) == 1
    # written by benchmarks/readme_table.py from asv result files, never by hand
    assert text[begin:end].split("\n", 2)[1].startswith("Generated by `python benchmarks/readme_table.py`")
    assert "| benchmark | parameters | target | measured | floor / what |" in text[begin:end]
    assert ".. perf-table:: performance-table.md" in (DOCS / "performance.rst").read_text(encoding="utf-8")
