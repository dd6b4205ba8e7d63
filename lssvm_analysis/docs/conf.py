"""Sphinx configuration of the lssvm_analysis site (``make docs``).

Built offline: no intersphinx, no theme or script from the network (the
default alabaster theme ships with Sphinx).  The API pages are generated from
the docstrings (autodoc; napoleon reads their numpydoc sections).  Warnings
are errors (``sphinx-build -W``), so a docstring whose markup breaks the
page fails the build.

The sources live in the package folder (``lssvm_analysis/docs/``, not a
Python package: no ``__init__``); the site is written to ``build/docs/``.
"""
from __future__ import annotations

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))  # the package of this checkout, not an installed copy
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MPLBACKEND", "Agg")

import lssvm_analysis  # noqa: E402  (after the path is set)

project = "lssvm_analysis"
author = "the lssvm_analysis authors"
copyright = "the lssvm_analysis authors, BSD-3-Clause"  # noqa: A001 - Sphinx's name
version = release = lssvm_analysis.__version__

extensions = ["sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build"]
templates_path: list[str] = []
html_static_path: list[str] = []
html_theme = "alabaster"
html_title = f"lssvm_analysis {release}"
# No intersphinx, no external images: the build never touches the network.

# The docstrings are numpydoc: napoleon turns their sections into fields.
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": False}
# Docstrings quote the papers' symbols with single backticks (`X`), as plain text.
default_role = "literal"
# An "Attributes" section becomes fields of its class (not a second description of a
# dataclass field that autodoc documents as well).
napoleon_use_ivar = True


_LITERAL = re.compile(r"(``.+?``|`[^`]+`)")


def _pipes_as_text(app, what, name, obj, options, lines):
    """``|x|`` in a docstring is an absolute value or a norm (plain text), never a substitution.

    The docstrings are plain text with numpydoc sections; reStructuredText would read
    ``|f(x)|`` as an undefined substitution.  Escape every ``|`` outside a literal, and
    leave a line that starts a line block or a grid table (``| `` or ``+-`` first) as written.
    """
    for i, line in enumerate(lines):
        if "|" not in line or line.lstrip().startswith(("| ", "+-", "+=")):
            continue
        parts = _LITERAL.split(line)
        lines[i] = "".join(p if k % 2 else p.replace("|", r"\|") for k, p in enumerate(parts))


def _skip_foreign(app, what, name, obj, skip, options):
    """Skip members scikit-learn generates on the estimators (``set_fit_request`` & co.):
    their docstrings point into scikit-learn's own glossary, which this site does not have."""
    if getattr(obj, "__module__", None) and str(obj.__module__).startswith("sklearn"):
        return True
    return None


def markdown_table_to_rst(text: str) -> list[str]:
    """reStructuredText lines of the performance table's Markdown (``performance-table.md``).

    What ``benchmarks/readme_table.py`` writes: HTML comments and the markers (dropped),
    prose lines (kept: their `code` spans are literals under ``default_role``), and one
    pipe table (turned into a ``list-table``).
    """
    out: list[str] = []
    in_comment = False
    for line in text.splitlines():
        stripped = line.strip()
        if in_comment or stripped.startswith("<!--"):
            in_comment = "-->" not in stripped
            continue
        if not stripped.startswith("|"):
            # a word ending in "_" (asv's result file names) would be a reference: escape it
            parts = _LITERAL.split(line)
            out.append("".join(p if k % 2 else re.sub(r"_(?![A-Za-z0-9])", r"\\_", p)
                               for k, p in enumerate(parts)))
            continue
        cells = [c.strip() for c in stripped.strip("|").split("|")]
        if all(set(c) <= set("-: ") for c in cells):
            continue  # the header's rule
        if not out or not out[-1].startswith(("   * -", "     -")):
            out += ["", ".. list-table::", "   :header-rows: 1", ""]
        out += [f"   * - {cells[0]}"] + [f"     - {c}" for c in cells[1:]]
    return out + [""]


#: The line of a page that stands for the performance table (``performance.rst``).
PERF_TABLE = ".. perf-table:: performance-table.md"


def _perf_table(app, docname, source):
    """Put the table of ``performance-table.md`` where a page has :data:`PERF_TABLE`."""
    if PERF_TABLE not in source[0]:
        return
    path = HERE / PERF_TABLE.split("::")[1].strip()
    text = path.read_text(encoding="utf-8")
    if "<!-- perf-table:begin -->" not in text or "<!-- perf-table:end -->" not in text:
        raise ValueError(f"expected the perf-table markers in {path}, got a file without them")
    app.env.note_dependency(str(path))
    source[0] = source[0].replace(PERF_TABLE, "\n".join(markdown_table_to_rst(text)))


def setup(app):
    app.connect("autodoc-process-docstring", _pipes_as_text)
    app.connect("autodoc-skip-member", _skip_foreign)
    app.connect("source-read", _perf_table)
