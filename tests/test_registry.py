"""Gates of the registry-driven pipeline and of the package's layering.

* A solver registered at run time (an existing one under a new name) reaches
  the conformance battery, asv's benchmark discovery, the sweep planner and
  the report's plan, with no list edited anywhere.
* The import graph of the package has no cycle, no edge from a lower layer
  to a higher one, and no function-level import of the package's own modules.
* No module of ``lssvm_analysis/`` or ``benchmarks/`` uses another module's
  private name.  The rule: a name that starts with one underscore is private
  to the module that defines it; no other module imports it
  (``from m import _x``) or reaches it as an attribute (``m._x``,
  ``pkg.m._x``).  A module whose own name starts with an underscore
  (``solvers/_registry``, ``solvers/_common``, ``arith/_generic``, ...) is
  private to its folder (DESIGN.md): the modules of that folder (and of its
  sub-folders) use its public names; no module outside the folder imports it
  or any name of it.  Dunder names (``__all__``, ``__doc__``) and names of
  other distributions (``os._exit``) are not the package's.
* ``exact/`` is used through its public names only, and ``arith/`` imports
  nothing from ``linalg/`` or a higher floor (the floors of ``LAYERS``).
* The registry's own contract: declared keywords match the functions, the
  example problem of every solver fits, variants are enumerated.
"""
from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from pathlib import Path

import pytest

import lssvm_analysis as la
from lssvm_analysis.solvers import _registry

PACKAGE = Path(la.__file__).parent
THROWAWAY = "throwaway-schur"


@pytest.fixture
def throwaway():
    """lssvm-schur registered again under a new name, removed afterwards."""
    info = la.get_solver("lssvm-schur")
    _registry._SOLVERS[THROWAWAY] = dataclasses.replace(info, name=THROWAWAY)
    try:
        yield la.get_solver(THROWAWAY)
    finally:
        _registry._SOLVERS.pop(THROWAWAY, None)


def test_throwaway_solver_reaches_battery_benchmarks_sweeps_and_report(throwaway):
    # the conformance battery's parametrization is built from the registry
    conformance = importlib.import_module("test_conformance")
    assert any(THROWAWAY in p.values for p in conformance._cases(with_system=True, configs=True))
    assert any(THROWAWAY in p.values for p in conformance._cases())
    # asv's discovery: the SolverFit parameters are the registry at import
    bench = importlib.reload(importlib.import_module("benchmarks.bench_solvers"))
    assert THROWAWAY in bench.SolverFit.params[0]
    # the sweep planner and the report's plan (generic sections)
    from lssvm_analysis.report import sections_appendix, sections_precision

    acc = sections_precision.accuracy_spec("quick")
    assert THROWAWAY in {t.solver for t in acc.tasks()}
    specs = sections_precision.plan("quick", run=lambda spec: None)
    assert THROWAWAY in {t.solver for t in specs["maps"].tasks()}
    assert THROWAWAY in sections_appendix.plan("quick", run=lambda spec: None)["spectra"].solvers
    # and it fits: the example problem the battery uses
    pb = throwaway.example_problem(rng=0)
    assert la.fit(THROWAWAY, pb.X, pb.y, **pb.params).status == "ok"


def test_unregister_removes_a_solver(throwaway):
    _registry.unregister(THROWAWAY)
    assert THROWAWAY not in la.solvers()
    with pytest.raises(la.UnknownSolverError, match=repr(THROWAWAY)):
        la.get_solver(THROWAWAY)


@pytest.mark.parametrize("name", la.solvers())
def test_keywords_are_read_from_the_signature(name):
    """``params`` is every keyword-only parameter of the function but precision, in signature
    order (the registry reads it at registration); the ones without a default are required."""
    info = la.get_solver(name)
    sig = inspect.signature(info.func).parameters
    assert info.params == tuple(k for k, v in sig.items() if v.kind is v.KEYWORD_ONLY and k != "precision")
    required = {k for k, v in sig.items() if v.kind is v.KEYWORD_ONLY and v.default is v.empty}
    assert required <= set(info.required)


