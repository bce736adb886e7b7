"""How an implementation's answers on one state differ from a fixture's expectation.

`check` asks the implementation what the expectation names (its legal actions, the
refusals, the winners, the scores), compares the state's fields and result, and, given
the reference's view (attribution.Referee), charges each difference to its clause.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mtrain.conformance.adapter import JSON, Implementation, Refused, Unsupported
from mtrain.conformance.attribution import Referee
from mtrain.conformance.divergence import end_aside, ended_blocked
from mtrain.conformance.double_plays import laid_aside
from mtrain.conformance.drawn_probe import drawn_moment
from mtrain.conformance.fixture import Expectation
from mtrain.conformance.last_bone import counts_bones
from mtrain.conformance.match_over import holds_match_over
from mtrain.conformance.own_score import check_own_score, own_score_asked
from mtrain.conformance.state_compare import compare_field, compare_result, state_view
from mtrain.spec.catalog import catalog
from mtrain.spec.notation import action_json, action_text


def unknown_clause(cited: str) -> str:
    """What to add to a message about a refusal citing `cited`: where the specification
    has no such clause (a misspelt id, one in lower case), say so and how ids are written;
    nothing for a clause it has."""
    if cited in catalog().clauses:
        return ""
    same = [c for c in catalog().clauses if c.lower() == cited.strip().lower()]
    return (f"; {cited} is no clause of the specification: an id is written as `mtrain "
            f"explain` prints it, in capitals ({same[0] if same else 'TRAIN-4'})")


def check(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
          max_pip: int, require_clauses: bool = False,
          nulls: list[str] | None = None, *, referee: Referee | None = None,
          charged: list[str] | None = None, ended_here: bool = False) -> list[str]:
    """Every way the implementation's answers differ from `exp`; refusals that name no
    clause are listed in `nulls` (and fail only with `require_clauses`). With a
    `referee`, each problem's clause is appended to `charged` (attribution.py).
    `ended_here`: the implementation's own answer to a step ended the round in `state`."""
    problems: list[str] = []

    def charge(clause: str | None) -> None:
        if charged is not None and clause is not None:
            charged.append(clause)

    if exp.refused_setup is not None:  # the setup was accepted: it had to be refused
        named = " or ".join(exp.refused_setup)
        charge(exp.refused_setup[0])
        return [f"the setup was accepted; the rules refuse it ({named})"]
    if exp.own_end is not None and ended_blocked(state) != exp.own_end:
        # END-2, END-3: the round over here or not by a blocked-round rule of its own
        # (blocked_alone.py): what only the end decides is that rule's
        exp = end_aside(exp)
    if getattr(impl, "can_ask_ahead", False):  # behind the protocol: one round trip
        impl.ask_ahead(rj, state,  # type: ignore[attr-defined]
                       questions(exp, state, max_pip, ended_here))

    seen: list[str] = []  # plays offered that the rules refuse
    outer = referee  # (the legal set's may hold doubles back: lay_alone.py)
    if exp.legal is not None:
        actual = {action_text(a) for a in impl.legal(rj, state)}
        want = set(exp.legal)
        if exp.own_doubles is not None:  # whether a double offered may be laid is a
            # doubles rule of one's own's (lay_alone.py), a train's being open is not
            want, held = laid_aside(exp, actual, impl, rj, state)
            if referee is not None and held:  # the rest charged as on a hand without them
                referee = referee.holding_back(held)
        if exp.own_draw and any(draws(a) for a in actual) and not counts_bones(
                impl, rj, state, actual):
            # TURN-2: whether a player with no play draws or passes is the draw rule of
            # its own's (draw_alone.py): its plays alone are judged
            actual = {a for a in actual if not draws(a)}
        if exp.own_actions:  # offered under some known rules, not others: the
            # implementation's rule of its own decides them (release_alone.py)
            actual, want = actual - set(exp.own_actions), want - set(exp.own_actions)
        if exp.only_actions is not None:  # these alone no rule of its own decides
            actual, want = actual & set(exp.only_actions), want & set(exp.only_actions)
        missing, extra = sorted(want - actual), sorted(actual - want)
        # A draw or pass offered because a play was not seen (one the rules would allow
        # without the tiles of the missing plays) is charged to those plays alone.
        follows = bool(referee and extra and missing
                       and referee.follows_from_missing(extra, missing))
        # ... and a draw or pass missing beside plays the rules refuse follows from them:
        # a player who can play does not draw (TURN-1)
        seen = [a for a in extra if a.startswith("play ")]
        blind = bool(referee and seen and missing and all(draws(a) for a in missing))
        if extra:  # an action offered that the rules refuse: charged to the refusing clause
            problems.append("legal actions not allowed by the rules: " + ", ".join(extra))
            if not follows:
                charge(_likeliest([referee.refuses(None, a, sorted(actual)) for a in extra],
                                  referee)
                       if referee else None)
        if missing:
            problems.append("legal actions missing: " + ", ".join(missing))
        if missing and not blind:
            # covers missing on closed trains and no cover offered at all: TRAIN-6 (an
            # engine that covers elsewhere errs in the order, DBL-7 or DBL-8)
            closed = (referee is not None and not any(a.startswith("play ") for a in extra)
                      and all(referee.closed_cover(None, a) for a in missing)
                      and not any(referee.covers(a) for a in actual))
            # plays missing on marked trains and none offered on those trains (but covers,
            # which an open double opens): it keeps them closed, though it may open
            # another marked train (a loop over the seats one short), and whether or not
            # the tile was just drawn (TURN-3 allows it, and the engine plays it elsewhere)
            shut = {_train_of(a) for a in missing}
            marked = (referee is not None and not closed
                      and all(referee.marked_play(None, a) for a in missing)
                      and not any(referee.marked_play(None, a) and not referee.covers(a)
                                  and _train_of(a) in shut for a in actual))
            # plays missing on the Mexican Train by a player whose marker is up, none
            # offered on it, some other legal play offered: it keeps the Mexican Train
            # closed to them (TRAIN-4, MARK-2). With none, the tiles may be unseen (the drawn one,
            # TURN-3): the table alone cannot tell, and the moment's rule is charged
            on_mexican = not any(a.startswith("play ") and a.endswith(" on mexican")
                                 for a in actual)
            seen_tile = any(a.startswith("play ") for a in actual & want)
            mexican = (referee is not None and not closed and not marked and on_mexican
                       and seen_tile
                       and all(referee.marked_mexican(None, a) for a in missing))
            # plays missing that open the empty Mexican Train and none offered on it (but
            # with a tile the rules refuse there: the wrong number opening it, the same
            # bug): what opens it (TRAIN-5), in a follow-up too, where the moment's rule
            # allows them; nothing offered on it on a first turn: FIRST-8 (opening_rule)
            opening = (referee is not None and not closed and not marked
                       and all(referee.opens_mexican(None, a) for a in missing)
                       and not any(a.startswith("play ") and a.endswith(" on mexican")
                                   and a not in extra for a in actual))
            # a drawn tile's plays missing that the engine offers for that tile held
            # without the draw: the drawn tile's rule narrowed them (TURN-3, drawn_probe)
            moment = referee is not None and drawn_moment(impl, rj, state, missing, actual)
            # a cover missing where the engine offers what a release too early leaves
            # (DBL-12 one tile early, DBL-9 counted early): that release, not a closed
            # train
            early = (referee.release_offered(sorted(actual))
                     if closed and referee is not None else None)
            charge("TURN-3" if moment else early if early else "TRAIN-6" if closed else
                   referee.marker_access() if marked and referee else
                   referee.mexican_access() if mexican and referee else
                   referee.opening_rule(sorted(missing), sorted(actual)) if opening and referee else
                   _likeliest([referee.allows(None, a) for a in missing], referee)
                   if referee else None)
    referee = outer
    for text, clauses in exp.refused.items():
        named = " or ".join(clauses)
        try:
            # (a tile of no set of this rule set's size is sent as written: SET-1 refuses it)
            impl.apply(rj, state, action_json(text))
            problems.append(f"`{text}` was accepted; the rules refuse it ({named})")
            charge(clauses[0])
        except Refused as e:
            if e.clause is None and nulls is not None:
                nulls.append(text)
            if e.clause is None and require_clauses:
                problems.append(f"`{text}` refused without naming a clause; the rules "
                                f"refuse it by {named} (--require-clauses)")
                charge(clauses[0])
            elif e.clause is not None and e.clause not in clauses:
                problems.append(f"`{text}` refused by {e.clause}, expected {named}"
                                f"{unknown_clause(e.clause)}")
                if not (seen and draws(text) and e.clause == "TURN-1"):  # as above
                    charge((_closed_cover(referee, None, text, e.clause) if referee else None)
                           or clauses[0])
    view = state_view(state, exp.state) if exp.state else {}
    for key, want in exp.state.items():
        found = compare_field(key, want, view, max_pip)
        if found:
            problems += found
            charge(referee.field(key, None, view.get(key), state) if referee else None)
    if exp.result is not ...:
        found = compare_result(exp.result, state.get("result"))
        if found:
            problems += found
            charge(referee.result(exp.result, state.get("result")) if referee else None)
    if exp.winners is not None or exp.match_over is not None:
        got = sorted(impl.winners(rj, state))
        # none named where the rules end the match: a longer match, unless the
        # implementation refuses the round after (match_over.py); so too under a match
        # length of its own, whose empty answer says its match goes on only where it deals
        # that round (fuzz's compare_winners asks alike)
        over = (exp.winners is not None and bool(exp.winners) and not got
                and referee is not None and holds_match_over(impl, rj, referee.rs, state))
        going_on = exp.winners_unless_going_on and not got and not over
        if exp.winners is not None and got != sorted(exp.winners) and not going_on:
            problems.append(f"winners: expected {sorted(exp.winners)}, got {got}"
                            + (" (or none, while its own match goes on)"
                               if exp.winners_unless_going_on and not over else ""))
            charge(referee.winners(exp.winners, got, over) if referee else None)
        elif exp.match_over is not None and bool(got) != exp.match_over:
            problems.append("the match should be over; the implementation names no winner"
                            if exp.match_over else
                            f"the match should go on (round {state.get('round')}: rounds "
                            f"remain); the implementation names winners {got}")
            # over on one side only: the match's length decides, never a tie rule
            charge(referee.winners([], got) if referee else "MATCH-1")
    if exp.own_totals is not None and (carry := own_totals_problem(exp.own_totals, state)):
        problems.append(carry)
        charge("MATCH-1")  # the carry, whatever a round is worth
    asked: list[Any] = []  # the scores the implementation gave, for the charge
    found = check_score(exp, rj, state, impl, asked)
    if found:
        problems += found
        round_want = exp.result.get("scores") if isinstance(exp.result, dict) else None
        charge(referee.scoring(round_want, asked[0] if asked else None) if referee else None)
    asked.clear()
    found = check_own_score(exp, rj, state, impl, ended_here, asked)
    if found:
        problems += found
        charge(referee.scoring((state.get("result") or {}).get("scores"),
                               asked[0] if asked else None) if referee else None)
    asked.clear()
    found = check_blocked_scores(exp, rj, state, impl, asked)
    if found:
        problems += found
        charge(referee.scoring(exp.blocked_scores, asked[0] if asked else None, True)
               if referee else None)
    return problems


