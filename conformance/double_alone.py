"""A double of an earlier turn under a doubles rule of one's own: judged only where the
implementation's own rule keeps such a double open.

The reference reads the doubles rule where a double is laid (is it open, what does it
ask), not where a double of an earlier turn already listed open binds the player to move
(DBL-6, DBL-7, a release): the table says it is open, so its duty is judged whatever the
rule set. A reference that read the rule there too hid tandem's duty ignored on the
Mexican Train (tests/examples/tandem_engine.py, bug 2), a rule of its own that keeps every
double open. Under a rule of one's own that never opens some doubles (hopper's "flat
Mexican", tests/examples/js/hopper_engine.js: a double on the Mexican Train is an ordinary
tile), such a table is no table of its rounds, and judged by the stand-in's duty each of
its answers failed (71 of 1,228 results).

Which rule is played is the implementation's to say, so it is asked (a probe): the table
before that double was laid (the double back in a hand, no duty pending, nobody on a first
turn), the double laid again by a player who may play there. Where the state it answers
no longer lists the double open, its own rule does not keep it so, and a failure charged
only to clauses that the doubles rule decides (clauses.yaml: their `when` names
`doubles`) is not applicable. Where it lists it open, or refuses or cannot answer the
probe, the failure stands: its duty is judged as written.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.probing import asked
from mtrain.conformance.runner import Outcome
from mtrain.spec.catalog import catalog
from mtrain.spec.ruleset import Ruleset

UNHELD = ("a double of an earlier turn is open on the table, and the implementation's own "
          "doubles rule (played its own way) does not keep such a double open: laid again "
          "on that train, its state lists it closed, so the duty the entry judges is no "
          "rule of its own")
"""The reason such a failure is not applicable: the same for every result, so that the
report counts them under one reason (the train and the probe's answer follow it)."""
PROBE = ("asked again with [{tile}] laid on train {train} from the table before it "
         "(whether its own doubles rule keeps such a double open: double_alone.py)")


def doubles_clause(clause: str) -> bool:
    """Whether the doubles rule decides `clause` (its `when` names the option)."""
    found = catalog().clauses.get(clause)
    return found is not None and "doubles" in found.when


def unheld_double(outcome: Outcome, rs: Ruleset, impl: Implementation, rj: JSON
                  ) -> list[str] | None:
    """The not-applicable messages of `outcome` (a run under `rs`, its rule set sent as
    `rj`), where `rs` plays the doubles rule its own way, every clause the failure is
    charged to is one that rule decides, and some double of an earlier turn on the tables
    it reached is one `impl`, laying it again, does not keep open; else None."""
    if (outcome.status != "fail" or "doubles" not in rs.unknown or not outcome.charged
            or not all(doubles_clause(c) for c in outcome.charged)):
        return None
    seen: set[tuple[object, str]] = set()
    for state, train, tile in earlier_doubles(outcome.states):
        if (train, tile) in seen:
            continue
        seen.add((train, tile))
        answer = laid_again(impl, rj, state, train, tile)
        if answer is not None and train not in (answer.get("open_doubles") or []):
            where = "the Mexican Train" if train == "mexican" else f"train {train}"
            return [UNHELD, f"[{tile}] on {where}: laid again, its state lists open "
                    f"{answer.get('open_doubles')}; " + "; ".join(outcome.messages)]
    return None


def earlier_doubles(states: Iterable[JSON]) -> Iterable[tuple[JSON, object, str]]:
    """(state, train, its double) for each double of an earlier turn open in `states`
    (listed in open_doubles, not in turn_doubles, its train ending in that double)."""
    for state in states:
        if not isinstance(state, dict) or state.get("phase") == "over":
            continue
        this_turn = state.get("turn_doubles") or []
        for train in state.get("open_doubles") or []:
            tiles = train_of(state, train).get("tiles") or []
            if train in this_turn or not tiles or not isinstance(tiles[-1], str):
                continue
            a, _, b = tiles[-1].partition("-")
            if a == b:
                yield state, train, tiles[-1]


def before_laid(state: JSON, train: object, tile: str) -> tuple[JSON, JSON] | None:
    """The table of `state` before `tile` was laid on `train`, and that play: the double
    in the hand of the train's owner (the mover for the Mexican Train), their turn, no
    double open, nobody on a first turn; None where `state` is no table to take it from."""
    probe = copy.deepcopy(state)
    seat = train if train != "mexican" else probe.get("seat")
    hands = probe.get("hands")
    line = train_of(probe, train)
    if (not isinstance(seat, int) or not isinstance(hands, list)
            or not 0 <= seat < len(hands) or not isinstance(line.get("tiles"), list)):
        return None
    line["tiles"] = line["tiles"][:-1]
    hands[seat] = [*hands[seat], tile]
    probe.update(seat=seat, phase="start", open_doubles=[], turn_doubles=[], drawn=None,
                 first_turns=[], passes=0)
    return probe, {"type": "play", "tile": tile, "train": train}


def laid_again(impl: Implementation, rj: JSON, state: JSON, train: object, tile: str
               ) -> JSON | None:
    """The state `impl` answers for `tile` laid on `train` again (before_laid); None where
    there is no such table or it refuses it or will not answer it (its rule then unknown).
    A crash or a broken answer to the probe is raised, reported as what it is
    (probing.asked): taken for "says nothing", it was reported as the failure the probe
    was asked about."""
    made = before_laid(state, train, tile)
    if made is None:
        return None
    answer = asked(lambda: impl.apply(rj, *made), PROBE.format(tile=tile, train=train))
    return answer if isinstance(answer, dict) else None


def train_of(state: JSON, train: object) -> JSON:
    """The train `train` (a seat or "mexican") names in a state written as JSON, or {}
    where the state has none such (follow_probe asks it too)."""
    if train == "mexican":
        found = state.get("mexican")
    else:
        trains = state.get("trains")
        found = (trains[train] if isinstance(trains, list) and isinstance(train, int)
                 and 0 <= train < len(trains) else None)
    return found if isinstance(found, dict) else {}
