"""Plain YAML scalars that YAML 1.1 (which PyYAML reads) and YAML 1.2, or a person, read
apart: ``0x8``, ``010``, ``1_000``, ``1:30``, ``.inf``, ``yes``/``off`` as booleans, and
``1e3`` (text to one, a number to the other). yamlload refuses each where it stands."""

from __future__ import annotations

import re
from typing import Any, Final

import yaml

_YAML_TAG: Final = "tag:yaml.org,2002:"

_PLAIN_INT: Final = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_PLAIN_FLOAT: Final = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_PLAIN_BOOL: Final = frozenset({"true", "True", "TRUE", "false", "False", "FALSE"})
_NUMBER_1_2: Final = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
"""What YAML 1.2's core schema reads as a number: a plain scalar PyYAML (YAML 1.1)
reads as text but that matches this would mean something else to other readers."""
_RESOLVER: Final[Any] = yaml.resolver.Resolver()
"""YAML 1.1's reading of an untagged plain scalar: a scalar whose tag differs was tagged
by its writer (`!!str 5`, `!!float 7`), and every reader takes it as tagged."""


def _tagged(text: str, tag: str) -> bool:
    return bool(_RESOLVER.resolve(yaml.ScalarNode, text, (True, False)) != tag)


def ambiguous(node: yaml.ScalarNode) -> str | None:
    """Why a plain scalar is read differently by YAML 1.1 (PyYAML) and YAML 1.2 or by a
    person (``0x8``, ``010``, ``1_000``, ``1:30``, ``yes``, ``off``, ``.inf``, ``1e3``),
    or None. Quoted scalars are text, and mean what they say, as does a scalar whose
    writer tagged it with what YAML 1.1 would not read it as (`!!str 5` is text)."""
    if node.style:  # None (PyYAML) or "" (libyaml) for a plain scalar
        return None
    text, tag = node.value, node.tag
    if tag == _YAML_TAG + "int" and not _PLAIN_INT.fullmatch(text):
        return ("is a number written in a form YAML versions read differently (hexadecimal, "
                "octal, a leading 0, underscores or a colon): write it in plain decimal")
    if tag == _YAML_TAG + "float" and not _PLAIN_FLOAT.fullmatch(text) and not (
            _PLAIN_INT.fullmatch(text) and _tagged(text, tag)):  # `!!float 7` is 7.0
        return ("is a number written in a form YAML versions read differently (infinity, "
                "NaN, underscores or a colon): write it in plain decimal")
    if tag == _YAML_TAG + "bool" and text not in _PLAIN_BOOL:
        return ("is read as a boolean by YAML 1.1 and as text by YAML 1.2: write true or "
                "false for a boolean")
    if tag == _YAML_TAG + "str" and _NUMBER_1_2.fullmatch(text) and not _tagged(text, tag):
        return ("is read as text by YAML 1.1 and as a number by YAML 1.2: write the number "
                "in plain decimal (an exponent takes its sign: 1.0e+3)")
    return None
