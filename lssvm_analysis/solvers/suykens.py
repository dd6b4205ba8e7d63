"""Suykens ch. 3 solvers (placeholder: being written)."""
