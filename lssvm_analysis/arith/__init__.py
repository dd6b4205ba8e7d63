"""Floor 1a, the arithmetics: one ``Precision`` object per arithmetic (float32, float64 on LAPACK,
longdouble, mpN on FLINT with mpmath as the reference engine) and their dense primitives.

Imports only :mod:`lssvm_analysis.core`.
"""
