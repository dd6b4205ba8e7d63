"""A precision registered from outside the package is known by what it can do.

A user adds float16 with one short class and ``register_precision``, importing only public names.
Then ``precision_of`` finds it through the registry, the memory guard keys it by its engine and
word size, and every registered solver either runs in it or refuses it at fit time with the typed
error its registration declares: ``UnsupportedPrecisionError`` (the solver's ``precisions``, or a
peak that neither measured nor bounds its word size).  A class that lacks a required primitive is
refused when it is registered, with an error naming the primitive, not later with a TypeError at
its first fit.
"""
import numpy as np
import pytest

import lssvm_analysis as la
from lssvm_analysis.arith.precision import (GenericPrecision, NativeDtype, precision_of, register_precision,
                                            unregister_precision)
from lssvm_analysis.core.exceptions import IncompletePrecisionError, UnknownPrecisionError, UnsupportedPrecisionError
from lssvm_analysis.linalg.memory import memory_key
from lssvm_analysis.testing.checks import check_peak_memory


class Float16(NativeDtype, GenericPrecision):
    """IEEE half precision on NumPy's loops; eigenvalues by LAPACK in float64, rounded."""

    engine = "numpy"

    def __init__(self):
        self.name, self.dtype = "float16", np.dtype(np.float16)
        self.unit_roundoff = float(np.finfo(np.float16).eps) / 2

    def asarray(self, a):
        a = np.asarray(a)
        if a.dtype == object:
            a = np.array([float(v) for v in a.flat]).reshape(a.shape)
        return a.astype(self.dtype, copy=False)

    def eigvalsh(self, A, *, check=True):
        A = self._prepare(A, "A", check=check, symmetric=True)
        return self.asarray(np.linalg.eigvalsh(A.astype(np.float64)))


@pytest.fixture
def float16():
    register_precision("float16", Float16)
    try:
        yield la.get_precision("float16")
    finally:   # the other tests use float16 as the example of an unknown precision
        unregister_precision("float16")


def test_precision_of_asks_the_registry(float16):
    assert precision_of(np.zeros(3, dtype=np.float16)) is float16
    assert precision_of(np.zeros(3)).name == "float64"   # the built-ins are found first
    assert memory_key(float16) == "sw2" and memory_key("longdouble") == f"sw{np.dtype(np.longdouble).itemsize}"


def test_unregistered_float16_is_unknown():
    with pytest.raises(UnknownPrecisionError, match="dtype=float16"):
        precision_of(np.zeros(3, dtype=np.float16))


def test_every_solver_runs_in_it_or_refuses_it_at_fit_time(float16):
    ran, refused = [], []
    for name in la.solvers():
        info = la.get_solver(name)
        pb = info.example_problem(n=30, rng=np.random.default_rng(0))
        try:
            fit = la.fit(name, pb.X, pb.y, precision="float16", **pb.params)
        except UnsupportedPrecisionError as err:
            # declared: the registration's precisions, or its peak (the guard, before any allocation)
            assert "float16" in str(err)
            declared = not info.supports_precision("float16")
            if not declared:
                with pytest.raises(UnsupportedPrecisionError):
                    info.peak.terms_for("float16")
            refused.append(name)
            continue
        assert fit.precision == "float16", name
        if fit.coef_ is not None and fit.status == "ok":
            assert np.asarray(fit.coef_).dtype == np.float16, name
        ran.append(name)
    assert sorted(ran + refused) == sorted(la.solvers())
    # the five that raised UnknownPrecisionError inside the fit before precision_of asked the registry
    assert {"lssvm-cg", "ip-lssvm", "pcp-lssvm", "sr-lssvm", "fs-lssvm"} <= set(ran)


def test_bounded_peaks_hold_the_measured_peak(float16):
    """float16 runs the generic loops as longdouble does: its declared peak is longdouble's bytes
    (a bound, ``_bound_from``), which must hold what tracemalloc measures of its fits."""
    for name in ("lssvm-schur", "lssvm-kkt", "lssvm-cg", "pcp-lssvm", "fs-lssvm"):
        check_peak_memory(name, "float16")


def test_a_precision_without_eigvalsh_is_refused_when_registered():
    class NoEig(NativeDtype, GenericPrecision):
        def asarray(self, a):
            return np.asarray(a, dtype=np.float16)

    with pytest.raises(IncompletePrecisionError, match="eigvalsh") as err:
        register_precision("float16-noeig", NoEig)
    assert err.value.missing == ("eigvalsh",) and isinstance(err.value, TypeError)
    assert "float16-noeig" not in la.precisions()


def test_a_factory_that_forgets_an_attribute_is_named():
    class NoRoundoff(Float16):
        def __init__(self):
            self.name, self.dtype = "float16-nou", np.dtype(np.float16)

    register_precision("float16-nou", NoRoundoff)
    try:
        with pytest.raises(IncompletePrecisionError, match="unit_roundoff"):
            la.get_precision("float16-nou")
    finally:
        unregister_precision("float16-nou")
