"""The reference engine."""
