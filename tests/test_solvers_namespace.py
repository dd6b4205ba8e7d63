"""``lssvm_analysis.solvers`` is both the subpackage and the call that lists the registered solvers."""
import importlib

import lssvm_analysis as la
import lssvm_analysis.solvers.multiclass as m
from lssvm_analysis.solvers import solvers as list_solvers


def test_submodules_import_through_the_callable_package():
    assert m is importlib.import_module("lssvm_analysis.solvers.multiclass") is la.solvers.multiclass
    assert m.fit_multiclass is la.fit_multiclass


def test_calling_the_package_lists_the_registry():
    assert la.solvers() == list_solvers() and "lssvm-schur" in la.solvers()
    assert la.solvers("regression") == list_solvers("regression")
    assert la.solvers(paper="baseline") == list_solvers(paper="baseline")
