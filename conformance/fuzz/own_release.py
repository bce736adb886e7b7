"""A legal answer under a release of one's own, judged as conform judges it.

Where the reference's legal set on a table reads `uncoverable_double` (a double of an
earlier turn open: DBL-9, DBL-10, DBL-12, DBL-13) and the rule set plays it its own way,
fuzz judged nothing of the answer (own_rules: "its own rules decide"), though a release
decides only whether that double binds the player to move. conform cuts such an entry
finely (release_alone.py): the actions the known releases disagree on are the rule's,
every other is judged. fuzz asks that same code of the table it plays (release_entry,
under the stand-in fuzz sends), and judges the answer without those actions; where no cut
can be shown (two doubles of earlier turns open, say), the answer is not judged, as before.
The finding's expectation is the reference's whole list, which the reproducer states and
conform cuts again.

A refusal (an illegal action offered) is judged alike: conform keeps an entry's refusal
where every known release refuses the action, naming any clause one of them names, and
sets it aside otherwise; fuzz asks that same cut of the one refusal (refusal_cut). Before,
every refusal whose reference reading read the release was set aside whole, the actions
every release refuses (a tile that fits no train, TRAIN-2) with them.

A draw rule of one's own, where the answer read it alone (a tile drawn), is cut as
conform cuts it too (draw_alone.dry_draw_entry): on an empty boneyard the draw alone is
judged, which no draw rule allows (TURN-4). wye listed it there, and fuzz judged nothing
of it: a finding it charged to no clause.

A follow-up, or whether one's own train comes first, of one's own (perhaps with a
round-end rule of one's own besides) is asked as conform asks it too
(bracket_alone.bracketed_entry): where both ends of the known values' bracket give the
reference's answer, the known rules between them do, and the answer is judged whole.
Before, fuzz set every such answer aside: a draw missing after a double laid when nothing
fits any train (DBL-5, whatever the follow-up) went unseen under `follow_up: other`.
Where the two ends disagree and whether one's own train comes first is the only rule of
one's own read, what they agree on is judged (bracket_alone.bracket_cut, conform's cut,
asked with the stand-in fuzz sends): wagonway's own train first unless its marker is up
(tests/examples/java/Wagonway.java) had 122 answers set aside in 12 games (seed 1), 48
now; an answer whose every action the ends disagree on stays set aside. A
follow-up outside the bracket (ballbridge's: the double's layer never covers it) is told
as conform tells it (follow_probe.py), from the answer itself: where the implementation's
list lacks the cover of the double just laid that both ends allow, a difference charged
only to the follow-up's moment is its rule's, not judged.

Who may open the Mexican Train and whether one's own train comes first, both of one's
own (perhaps with round-end rules), are cut together as conform cuts them
(mexican_with.pair_entry): hump and flagstop play both so, and every answer that read
the two was set aside.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from mtrain.conformance.bracket_alone import bracket_cut, bracketed, bracketed_entry
from mtrain.conformance.divergence import ROUND_END
from mtrain.conformance.draw_alone import OPTION as DRAW_RULE
from mtrain.conformance.draw_alone import dry_draw_entry
from mtrain.conformance.fixture import Expectation, Fixture
from mtrain.conformance.follow_probe import MOMENT, covering_play, follow_clause
from mtrain.conformance.fuzz.judge import Disagreement, compare_legal
from mtrain.conformance.fuzz.own_rules import option_space
from mtrain.conformance.fuzz.rulesets import Context
from mtrain.conformance.fuzz.tables import table_of
from mtrain.conformance.mexican_with import PAIR, pair_entry
from mtrain.conformance.release_alone import OPTION, release_entry
from mtrain.reference import codec
from mtrain.reference.engine import Action, State
from mtrain.spec.notation import action_text


def legal_cut(ctx: Context, st: State, legal: Sequence[Action], got: Any,
              own: Sequence[str]) -> list[Disagreement] | None:
    """The implementation's legal answer `got` (a list of actions) on the reference's view
    `st` (its legal actions `legal`, whose finding read the options `own` of one's own)
    judged but for the actions a release (or a draw rule) of its own decides, or whole
    where the known rules bracket its own (the module docstring); None where no such cut
    is made: not judged."""
    options = cuttable(ctx, own)
    if options is None:
        return None
    texts = tuple(sorted(action_text(codec.action_to_json(st, a)) for a in legal))
    exp = _cut(ctx, st, Expectation(variants=(), legal=texts), options)
    if exp is None or exp.legal is None:
        return None
    aside, only = set(exp.own_actions), exp.only_actions

    def judged(text: str) -> bool:
        return text not in aside and (only is None or text in only)

    wanted = [a for a in legal if judged(action_text(codec.action_to_json(st, a)))]
    mine = [a for a in got if judged(action_text(a))]
    whole = {"legal": list(texts)}  # conform cuts the reproducer's list itself
    found = [replace(d, expect=whole) for d in compare_legal(ctx, st, wanted, mine, None)]
    return None if found and _outside(st, got, found, options) else found


def _outside(st: State, got: Any, found: Sequence[Disagreement], options: frozenset[str]
             ) -> bool:
    """Whether the differences `found` in the legal answer `got` on `st` are those of a
    follow-up of one's own outside the known rules' bracket: each charged only to the
    follow-up's moment (the clauses its signature names), and `got` lacks the cover of
    the double just laid that both ends of the bracket allow (follow_probe.covering_play:
    conform asks that play itself)."""
    if "follow_up" not in options:
        return False
    for d in found:  # (the clause a signature names is the one it is charged to)
        named = re.findall(r"\(([A-Z]+-\d+)\)", d.signature)
        if not named or not all(follow_clause(c) or c in MOMENT for c in named):
            return False
    cover = covering_play(codec.state_to_json(st))
    return cover is not None and action_text(cover) not in {action_text(a) for a in got}


def refusal_cut(ctx: Context, st: State, text: str, wants: Sequence[str],
                own: Sequence[str]) -> tuple[str, ...] | None:
    """The clauses by which the refusal of `text` on the reference's view `st` is judged,
    where the reference's refusal (by any of `wants`) read the options `own` of one's own
    and those are a release alone: any clause one known release refuses it by, where
    every one refuses it (the module docstring), or bracketed rules whose bracket's ends
    both refuse it by one of `wants`; None where the rule decides it, or no cut can be
    shown: not judged."""
    options = cuttable(ctx, own)
    if options is None:
        return None
    exp = _cut(ctx, st, Expectation(variants=(), refused={text: tuple(wants)}), options)
    return None if exp is None else exp.refused.get(text)


CUTS = {OPTION: release_entry, DRAW_RULE: dry_draw_entry}
"""The options of one's own whose entries conform cuts where they alone are read."""


def cuttable(ctx: Context, own: Sequence[str]) -> frozenset[str] | None:
    """The options of one's own an answer read, where conform cuts an entry reading them:
    one of CUTS alone, or bracketed rules (bracket_alone.bracketed); else None."""
    options = frozenset(own)
    if not options or not options <= ctx.unknown:
        return None
    return options if bracketed(options) or paired(options) or (
        len(options) == 1 and next(iter(options)) in CUTS) else None


def paired(options: frozenset[str]) -> bool:
    """Whether `options` are who may open the Mexican Train and whether one's own train
    comes first, perhaps with round-end rules (mexican_with.py's cut)."""
    return PAIR <= options <= PAIR | ROUND_END


def _cut(ctx: Context, st: State, exp: Expectation, options: frozenset[str]
         ) -> Expectation | None:
    """`exp`, an entry on the table `st` with no step, cut as conform cuts it under the
    rule set's `options` of its own (CUTS, under the stand-in fuzz sends; or the
    bracket's); None where no cut can be shown."""
    try:
        fx = Fixture(id="fuzz-release", description="", clauses=(), source=(), path="<fuzz>",
                     line=None, table=table_of(codec.state_to_json(st)), deal=None,
                     steps=(), expect=())
        if paired(options):  # who opens the Mexican Train and one's own train first:
            # their plays on the empty Mexican Train and what the pairs of known values
            # disagree on aside (mexican_with.py: conform's cut, under fuzz's stand-in)
            return pair_entry(exp, fx, ctx.declared, option_space(), options, sent=ctx.rs)
        if bracketed(options):
            # judged whole where both ends give the answer; else, one's own train first
            # alone, what its two ends agree on (bracket_cut: wagonway's own train first
            # unless its marker is up had every answer that read it set aside)
            return (bracketed_entry(exp, fx, ctx.declared, option_space(), options)
                    or bracket_cut(exp, fx, ctx.declared, option_space(), options,
                                   sent=ctx.rs))
        (option,) = options
        return CUTS[option](exp, fx, ctx.declared, option_space(), sent=ctx.rs)
    except codec.StateError:  # a table only its own rules reach: not judged, as before
        return None
