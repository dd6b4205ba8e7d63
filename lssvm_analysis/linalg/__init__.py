"""Floor 1c, the algorithms written once over a ``Precision``: kernels, CG, QR, MRSR, incomplete
and pivoted Cholesky, condition numbers and estimates, memory guards.

Imports only :mod:`lssvm_analysis.core`, :mod:`lssvm_analysis.arith` and :mod:`lssvm_analysis.exact`.
"""
