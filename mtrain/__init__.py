"""mtrain: Mexican Train as a formal specification, a reference engine and a conformance suite.

The distribution installs one namespace: ``mtrain.spec`` (the rules as data),
``mtrain.reference`` (the engine) and ``mtrain.conformance`` (fixtures and harness).
"""

__version__ = "0.1.0"
