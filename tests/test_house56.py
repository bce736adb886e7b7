"""Session 56 (house56): what tipper showed of the suite (tests/examples/c/tipper_engine.c,
a C engine on a double-16 set with an engine ladder and a match length of its own: the
even doubles alone, [16-16] down to [0-0], nine rounds).

- conform: tipper answers a table of a round past its ninth `unsupported` (a table its own
  rules never reach, docs/protocol.md), and conform kept every situation set in rounds 10
  to 17, each not applicable: 507 of 1,362 results, where a refused setup had them left
  out and replaced by situations in rounds it plays (own_rounds._refuses_tables).
- fuzz: the deals that find the rounds a match of its own has (setups.match_rounds) were
  asked from the stand-in's pool, the engine set aside, where the rules play an engine
  procedure of their own and every game's deal sends the whole set (docs/protocol.md,
  deal): tipper refused the pool as not its set, the rounds stayed unknown, and 19 of 60
  games started past its ninth round and ended at their deal.
"""

from __future__ import annotations

from pathlib import Path

from mtrain.conformance.adapter import JSON, ReferenceImplementation
from mtrain.conformance.fuzz.rulesets import declared_context
from mtrain.conformance.fuzz.setups import match_rounds
from mtrain.conformance.interface import RefusedSetup, Unsupported
from mtrain.conformance.own_rounds import LastRounds, by_ruleset
from mtrain.spec.catalog import catalog

SHORT_MATCH = "name: short-match\nbase: puremco-d9\noptions:\n  match_length: other\n"


def _rules(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "rules.yaml"
    path.write_text(text, encoding="utf-8")
    return path


class ShortMatch(ReferenceImplementation):
    """A match of three rounds: a later round's deal refused (refused-setup), a table of a
    later round answered `unsupported`, a table its own rules never reach (as tipper)."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if round > 3:
            raise RefusedSetup(f"no round {round}: the match is three rounds", None)
        return super().deal(ruleset, players, round, order, draw)

    def legal(self, ruleset: JSON, state: JSON) -> list[JSON]:
        self.never_reached(state)
        return super().legal(ruleset, state)

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        self.never_reached(state)
        return super().apply(ruleset, state, action)

    def never_reached(self, state: JSON) -> None:
        if state["round"] > 3:
            raise Unsupported(f"round {state['round']}: the match is three rounds")


class NoTables(ShortMatch):
    """Every table answered `unsupported`, whatever its round: its answer says nothing of
    the rounds its match has."""

    def never_reached(self, state: JSON) -> None:
        raise Unsupported("tables are not played here")


def test_a_later_rounds_table_answered_unsupported_is_left_out(tmp_path: Path) -> None:
    rs = catalog().rules_file(str(_rules(tmp_path, SHORT_MATCH)))
    three = {2: 3, 3: 3, 4: 3}
    assert by_ruleset(ShortMatch(), [rs], 60) == {rs.name: LastRounds(three)}
    # (an engine that answers every table so keeps them, as before: nothing to tell by)
    assert by_ruleset(NoTables(), [rs], 60) == {rs.name: LastRounds(three, tables=False)}


class WholeSetShortMatch(ReferenceImplementation):
    """An engine procedure of its own with a three-round match: dealt from the whole set,
    as the protocol sends it, and an error for any other pool."""

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if len(order) != 55:
            raise ValueError(f"order: {len(order)} tiles, not the double-9 set's 55")
        if round > 3:
            raise RefusedSetup(f"no round {round}: the match is three rounds", None)
        engine = f"{10 - round}-{10 - round}"  # set aside as the stand-in does
        return super().deal(ruleset, players, round, [t for t in order if t != engine], draw)


def test_fuzz_asks_the_rounds_of_its_match_from_the_whole_set(tmp_path: Path) -> None:
    own = ("name: own-ladder\nbase: puremco-d9\noptions:\n  match_length: other\n"
           "  engine_procedure: other\n")
    rs = catalog().rules_file(str(_rules(tmp_path, own)))
    ctx = declared_context(rs)
    assert ctx.rs["engine_procedure"] == "set-aside"  # the stand-in sets it aside
    found = match_rounds(WholeSetShortMatch(), [(ctx.name, 3)])
    assert found == {f"{ctx.name}: 3 players": 3}
