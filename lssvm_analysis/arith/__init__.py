"""Floor 1a, the arithmetics: one ``Precision`` object per arithmetic (float32, float64 on LAPACK,
longdouble, mpN on FLINT with mpmath as the reference engine) and their dense primitives.

``base`` (the ``Precision`` primitives and the registry), one module per arithmetic (``lapack``,
``longdouble``, ``mp``, ``mp_flint``), ``precision`` (registers them; the names users import),
the FLINT engine by job (``flint_engine``: conversions and products, ``flint_factor``:
factorizations, ``flint_arb``: ``arb_mat`` helpers) over the one ctypes module ``_libflint``,
and ``_generic`` (the NumPy loops of longdouble and mpN on mpmath).

Imports only :mod:`lssvm_analysis.core`.
"""
