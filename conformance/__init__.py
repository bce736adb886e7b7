"""Conformance fixtures and the harness that runs them."""