def own_totals_problem(carried: Sequence[int], state: JSON) -> str | None:
    """What is wrong with `state`'s totals, where the round must be over with the totals
    `carried` plus the implementation's own round scores (Expectation.own_totals); None
    where nothing is."""
    result = state.get("result")
    scores = result.get("scores") if isinstance(result, dict) else None
    if not (isinstance(scores, list) and len(scores) == len(carried)
            and all(type(v) is int for v in scores)):
        return (f"the round should be over with its scores (their worth its own rule's), "
                f"its totals {list(carried)} carried: result {result!r}")
    want = [c + v for c, v in zip(carried, scores, strict=True)]
    if state.get("scores") != want:
        return (f"scores: expected the totals {list(carried)} plus the round's own scores "
                f"{scores} = {want} (MATCH-1), got {state.get('scores')!r}")
    return None


def questions(exp: Expectation, state: JSON, max_pip: int, ended_here: bool = False
              ) -> list[tuple[str, JSON]]:
    """The requests `check` makes about `state`, in its order (kind, the fields beside the
    rule set and the state), so that they can be written at once."""
    out: list[tuple[str, JSON]] = []
    if exp.legal is not None:
        out.append(("legal", {}))
    out += [("apply", {"action": action_json(text)}) for text in exp.refused]  # as check
    if exp.winners is not None or exp.match_over is not None:
        out.append(("winners", {}))
    result = state.get("result")
    if isinstance(exp.result, dict) and exp.result.get("scores") is not None and isinstance(
            result, dict):  # check_score's request
        winner = result.get("winner")
        out.append(("score", {"winner": winner if isinstance(winner, int) else None}))
    if own_score_asked(exp, state, ended_here):  # check_own_score's request
        winner = state["result"].get("winner")
        out.append(("score", {"winner": winner if isinstance(winner, int) else None}))
    if exp.blocked_scores is not None:  # check_blocked_scores's request
        out.append(("score", {"winner": None}))
    return out


