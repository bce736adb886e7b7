"""mtrain: Mexican Train as a formal specification, a reference engine and a conformance suite.

The distribution installs one namespace: ``mtrain.spec`` (the rules as data),
``mtrain.reference`` (the engine) and ``mtrain.conformance`` (fixtures and harness).
"""

# os.path, not pathlib: the `mtrain` command imports this package before any code of its
# own can catch a Ctrl-C (mtrain/__main__.py), and os is loaded by Python's own start,
# where pathlib took re, urllib and 20 more modules
import os.path as _path

__version__ = "0.1.0"

# Run from the root of a clone (`python -m pytest`, `python -m mtrain`), Python finds this
# folder before the installed package, and the three folders that the install maps to
# mtrain.spec, mtrain.reference and mtrain.conformance sit beside it: look there too.
_clone = _path.dirname(_path.dirname(_path.realpath(__file__)))
if (_path.isfile(_path.join(_clone, "pyproject.toml"))
        and _path.isfile(_path.join(_clone, "conformance", "__init__.py"))):
    __path__.append(_clone)
