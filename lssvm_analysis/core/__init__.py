"""Layer 1, the numerics core: precisions, kernels, shared linear algebra, validation, records, exceptions.

Imports nothing else of the package.
"""
