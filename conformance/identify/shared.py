"""Answers that break a clause every known value shares: a bug, not a rule of one's own.

The solver (solve.py) calls an option `other` where no known value explains a fixture.
Some answers no house rule can give, because every value of every option the entry is
about agrees on the clause they break. Such an entry is left unread (its outcome not
seen), as measure.py leaves out a deal that loses tiles [INV-CONSERVATION], and the
fixtures are reported as a likely bug naming the clause:

- winners off the winning total (MATCH-2, MATCH-3): every scoring value says which end
  of the totals wins (the lowest under both penalty values, the highest under positive),
  and every tie rule picks only among the players on it (MATCH-4 to MATCH-6). An engine
  whose scores and totals are right but whose winners hold another total was read as
  `scoring: other`. (Winners on the total, chosen among a tie as no tie rule does, are a
  tie rule of the engine's own: read as ever. The three known tie rules share no clause
  past MATCH-2 and MATCH-3: the tied seat each names is its own clause's. waybill's bug
  3, the highest tied seat named alone, is sixes' house rule to the letter; only the
  rule the engine declares tells them apart, and marshal declares known values for rules
  of its own: identify writes `other`, contradicted, the declaration beside it.)
- totals that are not the table's plus the round's scores the engine gave (MATCH-1):
  every scoring and match length adds each round's scores to the running totals (a
  single round's start from nothing), whatever the scores. An engine whose totals are
  not its own round's scores added was read as `scoring: other`.

- a round that every known blocked_round value has ended, played on (END-2, END-3):
  under nobody-can-play the round ends blocked as soon as nobody can ever play again,
  under full-round-of-passes once everybody in turn has passed; a table where the
  reference under each value ends the round blocked is one where both have, and an
  engine whose round goes on there (no result, not over) and never ends it, passing on
  for PLAYED_ON_LAPS more laps, breaks what they share: a round that ends later (after
  two laps of passes, say) is a rule of the engine's own, read as ever. Such entries
  were read as evidence for full-round-of-passes (or contradicting it) and as
  bugs in the scoring line, which named `other`. (A round ended where a value says it
  goes on, or ended with another result, is read as ever.)

- a round ended blocked while the boneyard still holds tiles (END-2, END-3): both
  blocked_round values, and every house rule of a blocked round, end a round blocked
  only once nobody can draw (the boneyard empty); a player who cannot play draws. An
  engine that ends it sooner (counting passes after draws in vain, asking only whether
  anybody can play on the table as it stands) plays on nowhere a known value plays on,
  the converse of the round played on above. Its entries, and those of a fixture whose
  later steps it then refused (the round over), were read as evidence against both
  values, and so as `blocked_round: other`. (A round ended blocked early with the
  boneyard empty is a rule of the engine's own, read as ever: turntable's and
  interlock's.)
- rounds won that are not the table's plus one for the seat that went out (END-1, the
  count MATCH-5 reads): every rule set counts a round won so, whatever its rules say of
  who went out and of what the round is worth. marshal's win credited to the seat after
  the winner failed every entry of the fixtures that check the count, whatever their
  scoring, and was read as `scoring: other`. (A blocked round's count is left to the
  rules: a tie rule of one's own may count such a round.)

- a hand's score that is not its tiles' worths added (SCORE-1, SCORE-5), where the engine
  declares a known scoring: a probe asks it (additive.py).

Each is told only where the entry checks what the clause decides (the winners against
the totals it checks, the totals) and fails in nothing else; the round ended with tiles
to draw, wherever the engine's state shows it, since every entry after it is that end's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from typing import Any, TypeGuard

from mtrain.conformance.adapter import JSON, Implementation, RefusedSetup, Unsupported
from mtrain.conformance.expectation_checks import check
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.identify.additive import SUM
from mtrain.conformance.identify.found import Observation, counted
from mtrain.conformance.identify.solve import Model
from mtrain.conformance.process import HarnessError
from mtrain.conformance.runner import _reference_states
from mtrain.spec.catalog import Catalog, catalog
from mtrain.spec.notation import max_pip_of
from mtrain.spec.ruleset import OTHER, Ruleset

PASS = {"type": "pass"}
BLOCKED = "END-2, END-3"
"""The clauses of the blocked round, one per blocked_round value: a table where each has
ended the round is one where every known value has."""
WINNING_TOTAL = {"MATCH-2": ("lowest", min), "MATCH-3": ("highest", max)}
"""The clauses naming the winning end of the totals, each with its end; the scoring
values each holds under are the catalogue's (its `when`)."""
OUTS = "MATCH-5 (outs)"
"""The count of rounds won, broken: every rule set counts one for the seat that went out
(END-1), the count the tie rule most-outs reads (MATCH-5), and no other (marshal, its
win credited to the seat after the winner, was read as `scoring: other`)."""
EARLY = "END-2, END-3 (the boneyard)"
"""The blocked round's clauses, broken the other way: a round ended blocked with tiles
left to draw."""
SAID = {"MATCH-2": "the match's winners are not on the lowest total",
        "MATCH-3": "the match's winners are not on the highest total",
        "MATCH-1": "the totals are not the table's plus the round's scores",
        BLOCKED: "the round goes on where every blocked_round value has ended it blocked",
        OUTS: "the rounds won are not the table's plus one for the seat that went out",
        EARLY: "the round ends blocked while the boneyard still holds tiles, where every "
               "blocked_round value plays on",
        SUM: "a tile adds to a hand's score what the rest of the hand decides (additive.py), "
             "which no known scoring does"}
