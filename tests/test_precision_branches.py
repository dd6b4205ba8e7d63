"""The precision decides, callers don't ask: no ``dtype == object`` branch above the numeric floors.

Which arithmetic an array is in, and which primitive serves it (LAPACK, NumPy's loops, FLINT,
mpmath), is the knowledge of the numeric floors (``core/``, ``arith/``, ``exact/``, ``linalg/``): the
:class:`~lssvm_analysis.Precision` methods (``to_float64``, ``expit``, ``nonzero``, ``eigh``, ...) and
the validation helpers.  A module above them that compares a dtype with ``object`` re-decides it;
this test walks the AST of every module of the package and of the benchmarks for such a comparison.
"""
from __future__ import annotations

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "lssvm_analysis"
#: The floors that own the arithmetic (DESIGN.md floors 0 and 1a-1c).
NUMERIC_FLOORS = ("core", "arith", "exact", "linalg")
SOURCES = sorted(p for p in [*PACKAGE.rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")]
                 if not any(PACKAGE / f in p.parents for f in NUMERIC_FLOORS))


def _is_object(node) -> bool:
    """``object``, ``np.object_`` or ``np.dtype(object)``/``np.dtype("O")``."""
    if isinstance(node, ast.Name):
        return node.id == "object"
    if isinstance(node, ast.Attribute):
        return node.attr in ("object_", "object")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "dtype":
        return len(node.args) == 1 and (_is_object(node.args[0]) or
                                        isinstance(node.args[0], ast.Constant) and node.args[0].value == "O")
    return False


def _is_dtype(node) -> bool:
    """``<expr>.dtype`` (the left or right side of the comparison)."""
    return isinstance(node, ast.Attribute) and node.attr == "dtype"


def object_comparisons(tree) -> list[int]:
    """Lines of the ``x.dtype ==/!=/is/is not object`` comparisons in ``tree``."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for (a, b), op in zip(zip(operands, operands[1:]), node.ops):
            if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)) and (
                    _is_dtype(a) and _is_object(b) or _is_dtype(b) and _is_object(a)):
                lines.append(node.lineno)
    return lines


def test_the_walk_finds_every_spelling():
    src = ("a.dtype == object\nobject != b.dtype\nc.dtype is np.object_\nd.dtype is not np.dtype('O')\n"
           "e.dtype == np.float64\nf.dtype.kind == 'f'\n")
    assert object_comparisons(ast.parse(src)) == [1, 2, 3, 4]


def test_the_walk_covers_the_package():
    assert len(SOURCES) > 50
    assert not any(p.relative_to(PACKAGE).parts[0] in NUMERIC_FLOORS for p in SOURCES if PACKAGE in p.parents)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_dtype_object_branch_above_the_numeric_floors(path):
    found = object_comparisons(ast.parse(path.read_text(), filename=str(path)))
    assert not found, (f"{path.relative_to(ROOT)} compares a dtype with object at lines {found}: "
                       "ask the precision (lssvm_analysis.arith) instead")
