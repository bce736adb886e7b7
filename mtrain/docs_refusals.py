"""The refusals page (docs/refusals.md): for each action kind, the clauses that can refuse
it, the one the reference engine cites first, and the clause that allows it when it is
legal; read from the engine itself (`refusals.refusals`, `refusals.permission`,
`REFUSAL_PRECEDENCE`) over every state of the fixture corpus (each table, and the state
after each of its steps, under each rule set its entries name), with one example of each
to put to an engine by hand (`mtrain state`).
"""

from __future__ import annotations

import functools
import shlex
from collections.abc import Iterable
from dataclasses import dataclass, field

from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.fixture import Fixture
from mtrain.conformance.runner import start_state, take_step
from mtrain.docs_reports import clause_links
from mtrain.reference import codec, engine, refusals
from mtrain.reference.rules import Rules
from mtrain.spec import tiles as T
from mtrain.spec.catalog import Catalog
from mtrain.spec.notation import FixtureError, action_json, action_text

KINDS = ("play", "draw", "pass", "end-chain")


@dataclass
class Example:
    """Where a clause was seen deciding an action: enough to write it again by hand."""

    fixture: str
    variant: str
    steps: int
    action: str
    first: str = ""
    """For a refusal: the clause the reference cites there (the first that refuses)."""
    writable: bool = True
    """False for an action the fixture notation cannot write (a tile not in the set)."""

    def command(self) -> str:
        kind = "apply" if self.action else "legal"
        parts = ["mtrain", "state", self.fixture, "--variant", self.variant,
                 "--steps", str(self.steps), "--as", kind]
        return shlex.join([*parts, "--action", self.action] if self.action else parts)


@dataclass
class Survey:
    """kind -> clause -> its first example, for each of the three questions."""

    refusing: dict[str, dict[str, Example]] = field(default_factory=dict)
    cited: dict[str, dict[str, Example]] = field(default_factory=dict)
    allowing: dict[str, dict[str, Example]] = field(default_factory=dict)


def survey(fixtures: Iterable[Fixture], cat: Catalog) -> Survey:
    """Every action of every kind put to the reference at every state of the corpus."""
    found = Survey({k: {} for k in KINDS}, {k: {} for k in KINDS}, {k: {} for k in KINDS})
    reference = ReferenceImplementation()
    for fx in fixtures:
        for name in dict.fromkeys(n for n, _ in fx.rulesets()):
            rs = cat.ruleset(name)
            rj = ruleset_json(rs)
            rules = Rules.of(rs)
            try:
                state = start_state(fx, rs, rj, reference)
            except Exception:  # a table that does not set up under it: lint says why
                continue
            for k in range(len(fx.steps) + 1):
                _ask(codec.state_from_json(rules, state), fx.id, name, k, found)
                if k == len(fx.steps):
                    break
                try:
                    state = take_step(reference, rj, rs, state, fx.steps[k],
                                      fx.deal_draw())
                except Exception:  # a step the fixture expects refused: stop there
                    break
    return found


def _ask(st: engine.State, fid: str, variant: str, k: int, found: Survey) -> None:
    legal = engine.legal_actions(st)
    seat = st.seat if 0 <= st.seat < st.players else 0
    # the tiles read from the masks' bits (a walk over every tile id at every state was a
    # tenth of the survey)
    hand, in_set = st.hands[seat], st.rules.set_mask
    held = T.tiles_of(hand)
    plays = [engine.Action("play", t, train) for t in held for train in range(st.players + 1)]
    others = in_set & ~hand  # the lowest tile of the set not held
    if others:
        plays.append(engine.Action("play", (others & -others).bit_length() - 1, 0))
    outside = ~in_set & (T.BIT[-1] << 1) - 1  # the lowest tile id not in the set
    if outside:
        plays.append(engine.Action("play", (outside & -outside).bit_length() - 1, 0))
    plays += [engine.Action("play", held[0], st.players + 1)] if held else []  # no train
    for action in [*plays, engine.DRAW, engine.PASS, engine.END_CHAIN]:
        # an example is written only where it is the first of its clause (most are not)
        if action in legal:
            allowing = found.allowing[action.kind]
            clause = refusals.permission(st, action)
            if clause not in allowing:
                allowing[clause] = _example(st, action, fid, variant, k)
            continue
        refused = refusals.refusals(st, action, legal)
        refusing, cited = found.refusing[action.kind], found.cited[action.kind]
        first = refused[0].clause
        if first in cited and all(r.clause in refusing for r in refused):
            continue
        example = _example(st, action, fid, variant, k)
        example.first = first
        for r in refused:
            refusing.setdefault(r.clause, example)
        cited.setdefault(first, example)


