"""One conformance battery over the solver registry x the precision registry.

The checks themselves live in the package (:mod:`lssvm_analysis.testing.checks`),
so that a user's CI runs the very battery this project runs on its own solvers
(``lssvm_analysis.testing.check_solver(name)``); here they are parametrized over
the registries, so a new solver or precision is tested by adding one registry line:

* its solution agrees with ``reference_solve`` of the very system it formed
  (in its own precision) to c * kappa * u;
* its coefficients are in the precision's dtype;
* it never modifies the caller's arrays;
* two identical fits are identical, bit for bit;
* bad hyper-parameters and data raise typed errors that name the argument;
* its exact-model hook (``SolverInfo.exact_model``) agrees with a run of the
  solver in mp40, within the certified digits of the exact model.

(The peak-memory check of the battery runs in ``tests/test_peak_memory.py``, at two larger sizes.)
"""
import pytest

import lssvm_analysis as la
from lssvm_analysis.testing import checks, solver_checks

SOLVERS = la.solvers()


def _cases(with_system=False, *, configs=False):
    """(solver, precision[, variant configuration]) over the registries: nothing is listed by hand."""
    out = []
    for name in la.solvers():  # read at call time: a solver registered later is included
        info = la.get_solver(name)
        if with_system and info.system is None:
            continue
        for prec in info.supported_precisions():
            if configs:
                out += [pytest.param(name, prec, cfg, id=f"{info.configuration_label(cfg)}-{prec}")
                        for cfg in info.configurations()]
            else:
                out.append(pytest.param(name, prec, id=f"{name}-{prec}"))
    return out


@pytest.mark.parametrize("C", [10.0, 1e4])
@pytest.mark.parametrize("name, precision, config", _cases(with_system=True, configs=True))
def test_solution_matches_certified_reference(name, precision, config, C, rng):
    checks.check_matches_reference(name, precision, config, C, rng)


@pytest.mark.parametrize("name, precision", _cases())
def test_coefficients_keep_dtype_and_inputs_untouched(name, precision, rng):
    checks.check_dtype_and_inputs_untouched(name, precision, rng)


@pytest.mark.parametrize("name, precision", _cases())
def test_two_identical_fits_are_identical(name, precision, rng):
    checks.check_deterministic(name, precision, rng)


@pytest.mark.parametrize("bad, argname", checks.BAD_HYPERPARAMETERS)
@pytest.mark.parametrize("name", SOLVERS)
def test_bad_hyperparameters_raise_named_errors(name, bad, argname, rng):
    if argname != "precision" and not la.get_solver(name).accepts(argname):
        pytest.skip(f"{name} takes no {argname}")
    checks.check_bad_hyperparameter(name, bad, argname, rng)


@pytest.mark.parametrize("name", SOLVERS)
def test_bad_data_raise_named_errors(name, rng):
    checks.check_bad_data(name, rng)


def test_unknown_solver_is_named():
    checks.check_unknown_solver("lssvm-nope")


@pytest.mark.parametrize("name", [n for n in SOLVERS if la.get_solver(n).precisions is not None])
def test_undeclared_precision_is_refused_by_name(name, rng):
    checks.check_undeclared_precision(name, rng)


@pytest.mark.parametrize("name", [n for n in SOLVERS if la.get_solver(n).variants])
def test_unknown_variant_is_refused_by_name(name, rng):
    checks.check_unknown_variant(name, rng)


def _exact_cases():
    """Every registered solver with an exact-model hook, in every configuration (registry-driven)."""
    out = []
    for name in la.solvers():
        info = la.get_solver(name)
        if info.exact_model is not None and info.supports_precision("mp40"):
            out += [pytest.param(name, cfg, id=info.configuration_label(cfg))
                    for cfg in info.configurations()]
    return out


@pytest.mark.parametrize("name, config", _exact_cases())
def test_exact_model_hook_matches_an_mp_run(name, config, rng):
    checks.check_exact_model_hook(name, config, rng)


def test_solver_checks_cover_every_check_the_registry_asks_for():
    """check_solver's list is the battery above, read from the registry entry."""
    for name in SOLVERS:
        info = la.get_solver(name)
        labels = [label for label, _ in solver_checks(name)]
        assert ("unknown_variant" in labels) == bool(info.variants)
        assert any(s.startswith("exact_model_hook") for s in labels) == (
            info.exact_model is not None and info.supports_precision("mp40"))
        assert any(s.startswith("matches_reference") for s in labels) == (info.system is not None)
        assert sum(s.startswith("deterministic") for s in labels) == len(info.supported_precisions())
        assert any(s.startswith("peak_memory") for s in labels) == (info.peak is not None)
        assert sum(s.startswith("time_model") for s in labels) == (
            len(info.supported_precisions()) if info.time is not None else 0)