"""Each bug, in words, by its key (the clauses it breaks, but for EARLY: CLAUSES)."""
CLAUSES = {EARLY: BLOCKED, OUTS: "END-1, MATCH-5", SUM: "SCORE-1, SCORE-5"}
"""The clauses of a bug whose key is not its clauses."""


def unshared(fx: Fixture, exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
             sent: Ruleset) -> str | None:
    """The clause every known value shares that a failed entry breaks, where it fails in
    what that clause decides alone (the module docstring); else None."""
    if not isinstance(state, dict):
        return None
    if ended_with_tiles_to_draw(state):
        return EARLY
    try:
        if played_on(fx, exp, rj, state, impl, sent, catalog()):
            return BLOCKED
        # the totals (and the winners named from them) alone: checked or not, the
        # engine's own totals are not its round's scores added
        rest = dataclasses.replace(exp, winners=None, state={
            k: v for k, v in exp.state.items() if k != "scores"})
        if one_round(fx) and off_the_sum(fx, state) and passes(rest, rj, state, impl, sent):
            return "MATCH-1"
        # the rounds won (and the winners named from them) alone: every rule counts one
        # for the seat that went out, whoever its rules say that is
        rest = dataclasses.replace(exp, winners=None, state={
            k: v for k, v in exp.state.items() if k != "outs"})
        if one_round(fx) and off_the_outs(fx, state) and passes(rest, rj, state, impl, sent):
            return OUTS
        # the winners alone, the totals checked right
        if (exp.winners is not None and "scores" in exp.state
                and passes(dataclasses.replace(exp, winners=None), rj, state, impl, sent)):
            return off_the_total(exp, state.get("scores"), impl.winners(rj, state),
                                 catalog())
    except (HarnessError, Unsupported, RefusedSetup, ValueError, KeyError, TypeError,
            AttributeError):
        return None
    return None


def ended_with_tiles_to_draw(state: JSON) -> bool:
    """Whether the engine's `state` is a round ended blocked (its result's end `blocked`)
    with tiles left in the boneyard: no blocked_round value ends a round so (END-2 and
    END-3 each ask for an empty boneyard; the reference reads the rule only then)."""
    if not isinstance(state, dict):
        return False
    result, boneyard = state.get("result"), state.get("boneyard")
    return (isinstance(result, dict) and result.get("end") == "blocked"
            and isinstance(boneyard, list) and len(boneyard) > 0)


def refused_after_early_end(trace: Sequence[JSON]) -> str | None:
    """EARLY where the engine refused a step of the fixture on a round it had ended
    blocked with tiles to draw (the last state of `trace`, the one the step was asked
    on): the refusal is that end's, not a rule's; else None."""
    return EARLY if trace and ended_with_tiles_to_draw(trace[-1]) else None


PLAYED_ON_LAPS = 5
"""How many more laps of passes an engine that plays on at a blocked table is asked to
play before its round is taken never to end: with the boneyard empty and every player
passed, a pass changes nothing any rule reads, so a later end is a count of the
engine's own, and none of the house engines counts past two laps."""


def played_on(fx: Fixture, exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
              sent: Ruleset, cat: Catalog) -> bool:
    """Whether the engine's round goes on (`state` neither over nor with a result) where
    the entry expects it ended blocked and the reference, under `sent` with each known
    blocked_round value, ends it blocked after the fixture's steps (END-2, END-3), and
    the engine's round does not end in PLAYED_ON_LAPS more laps of passes either."""
    result = exp.result
    if not (isinstance(result, dict) and result.get("end") == "blocked"):
        return False
    if not isinstance(state, dict) or state.get("phase") == "over" or state.get("result"):
        return False
    for value in cat.options["blocked_round"].values:
        rs = Ruleset(sent.name, tuple((o, value if o == "blocked_round" else v)
                                      for o, v in sent.choices), sent.hand_table)
        states = _reference_states(fx, rs)
        last = states[-1] if states else None
        if not (isinstance(last, dict) and last.get("phase") == "over"
                and isinstance(last.get("result"), dict)
                and last["result"].get("end") == "blocked"):
            return False
    return never_ends(rj, state, impl)