def _example(st: engine.State, action: engine.Action, fid: str, variant: str,
             k: int) -> Example:
    text = action_text({"type": action.kind} if action.kind != "play" else
                       {"type": "play", "tile": T.name(action.tile),
                        "train": "mexican" if action.train == st.players else action.train})
    return Example(fid, variant, k, text, writable=_writable(text, st.rules.max_pip))


@functools.cache
def _writable(text: str, max_pip: int) -> bool:
    """Whether a fixture can write the action (the survey asks the same few hundred
    actions at thousands of states)."""
    try:
        action_json(text, max_pip)
    except FixtureError:
        return False
    return True


def page(found: Survey, cat: Catalog) -> str:
    order = {c: i for i, c in enumerate(refusals.REFUSAL_PRECEDENCE)}

    def ranked(clauses: Iterable[str]) -> list[str]:
        return sorted(clauses, key=lambda c: (order.get(c, len(order)), c))

    def links(clauses: Iterable[str]) -> str:
        return clause_links(clauses, cat.clauses) or "none"

    out = ["# Which clause refuses which action", "",
           "For each kind of action: the clauses that can refuse it, in the order the "
           "reference engine cites them (`REFUSAL_PRECEDENCE`: when several refuse one "
           "action, the first is named in the refusal, and a fixture lists every one in "
           "force, so an engine may name any of them; one marked *never first* always "
           "comes with an earlier one in the corpus); and the clauses that make it legal "
           "where it is (what a missing action is charged to). Read from "
           "the engine over every table of the fixture corpus and the state after each "
           "of its steps, under each rule set its entries name; see the protocol's "
           "[refusals](protocol.md#the-messages).", "",
           "| action | can be refused by, in the order cited | allowed by |",
           "|---|---|---|"]
    for kind in KINDS:
        refusing = [links([c]) + ("" if c in found.cited[kind] else " (never first)")
                    for c in ranked(found.refusing[kind])]
        out.append(f"| `{kind}` | {', '.join(refusing) or 'none'} | "
                   f"{links(sorted(found.allowing[kind]))} |")
    out += ["", "## An example of each", "",
            "Each line is a state where the clause decides the action, as a request to "
            "paste into `mtrain serve` or into your engine ([implementer's guide]"
            "(implementers-guide.md)): the refusals as `apply` requests (the reference "
            "answers with the clause cited first), the permissions as `legal` requests.",
            ""]
    for kind in KINDS:
        out += [f"### `{kind}`", ""]
        for title, table in (("refused by", found.refusing[kind]),
                             ("allowed by", found.allowing[kind])):
            refusal = title == "refused by"
            for clause in (ranked(table) if refusal else sorted(table)):
                # a state where the clause is the one cited, where the corpus has one
                ex = found.cited[kind].get(clause, table[clause]) if refusal else table[clause]
                command = ex.command() if refusal else Example(
                    ex.fixture, ex.variant, ex.steps, "").command()
                after = ("" if not ex.steps else " after step 1" if ex.steps == 1 else
                         f" after {ex.steps} steps")
                also = (f" (the reference cites {ex.first} there, which refuses it too)"
                        if refusal and ex.first != clause else "")
                how = (f"`{command}`" if ex.writable else "the notation writes no such "
                       "tile: change the action of an `apply` request by hand")
                out.append(f"- {title} {links([clause])}: `{ex.action}` in {ex.fixture} "
                           f"under {ex.variant}{after}{also}: {how}")
        out.append("")
    return "\n".join(out).rstrip() + "\n"
