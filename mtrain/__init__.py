"""mtrain: Mexican Train as a formal specification, a reference engine and a conformance suite.

The distribution installs one namespace: ``mtrain.spec`` (the rules as data),
``mtrain.reference`` (the engine) and ``mtrain.conformance`` (fixtures and harness).
"""

from pathlib import Path as _Path

__version__ = "0.1.0"

# Run from the root of a clone (`python -m pytest`, `python -m mtrain`), Python finds this
# folder before the installed package, and the three folders that the install maps to
# mtrain.spec, mtrain.reference and mtrain.conformance sit beside it: look there too.
_clone = _Path(__file__).resolve().parent.parent
if (_clone / "pyproject.toml").is_file() and (_clone / "conformance" / "__init__.py").is_file():
    __path__.append(str(_clone))
