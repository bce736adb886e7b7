"""The suite's faults found while writing and running gandy (tests/examples/gandy_engine.py,
a stateful Python engine for a double-11 box, run on double-12, with two house rules of
the doubles: the tile after a double covers it or goes home, `follow_up: other`; a dry
boneyard frees a double nobody holds a tile for, `uncoverable_double: other`), each fixed
with a test that failed before the fix.

Under a release of one's own, conform keeps a refusal where every known release refuses
the action, naming any clause one of them names (release_alone.py). It took from each
release only the clause the reference cites first, so a tile kept in hand after a draw,
refused under stays-open by TURN-3 and DBL-6 alike (the double still binds), was expected
refused by TURN-3 alone: gandy, whose double still binds there too, failed drawx9-001 and
doubles-070 when it cited the duty (DBL-6) before the drawn tile, an order the protocol
leaves to the engine. Now every clause that refuses the action under each release counts.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mtrain.cli import main

EXAMPLES = Path(__file__).parent / "examples"
RULES = EXAMPLES / "gandy-rules.yaml"
DRAWN_FIRST = '''        if self.drawn is not None and tile != self.drawn and 2 not in BUGS:
            raise Refusal(f"only the drawn {name(self.drawn)} may be played", "TURN-3")
        if train not in self.targets():
            raise Refusal(*self._closed(train))
'''
DUTY_FIRST = '''        if train not in self.targets():
            raise Refusal(*self._closed(train))
        if self.drawn is not None and tile != self.drawn and 2 not in BUGS:
            raise Refusal(f"only the drawn {name(self.drawn)} may be played", "TURN-3")
'''


def test_a_release_of_ones_own_may_cite_any_clause_a_known_release_refuses_by(
        tmp_path: Path) -> None:
    source = (EXAMPLES / "gandy_engine.py").read_text(encoding="utf-8")
    assert DRAWN_FIRST in source  # the engine as shipped cites the drawn tile first
    engine = tmp_path / "gandy_duty_first.py"
    engine.write_text(source.replace(DRAWN_FIRST, DUTY_FIRST), encoding="utf-8")
    out = tmp_path / "report.json"
    command = f"{sys.executable} {engine} --box 12 --fixed 1,2,3"
    main(["conform", "--impl", command, "--rules", str(RULES), "-k", "drawx9-001",
          "-k", "doubles-070", "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    statuses = {r["fixture"]: r["status"] for r in report["results"]}
    assert statuses == {"drawx9-001": "pass", "doubles-070": "pass"}, [
        r["message"] for r in report["results"]]
    # the refusal is still judged, not set aside: each entry asks it
    assert int(report["checks"]) >= 4
