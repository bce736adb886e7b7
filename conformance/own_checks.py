"""The answer checks of conform under rules of one's own (`other`).

Every state an implementation returns is checked against the invariants
(answers.state_problems), under the known rule set sent in place of the declared one.
An invariant whose check reads an option the implementation plays its own way holds
for the stand-in's value, not for the rule: a blocked round scored as a house rule
scores it breaks INV-ROUND-SCORE under the stand-in's penalty scoring, and is no
failure. Such a problem is left out, as fuzz leaves it out (fuzz/own_rules.py); the
check is traced as the scope checks trace a run (traced.py).

Under an engine procedure of one's own the stand-in may set the engine aside; the
implementation is dealt from the whole set all the same (seat_alone.whole_pool): its own
procedure decides what becomes of the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation
from mtrain.conformance.answers import (
    AnswerError,
    CheckedImplementation,
    Problem,
    state_problems,
)
from mtrain.conformance.divergence import WORTH
from mtrain.conformance.seat_alone import whole_pool
from mtrain.conformance.traced import Log, TracedRules, TracedRuleset
from mtrain.reference import codec
from mtrain.reference.invariants import AFTER_DEAL, CHECKS, carried_totals
from mtrain.reference.rules import Rules
from mtrain.spec.ruleset import Ruleset


class OwnRulesChecks(CheckedImplementation):
    """`inner`, its answers checked, without the invariants whose check reads one of
    `own` (the options the declared rules play `other`) under `sent`, the stand-in."""

    def __init__(self, inner: Implementation, sent: Ruleset, own: frozenset[str]) -> None:
        super().__init__(inner)
        self.sent, self.own = sent, own
        self.rules = _rules_of(sent)

    def deal(self, ruleset: JSON, players: int, round: int, order: list[str],
             draw: list[list[str]] | None = None) -> JSON:
        if "engine_procedure" in self.own:
            order = whole_pool(self.sent, round, order)
        return super().deal(ruleset, players, round, order, draw)

    def state_problems(self, ruleset: JSON, state: Any, dealt: bool = False) -> list[Problem]:
        found = state_problems(ruleset, state, dealt=dealt)
        rules, found = engine_of_its_own(self.rules, self.own, state, found, dealt)
        if not any(p.kind == "invariant" for p in found):
            return found
        st = codec.state_from_json(rules, state)  # it decoded: its problems are invariants
        keep = []
        for p in found:
            check = CHECKS.get(p.where) or AFTER_DEAL.get(p.where)
            if p.kind == "invariant" and check is not None and self._reads_own(st, check):
                continue
            keep.append(p)
        return keep

    def apply(self, ruleset: JSON, state: JSON, action: JSON) -> JSON:
        new = super().apply(ruleset, state, action)
        found = carried_problems(state, new) if WORTH & self.own else []
        if found:  # the totals are set aside with the round's worth (divergence.WORTH)
            raise AnswerError("apply", found)
        return new

    def _reads_own(self, st: Any, check: Any) -> bool:
        log = Log()
        mine = st.copy()
        mine.rules = TracedRules(self.rules, TracedRuleset.wrap(self.sent, log), log)
        check(mine)
        return not self.own.isdisjoint(log.read)


def engine_of_its_own(rules: Rules, own: frozenset[str], state: Any,
                      found: list[Problem], dealt: bool) -> tuple[Rules, list[Problem]]:
    """The rules a state is read under and its problems (`found`, under `rules`): ENG-1
    (the round's double is its engine) holds under the known procedures but ENG-7's and
    ENG-8's, where the deal picks the engine, and a procedure of one's own may pick it too
    (tramway's "next double down"), so there a state whose only fault is another engine
    is read as theirs are (conform's own_checks and fuzz's own_rules alike)."""
    if "engine_procedure" not in own or not any(
            p.kind == "state" and p.where == "state.engine" and p.message.endswith("[ENG-1]")
            for p in found):
        return rules, found
    picked = replace(rules, engine_by_deal=True)
    return picked, state_problems(picked, state, dealt=dealt)


_RULES: dict[Ruleset, Rules] = {}
"""The engine's flags of each stand-in met, by value: conform wraps each of its results
under rules of one's own afresh, and building the flags was a tenth of what the wrapper
cost a result (a stand-in is made per entry, so its identity says little)."""
KEPT_RULES = 256


def _rules_of(sent: Ruleset) -> Rules:
    found = _RULES.get(sent)
    if found is None:
        if len(_RULES) >= KEPT_RULES:
            _RULES.clear()
        found = _RULES[sent] = Rules.of(sent)
    return found


def own_checks(impl: Implementation, sent: Ruleset, declared: Ruleset) -> Implementation:
    """`impl` checked as OwnRulesChecks says where `declared` has rules of its own."""
    own = frozenset(declared.unknown)
    return OwnRulesChecks(impl, sent, own) if own else impl


def carried_problems(before: JSON, after: Any) -> list[Problem]:
    """Where a step ends the round (`before` not over, `after` over): the totals `after`
    gives are those of `before` plus the round scores it gives, whatever a round is worth
    (the reference's step invariant, invariants.carried_totals: MATCH-1). Under a scoring
    or tile values of one's own the comparison leaves the totals out with the round's
    worth (divergence.WORTH), so a total never added to went unseen."""
    if (not isinstance(after, dict) or after.get("phase") != "over"
            or before.get("phase") == "over" or not isinstance(after.get("result"), dict)):
        return []
    carried, scores, totals = before.get("scores"), after["result"].get("scores"), after.get(
        "scores")
    if not (isinstance(carried, list) and isinstance(scores, list) and isinstance(totals, list)
            and len(carried) == len(scores) == len(totals)
            and all(type(v) is int for v in [*carried, *scores, *totals])):
        return []  # malformed answers are state_problems' to report
    return [Problem("state", "scores", f"{message} [{clause}]")
            for clause, message in carried_totals(carried, scores, totals)]