@pytest.mark.parametrize("name", la.solvers())
def test_recorded_params_are_keywords_of_the_signature(name):
    """``fit.params`` (what a fit says it ran with) names only keywords of the solver's signature,
    so that the one list, the signature, bounds what any fit records (its values are normalised:
    the kernel by its name and own parameters, a derived rank or tolerance by its value)."""
    info = la.get_solver(name)
    for task in info.tasks:
        pb = info.example_problem(task, n=24, rng=1)
        fit = la.fit(name, pb.X, pb.y, **pb.params)
        assert set(fit.params) <= set(info.params), sorted(set(fit.params) - set(info.params))


def test_register_derives_params_from_a_new_signature():
    def solver(X, y, *, precision="float64", C=1.0, depth=2):
        """A throwaway."""

    try:
        _registry.register(THROWAWAY, tasks=("regression",), paper="p", equations="")(solver)
        assert la.get_solver(THROWAWAY).params == ("C", "depth")
    finally:
        _registry._SOLVERS.pop(THROWAWAY, None)


@pytest.mark.parametrize("name", la.solvers())
def test_every_configuration_of_the_example_problem_fits(name):
    info = la.get_solver(name)
    for task in info.tasks:
        pb = info.example_problem(task, n=30, rng=1)
        for config in info.configurations():
            fit = la.fit(name, pb.X, pb.y, **{**pb.params, **config})
            assert fit.status == "ok", (task, config, fit.status)


def test_variant_enumeration():
    info = la.get_solver("els-primal")
    assert info.default_variant() == {"formation": "blas3"}
    assert info.configurations() == [{"formation": "blas3"}, {"formation": "as-described"}]
    assert info.configuration_label({"formation": "as-described"}) == "els-primal[formation=as-described]"
    assert info.configuration_label({"formation": "blas3"}) == "els-primal"
    literal = [v for v in info.variants if v.literal]
    assert [v.value for v in literal] == ["as-described"]


def test_register_refuses_malformed_entries():
    with pytest.raises(ValueError, match="tasks"):
        _registry.register("x", tasks=("ranking",), paper="p", equations="")
    with pytest.raises(ValueError, match="variant keywords"):
        _registry.register("x", tasks=("regression",), paper="p", equations="",
                           variants=(_registry.variant("ranking", "qr", "d"),))(lambda X, y, *, C=1.0: 0)
    with pytest.raises(ValueError, match="required keywords"):
        _registry.register("x", tasks=("regression",), paper="p", equations="",
                           required=("validation",))(lambda X, y, *, C=1.0: 0)
    with pytest.raises(ValueError, match="already registered"):
        _registry.register("lssvm-schur", tasks=("regression",), paper="p", equations="")(lambda: 0)
    for direct in (("qr", 1), ("cholesky", 0), ("lu",), ("lu", 1.5)):
        with pytest.raises(ValueError, match=r"direct=") as info:
            _registry.register("x", tasks=("regression",), paper="p", equations="", direct=direct)
        assert repr(direct) in str(info.value)


def test_a_declared_direct_solve_matches_what_the_solver_does():
    """``direct`` (which bench_floors' bare-LAPACK floors are derived from) must say what the fit does:
    its float64 condition estimate comes from the same factorization (dpocon after dpotrf for
    "cholesky", dgecon after dgetrf for "lu"), and two right-hand sides are the Schur elimination
    (H eta = 1, H nu = y, then s = 1^T eta, recorded as ``s``)."""
    declared = {n: la.get_solver(n).direct for n in la.solvers() if la.get_solver(n).direct}
    assert declared, "no solver declares a dense direct solve"
    estimator = {"cholesky": "dpocon", "lu": "dgecon"}
    for name, (factorization, k) in declared.items():
        info = la.get_solver(name)
        pb = info.example_problem(info.tasks[0], n=20, rng=1)
        fit = la.fit(name, pb.X, pb.y, **pb.params)
        assert estimator[factorization] in fit.diagnostics["kappa_method"], (name, fit.diagnostics["kappa_method"])
        assert (k == 2) == ("s" in fit.diagnostics), (name, k)