def _closed_cover(referee: Referee, state: JSON | None, text: str,
                  cited: str | None) -> str | None:
    """TRAIN-6 for a play refused as onto a closed train (TRAIN-4) where it covers an open
    double on another player's unmarked train, which TRAIN-6 opens, and the marker's access
    (TRAIN-4, MARK-1) where that train carries a marker: that is the rule the refusal
    breaks, whatever else the moment asks."""
    if cited != "TRAIN-4":
        return None
    if referee.closed_cover(state, text, legal=False):
        return "TRAIN-6"
    # a play onto a marked train refused as closed: the marker's access it denies
    return referee.marker_access() if referee.marked_play(state, text) else None


def _train_of(text: str) -> str:
    """The train of the play `text` ("play 6-1 on 4": "4"); "" for another action."""
    return text.rpartition(" on ")[2] if text.startswith("play ") else ""


def draws(text: str) -> bool:
    """Whether the action `text` is a draw or a pass: what a player does who cannot play."""
    return text.split(" ")[0] in ("draw", "pass")


def _likeliest(clauses: Sequence[str], referee: Referee) -> str:
    """Of the clauses several actions point at: one the fixture lists, else the commonest."""
    listed = [c for c in clauses if c in referee.fx.clauses]
    pool = listed or list(clauses)
    return max(pool, key=pool.count)


