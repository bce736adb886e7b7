"""Situations from play (conformance/situations.py) written out as a fixture file: what
`mtrain situations NAME|FILE` prints. Apart from situations.py, so that the way they are
written is not part of the code digest their cache entries and the shipped files are kept
by (situations._code_digest: the source of every module it imports)."""

from __future__ import annotations

from typing import Any

import yaml

from mtrain.conformance.fixture import Fixture
from mtrain.spec.ruleset import CUSTOM, OTHER, Ruleset

HEADER = """\
# Situations from play (conformance/situations.py): tables reached by random rounds of
# the rule set below; each legal set is spec/model/legality.py's, not an engine's.
"""


def fixture_data(fx: Fixture, rs: Ruleset) -> dict[str, Any]:
    """A situation in the fixture file format, scoped to the rule set's own values."""
    entry: dict[str, Any] = {"when": {o: [v] for o, v in rs.choices if v not in _UNNAMED}}
    exp = fx.expect[0]
    if exp.legal is not None:
        entry["legal"] = list(exp.legal)
    if exp.refused:
        entry["refused"] = {a: c[0] if len(c) == 1 else list(c) for a, c in exp.refused.items()}
    if exp.state:
        entry["state"] = exp.state
    if exp.result is not ...:
        entry["result"] = exp.result
    if exp.match_over is not None:
        entry["match_over"] = exp.match_over
    if exp.blocked_scores is not None:  # as its stand-in ends it: conform cuts it to the
        # scores again under the rule's own blocked round (blocked_alone.py)
        entry["result"] = {"end": "blocked", "winner": None,
                           "scores": list(exp.blocked_scores)}
    start: dict[str, Any] = ({"table": fx.table} if fx.table is not None
                             else {"deal": fx.deal})
    if fx.steps:
        start["steps"] = list(fx.steps)
    return {"id": fx.id, "description": fx.description, "clauses": list(fx.clauses),
            "source": list(fx.source), "note": fx.note, **start, "expect": [entry]}


_UNNAMED = frozenset((CUSTOM, OTHER))  # a table or a rule of one's own: no value to name
_DUMPER: Any = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
"""libyaml's emitter where PyYAML has it: the same text as the pure-Python one (three example
rules files' situations compared byte for byte; tests/test_situations_render.py), a quarter
of its CPU (cantina's 972 situations: 2.2 -> 0.5 s)."""


def render(fixtures: list[Fixture], rs: Ruleset) -> str:
    """The situations as one fixture file, each its own one-item list (so its lines are
    what `mtrain situations -k ID` prints of it)."""
    body = "\n".join(yaml.dump([fixture_data(fx, rs)], Dumper=_DUMPER, sort_keys=False,
                                default_flow_style=None, width=92, allow_unicode=True)
                     for fx in fixtures)
    return f"{HEADER}# rule set: {rs.name}\n\n{body}"
