"""``import lssvm_analysis`` and its pytest plugin load neither scikit-learn nor matplotlib.

The pytest11 entry point makes every pytest run in a user's environment import
``lssvm_analysis.testing``, even a run that never uses it: scikit-learn (the estimators, the LIBSVM
baselines) and matplotlib (the report) are imported on first use.  Measured in a fresh interpreter
from ``python -X importtime``, which lists every module an import loads.
"""
import os
import subprocess
import sys

import pytest

HEAVY = ("sklearn", "matplotlib")


def _imported_modules(statement: str) -> set[str]:
    """The modules ``python -X importtime -c statement`` loads (its stderr: one line per module)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run([sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True,
                         env=env, check=True, timeout=300)
    rows = [line.split("|")[-1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")]
    assert rows and rows[0] == "imported package", out.stderr[:500]   # the header, then one row per module
    return set(rows[1:])


@pytest.mark.parametrize("statement", ["import lssvm_analysis", "import lssvm_analysis.testing"])
def test_import_loads_neither_sklearn_nor_matplotlib(statement):
    modules = _imported_modules(statement)
    assert "lssvm_analysis" in modules   # the parse saw the import itself
    heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
    assert not heavy, f"{statement} imported {heavy[:5]}"


def test_lazy_names_still_resolve():
    """The names made lazy are there on first use (and then load what they need)."""
    modules = _imported_modules("import lssvm_analysis as la; la.LSSVMClassifier; la.compare")
    assert "sklearn" in modules and "matplotlib" in modules
    import lssvm_analysis as la

    assert la.LSSVMClassifier.__module__ == "lssvm_analysis.estimators" and la.estimators.ELSRegressor is la.ELSRegressor
    assert {"LSSVMClassifier", "estimators", "compare"} <= set(dir(la))