# --------------------------------------------------------------------------- #
# the import graph
# --------------------------------------------------------------------------- #
#: Layer of each top-level part of the package (DESIGN.md): a module may import
#: only modules of its own layer or of lower layers.
LAYERS = {"core": 0, "arith": 1, "exact": 2, "linalg": 3, "solvers": 4, "analysis": 5, "estimators": 6,
          "datasets": 7, "experiments": 8, "report": 9, "cli": 9}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _from_target(node, package: str) -> str:
    """The absolute name of the module a ``from ... import`` statement in ``package`` imports from."""
    if not node.level:
        return node.module or ""
    base = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join(base + ([node.module] if node.module else []))


def _imports(path: Path):
    """(imported module, at module level?) for every import of the package's own modules."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    top = {id(n) for n in tree.body}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _from_target(node, package)
            if target.split(".")[0] != "lssvm_analysis":
                continue
            mods = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            for m in mods:
                yield m, id(node) in top
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "lssvm_analysis":
                    yield a.name, id(node) in top


def _graph():
    files = sorted(PACKAGE.rglob("*.py"))
    modules = {_module_name(f): f for f in files}
    edges, nested = {}, []
    for mod, f in modules.items():
        out = set()
        for target, top_level in _imports(f):
            while target not in modules and "." in target:  # "from pkg import name": the package
                target = target.rsplit(".", 1)[0]
            if target in modules and target != mod:
                out.add(target)
                if not top_level:
                    nested.append((mod, target))
        edges[mod] = out
    return edges, nested


def _layer(mod: str):
    parts = mod.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def test_import_graph_has_no_upward_edge_and_no_nested_import():
    edges, nested = _graph()
    assert not nested, f"function-level imports of the package's own modules: {nested}"
    upward = [(a, b) for a, targets in edges.items() for b in targets
              if _layer(a) is not None and _layer(b) is not None and _layer(b) > _layer(a)]
    assert not upward, f"imports from a lower layer to a higher one: {upward}"


def test_import_graph_has_no_cycle():
    edges, _ = _graph()
    # the package's own __init__ modules re-export their children: a child importing its
    # package for a name is an edge to the parent, kept; the root re-exports everything
    edges = {m: {t for t in ts if t != "lssvm_analysis"} for m, ts in edges.items()}
    state, stack, cycles = {}, [], []

    def visit(m):
        state[m] = "active"
        stack.append(m)
        for t in sorted(edges.get(m, ())):
            if state.get(t) == "active":
                cycles.append(stack[stack.index(t):] + [t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = "done"

    for m in sorted(edges):
        if m not in state:
            visit(m)
    assert not cycles, f"import cycles: {cycles[:5]}"


def test_task_kinds_register_without_the_report():
    """``import lssvm_analysis.experiments`` alone registers every task kind (a Dask worker or a
    user script never imports ``report``): the set is the one a process that imports the whole
    package sees, and a cz-fit spec validates in that fresh process (issue 23)."""
    import subprocess
    import sys

    code = ("import lssvm_analysis.experiments as E; a = sorted(E.task_kinds());"
            "E.SweepSpec('cz', kind='cz-fit', solvers=['sr-lssvm'], precisions=['float64'],"
            " datasets=['sinc']).validate();"
            "import lssvm_analysis.report, lssvm_analysis.cli; b = sorted(E.task_kinds());"
            "assert a == b, sorted(set(b) - set(a)); print(len(a))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) >= 15


def test_registrations_are_the_package_init_import_lines():
    """Every solver module that registers is imported by one line of solvers/__init__.py, and no
    solver module imports a sibling for its registrations (``from . import x`` hid two)."""
    folder = PACKAGE / "solvers"
    registering, hidden = set(), []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text())
        if path.name != "__init__.py":
            hidden += [f"{path.name}:{n.lineno}" for n in ast.walk(tree)
                       if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module is None]
        if any(isinstance(d, ast.Call) and getattr(d.func, "id", None) == "register"
               for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) for d in n.decorator_list):
            registering.add(path.stem)
    init = ast.parse((folder / "__init__.py").read_text())
    imported = {a.name for n in init.body if isinstance(n, ast.ImportFrom) and n.level == 1
                and n.module is None for a in n.names}
    assert not hidden
    assert registering and registering <= imported, sorted(registering - imported)


# --------------------------------------------------------------------------- #
# private names stay in their module
# --------------------------------------------------------------------------- #
ROOTS = (PACKAGE, PACKAGE.parent / "benchmarks")


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node):
    """"a.b.c" for a chain of names and attributes, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _private_uses(tree, name, modules):
    """(line, "module._name") for each use in ``tree`` (of module ``name``) of another module's private name.

    ``modules`` maps every module name of the checked packages to its file.
    """
    package = name if modules[name].name == "__init__.py" else name.rsplit(".", 1)[0]
    bound = {}  # local name -> the package module it is
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _from_target(node, package)
            if target not in modules:
                continue
            for a in node.names:
                sub = f"{target}.{a.name}"
                if sub in modules:
                    bound[a.asname or a.name] = sub
                elif _private(a.name) and target != name:
                    found.append((node.lineno, sub))
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules or a.name.split(".")[0] in modules:
                    local = a.asname or a.name.split(".")[0]
                    bound[local] = a.name if a.asname else a.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            chain = _dotted(node.value)
            if chain is None or chain.split(".")[0] not in bound:
                continue
            owner = ".".join([bound[chain.split(".")[0]], *chain.split(".")[1:]])
            if owner in modules and owner != name and f"{owner}.{node.attr}" not in modules:
                found.append((node.lineno, f"{owner}.{node.attr}"))
    return found