def never_ends(rj: JSON, state: JSON, impl: Implementation) -> bool:
    """Whether the engine, offering only a pass at each turn, passes PLAYED_ON_LAPS laps
    without ending the round (False where it ends it, or offers anything but a pass)."""
    hands = state.get("hands") if isinstance(state, dict) else None
    if not isinstance(hands, list) or not hands:
        return False
    for _ in range(PLAYED_ON_LAPS * len(hands)):
        if impl.legal(rj, state) != [PASS]:
            return False
        state = impl.apply(rj, state, PASS)
        if not isinstance(state, dict) or state.get("phase") == "over" or state.get("result"):
            return False
    return True


def passes(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
           sent: Ruleset) -> bool:
    return not check(exp, rj, state, impl, max_pip_of(sent))


def one_round(fx: Fixture) -> bool:
    """Whether `fx`'s steps play within one round (no later round's deal)."""
    return not any(s.startswith("next-round") for s in fx.steps)


def direction(exp: Expectation, cat: Catalog) -> str | None:
    """The clause of WINNING_TOTAL that every scoring value `exp` is about holds under
    (a product naming no scoring is about them all: none then)."""
    every = frozenset(cat.options["scoring"].values)
    values = frozenset().union(*(r.get("scoring", every) for r in exp.scope.regions()))
    return next((c for c in WINNING_TOTAL
                 if values and values <= cat.clauses[c].when.get("scoring", frozenset())),
                None)


def off_the_total(exp: Expectation, totals: Any, got: Sequence[int],
                  cat: Catalog) -> str | None:
    """The clause the engine's winners `got` break (the totals `totals` checked right),
    where not all of them hold the total every known value the entry is about names;
    None where they do, or where that cannot be told."""
    clause = direction(exp, cat)
    if clause is None or not got or not numbers(totals):
        return None
    best = WINNING_TOTAL[clause][1](totals)
    if all(isinstance(s, int) and 0 <= s < len(totals) and totals[s] == best for s in got):
        return None  # on the winning total: chosen as a tie rule of its own may choose
    return clause


def off_the_sum(fx: Fixture, state: JSON) -> str | None:
    """MATCH-1 where the engine's totals after the round are not the table's totals plus
    the round's scores it gave (whatever rule gave them); None where they are, or where
    the table has no totals to add to."""
    before = (fx.table or {}).get("scores")
    after = state.get("scores")
    result = state.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    if not (numbers(before) and numbers(after) and numbers(scores)
            and len(before) == len(after) == len(scores)):
        return None
    return None if after == [b + s for b, s in zip(before, scores, strict=True)] \
        else "MATCH-1"


def off_the_outs(fx: Fixture, state: JSON) -> str | None:
    """OUTS where the engine's state after a round it ended by a player going out (its own
    result's winner, whatever rule named them) does not count one more round won for that
    seat, and no more, on the table's counts; None where it does, where the round did not
    end so (a blocked round's count is left to the rules: a tie rule of one's own may
    count such a round), or where the table has no counts to add to."""
    before = (fx.table or {}).get("outs")
    after = state.get("outs")
    result = state.get("result")
    winner = result.get("winner") if isinstance(result, dict) else None
    if not (numbers(before) and numbers(after) and len(before) == len(after)
            and isinstance(winner, int) and not isinstance(winner, bool)
            and 0 <= winner < len(after)):
        return None
    counted_right = [b + (s == winner) for s, b in enumerate(before)]
    return None if after == counted_right else OUTS


def numbers(values: Any) -> TypeGuard[list[int]]:
    return (isinstance(values, list) and bool(values)
            and all(isinstance(v, int) and not isinstance(v, bool) for v in values))


def shared_failure(obs: Observation, cat: Catalog) -> bool:
    """Whether every entry `obs` failed is charged (observe.py, as conform charges it)
    to clauses that every known value of every option shares (no `when`: TRAIN-4,
    TURN-3), and one was. Such a failure is a bug or a rule of the engine's own, but it
    is read as no evidence against the value the engine declares for an option (its
    `other` may not explain it), while the answer keeps that value (doubted): what
    tells a rule of that option's own is a failure in the clauses its values decide, or
    where it fails alike under them all. signalbox (TRAIN-4, its marker read as the
    mover's) and interlock (TURN-3, its drawn tile taken to be the
    hand's last) had their bugs read as the follow-up rule of their own, or the
    doubles rule, that they declare open and anywhere."""
    failed = [i for i, o in enumerate(obs.outcomes) if o == "fail"]
    if not failed or any(not obs.by_entry.get(i) for i in failed):
        return False
    return all(c in cat.clauses and not cat.clauses[c].when
               for i in failed for c in obs.by_entry[i])