def check_score(exp: Expectation, rj: JSON, state: JSON, impl: Implementation,
                asked: list[Any] | None = None) -> list[str]:
    """SCORE-1..6 on their own: an implementation with `score` is asked to score the hands
    the round ended with, and must give the round scores the fixture expects (its answer
    appended to `asked`, where given)."""
    want = exp.result.get("scores") if isinstance(exp.result, dict) else None
    result = state.get("result")
    scorer = getattr(impl, "score", None)
    if want is None or not isinstance(result, dict) or not callable(scorer):
        return []
    winner = result.get("winner")
    try:
        got = scorer(rj, state, winner if isinstance(winner, int) else None)
    except Unsupported:
        return []
    if asked is not None:
        asked.append(got)
    if not isinstance(got, list) or list(got) != list(want):
        return [f"score request (winner {winner}): expected round scores {want}, got {got}"]
    return []


def check_blocked_scores(exp: Expectation, rj: JSON, state: JSON,
                         impl: Implementation, asked: list[Any] | None = None) -> list[str]:
    """The scores of the hands `state` holds as a blocked round (SCORE-5..7), asked apart
    from how the round ends (blocked_alone.py); an implementation without `score` cannot
    be asked (not applicable)."""
    if exp.blocked_scores is None:
        return []
    scorer = getattr(impl, "score", None)
    if not callable(scorer):
        raise Unsupported("a blocked round's scores are asked by a `score` request")
    got = scorer(rj, state, None)
    if asked is not None:
        asked.append(got)
    if not isinstance(got, list) or list(got) != list(exp.blocked_scores):
        return [f"score request (blocked, no winner): expected round scores "
                f"{list(exp.blocked_scores)}, got {got}"]
    return []