def _all_modules():
    files = {}
    for root in ROOTS:
        for f in sorted(root.rglob("*.py")):
            parts = list(f.relative_to(root.parent).with_suffix("").parts)
            files[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    return files


def _uses_everywhere(check) -> list:
    """``check(tree, name, modules)`` over every module of the checked packages, as "path:line: use"."""
    modules = _all_modules()
    return [f"{f.relative_to(PACKAGE.parent)}:{line}: {use}" for name, f in modules.items()
            for line, use in check(ast.parse(f.read_text(encoding="utf-8")), name, modules)]


def test_no_module_uses_another_modules_private_name():
    found = _uses_everywhere(_private_uses)
    assert not found, "private names used outside their module:\n" + "\n".join(found)


def _private_module(mod: str) -> str | None:
    """The folder (package) a module is private to: its own name starts with ``_`` (else None)."""
    head, _, last = mod.rpartition(".")
    return head if _private(last) else None


def _private_module_uses(tree, name, modules):
    """(line, module) for each import in ``tree`` (of module ``name``) of a module private to a
    folder that ``name`` is not in, or of a name of such a module."""
    package = name if modules[name].name == "__init__.py" else name.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            target = _from_target(node, package)
            targets = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
            targets += [target] if target in modules and len(targets) < len(node.names) else []
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names if a.name in modules]
        else:
            continue
        for t in targets:
            # the target itself or any package on its path may be private to its folder
            parts = t.split(".")
            for i in range(2, len(parts) + 1):
                folder = _private_module(".".join(parts[:i]))
                if folder is not None and not (name == folder or name.startswith(folder + ".")):
                    found.append((node.lineno, t))
                    break
    return found


def test_no_module_imports_a_module_private_to_another_folder():
    found = _uses_everywhere(_private_module_uses)
    assert not found, "modules private to their folder imported from outside it:\n" + "\n".join(found)


def test_private_module_check_sees_every_form():
    """The folder rule finds a private module imported from another folder, by either form, and
    lets its own folder (and sub-folders) use it."""
    modules = {m: Path(m.replace(".", "/") + ".py") for m in
               ("lssvm_analysis.solvers._common", "lssvm_analysis.solvers.suykens",
                "lssvm_analysis.analysis.tuning", "lssvm_analysis.solvers.sub.x")}
    src = ("from ..solvers._common import validate_xy\n"        # 1: a name of a private module
           "from ..solvers import _common\n"                    # 2: the private module itself
           "import lssvm_analysis.solvers._common\n"            # 3: absolute
           "from ..solvers.suykens import fit_kkt\n")           # public: allowed
    assert _private_module_uses(ast.parse(src), "lssvm_analysis.analysis.tuning", modules) == [
        (1, "lssvm_analysis.solvers._common"), (2, "lssvm_analysis.solvers._common"),
        (3, "lssvm_analysis.solvers._common")]
    inside = "from .._common import validate_xy\n"
    assert _private_module_uses(ast.parse(inside), "lssvm_analysis.solvers.sub.x", modules) == []