def escaping(obs: Observation, cat: Catalog, free: Sequence[str],
             only: Mapping[str, frozenset[str]], word: Collection[str]) -> list[str]:
    """The options of `free` that `other` may stand for in `obs`: where its failure is
    shared (shared_failure), no reason to doubt the engine's word, none it declares a known
    value of that the answer keeps (`word`: doubted takes out those it leaves), but for
    those SETUP_ONLY stands for some values alone (`only`), and the match's length where
    the engine ended its match after an entry that expects it to go on (over_early): the
    first departure charged is then another's (sleeper's bug 3, seat 0's total left out of
    MATCH-1's sum, at every round end from round 2), yet no known value the entry is about
    ends a match there, whatever its totals (MATCH-1: a round for each engine), so the
    early end is read as own_match reads it. (Before, sleeper with its bugs on was
    written `match_length: full`, its word: 40 entries of early ends left to its scoring
    of its own.) Never a rule the engine declares its own under which conform judges, and
    fails, an entry of `obs` (Observation.judged): whatever that rule does, the entry
    fails, so it explains nothing here (gandy's bug 1, a marker left down, had counted
    for its release of its own)."""
    free = [opt for opt in free if opt not in obs.judged]
    if not shared_failure(obs, cat):
        return free
    return [opt for opt in free if opt not in word or opt in only
            or (opt == MATCH and obs.over_early)]


MATCH = "match_length"
"""The option that says which round is the match's last (MATCH-1, MATCH-7)."""


def over_early(exp: Expectation, rj: JSON, state: JSON, impl: Implementation) -> bool:
    """Whether the engine names the match's winners (its match over) after an entry that
    expects the match to go on (`match_over: false`: rounds remain under every known
    value the entry is about, MATCH-1)."""
    if exp.match_over is not False:
        return False
    try:
        return bool(impl.winners(rj, state))
    except (HarnessError, Unsupported, RefusedSetup, ValueError, KeyError, TypeError,
            AttributeError):
        return False


def own_match(model: Model, c: Any, obs: Observation, free: Sequence[str],
              cat: Catalog) -> Any:
    """The constraint `c` of `obs`, and where the engine ended its match after an entry
    that expects it to go on (over_early), a match of its own too, or a known value the
    entry is not about (a single round's match ends there): no value it is about ends
    the match there, and no other option's rule of its own says when a match ends.
    Such an entry mostly fails in its scores as well (the totals that end the match are
    a round's end's), which `other` on a scoring option explains alone, the early end
    left unread: sleeper's match to 200 points on a double-15 set, its doubled doubles
    `blank_values: other`, was written `full`."""
    if not obs.over_early or MATCH not in free:
        return c
    every = frozenset(cat.options[MATCH].values)
    about = frozenset().union(*(r.get(MATCH, every) for i in obs.over_early
                                for r in obs.fixture.expect[i].scope.regions()))
    ends = [model.eq(MATCH, v) for v in sorted(every - about)]
    return model.all([c, model.any([model.eq(MATCH, OTHER), *ends])])


def doubted(word: Collection[str], declared: Ruleset | None,
            values: Mapping[str, str]) -> frozenset[str]:
    """The options of `word` (the engine declares a known value of each) whose value in
    the answer `values` is another known value: the fixtures that tell the values apart
    contradict the declaration, so it is no reason to read a failure in the clauses every
    value shares as a bug rather than a rule of the engine's own (shared_failure). marshal
    declares `doubles: ordinary` and `own_train_first: required`, and plays rules of its
    own on both (a double ends the turn but binds; marked trains shut until one's own is
    started): the fixtures found open and not-required, its doubles ending the turn
    failing TURN-6 (every value's clause) kept from `other` by the declaration, and
    read as bugs in open (with the situations asked under that answer, its
    mexican_first_turn went from anyone to starter-only). An option kept at its declared
    value keeps the word: signalbox's and interlock's bugs (TRAIN-4, TURN-3) are not
    read as their follow-up or scoring rules of their own."""
    if declared is None:
        return frozenset()
    said = dict(declared.choices)
    return frozenset(o for o in word
                     if values.get(o, OTHER) not in (said.get(o), OTHER))


def problems(observations: Sequence[Observation]) -> list[str]:
    """The likely bugs of entries left unread, one line per clause."""
    by_clause: dict[str, list[str]] = {}
    for obs in observations:
        for clause in sorted(set(obs.unshared.values())):
            by_clause.setdefault(clause, []).append(obs.fixture.id)
    return [f"likely bug: {SAID[clause]} in {counted(len(fids))} ({', '.join(fids[:3])}"
            f"{' ...' if len(fids) > 3 else ''}), where every known value of every option "
            f"they are about agrees; those entries are left unread "
            f"[{CLAUSES.get(clause, clause)}]"
            for clause, fids in sorted(by_clause.items())]
