"""``import lssvm_analysis`` and its pytest plugin load none of the heavy dependencies.

The pytest11 entry point makes every pytest run in a user's environment import
``lssvm_analysis.testing``, even a run that never uses it, and pytest then reads every attribute
the module lists (its fixture scan).  Every public name of ``lssvm_analysis`` is imported on first
use (PEP 562), the gates of ``lssvm_analysis.testing`` import the suite at their first call, and
installed solver plugins load at the registry's first use.  Measured in a fresh interpreter from
``python -X importtime`` (every module an import loads) and from ``sys.modules`` after a real
``pytest --co`` with the plugin; what the modules cost in CPU time is not asserted here (no
timed tests: a bare ``pytest --co`` costs the same with and without the plugin, 0.65 CPU-s on the
development machine, against 2.4 before the imports were deferred).
"""
import importlib
import os
import subprocess
import sys

import pytest

HEAVY = ("sklearn", "matplotlib")
#: What the plugin's import must not load: those two, and what ``import lssvm_analysis`` used to load
#: eagerly (scipy.stats through tuning, pandas through cross-validation, the exact models' mpmath,
#: gmpy2 and flint), plus any solver plugin (``lssvm_plugin_example``, when installed).
PLUGIN_HEAVY = HEAVY + ("scipy", "pandas", "mpmath", "gmpy2", "flint", "lssvm_analysis.solvers")


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


def test_the_pytest_plugin_imports_no_numerical_module():
    modules = _imported_modules("import lssvm_analysis.testing")
    assert "lssvm_analysis.testing" in modules
    heavy = sorted(m for m in modules if m.startswith(PLUGIN_HEAVY))
    assert not heavy, f"import lssvm_analysis.testing imported {heavy[:8]}"


_PYTEST_RUN = """
import sys, pytest
code = pytest.main(["--co", "-q", "-p", "no:cacheprovider", "-p", "no:lssvm_analysis",
                    "-p", "lssvm_analysis.testing", {folder!r}])
print(code, sorted(m for m in sys.modules if m.startswith({heavy!r})))
"""


def test_a_pytest_run_that_does_not_use_the_plugin_imports_nothing_heavy(tmp_path):
    """pytest registers the plugin and scans its attributes for fixtures: none of that imports the suite.

    ``-p no:lssvm_analysis -p lssvm_analysis.testing`` loads the plugin by module name, whether or not
    the package's entry point is installed in this environment.
    """
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    code = _PYTEST_RUN.format(folder=str(tmp_path), heavy=PLUGIN_HEAVY)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path,
                         timeout=300)
    last = out.stdout.strip().splitlines()[-1]
    assert last == "5 []", out.stdout[-2000:] + out.stderr[-2000:]   # exit 5: no tests collected


def test_plugins_load_at_the_registrys_first_use():
    """``import lssvm_analysis`` loads no plugin; ``la.solvers()`` does (so they are everywhere)."""
    code = ("import lssvm_analysis as la, lssvm_analysis.solvers._registry as r; a = r._PLUGINS_LOADED[0]; "
            "la.solvers(); print(a, r._PLUGINS_LOADED[0])")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                         check=True)
    assert out.stdout.split() == ["False", "True"]


def test_every_public_name_resolves():
    import lssvm_analysis as la
    import lssvm_analysis.testing as t

    for module in (la, t):
        missing = [n for n in module.__all__ if getattr(module, n, None) is None]
        assert not missing and set(module.__all__) <= set(dir(module)), missing
    assert la.kit is importlib.import_module("lssvm_analysis.solvers.kit") and la.register_solver is la.solvers.register