def test_exact_is_used_through_public_names_and_arith_stays_below_linalg():
    """No module outside ``exact/`` imports a name of it that is private or not in its module's
    ``__all__``; nothing in ``arith/`` imports ``linalg/`` or a higher floor."""
    modules = _all_modules()
    exported = {}
    for mod, f in modules.items():
        if mod.startswith("lssvm_analysis.exact"):
            exported[mod] = set(importlib.import_module(mod).__all__)
    found = []
    for name, f in modules.items():
        if name.startswith("lssvm_analysis.exact"):
            continue
        package = name if f.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                target = _from_target(node, package)
                if target in exported:
                    found += [f"{name}:{node.lineno}: {target}.{a.name}" for a in node.names
                              if f"{target}.{a.name}" not in modules and a.name not in exported[target]]
    assert not found, "names of exact/ outside its __all__ imported from outside it:\n" + "\n".join(found)
    edges, _ = _graph()
    up = [(a, b) for a, targets in edges.items() if _layer(a) == LAYERS["arith"]
          for b in targets if _layer(b) is not None and _layer(b) >= LAYERS["linalg"]]
    assert not up, f"arith/ imports linalg/ or higher: {up}"


def test_private_name_check_sees_every_form():
    """The walker finds the forms it must (a check that cannot fail would prove nothing)."""
    modules = {m: Path(m.replace(".", "/") + (".py" if m != "lssvm_analysis.solvers" else "/__init__.py"))
               for m in ("lssvm_analysis.solvers", "lssvm_analysis.solvers.suykens",
                         "lssvm_analysis.solvers.vieira", "lssvm_analysis.solvers._common")}
    src = ("from .suykens import _coef, fit_kkt\n"          # 1: a private name, relative
           "from lssvm_analysis.solvers.suykens import _form\n"  # 2: absolute
           "from . import suykens as S, _common\n"          # a private *module*: allowed
           "import lssvm_analysis.solvers.suykens\n"
           "S._signs_like\n"                                 # 5: attribute of an alias
           "lssvm_analysis.solvers.suykens._solution\n"      # 6: attribute of a dotted path
           "_common.validate_xy, S.__doc__, S.fit_kkt\n"     # allowed
           "def _own(): pass\n"
           "_own()\n")
    found = _private_uses(ast.parse(src), "lssvm_analysis.solvers.vieira", modules)
    assert found == [(1, "lssvm_analysis.solvers.suykens._coef"), (2, "lssvm_analysis.solvers.suykens._form"),
                     (5, "lssvm_analysis.solvers.suykens._signs_like"),
                     (6, "lssvm_analysis.solvers.suykens._solution")], found


# --------------------------------------------------------------------------- #
# docstrings
# --------------------------------------------------------------------------- #
def test_every_solver_precision_and_public_name_has_a_docstring():
    """A registered solver (its function and its registry description), a registered precision's
    class and every public function or class of ``la`` says what it is: ``__doc__`` is not empty
    (a docstring built as a string sum is an expression, and ``__doc__`` is None)."""
    missing = [f"solver {n}: function" for n in la.solvers()
               if not (inspect.getdoc(la.get_solver(n).func) or "").strip()]
    missing += [f"solver {n}: description" for n in la.solvers() if not la.get_solver(n).description.strip()]
    missing += [f"precision {n}: {type(la.get_precision(n)).__name__}" for n in la.precisions()
                if not (inspect.getdoc(type(la.get_precision(n))) or "").strip()]
    public = [n for n in la.__all__ if inspect.isfunction(getattr(la, n)) or inspect.isclass(getattr(la, n))]
    missing += [f"la.{n}" for n in public if not (inspect.getdoc(getattr(la, n)) or "").strip()]
    assert len(public) >= 40
    assert not missing, missing
