"""The public API is fully annotated: every function of ``lssvm_analysis.__all__`` annotates each of its
named parameters and its return, and the annotations resolve (``typing.get_type_hints``), so a type
checker and the documentation read them."""
from __future__ import annotations

import inspect
import typing

import pytest

import lssvm_analysis as la

_FUNCTIONS = sorted(n for n in la.__all__ if inspect.isfunction(getattr(la, n)))


def test_the_public_functions_are_listed():
    assert len(_FUNCTIONS) >= 30 and {"fit", "model_error", "compare", "tune", "rbf_kernel"} <= set(_FUNCTIONS)


@pytest.mark.parametrize("name", _FUNCTIONS)
def test_public_function_is_fully_annotated(name):
    func = getattr(la, name)
    sig = inspect.signature(func)
    missing = [p.name for p in sig.parameters.values()
               if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.annotation is inspect.Parameter.empty]
    assert not missing, f"{name}: parameters without an annotation: {missing}"
    assert sig.return_annotation is not inspect.Signature.empty, f"{name}: no return annotation"
    typing.get_type_hints(func)  # every name an annotation uses is importable where the function lives
