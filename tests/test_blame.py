"""Failures charged to the clause that decides them, measured on the mutants catalogue."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any

import pytest

from mtrain.cli import main
from mtrain.conformance.fixture import Fixture, load_corpus
from mtrain.conformance.mutants import MUTANTS
from mtrain.conformance.mutants.blame import Blame

ADAPTERS = Path(__file__).parent / "broken_impls" / "adapters.py"


@functools.cache
def _corpus() -> tuple[Fixture, ...]:
    fixtures, errors = load_corpus()
    assert not errors
    return tuple(fixtures)


def _reading_holds(found: list[Blame], names: set[str], size: int | None, bar: int) -> None:
    """A reading's mutants all played (`size` of them, where given), and at least `bar`
    of them charged to a clause they break."""
    mine = [b for b in found if b.mutant in names]
    assert len(mine) == len(names) and size in (None, len(names))
    assert sum(b.right for b in mine) >= bar, [
        (b.mutant, b.breaks, b.charged.most_common(2)) for b in mine if not b.right]


@pytest.mark.slow
def test_most_mutants_are_charged_to_the_clause_they_break(corpus_blame: list[Blame]) -> None:
    # blame(corpus), every mutant: played once per run (tests/conftest.py), the corpus's
    # kills (test_mutants.py) read from the same play
    found = corpus_blame
    assert [b.mutant for b in found] == list(MUTANTS)
    from mtrain.conformance.mutants.eighteenth_reading import EIGHTEENTH_READING
    from mtrain.conformance.mutants.eighth_reading import EIGHTH_READING
    from mtrain.conformance.mutants.eleventh_reading import ELEVENTH_READING
    from mtrain.conformance.mutants.fifteenth_reading import FIFTEENTH_READING
    from mtrain.conformance.mutants.fifth_reading import FIFTH_READING
    from mtrain.conformance.mutants.fourteenth_reading import FOURTEENTH_READING
    from mtrain.conformance.mutants.nineteenth_reading import NINETEENTH_READING
    from mtrain.conformance.mutants.ninth_reading import NINTH_READING
    from mtrain.conformance.mutants.seventeenth_reading import SEVENTEENTH_READING
    from mtrain.conformance.mutants.seventh_reading import SEVENTH_READING
    from mtrain.conformance.mutants.sixteenth_reading import SIXTEENTH_READING
    from mtrain.conformance.mutants.sixth_reading import SIXTH_READING
    from mtrain.conformance.mutants.tenth_reading import TENTH_READING
    from mtrain.conformance.mutants.thirteenth_reading import THIRTEENTH_READING
    from mtrain.conformance.mutants.thirtieth_reading import THIRTIETH_READING
    from mtrain.conformance.mutants.thirty_fifth_reading import THIRTY_FIFTH_READING
    from mtrain.conformance.mutants.thirty_first_reading import THIRTY_FIRST_READING
    from mtrain.conformance.mutants.thirty_fourth_reading import THIRTY_FOURTH_READING
    from mtrain.conformance.mutants.thirty_second_reading import THIRTY_SECOND_READING
    from mtrain.conformance.mutants.thirty_third_reading import THIRTY_THIRD_READING
    from mtrain.conformance.mutants.twelfth_reading import TWELFTH_READING
    from mtrain.conformance.mutants.twentieth_reading import TWENTIETH_READING
    from mtrain.conformance.mutants.twenty_eighth_reading import TWENTY_EIGHTH_READING
    from mtrain.conformance.mutants.twenty_fifth_reading import TWENTY_FIFTH_READING
    from mtrain.conformance.mutants.twenty_first_reading import TWENTY_FIRST_READING
    from mtrain.conformance.mutants.twenty_fourth_reading import TWENTY_FOURTH_READING
    from mtrain.conformance.mutants.twenty_ninth_reading import TWENTY_NINTH_READING
    from mtrain.conformance.mutants.twenty_second_reading import TWENTY_SECOND_READING
    from mtrain.conformance.mutants.twenty_seventh_reading import TWENTY_SEVENTH_READING
    from mtrain.conformance.mutants.twenty_sixth_reading import TWENTY_SIXTH_READING
    from mtrain.conformance.mutants.twenty_third_reading import TWENTY_THIRD_READING

    fifth = {m.name for m in FIFTH_READING}
    sixth = {m.name for m in SIXTH_READING}
    seventh = {m.name for m in SEVENTH_READING}
    eighth = {m.name for m in EIGHTH_READING}
    ninth = {m.name for m in NINTH_READING}
    tenth = {m.name for m in TENTH_READING}
    eleventh = {m.name for m in ELEVENTH_READING}
    twelfth = {m.name for m in TWELFTH_READING}
    thirteenth = {m.name for m in THIRTEENTH_READING}
    fourteenth = {m.name for m in FOURTEENTH_READING}
    fifteenth = {m.name for m in FIFTEENTH_READING}
    sixteenth = {m.name for m in SIXTEENTH_READING}
    seventeenth = {m.name for m in SEVENTEENTH_READING}
    eighteenth = {m.name for m in EIGHTEENTH_READING}
    nineteenth = {m.name for m in NINETEENTH_READING}
    twentieth = {m.name for m in TWENTIETH_READING}
    twenty_first = {m.name for m in TWENTY_FIRST_READING}
    twenty_second = {m.name for m in TWENTY_SECOND_READING}
    twenty_third = {m.name for m in TWENTY_THIRD_READING}
    twenty_fourth = {m.name for m in TWENTY_FOURTH_READING}
    twenty_fifth = {m.name for m in TWENTY_FIFTH_READING}
    twenty_sixth = {m.name for m in TWENTY_SIXTH_READING}
    twenty_seventh = {m.name for m in TWENTY_SEVENTH_READING}
    twenty_eighth = {m.name for m in TWENTY_EIGHTH_READING}
    twenty_ninth = {m.name for m in TWENTY_NINTH_READING}
    thirtieth = {m.name for m in THIRTIETH_READING}
    thirty_first = {m.name for m in THIRTY_FIRST_READING}
    thirty_second = {m.name for m in THIRTY_SECOND_READING}
    thirty_third = {m.name for m in THIRTY_THIRD_READING}
    thirty_fourth = {m.name for m in THIRTY_FOURTH_READING}
    thirty_fifth = {m.name for m in THIRTY_FIFTH_READING}
    later = (fifth | sixth | seventh | eighth | ninth | tenth | eleventh | twelfth
             | thirteenth | fourteenth | fifteenth | sixteenth | seventeenth
             | eighteenth | nineteenth | twentieth | twenty_first | twenty_second
             | twenty_third | twenty_fourth | twenty_fifth | twenty_sixth
             | twenty_seventh | twenty_eighth | twenty_ninth | thirtieth | thirty_first
             | thirty_second | thirty_third | thirty_fourth | thirty_fifth)
    earlier = [b for b in found if b.mutant not in later]
    wrong = [(b.mutant, b.breaks, b.charged.most_common(2)) for b in earlier if not b.right]
    # Issue 10's bar: measured 78 of 83 (94 %) when it was raised to 90 %; 239 of 264
    # (90.5 %) for the readings before the fifth; 253 of 264 (95.8 %) measured on
    # 2026-12-04 once failures were charged to the rule the play broke rather than the
    # moment's (issue 21: draws beside refused plays, blocked rounds the doubles decide,
    # fields out of range, winners, release and search rules).
    assert len(earlier) == 264
    assert len(earlier) - len(wrong) >= 253, wrong
    # The fifth reading (seat arithmetic past eight, search starts, releases at the
    # bound): 33 of 40 when it landed; 39 of 40 measured on 2026-12-04 (issue 21), the one
    # left drawn-double-blank-forgotten (TURN-2 and TURN-4 three failures each).
    _reading_holds(found, fifth, 40, 39)
    # The sixth reading (the newest values and their meetings) when it landed: 36 of 41;
    # the five charged elsewhere: a deal's pool or engine number refused or misreported
    # (no failure to charge: the setup errs), double-18's numbers (TRAIN-4), rounds past
    # 16 (MATCH-7, the refusal's own clause) and a first turn's follow-up without a draw
    # (TURN-2 as often as DBL-5).
    _reading_holds(found, sixth, None, 36)
    # The seventh reading (untouched table rows, the draw, a pass's marker, SCORE-7's ties
    # and outs, first turns, END-2 with tiles left): 20 of 20 when it landed (2026-12-04).
    _reading_holds(found, seventh, 20, 20)
    # The eighth reading (rows still untouched, a table of one's own at its ends, double-18's
    # size, face value, shared ties, the last round, the Mexican Train on a first turn and
    # at 2 players, turned tiles, TURN-6 under ordinary doubles): 13 of 16 when it landed
    # (2026-12-04, `mtrain mutants -m ... --blame`); the three charged elsewhere: a pool
    # short of [18-18] (the setup errs: nothing to charge), a whole table's tie named by
    # nobody (MATCH-1), and an unturned tile's refusal (TRAIN-4, as the engine names it).
    _reading_holds(found, eighth, 16, 13)
    # The ninth reading (TURN-7, TURN-6, the trains' ends, the Mexican Train's doubles and
    # marker, END-1's winner, the follow-up's trains, FIRST-4's chain doubles, the drawn tile,
    # blank ends, three table rows): 21 of 21 when it landed (2026-12-04, `mtrain mutants
    # -m ... --blame`).
    _reading_holds(found, ninth, 21, 21)
    # The tenth reading (the duty to play beside a choice, DBL-8, FIRST-8, ENG-3, SCORE-1,
    # MATCH-2 and MATCH-3, a chain's covered double, a turn's drawn tile, markers past seat
    # 7, seven table rows): 19 of 19 when it landed (2026-12-05, `mtrain mutants -m ...
    # --blame`). 18 since session 61: s61-match-ends' tied last rounds kill
    # winners-by-last-round too, and a tied table's winners are charged to the tie rule
    # (MATCH-4 41 failures against MATCH-2 40).
    _reading_holds(found, tenth, 19, 18)
    # The eleventh reading (tables of 11 and 12 players, the match's winner, outs off the
    # score sheet, a blocked round scored as gone out, the blank rule in one branch, marked
    # and Mexican trains): 17 of 17 when it landed (2026-12-05, `mtrain mutants -m ...
    # --blame`).
    _reading_holds(found, eleventh, 17, 17)
    # The twelfth reading (odd tile sets, the boneyard running out, markers settled within
    # a turn, a double as the round's last tile): 13 of 16 when it landed (2026-12-05,
    # `mtrain mutants -m ... --blame`); the three charged elsewhere: a double-9 pool of 85
    # tiles (the deal's setup errs: nothing to charge), END-2 asked at the draw that
    # empties the boneyard (the draw's clause, TURN-2) and a stuck player skipped without
    # a pass (END-3 where the skipped passes complete a round of passes).
    _reading_holds(found, twelfth, 16, 13)
    # The thirteenth reading (deal slices, a pass's marker on the wrong train, first-turn
    # flags, drawn tiles under FIRST-10 and TRAIN-7, a duty's drawing, END-3's passes,
    # END-2 without the Mexican Train): 23 of 30 when it landed (2026-12-05, `mtrain
    # mutants -m ... --blame`); see the reading's docstring for the seven.
    _reading_holds(found, thirteenth, 30, 23)
    # The fourteenth reading (tables of one's own read wrongly, totals and round sheets
    # that part ways, refusals citing the wrong clause under house rules): 38 of 38 when
    # it landed (2026-12-05, `mtrain mutants -m ... --blame`).
    _reading_holds(found, fourteenth, 38, 38)
    # The fifteenth reading (rounds past 13, the search at the last seats, first turns set
    # up once, markers kept by follow-ups and chains, open doubles charged at a round's
    # end, outs lost): 17 of 17 when it landed (2026-12-05, `mtrain mutants -m ...
    # --blame`).
    _reading_holds(found, fifteenth, 17, 17)
    # The sixteenth reading (tables of one's own in later rounds and past eight seats, an
    # option's neighbour value leaking in, engines and blank values away from double-12):
    # 28 of 29 when it landed (2026-12-05, `mtrain mutants -m ... --blame`); the one left,
    # a blocking pass scored without the drawn tile, is charged SCORE-1 (a round score
    # that disagrees with one hand reads as a tile valued wrongly).
    _reading_holds(found, sixteenth, 29, 28)
    # The seventeenth reading (tables of 9 and more read through eight seats, later rounds
    # off round 1's path, neighbour values leaking in, engine procedures and starts
    # slipping by one step): 25 of 27 when it landed (2026-12-05, `mtrain mutants -m ...
    # --blame`). The two left: ENG-5's replacement drawn by the seat after the holder is
    # charged the hand-size tables (DEAL-2, DEAL-3), the seat's extra tile reading as a
    # hand dealt wrong; a blocking pass that scores the drawn tile twice is charged
    # SCORE-1, as its sixteenth-reading mirror is (a round score that disagrees with one
    # hand reads as a tile valued wrongly).
    _reading_holds(found, seventeenth, 27, 25)
    # The eighteenth reading (numbers compared as text, tables of 9 and 10 read through
    # eight seats where the seventeenth did not look, later rounds, neighbour values, single
    # slips): 29 of 29 when it landed (2026-12-05, `mtrain mutants -m ... --blame`).
    _reading_holds(found, eighteenth, 29, 29)
    # The nineteenth reading (tie rules past two players and under blocked-winner, the
    # match's length off double-12, later rounds' start through n + 1 slots, ENG-7/ENG-8
    # capped at the round's double, uncoverable-double rules on one kind of train, seat 0
    # read as false): 27 of 27 when it landed (2026-12-05, `mtrain mutants -m ... --blame`).
    _reading_holds(found, nineteenth, 27, 27)
    # The twentieth reading (code sized for double-12 and eight seats, the order of open
    # doubles, draws, the blocked round's lowest hands, the tie rules, ENG-7/ENG-8's
    # searches): 24 of 26 when it landed (2026-12-06, `mtrain mutants -m ... --blame`).
    # The two others are charged where their failures show: the hands dealt from the last
    # seat move the engine's holder (ENG-3) more often than a hand's tiles (DEAL-1), and
    # the tiles draw-until-playable loses are missing from the state (DEAL-1). 23 of 26
    # once merged with session 49's other scenarios (2026-12-06): the numbers stopping at
    # 12 also fail three first turns on double-15 (a first play of a tile above 12
    # missing: FIRST-1, the moment's clause), as often as TRAIN-4, listed first.
    _reading_holds(found, twentieth, 26, 23)
    # The twenty-first reading (the tie rules' own code, who is credited with an out, the
    # round's scores, the engines of the later rounds, the deal's order, the searches'
    # draws, draw-until-playable and doubles): 18 of 20 when it landed (2026-12-06,
    # `mtrain mutants -m ... --blame`); 19 of 20 since session 51 (2026-12-06): a blocked
    # round scored by differences, every scoring hand short by the lowest hand's value,
    # is SCORE-7's (score_charges.common_offset), not the tiles' values (SCORE-1). The
    # other is charged where its failures show: the hands dealt off the end of the order
    # move the engine's holder (ENG-3) more often than a hand's tiles (DEAL-1).
    _reading_holds(found, twenty_first, 20, 19)
    # The twenty-second reading (seat arithmetic masked by players - 1, a round ending on
    # a double, the engine's own answers, the round's end cleaned up, the match's last
    # round): 16 of 20 when it landed (2026-12-06, `mtrain mutants -m ... --blame`). The
    # four others are charged where their failures show: the drawn tile kept through a
    # follow-up makes the player pass where the turn goes on (TURN-6); markers cleared at
    # the round's end are those passes raised (TURN-4); a match over only at the [0-0]
    # round names no winners where the totals decide them (MATCH-2, MATCH-4); seat 0's
    # win written as no winner breaks the state schema (an error, no failure to charge).
    _reading_holds(found, twenty_second, 20, 16)
    # The twenty-third reading (the marker across a draw and a pass, doubles on the Mexican
    # Train, a double as the last tile, boneyards short of a lap, engines below an odd top
    # double, the match's winners at its last round, the turn after a failed follow-up):
    # 18 of 20 when it landed (2026-12-06, `mtrain mutants -m ... --blame`). The two
    # others: the winners read before the last round's scores name shared wins where the
    # totals name one, charged MATCH-4 (68 of 134) ahead of MATCH-2; a blocked round's
    # lowest hand written as its winner breaks the state schema (an error, no failure to
    # charge).
    _reading_holds(found, twenty_third, 20, 18)
    # The twenty-fourth reading (positive scoring's collector, blocked rounds' totals and
    # SCORE-7's ties of three, END-3's passes, the engines of the later and last rounds,
    # "started" read as any train's, draw-until-playable, the turn after a failed
    # follow-up, DBL-13's layer, the turn's doubles newest first, shared wins of three,
    # the smallest rows of four hand tables): 19 of 20 when it landed (2026-12-06, `mtrain
    # mutants -m ... --blame`). The other, three or more on the winning total named no
    # winner, is charged MATCH-1 (17 of 17), as everyone-tied-nobody-wins is: no winner
    # reads as a match not over.
    _reading_holds(found, twenty_fourth, 20, 19)
    # The twenty-fifth reading (the draw for the start and FIRST-9's starter under it, a
    # later round's chain doubles, END-3's count around first turns, failed follow-ups and
    # plays off the own train, most-outs under positive scoring, the double-16 set's
    # table, two markers, eight refusals citing the clause next door): 18 of 18 when it
    # landed (2026-12-06, `mtrain mutants -m ... --blame`).
    _reading_holds(found, twenty_fifth, 18, 18)
    # The twenty-sixth reading (rules kept for round 1, the search's finder and first
    # seat, tables at their edges: short boneyards, one player, double-16's last rows,
    # puremco-d9's and Celko's double-6 rows; pips above 12, blank-25 as double-blank-50,
    # positive scoring's boneyard, outs not carried, any-open as a stack, chain doubles
    # forgotten): 18 of 18 when it landed (2026-12-06, `mtrain mutants -m ... --blame`).
    _reading_holds(found, twenty_sixth, 18, 18)
    # The twenty-seventh reading (a blocked round's winner -1 used as a seat, markers
    # flipped for cleared, a follow-up's markers, several open doubles of earlier turns
    # released one at a time or all at once, the restricted follow-up's first double, a
    # failed follow-up's marker, first-turn passes under END-3, option neighbours: chain
    # doubles under chain-anywhere, the placer under highest-draw and after-engine,
    # doubles scored twice under blank-25 and double-blank-50): 17 of 17 when it landed
    # (2026-12-06, `mtrain mutants -m ... --blame`).
    _reading_holds(found, twenty_seventh, 17, 17)
    # The twenty-eighth reading (a score sheet of thirteen rows on the larger sets, the
    # unpublished sets' matches cut to the published rounds, the lowest seat counted from
    # the starter, single-round's totals and winners, a lap read with after-engine, the
    # deal's search in laps or with a replacement, the starter kept from a search, a dry
    # pass and a failed follow-up under released-after-layers-turn left unmarked, doubles
    # priced as the double blank, chain-anywhere's covers and doubles, the restricted
    # follow-up's empty trains, any-open as cover them all): 16 of 16 when it landed
    # (2026-12-07, `mtrain mutants -m ... --blame`).
    _reading_holds(found, twenty_eighth, 16, 16)
    # The twenty-ninth reading (own-train-first's empty trains, stuck passes and duties,
    # oldest-first within a turn and only when coverable, a drawn tile kept off the empty
    # Mexican Train, starter-only lifted by the own train, the rotating start's placer and
    # the replacement drawn by the starter, a double that follows under ordinary doubles,
    # outs kept for most-outs alone, a follow-up's out, the boneyard's last draw, an empty
    # train's marker): 12 of 14 when it landed, 14 of 14 (2026-12-07, `mtrain mutants -m
    # ... --blame`) once a field that shows a round ended early is charged to the round's
    # end and a replacement drawn by the wrong seat to ENG-5.
    _reading_holds(found, twenty_ninth, 14, 14)
    # The thirtieth reading (heaviest-in-hand as the highest double, highest-draw's tie by
    # the higher end and its tiles kept out, a published table's last row stretched, a
    # chain as long as it can be, FIRST-12 as a preference, an empty train that never
    # draws, the Mexican Train waiting for every train, own-train-first on a first turn, on
    # every turn and lifted by a marker, Mexican plays optional, draw-until-playable that may
    # stop, any-open's own and Mexican doubles first, single-round's blocked round): 16 of 16
    # (2026-12-07, `mtrain mutants -m ... --blame`), with own-train-first-every-turn naming
    # TRAIN-4 and TRAIN-5, the openings it takes away.
    _reading_holds(found, thirtieth, 16, 16)
    # The thirty-first reading (own-train-first under the chain start, beside marked trains,
    # an empty boneyard, released doubles and a first turn laid anywhere; own-train-opens-
    # mexican beside a marker, the starter and a double to cover; starter-opens-mexican on
    # the draw's path; oldest-first and any-open on the draw's path and oldest-first on a
    # first turn anywhere; ordinary doubles beside two follow-ups; draw-until-playable on a
    # chain first turn; no-double-end's chain ended beside a cover; a published table read
    # by trains): 16 of 16 (2026-12-07, `mtrain mutants -m ... --blame`), with
    # mut31-chain-anywhere-covers-oldest naming FIRST-5, whose waiting doubles it orders.
    _reading_holds(found, thirty_first, 16, 16)
    # The thirty-second reading (the [0-0]'s price under blank-25 and double-blank-50; the
    # draw's path through a drawn double, a drawn cover and closed trains; the engine's
    # search at nine seats and more; a train back round at the engine's number; END-2's
    # loop skipping the mover or the passer; DBL-12 a tile early or sparing the Mexican
    # Train; FIRST-5 lifted a first turn early; marked trains of seat 8 and up; the lowest
    # total sought from 0): 13 of 14 (2026-12-07, `mtrain mutants -m ... --blame`).
    # mut32-lowest-total-sought-from-zero names no winner at a match's end, which reads
    # as the match not being over (MATCH-1) wherever the harness has not asked whether
    # the next round is refused (attribution.winners).
    _reading_holds(found, thirty_second, 14, 13)
    # The thirty-third reading (an engine's bookkeeping: a turn's open double forgetting
    # the older ones; seat 0 and the last seat read as none or left out of a loop, for the
    # markers, the doubles, the first turns, blocked-winner and positive scoring; the
    # [0-0] and the doubles above [15-15] laid as plain tiles; DBL-9's count stopped at 16;
    # the own double first under oldest-first; a double on a marked train closing nothing;
    # the restricted follow-up's first double by train number; a follow-up kept off the
    # double whose marker it took; heaviest-in-hand read as the set's heaviest tile): 15
    # of 16 (2026-12-07, `mtrain mutants -m ... --blame`). mut33-last-seat-double-binds-
    # nobody frees a double that can still be covered, which the harness charges to the
    # release rule (DBL-9, 14 failures) more often than to the duty it drops (DBL-6, 7).
    _reading_holds(found, thirty_third, 16, 15)
    # The thirty-fourth reading (where house-rule engines live: a later round's start read
    # off [N-N]'s holder; END-2 asked once a lap, of the unmarked seats, without DBL-7; [N-N]
    # and, under ENG-7 and ENG-8, the round's own double unpriced in hand; a cover taking
    # every marker down; known values read as their house-rule neighbours: the Mexican
    # Train's double first, own-train-first with doubles excepted, a train started from
    # its second tile, a marker lowered by a double anywhere, no doubles in a no-double-end
    # chain, no Mexican follow-up, cover-own or home): 14 of 14 (2026-12-07, `mtrain
    # mutants -m ... --blame`).
    _reading_holds(found, thirty_fourth, 14, 14)
    # The thirty-fifth reading (a turn's moments in house-rule engines: a marker raised
    # after a drawn tile is laid, put back by a failed follow-up, kept up by a double
    # waiting for its follow-up, left down at a pass beside an open double; END-2 asked
    # with a dead double binding, as under oldest-first, as under own-train-first; a first
    # turn spent by its double; home first unless stuck; the nearest double first; a
    # three-way tie cut to two in the draw and under most-outs): 12 of 12 (2026-12-07,
    # `mtrain mutants -m ... --blame`).
    _reading_holds(found, thirty_fifth, 12, 12)


@pytest.mark.slow
def test_a_failure_is_charged_to_one_clause_and_keeps_its_context(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.json"
    main(["conform", "--adapter", f"{ADAPTERS}:ForgetsDraw", "-k", "turn-", "--variant",
          "pagat", "--format", "json", "--output", str(out)])
    report = json.loads(out.read_text(encoding="utf-8"))
    failed = [r for r in report["results"] if r["status"] == "fail"]
    assert failed
    for r in failed:
        assert len(r["charged"]) == 1 and r["clauses"]  # one charge; the context stays
    per_clause = report["clauses"]
    charged = {c for r in failed for c in r["charged"]}
    context_only = {c for r in failed for c in r["clauses"]} - charged
    assert all(per_clause[c]["fail"] == 0 for c in context_only if c in per_clause)
    capsys.readouterr()


@pytest.mark.slow
def test_a_step_that_goes_astray_is_diagnosed(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    from mtrain.conformance.mutants import mutant
    from mtrain.conformance.runner import resolve, run_one

    fixtures, _ = load_corpus()
    impl = mutant("turn-order-reversed")
    seen = seat = 0
    for fx in fixtures:
        if len(fx.steps) < 2:
            continue
        for variant, exp in fx.rulesets():
            o = run_one(fx, resolve(variant), exp, impl)
            if o.status == "fail" and o.messages[0].startswith("diagnosis:"):
                assert "departs from the reference's replay after step" in o.messages[0]
                seen += 1
                seat += o.charged == ["SEAT-1"]  # the turn order, not what it led to
    assert seen > 0 and seat >= seen / 2, (seat, seen)
    capsys.readouterr()


@pytest.mark.parametrize(("name", "fixture", "variant"), [
    ("wrong-engine-double", "engine-003", "pagat"),  # a table the codec refuses, by ENG-1
    ("engine-not-set-aside", "deal-001", "puremco"),  # the engine tile lost by the deal
    ("engine-holder-keeps-engine", "deal-010", "pagat"),  # ... or dealt twice
    ("engine-search-drops-tiles", "engine-008", "pagat"),  # tiles lost looking for it
    ("totals-not-accumulated", "match-010", "pagat"),  # totals that skip the round
    ("own-train-before-duty", "regression-001", "pagat+own-train-first"),  # a draw offered
    ("starter-only-mexican-forever", "first-029", "puremco+starter-opens-mexican"),
    ("covered-double-stays-open", "doubles-035", "pagat"),  # a covered double listed open
    ("duty-not-passed-on", "doubles-042", "pagat"),  # an uncovered double dropped
    # released too early: the play its duty refuses is allowed; the release rule broke
    ("release-off-by-one", "doubles-066", "puremco-d9"),
    # a cover refused on another player's unmarked train (found with tests/examples/js's
    # tortoise engine): TRAIN-6, not the moment's narrower rule (before: DBL-7, TURN-3)
    ("covering-refused-on-closed-train", "doubles-050", "pagat"),  # the oldest of two
    ("covering-refused-on-closed-train", "doubles-034", "pagat"),  # the drawn tile
    ("covering-refused-on-closed-train", "doubles-035", "pagat"),  # refused as a step
    # issue 21, the fifth reading's wrong charges, by cause:
    # a state the codec refuses by a rule it names (before: charged to none)
    ("single-round-deals-round-two", "single-003", "pagat+single-round"),
    # a field out of range, charged to the rule that sets it: a seat past the last, dealt
    # or after the draw that found the engine (before: none)
    ("after-engine-no-wrap", "dblsearch-001", "pagat+engine-highest-double+after-engine-start"),
    ("after-engine-no-wrap", "seat-016", "pagat+after-engine-start"),
    # a draw missing, or a draw refused as a step, beside plays the rules refuse: the
    # player believes a play possible; what refuses those plays is broken (before: TURN-2)
    ("released-when-mover-cannot-cover", "doubles-033", "puremco"),
    ("released-when-mover-cannot-cover", "doubles-034", "puremco"),
    ("release-on-empty-one-left", "doubles-070", "pagat+release-on-empty-boneyard"),
    # a draw due for a double nobody can cover: the rule that it still binds (before: TURN-2)
    ("dead-double-no-draw", "doubles-060", "pagat"),  # pass offered for the draw
    ("dead-double-no-draw", "doubles-061", "pagat"),  # the draw refused as a step
    # winners named while the match goes on: its length, not a tie rule (before: MATCH-4)
    ("match-ends-a-round-early", "lastround-001", "pagat"),
    # the lone holder of the other extreme named: the scoring direction (before: MATCH-4)
    ("winners-lowest-under-positive", "bounds-003", "pagat+positive-scoring"),
    ("lowest-seat-on-any-tie", "ties-001", "pagat+tie-lowest-seat"),  # ... not a tie's
    # a round found blocked or not, differently, where the open doubles decide it and the
    # implementation lets some seat play what they refuse: the doubles' rule (before: END-2)
    ("stays-open-releases", "end-026", "pagat"),
    ("chain-double-obliges-at-once", "end-025", "pagat"),  # blocked at once: FIRST-5
    ("blocked-ignores-duties", "doubles-064", "pagat"),  # ... and only its test: END-2
    # a play missing on a Mexican Train already open, where its opening rule's condition
    # does not hold: that rule, which speaks of opening it alone (before: TRAIN-4)
    ("own-train-mexican-every-play", "first-032", "pagat+own-train-opens-mexican"),
    ("starter-only-closes-open-mexican", "first-016", "puremco+starter-opens-mexican"),
    # a tile offered on the empty Mexican Train without the engine's number (before: TRAIN-2)
    ("deal-engine-mexican-stale", "opener-001", "puremco-d9+engine-highest-double"),
    # the seat a search for the engine starts from, under the draw for seats (before: ENG-4)
    ("engine-search-ignores-draw", "generated-starting-seat-004", "pagat+highest-draw-start"),
    # who has a first turn once a search found the engine: FIRST-6, not the search's
    ("after-engine-holder-loses-first-turn", "search-001",
     "pagat+celko-double-6+after-engine-start"),
    # tiles lost by a deal that drew looking for a double: ENG-7 (before: DEAL-1)
    ("highest-double-search-drops-tiles", "dblsearch-001", "pagat+engine-highest-double"),
    # the drawn tile playable only because the doubles were released (before: TURN-3)
    ("release-on-empty-next-turn", "emptyx-003", "pagat+release-on-empty-boneyard"),
    # a marker raised by ending a chain: the chain rule, not a removal rule (before: MARK-3)
    ("end-chain-raises-marker", "chaindbl-003", "pagat"),
])
def test_a_mutant_is_charged_with_a_clause_it_breaks(name: str, fixture: str,
                                                     variant: str) -> None:
    from mtrain.conformance.mutants import MUTANTS
    from mtrain.conformance.runner import resolve, run_one

    fx = next(f for f in _corpus() if f.id == fixture)
    exp = next(e for v, e in fx.rulesets() if v == variant)
    m = MUTANTS[name]
    outcome = run_one(fx, resolve(variant), exp, m.implementation())
    assert outcome.status == "fail", outcome.messages
    assert outcome.charged and outcome.charged[0] in m.clauses, (outcome.charged, m.clauses)


class _MarkedTrainsClosed:
    """The reference, but another player's marked train stays closed unless a play covers
    an open double there (tests/examples/signalbox_engine.py's bug 1, half of it): plays
    there are not offered, and refused as TRAIN-4."""

    def __init__(self) -> None:
        from mtrain.conformance.adapter import ReferenceImplementation

        self.inner = ReferenceImplementation()

    def __getattr__(self, name: str) -> object:
        return getattr(self.inner, name)

    @staticmethod
    def _closed(state: dict[str, Any], action: dict[str, Any]) -> bool:
        train = action.get("train")
        return (action.get("type") == "play" and isinstance(train, int)
                and train != state["seat"] and state["trains"][train]["marker"]
                and train not in state["open_doubles"])

    def legal(self, ruleset: dict[str, Any], state: dict[str, Any]) -> list[dict[str, Any]]:
        return [a for a in self.inner.legal(ruleset, state) if not self._closed(state, a)]

    def apply(self, ruleset: dict[str, Any], state: dict[str, Any],
              action: dict[str, Any]) -> dict[str, Any]:
        from mtrain.conformance.adapter import Refused

        if self._closed(state, action):
            raise Refused("that train carries no marker", "TRAIN-4")
        return self.inner.apply(ruleset, state, action)


@pytest.mark.parametrize(("fixture", "variant", "clause"), [
    ("turn-010", "pagat", "TRAIN-4"),  # the drawn tile fits a marked train (before: TURN-3)
    ("doubles-004", "pagat", "TRAIN-4"),  # a follow-up on a marked train (before: DBL-2)
    ("follow9-003", "pagat", "TRAIN-4"),  # refused as a step (before: MARK-1, not listed)
    ("marker-022", "pagat+marker-anyone", "MARK-1"),  # the fixture lists MARK-1 alone
])
def test_plays_kept_off_marked_trains_are_charged_to_the_markers_access(
        fixture: str, variant: str, clause: str) -> None:
    # found with tests/examples/signalbox_engine.py: the moment's narrower rule (DBL-2,
    # TURN-3, a release) was charged, or MARK-1 where the fixture lists TRAIN-4
    from mtrain.conformance.runner import resolve, run_one

    fx = next(f for f in _corpus() if f.id == fixture)
    exp = next(e for v, e in fx.rulesets() if v == variant)
    outcome = run_one(fx, resolve(variant), exp, _MarkedTrainsClosed())  # type: ignore[arg-type]
    assert outcome.status == "fail", outcome.messages
    assert outcome.charged == [clause], (outcome.charged, outcome.messages)
