"""Abe's ELS SVR solvers (placeholder: being written)."""
