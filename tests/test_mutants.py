"""The mutant catalogue: well formed, each mutant a real bug, the reference left alone,
and (the CI gate) every mutant killed by the shipped fixture corpus.

Each mutant is shown to be a real behaviour change on a witness table written below by
hand: the expected values come from the clause text (and, for scores, plain arithmetic on
the tiles written in the note), never from running an engine. The witnesses must pass
under the reference and fail under the mutants they are listed for.
"""

from __future__ import annotations

import functools
import json
import os
import re
from pathlib import Path

import pytest
from reference_left_alone import changes, module_snapshot, reference_trace

from mtrain.cli import main
from mtrain.conformance import adapter, fixture, reference_adapter, runner
from mtrain.conformance.adapter import ReferenceImplementation, ruleset_json
from mtrain.conformance.fixture import Fixture, load_corpus, load_file
from mtrain.conformance.mutants import MUTANTS, MutantImplementation, mutant, run_mutants
from mtrain.conformance.mutants.blame import Blame, blame
from mtrain.conformance.mutants.runs import (
    _TracingReference,
    as_reference,
    passing_runs,
    reachable,
    touches,
)
from mtrain.conformance.runner import resolve, run_fixture
from mtrain.reference import codec, engine, refusals
from mtrain.reference import deal as deal_module
from mtrain.spec.catalog import catalog
from mtrain.spec.errors import InputError
from mtrain.spec.notation import action_json, is_next_round

WITNESS_YAML = """
- id: witness-001
  description: Round 2 uses [11-11]; nobody was dealt it, so seat 1 starts drawing for it
  clauses: [ENG-1, ENG-4]
  source: [pagat, decision]
  note: 4 x 15 = 60 tiles dealt from the sorted 91; [11-11] is tile 78 of the sorted set.
  deal: {players: 4, engine: 11, order: sorted}
  expect:
    - variants: [pagat]
      state: {engine: 11, phase: engine, engine_placed: false, seat: 1, starter: 1}
      legal: [draw]

- id: witness-002
  description: pagat deals 12 tiles each to five players
  clauses: [DEAL-2]
  source: [pagat]
  deal: {players: 5, order: sorted}
  expect:
    - variants: [pagat]
      state: {hand_sizes: [12, 12, 12, 12, 12], boneyard_size: 31}

- id: witness-003
  description: puremco sets the engine aside, so a new round is ready to play at once
  clauses: [ENG-2, SEAT-3]
  source: [puremco]
  deal: {players: 4, order: sorted}
  expect:
    - variants: [puremco]
      state: {phase: start, engine_placed: true, seat: 0, hand_sizes: [15, 15, 15, 15]}

- id: witness-004
  description: Seat 1 draws the missing engine, places it and takes the first turn
  clauses: [ENG-4, SEAT-2]
  source: [pagat]
  table:
    phase: engine
    seat: 1
    starter: 0
    hands: {0: [1-0], 1: [2-0], 2: [3-0]}
    boneyard: [12-12, rest]
    first_turns: all
  steps: [draw]
  expect:
    - variants: [pagat]
      state: {seat: 1, starter: 1, phase: start, engine_placed: true, hand_sizes: [1, 1, 1]}

- id: witness-005
  description: puremco round 2 with three players starts at seat 1
  clauses: [SEAT-3]
  source: [puremco]
  deal: {players: 3, engine: 11, order: sorted}
  expect:
    - variants: [puremco]
      state: {seat: 1, starter: 1, engine: 11}

- id: witness-006
  description: The holder of the engine places it, so their hand is one tile short
  clauses: [ENG-3, SEAT-2]
  source: [pagat]
  note: Reversed order deals [12-12] first, to seat 0.
  deal: {players: 2, order: reversed}
  expect:
    - variants: [pagat]
      state: {hand_sizes: [14, 15], seat: 0, phase: start}

- id: witness-007
  description: After seat 0 lays a single tile play passes to seat 1
  clauses: [SEAT-1, TURN-6]
  source: [pagat, puremco]
  table:
    hands: {0: [12-1, 5-4], 1: [6-2], 2: [7-3]}
  steps: [play 12-1 on 0]
  expect:
    - variants: [puremco, pagat]
      state: {seat: 1, phase: start}

- id: witness-008
  description: A pagat first turn may start only the player's own train
  clauses: [FIRST-2]
  source: [pagat]
  table:
    hands: {0: [12-3, 4-1], 1: [6-2], 2: [7-3]}
    first_turns: all
  expect:
    - variants: [pagat]
      legal: [play 12-3 on 0]
      refused: {play 12-3 on mexican: FIRST-2}

- id: witness-009
  description: A first-turn chain goes on along the player's own train only
  clauses: [FIRST-1, FIRST-2]
  source: [pagat]
  table:
    phase: chain
    hands: {0: [3-5, 12-4], 1: [6-2], 2: [7-3]}
    trains: {0: [12-3]}
    first_turns: all
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0, end-chain]

- id: witness-010
  description: A chain may not stop on a double its player can cover
  clauses: [FIRST-4]
  source: [decision]
  table:
    phase: chain
    hands: {0: [3-5, 9-8], 1: [6-2], 2: [7-3]}
    trains: {0: [12-3, 3-3]}
    turn_doubles: [0]
    first_turns: all
  expect:
    - variants: [pagat]
      legal: [play 5-3 on 0]

- id: witness-011
  description: A pagat player who cannot start their train marks without drawing
  clauses: [FIRST-3]
  source: [pagat]
  table:
    hands: {0: [5-4], 1: [6-2], 2: [7-3]}
    first_turns: all
  expect:
    - variants: [pagat]
      legal: [pass]

- id: witness-012
  description: A double left by seat 0's chain does not bind seat 1 on its own first turn
  clauses: [FIRST-5, FIRST-2]
  source: [decision, pagat]
  table:
    seat: 1
    starter: 0
    hands: {0: [9-8], 1: [12-5, 3-1], 2: [7-2]}
    trains: {0: [12-3, 3-3]}
    first_turns: [1, 2]
  expect:
    - variants: [pagat]
      legal: [play 12-5 on 1]

- id: witness-013
  description: Under a single-tile start the first play on one's own train ends the turn
  clauses: [FIRST-7, FIRST-6]
  source: [puremco, decision]
  table:
    hands: {0: [12-3, 3-5], 1: [6-2], 2: [7-1]}
    first_turns: all
  steps: [play 12-3 on 0]
  expect:
    - variants: [puremco]
      state: {seat: 1, phase: start, first_turns: [1, 2]}

- id: witness-014
  description: Only the starter may open the Mexican Train while first turns are taken
  clauses: [FIRST-9]
  source: [house]
  table:
    seat: 1
    starter: 0
    hands: {0: [9-8], 1: [12-5, 4-4], 2: [7-1]}
    first_turns: [1, 2]
  expect:
    - variants: [puremco+starter-opens-mexican]
      legal: [play 12-5 on 1]
    - variants: [puremco]
      legal: [play 12-5 on 1, play 12-5 on mexican]

- id: witness-015
  description: A player with no train yet may only start it under own-train-first
  clauses: [TRAIN-7]
  source: [house]
  table:
    hands: {0: [12-5, 6-1], 1: [9-8], 2: [7-2]}
    trains: {mexican: [12-6]}
  expect:
    - variants: [puremco+own-train-first]
      legal: [play 12-5 on 0]
    - variants: [puremco]
      legal: [play 12-5 on 0, play 6-1 on mexican]

- id: witness-016
  description: An unmarked train of another player is closed, so the player draws
  clauses: [TRAIN-4, TURN-2]
  source: [pagat, puremco]
  table:
    hands: {0: [4-2, 9-8], 1: [7-1], 2: [6-3]}
    trains: {1: [12-4]}
  expect:
    - variants: [puremco, pagat]
      legal: [draw]
      refused: {play 4-2 on 1: TRAIN-4}

- id: witness-017
  description: A playable tile on the Mexican Train must be played; no draw, no pass
  clauses: [TURN-1, MARK-2, TRAIN-4]
  source: [pagat, puremco]
  table:
    hands: {0: [12-5, 9-8], 1: [7-1], 2: [6-2]}
    trains: {0: [12-3]}
  expect:
    - variants: [puremco, pagat]
      legal: [play 12-5 on mexican]
      refused: {draw: TURN-1, pass: TURN-1}

- id: witness-018
  description: One tile drawn, unplayable; draw-one passes, draw-until-playable draws again
  clauses: [TURN-2, TURN-4, TURN-5, TURN-3]
  source: [pagat, puremco, house]
  table:
    hands: {0: [9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3], mexican: [12-6]}
    boneyard: [7-1, 6-2, rest]
  steps: [draw]
  expect:
    - variants: [puremco]
      legal: [pass]
      state: {hands: {0: [9-8, 7-1]}, drawn: 7-1, marked: []}
    - variants: [puremco+draw-until-playable]
      legal: [draw]
      state: {hands: {0: [9-8, 7-1]}, drawn: 7-1, marked: []}

- id: witness-019
  description: A playable drawn tile must be played
  clauses: [TURN-3]
  source: [pagat, puremco]
  table:
    hands: {0: [9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3], mexican: [12-6]}
    boneyard: [6-2, rest]
  steps: [draw]
  expect:
    - variants: [puremco]
      legal: [play 6-2 on mexican]

- id: witness-020
  description: A drawn tile that fits only an unmarked train cannot be played there
  clauses: [TURN-3, TRAIN-4]
  source: [pagat, puremco]
  table:
    hands: {0: [9-8], 1: [7-1], 2: [5-4]}
    trains: {0: [12-3], 1: [12-2], mexican: [12-6]}
    boneyard: [2-1, rest]
  steps: [draw]
  expect:
    - variants: [puremco]
      legal: [pass]

- id: witness-021
  description: Drawing, failing and passing puts the marker up
  clauses: [TURN-4, MARK-1]
  source: [pagat, puremco]
  table:
    hands: {0: [9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3], mexican: [12-6]}
    boneyard: [7-1, rest]
  steps: [draw, pass]
  expect:
    - variants: [puremco]
      state: {marked: [0], seat: 1}

- id: witness-022
  description: Drawing and playing the drawn tile leaves the marker down
  clauses: [TURN-3, TURN-4, MARK-1]
  source: [pagat, puremco]
  table:
    hands: {0: [9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3], mexican: [12-6]}
    boneyard: [6-2, rest]
  steps: [draw, play 6-2 on mexican]
  expect:
    - variants: [puremco]
      state: {marked: [], seat: 1}

- id: witness-023
  description: The owner playing on their own train takes their marker off
  clauses: [MARK-3]
  source: [pagat, puremco]
  table:
    hands: {0: [3-1, 9-8], 1: [7-2], 2: [5-4]}
    trains: {0: [12-3]}
    marked: [0]
  steps: [play 3-1 on 0]
  expect:
    - variants: [puremco]
      state: {marked: []}

- id: witness-024
  description: Playing on a marked train removes its marker only under anyone-plays-on
  clauses: [MARK-3, MARK-4]
  source: [pagat, puremco]
  table:
    hands: {0: [4-2, 9-8], 1: [7-1], 2: [6-5]}
    trains: {1: [12-4]}
    marked: [1]
  steps: [play 4-2 on 1]
  expect:
    - variants: [puremco, pagat]
      state: {marked: [1]}
    - variants: [pagat+marker-anyone]
      state: {marked: []}

- id: witness-025
  description: The owner playing elsewhere removes their marker only under owner-plays-anywhere
  clauses: [MARK-3, MARK-5]
  source: [pagat, puremco]
  table:
    hands: {0: [12-5, 9-8], 1: [7-1], 2: [6-4]}
    trains: {0: [12-3]}
    marked: [0]
  steps: [play 12-5 on mexican]
  expect:
    - variants: [puremco, pagat]
      state: {marked: [0]}
    - variants: [pagat+marker-owner-anywhere]
      state: {marked: []}

- id: witness-026
  description: Covering the open double on one's own marked train clears both
  clauses: [MARK-3, TRAIN-3, DBL-6]
  source: [pagat, puremco, decision]
  table:
    hands: {0: [3-1, 9-8], 1: [7-2], 2: [6-5]}
    trains: {0: [12-3, 3-3]}
    marked: [0]
  steps: [play 3-1 on 0]
  expect:
    - variants: [puremco, pagat]
      state: {marked: [], open_doubles: [], seat: 1}

- id: witness-027
  description: A double asks for another tile in the same turn
  clauses: [DBL-1]
  source: [pagat, puremco]
  table:
    hands: {0: [3-3, 3-1, 9-8], 1: [7-2], 2: [6-5]}
    trains: {0: [12-3]}
  steps: [play 3-3 on 0]
  expect:
    - variants: [puremco, pagat]
      state: {seat: 0, phase: follow, turn_doubles: [0]}

- id: witness-028
  description: An open double on an unmarked train must be covered by the next player
  clauses: [DBL-6, TRAIN-6]
  source: [pagat, puremco]
  table:
    hands: {0: [4-2, 12-5], 1: [7-1], 2: [6-3]}
    trains: {1: [12-4, 4-4]}
  expect:
    - variants: [puremco, pagat]
      legal: [play 4-2 on 1]

- id: witness-029
  description: After two doubles in a turn, restricted follow-up skips the second one
  clauses: [DBL-2, DBL-3]
  source: [pagat, puremco]
  table:
    phase: follow
    hands: {0: [7-1, 5-2, 9-8], 1: [6-3], 2: [11-10]}
    trains: {0: [12-7, 7-7], mexican: [12-5, 5-5]}
    open_doubles: [mexican, 0]
    turn_doubles: [mexican, 0]
  expect:
    - variants: [puremco]
      legal: [play 5-2 on mexican]
    - variants: [pagat]
      legal: [play 7-1 on 0, play 5-2 on mexican]

- id: witness-030
  description: The Wikipedia rule makes the layer cover the double; pagat lets them play on
  clauses: [DBL-2, DBL-4]
  source: [pagat, wikipedia]
  table:
    phase: follow
    hands: {0: [3-1, 12-5], 1: [7-2], 2: [6-4]}
    trains: {0: [12-3, 3-3]}
    turn_doubles: [0]
  expect:
    - variants: [pagat+wikipedia-doubles]
      legal: [play 3-1 on 0]
    - variants: [pagat]
      legal: [play 3-1 on 0, play 12-5 on mexican]

- id: witness-031
  description: Two open doubles are covered oldest first unless any order is allowed
  clauses: [DBL-7, DBL-8]
  source: [pagat, puremco, house]
  table:
    hands: {0: [4-2, 6-1, 9-8], 1: [7-3], 2: [11-10]}
    trains: {1: [12-4, 4-4], 2: [12-6, 6-6]}
    open_doubles: [1, 2]
  expect:
    - variants: [puremco, pagat]
      legal: [play 4-2 on 1]
    - variants: [puremco+any-double-first]
      legal: [play 4-2 on 1, play 6-1 on 2]

- id: witness-032
  description: With all thirteen 4s on the table the [4-4] is released under puremco only
  clauses: [DBL-9, DBL-10]
  source: [puremco, pagat, decision]
  note: The 4s on the table are 12-4, 4-4, 0-4, 4-1, 2-4, and eight on the Mexican Train.
  table:
    hands: {0: [3-1, 9-8], 1: [7-2], 2: [6-0]}
    trains:
      0: [12-0, 0-4, 4-1, 1-2, 2-4]
      1: [12-4, 4-4]
      mexican: [12-11, 11-4, 4-10, 10-9, 9-4, 4-8, 8-7, 7-4, 4-6, 6-5, 5-4, 4-3]
  expect:
    - variants: [puremco]
      legal: [play 3-1 on mexican]
    - variants: [pagat]
      legal: [draw]

- id: witness-033
  description: While one 4 is still off the table the [4-4] keeps its duty
  clauses: [DBL-9, DBL-6]
  source: [puremco]
  note: Twelve 4s on the table; [4-2] is in seat 2's hand, so the double can still be covered.
  table:
    hands: {0: [3-1, 9-8], 1: [7-2], 2: [4-2]}
    trains:
      0: [12-0, 0-4, 4-1, 1-2]
      1: [12-4, 4-4]
      mexican: [12-11, 11-4, 4-10, 10-9, 9-4, 4-8, 8-7, 7-4, 4-6, 6-5, 5-4, 4-3]
  expect:
    - variants: [puremco]
      legal: [draw]

- id: witness-034
  description: A player who cannot follow their double draws
  clauses: [DBL-5]
  source: [pagat, decision]
  table:
    phase: follow
    hands: {0: [9-8, 10-10], 1: [7-2], 2: [6-5]}
    trains: {0: [12-3, 3-3]}
    turn_doubles: [0]
  expect:
    - variants: [puremco, pagat]
      legal: [draw]

- id: witness-035
  description: Failing to follow a double after drawing puts the marker up; the double stays open
  clauses: [DBL-5, TURN-4]
  source: [pagat, decision]
  table:
    phase: follow
    hands: {0: [9-8, 10-10], 1: [7-2], 2: [6-5]}
    trains: {0: [12-3, 3-3]}
    turn_doubles: [0]
    boneyard: [7-1, rest]
  steps: [draw, pass]
  expect:
    - variants: [puremco, pagat]
      state: {marked: [0], seat: 1, open_doubles: [0]}

- id: witness-036
  description: The duty to cover moves on to the next player after a pass
  clauses: [DBL-6]
  source: [pagat, puremco]
  table:
    seat: 1
    hands: {0: [9-8], 1: [11-10], 2: [3-2, 12-5]}
    trains: {0: [12-3, 3-3]}
    boneyard: [7-1, rest]
  steps: [draw, pass]
  expect:
    - variants: [puremco, pagat]
      legal: [play 3-2 on 0]
      state: {seat: 2, open_doubles: [0], marked: [1]}

- id: witness-037
  description: Nobody holds a 3 or a 4 and every train ends in one; the round is blocked
  clauses: [END-2, END-3, SCORE-5, SCORE-6]
  source: [decision, house, pagat]
  note: >-
    All thirteen 3s and all thirteen 4s are on the table. Seat 2 holds the other 60 tiles:
    1,092 pips in the set, less 24 (the engine), 286 on the trains (summed tile by tile),
    17 (9-8) and 3 (2-1), leaves 762.
  table:
    hands: {0: [9-8], 1: [2-1], 2: [rest]}
    trains:
      0: [12-4]
      1: [12-3]
      2: [12-6, 6-4, 4-4, 4-7, 7-3, 3-3, 3-8, 8-4, 4-9, 9-3, 3-10, 10-4, 4-11, 11-3, 3-0,
          0-4, 4-1, 1-3, 3-2, 2-4, 4-3, 3-5, 5-6, 6-3]
      mexican: [12-5, 5-4]
    boneyard: []
  steps: [pass]
  expect:
    - variants: [pagat, puremco]
      result: {end: blocked, winner: null, scores: [17, 3, 762]}
    - variants: [pagat+passes-end-round]
      result: null
      state: {passes: 1, seat: 1}
    - variants: [pagat+positive-scoring]
      result: {end: blocked, winner: null, scores: [0, 0, 0]}

- id: witness-038
  description: Nobody can play now, but seat 1 could on seat 2's train once marked; play goes on
  clauses: [END-2]
  source: [decision]
  note: >-
    Every 4 is on the table; the 3s not on the table are all in seat 1's hand; seat 2 holds
    the rest, 12s among them, which fit seat 1's empty train if it were marked.
  table:
    hands:
      0: [9-8]
      1: [3-0, 3-1, 3-2, 3-3, 3-5, 3-7, 3-8, 3-9, 3-10, 3-11]
      2: [rest]
    trains:
      0: [12-4]
      2: [12-3, 3-6, 6-4, 4-4, 4-7, 7-8, 8-4, 4-9, 9-10, 10-4, 4-11, 11-0, 0-4, 4-1, 1-2,
          2-4, 4-3]
      mexican: [12-5, 5-4]
    boneyard: []
  steps: [pass]
  expect:
    - variants: [pagat, puremco]
      result: null
      state: {seat: 1, marked: [0]}

- id: witness-039
  description: A play on an empty boneyard resets the count of passes in a row
  clauses: [END-3]
  source: [house]
  table:
    hands: {0: [12-5, 9-8], 1: [7-1], 2: [rest]}
    boneyard: []
    passes: 2
  steps: [play 12-5 on mexican]
  expect:
    - variants: [pagat+passes-end-round]
      result: null
      state: {passes: 0, seat: 1}

- id: witness-040
  description: Going out on a double ends the round at once
  clauses: [END-1]
  source: [pagat, puremco]
  table:
    hands: {0: [5-5], 1: [7-2], 2: [6-1]}
    trains: {0: [12-5]}
  steps: [play 5-5 on 0]
  expect:
    - variants: [puremco, pagat]
      result: {end: domino, winner: 0, scores: [0, 9, 7]}

- id: witness-041
  description: Scores when seat 0 goes out, with blanks valued by each blank rule
  clauses: [SCORE-1, SCORE-2, SCORE-3, SCORE-4, SCORE-5, SCORE-6, MATCH-1]
  source: [pagat, puremco, wikipedia, house]
  note: >-
    Seat 1 holds [0-0] and [5-0], seat 2 holds [6-6] (12). Face: 0 + 5. Blank-25: 50 + 30.
    Double-blank-50: 50 + 5. Double-blank-25: 25 + 5. Positive: seat 0 takes 5 + 12.
  table:
    hands: {0: [12-5], 1: [0-0, 5-0], 2: [6-6]}
    scores: [10, 20, 30]
    outs: [1, 0, 0]
  steps: [play 12-5 on mexican]
  expect:
    - variants: [puremco, pagat]
      result: {end: domino, winner: 0, scores: [0, 5, 12]}
      state: {scores: [10, 25, 42], outs: [2, 0, 0]}
    - variants: [puremco+blanks-25]
      result: {end: domino, winner: 0, scores: [0, 80, 12]}
      state: {scores: [10, 100, 42]}
    - variants: [puremco+double-blank-50]
      result: {end: domino, winner: 0, scores: [0, 55, 12]}
    - variants: [puremco+double-blank-25]
      result: {end: domino, winner: 0, scores: [0, 30, 12]}
    - variants: [puremco+positive-scoring]
      result: {end: domino, winner: 0, scores: [17, 0, 0]}
      state: {scores: [27, 20, 30]}

- id: witness-042
  description: The last round ends with seats 1 and 2 level on the lowest total
  clauses: [MATCH-2, MATCH-3, MATCH-4, MATCH-5, MATCH-6]
  source: [pagat, decision, house, engine]
  note: >-
    Penalty: totals 100, 50 + 5, 50 + 5. Positive: seat 0 takes 10, so 110, 50, 50.
    Most outs: seat 1 has 3, seat 2 has 2. Lowest seat: seat 1.
  table:
    engine: 0
    hands: {0: [1-0], 1: [3-2], 2: [4-1]}
    scores: [100, 50, 50]
    outs: [0, 3, 2]
  steps: [play 1-0 on mexican]
  expect:
    - variants: [pagat]
      state: {scores: [100, 55, 55]}
      winners: [1, 2]
    - variants: [pagat+tie-most-outs]
      winners: [1]
    - variants: [pagat+positive-scoring]
      state: {scores: [110, 50, 50]}
      winners: [0]
    - variants: [pagat+tie-lowest-seat]
      winners: [1]

- id: witness-043
  description: Seat 2 may still start its train, so the uncoverable chain double blocks nothing yet
  clauses: [END-2, FIRST-5]
  source: [pagat, decision]
  note: >-
    Seat 0's chain ended on [5-5]; seat 1's laid the last 5s. Seat 2, still to take its first
    turn and not yet bound by [5-5], holds the rest and with it ten 12s to start its train.
  table:
    seat: 1
    starter: 0
    phase: chain
    first_turns: [1, 2]
    hands: {0: [9-9], 1: [8-8], 2: [rest]}
    trains:
      0: [12-0, 0-5, 5-1, 1-2, 2-5, 5-3, 3-4, 4-5, 5-5]
      1: [12-5, 5-6, 6-7, 7-5, 5-8, 8-9, 9-5, 5-10, 10-11, 11-5]
    boneyard: []
  steps: [end-chain]
  expect:
    - variants: [pagat]
      result: null
      state: {seat: 2, first_turns: [2]}

- id: witness-044
  description: Every 12 in seat 0's chain; seat 1, still to start, never can; blocked at once
  clauses: [END-2, SCORE-5]
  source: [pagat, decision]
  note: >-
    Every train ends on 12 and every 12 is laid. Seat 0 keeps [8-8], 16; seat 1 the rest,
    1,092 - 24 (engine) - 276 (the chain) - 16 = 776.
  table:
    phase: chain
    first_turns: all
    hands: {0: [8-8], 1: [rest]}
    trains:
      0: [12-0, 0-1, 1-12, 12-2, 2-3, 3-12, 12-4, 4-5, 5-12, 12-6, 6-7, 7-12, 12-8, 8-9,
          9-12, 12-10, 10-11, 11-12]
    boneyard: []
  steps: [end-chain]
  expect:
    - variants: [pagat]
      result: {end: blocked, winner: null, scores: [16, 776]}

- id: witness-045
  description: Under own-train-first a seat with no train never plays; the last pass blocks
  clauses: [END-2, TRAIN-7]
  source: [decision]
  note: >-
    Every 12 is laid; seat 2 has no train and may play only there. Seats 0 and 1 fit
    nothing. Scores 20, 17 and the rest, 1,092 - 24 - 268 (trains) - 37 = 763.
  table:
    hands: {0: [11-9], 1: [10-7], 2: [rest]}
    trains:
      0: [12-0, 0-1, 1-12, 12-2, 2-6, 6-12, 12-3]
      1: [12-4, 4-7, 7-12, 12-8, 8-9, 9-12]
      mexican: [12-10, 10-11, 11-12, 12-5]
    marked: [2]
    boneyard: []
    drawn: 11-9
  steps: [pass]
  expect:
    - variants: [pagat+own-train-first]
      result: {end: blocked, winner: null, scores: [20, 17, 763]}

- id: witness-046
  description: The pass after drawing the boneyard's last tile is a pass on an empty boneyard
  clauses: [END-3]
  source: [decision]
  note: Every train ends on 0 and all 0s are laid; seat 0 drew the last tile, [6-6].
  table:
    hands: {0: [6-6, 5-3], 1: [rest], 2: [9-9, 4-2]}
    trains:
      0: [12-0]
      1: [12-1, 1-0, 0-4, 4-5, 5-0]
      2: [12-2, 2-0, 0-6, 6-7, 7-0]
      mexican: [12-3, 3-0, 0-0, 0-8, 8-9, 9-0, 0-10, 10-11, 11-0]
    boneyard: []
    drawn: 6-6
  steps: [pass]
  expect:
    - variants: [pagat+passes-end-round]
      state: {passes: 1}

- id: witness-047
  description: A pass with a tile still in the boneyard is no pass on an empty boneyard
  clauses: [END-3]
  source: [decision]
  note: As witness-046, but [7-5] and [6-2] are still to draw; seat 0 draws [7-5] and passes.
  table:
    hands: {0: [6-6, 5-3], 1: [rest], 2: [9-9, 4-2]}
    trains:
      0: [12-0]
      1: [12-1, 1-0, 0-4, 4-5, 5-0]
      2: [12-2, 2-0, 0-6, 6-7, 7-0]
      mexican: [12-3, 3-0, 0-0, 0-8, 8-9, 9-0, 0-10, 10-11, 11-0]
    boneyard: [7-5, 6-2]
  steps: [draw, pass]
  expect:
    - variants: [pagat+passes-end-round]
      state: {passes: 0}

- id: witness-048
  description: Seats 1 and 2 tie on the lowest total; seat 0 went out most, seat 1 most of the two
  clauses: [MATCH-5]
  source: [common]
  note: Totals 100, 55, 55 after seat 0 goes out; outs 6, 3, 2.
  table:
    engine: 0
    hands: {0: [1-0], 1: [3-2], 2: [4-1]}
    scores: [100, 50, 50]
    outs: [5, 3, 2]
  steps: [play 1-0 on mexican]
  expect:
    - variants: [pagat+tie-most-outs]
      winners: [1]

- id: witness-049
  description: A pagat player who cannot start their train puts their marker up at once
  clauses: [FIRST-3, MARK-1]
  source: [pagat]
  table:
    first_turns: all
    hands: {0: [5-3], 1: [12-4]}
  steps: [pass]
  expect:
    - variants: [pagat]
      state: {marked: [0], seat: 1}

- id: witness-050
  description: After the first turns a non-starter may open the Mexican Train (starter-only)
  clauses: [FIRST-9]
  source: [decision]
  table:
    seat: 2
    hands: {0: [9-8], 1: [7-1], 2: [12-5, 6-3, 2-2]}
    trains: {0: [12-4], 1: [12-10], 2: [12-6]}
  expect:
    - variants: [puremco+starter-opens-mexican]
      legal: [play 6-3 on 2, play 12-5 on mexican]

- id: witness-051
  description: Own train first does not hold back a cover of an open double on another train
  clauses: [TRAIN-7, TRAIN-6, DBL-6]
  source: [decision]
  note: Seat 1 has not started its train; the [5-5] on seat 0's train binds it; it holds [5-2].
  table:
    seat: 1
    hands: {0: [9-8], 1: [5-2, 12-0]}
    trains: {0: [12-5, 5-5], mexican: [12-3]}
    marked: [1]
  expect:
    - variants: [puremco+own-train-first]
      legal: [play 5-2 on 0]

- id: witness-052
  description: "Restricted follow-up after [5-5] then [7-7]: the first double, not the last"
  clauses: [DBL-3]
  source: [puremco]
  table:
    engine: 9
    phase: follow
    hands: {0: [5-2, 7-3, 3-8, 4-6], 1: [6-1], 2: [8-0]}
    trains: {0: [9-5, 5-5], 1: [9-7, 7-7], 2: [9-4], mexican: [9-3]}
    marked: [1]
    open_doubles: [0, 1]
    turn_doubles: [0, 1]
  expect:
    - variants: [puremco]
      legal: [play 5-2 on 0, play 7-3 on mexican, play 3-8 on mexican]

- id: witness-053
  description: A tile drawn in the search for the engine stays in the drawer's hand
  clauses: [ENG-4]
  source: [pagat]
  note: Nobody holds [11-11]; seat 1 starts the search and keeps the tile it draws.
  deal: {players: 4, engine: 11, order: sorted}
  steps: [draw]
  expect:
    - variants: [pagat]
      state: {hand_sizes: [15, 16, 15, 15], seat: 2}

- id: witness-054
  description: "Restricted follow-up: the Mexican Train stays open, ending in this turn's double"
  clauses: [DBL-3]
  source: [puremco]
  note: Seat 0 laid [5-5] on its own train, then [6-6] on the Mexican; [6-1] fits the Mexican.
  table:
    engine: 9
    phase: follow
    hands: {0: [6-1, 9-8], 1: [3-3], 2: [4-0]}
    trains: {0: [9-5, 5-5], mexican: [9-6, 6-6]}
    open_doubles: [0, mexican]
    turn_doubles: [0, mexican]
  expect:
    - variants: [puremco]
      legal: [play 6-1 on mexican]

- id: witness-055
  description: "Own train empty: the Mexican Train may not be opened, the marked train stays open"
  clauses: [FIRST-10, MARK-1]
  source: [thimble, engine]
  note: >-
    First turns over; seat 1 passed with its train empty, seat 0's [12-4] is marked and
    the Mexican Train is empty. [12-5] fits seat 1's own train and the Mexican Train, [4-3]
    seat 0's 4. FIRST-10 keeps [12-5] off the Mexican Train only.
  table:
    seat: 1
    hands: {0: [9-8], 1: [12-5, 4-3], 2: [7-1]}
    trains: {0: [12-4], 2: [12-6]}
    marked: [0, 1]
  expect:
    - variants: [pagat+own-train-opens-mexican]
      legal: [play 12-5 on 1, play 4-3 on 0]

- id: witness-056
  description: "A first turn laid anywhere: a double on the Mexican Train waits for its cover"
  clauses: [FIRST-4, FIRST-11]
  source: [engine, decision]
  note: >-
    Seat 0's first turn: [12-7] opens the Mexican Train, [7-7] goes on it; [7-2] covers it
    and [12-5] starts the own train. The chain may not end while [7-2] could cover.
  table:
    first_turns: all
    hands: {0: [12-7, 7-7, 7-2, 12-5], 1: [3-1], 2: [6-2]}
  steps: [play 12-7 on mexican, play 7-7 on mexican]
  expect:
    - variants: [pagat+chain-anywhere-start]
      legal: [play 7-2 on mexican, play 12-5 on 0]

- id: witness-057
  description: The holder of [12-12] places it and draws the boneyard's first tile
  clauses: [ENG-5]
  source: [engine, decision]
  note: >-
    The reversed pool: seat 0 is dealt tiles 90-76, places tile 90 and draws position 45,
    tile 45, [9-0]: 15 tiles each, 91 - 45 - 1 = 45 in the boneyard.
  deal: {players: 3, order: reversed}
  expect:
    - variants: [pagat+engine-holder-draws]
      state: {hand_sizes: [15, 15, 15], boneyard_size: 45}

- id: witness-058
  description: Seat 2 lays [8-8] in round 5, and the seat after it starts
  clauses: [SEAT-4]
  source: [engine, decision]
  note: >-
    [8-8] is tile 44, in seat 2's sorted block 30-44; (2 + 1) mod 3 = 0 starts, where the
    rotating start would be (5 - 1) mod 3 = 1.
  deal: {players: 3, engine: 8, order: sorted}
  expect:
    - variants: [pagat+after-engine-start]
      state: {seat: 0, starter: 0}

- id: witness-059
  description: Seat 3 draws [10-10] on the sixth draw, mid-lap, and the lap goes on
  clauses: [ENG-6]
  source: [goodsam, decision]
  note: >-
    Round 3, 4 players, sorted: 60 tiles dealt, the boneyard [10-5] .. [10-10], ...; the
    laps start at seat 2 (2, 3, 0, 1, then 2, 3, ...): the sixth draw, seat 3's, is
    [10-10], and seat 0 draws next.
  deal: {players: 4, engine: 10, order: sorted}
  steps: [draw, draw, draw, draw, draw, draw]
  expect:
    - variants: [pagat+engine-everyone-draws]
      state: {phase: engine, seat: 0, engine_placed: false}

- id: witness-060
  description: The lap in which seat 3 drew [10-10] ends at seat 1, and seat 3 starts
  clauses: [ENG-6, SEAT-2]
  source: [goodsam, decision]
  note: >-
    As witness-059, two draws more: seats 0 and 1 end the lap with [11-0] and [11-1];
    seat 3, holding [10-10], places it and starts (SEAT-2), not seat 1.
  deal: {players: 4, engine: 10, order: sorted}
  steps: [draw, draw, draw, draw, draw, draw, draw, draw]
  expect:
    - variants: [pagat+engine-everyone-draws]
      state: {phase: start, seat: 3, starter: 3}

- id: witness-061
  description: Witness-037's table with [1-0] moved to seat 1; seat 0's single tile scores 0
  clauses: [END-2, SCORE-5, SCORE-7]
  source: [engine, decision]
  note: >-
    As witness-037, but seat 1 also holds [1-0] (no 3 or 4 on it): seat 0 holds [9-8], 17
    in 1 tile; seat 1 [2-1] and [1-0], 3 + 1 = 4 in 2 tiles; seat 2 the other 59 tiles,
    762 - 1 = 761. Seat 0 passes and the round is blocked. Penalty: [17, 4, 761].
    SCORE-7: seat 0 holds the fewest tiles, so it scores 0 although seat 1's hand is
    lighter: [0, 4, 761]; nobody went out, so no out is counted.
  table:
    hands: {0: [9-8], 1: [2-1, 1-0], 2: [rest]}
    trains:
      0: [12-4]
      1: [12-3]
      2: [12-6, 6-4, 4-4, 4-7, 7-3, 3-3, 3-8, 8-4, 4-9, 9-3, 3-10, 10-4, 4-11, 11-3, 3-0,
          0-4, 4-1, 1-3, 3-2, 2-4, 4-3, 3-5, 5-6, 6-3]
      mexican: [12-5, 5-4]
    boneyard: []
  steps: [pass]
  expect:
    - variants: [pagat+blocked-winner]
      result: {end: blocked, winner: null, scores: [0, 4, 761]}
      state: {outs: [0, 0, 0]}
    - variants: [pagat]
      result: {end: blocked, winner: null, scores: [17, 4, 761]}

- id: witness-062
  description: In a first-turn chain seat 0 holds a double that nothing in hand would follow
  clauses: [FIRST-1, FIRST-12]
  source: [engine, decision]
  note: >-
    Round 1, nothing laid; seat 0 lays [12-6] on its own train (ends 6) and holds [6-6] and
    [9-8]. After [6-6] the hand would be [9-8], with no 6, and it is not the last tile:
    FIRST-12 refuses it, so only end-chain is left.
  table:
    seat: 0
    starter: 0
    first_turns: all
    hands: {0: [12-6, 6-6, 9-8], 1: [3-1], 2: [8-2]}
  steps: [play 12-6 on 0]
  expect:
    - variants: [pagat+no-double-end-start]
      legal: [end-chain]
    - variants: [pagat]
      legal: [play 6-6 on 0, end-chain]

- id: witness-063
  description: In a first-turn chain seat 0's last tile is a double; laying it goes out
  clauses: [FIRST-1, FIRST-12, END-1]
  source: [engine, decision]
  note: >-
    Round 1, nothing laid; seat 0 holds [12-6] and [6-6]. After [12-6] the double is its
    last tile, which FIRST-12 allows: [6-6] or end-chain.
  table:
    seat: 0
    starter: 0
    first_turns: all
    hands: {0: [12-6, 6-6], 1: [3-1], 2: [8-2]}
  steps: [play 12-6 on 0]
  expect:
    - variants: [pagat+no-double-end-start]
      legal: [play 6-6 on 0, end-chain]

- id: witness-064
  description: Under a single round, seat 0 goes out in round 1 and wins the game
  clauses: [MATCH-7, MATCH-2, SCORE-5]
  source: [engine, decision]
  note: Round scores [0, 17] ([9-8] left) are the totals of the one round; 0 is lowest.
  table:
    seat: 0
    hands: {0: [5-3], 1: [9-8]}
    trains: {0: [12-5], 1: [12-4]}
  steps: [play 5-3 on 0]
  expect:
    - variants: [pagat+single-round]
      state: {scores: [0, 17], outs: [1, 0]}
      winners: [0]

- id: witness-065
  description: Under a single round there is no round 2 to deal
  clauses: [MATCH-7]
  source: [engine, decision]
  note: Engine [11-11] is round 2's (ENG-1); a single-round game has only round 1.
  deal: {players: 2, engine: 11, order: sorted}
  expect:
    - variants: [pagat+single-round]
      refused_setup: MATCH-7

- id: witness-066
  description: Under ordinary doubles seat 0 lays [5-5] and the turn passes to seat 1
  clauses: [DBL-11, TURN-6]
  source: [engine]
  note: >-
    Seat 0 lays [5-5] on its own train (ends 5). A double is an ordinary tile (DBL-11):
    the turn ends and nothing is open. Seat 1 holds [3-1], which fits its own train (ends
    3), and [5-4], which fits only seat 0's train, unmarked: one play.
  table:
    engine: 9
    hands: {0: [5-5, 5-2], 1: [5-4, 3-1], 2: [6-2]}
    trains: {0: [9-5], 1: [9-3], 2: [9-6], mexican: [9-8]}
  steps: [play 5-5 on 0]
  expect:
    - variants: [pagat+ordinary-doubles]
      legal: [play 3-1 on 1]
      state: {seat: 1, phase: start, open_doubles: []}

- id: witness-067
  description: Under ordinary doubles [8-8] on the Mexican Train binds nobody
  clauses: [DBL-11, TRAIN-4]
  source: [engine]
  note: >-
    Seat 0 lays [8-8] on the Mexican Train (ends 8); the turn ends and nothing is open
    (DBL-11). Seat 1 holds [8-3] (the Mexican 8, or its own train's 3) and [3-2] (its own
    3): three plays, none owed as a cover.
  table:
    engine: 9
    hands: {0: [8-8, 4-1], 1: [8-3, 3-2], 2: [7-5]}
    trains: {0: [9-4], 1: [9-3], 2: [9-6], mexican: [9-8]}
  steps: [play 8-8 on mexican]
  expect:
    - variants: [pagat+ordinary-doubles]
      legal: [play 8-3 on 1, play 8-3 on mexican, play 3-2 on 1]

- id: witness-068
  description: Under engine-highest-double seat 3's [9-9], the highest double dealt, is the engine
  clauses: [ENG-7]
  source: [fundex, decision]
  note: >-
    Round 1, 4 players, sorted: seats 0 to 3 hold tiles 0-14, 15-29, 30-44, 45-59; the
    highest double held is seat 3's [9-9] (tile 54), the lowest seat 0's [0-0]; [12-12]
    is in the boneyard.
  deal: {players: 4, order: sorted}
  expect:
    - variants: [pagat+engine-highest-double]
      state: {phase: start, engine: 9, seat: 3, starter: 3, hand_sizes: [15, 15, 15, 14]}

- id: witness-069
  description: Under engine-designated-opens seat 0 has no double and draws [5-5], which opens
  clauses: [ENG-8]
  source: [greves, decision]
  note: >-
    Round 1, puremco-d9 hands of 15: seat 0 no double, seat 1 [3-3] and [7-7]; the
    boneyard starts [5-5]. The designated seat 0 draws it: engine 5, hands 15 and 15.
  deal:
    players: 2
    engine: 9
    order: [1-0, 2-0, 2-1, 3-0, 3-1, 3-2, 4-0, 4-1, 4-2, 4-3, 5-0, 5-1, 5-2, 5-3, 5-4,
            3-3, 7-7, 6-0, 6-1, 6-2, 6-3, 6-4, 6-5, 7-0, 7-1, 7-2, 7-3, 7-4, 7-5, 7-6,
            5-5, 8-0, 8-1, 8-2, 8-3, 8-4, 8-5, 8-6, 8-7, 9-0, 9-1, 9-2, 9-3, 9-4, 9-5,
            9-6, 9-7, 9-8, 0-0, 1-1, 2-2, 4-4, 6-6, 8-8, 9-9]
  expect:
    - variants: [puremco-d9+engine-designated-opens]
      state: {phase: start, engine: 5, seat: 0, hand_sizes: [15, 15], boneyard_size: 24}

- id: witness-075
  description: Under highest-draw-start seat 1 wins a run-off, so round 3 starts at seat 0
  clauses: [SEAT-5]
  source: [greves, decision]
  note: >-
    The draw: [6-5] 11, [9-2] 11, [5-4] 9; seats 0 and 1 draw again, [2-0] 2 against
    [4-4] 8: seat 1 wins, and round 3 starts at (1 + 3 - 1) mod 3 = 0.
  deal:
    players: 3
    engine: 7
    order: sorted
    draw: [[6-5, 2-0], [9-2, 4-4], [5-4]]
  expect:
    - variants: [puremco-d9+highest-draw-start]
      state: {phase: start, seat: 0, starter: 0, hand_sizes: [13, 13, 13]}

- id: witness-076
  description: Under highest-draw-start the designation begins at the draw's winner
  clauses: [SEAT-5, ENG-8]
  source: [greves, decision]
  note: >-
    Seat 1 wins the draw ([9-4] 13); every tile dealt, 13 each, sorted: seat 1 holds
    [4-4] and [5-5] and opens with [5-5] (from seat 0 it would be seat 0's [3-3]).
  deal:
    players: 3
    order: sorted
    draw: [[6-5], [9-4], [5-4]]
  expect:
    - variants: [puremco-d9+engine-designated-opens+highest-draw-start]
      state: {phase: start, engine: 5, seat: 1, starter: 1, hand_sizes: [13, 12, 13]}

- id: witness-070
  description: Under release-on-empty-boneyard no duty once the boneyard is empty
  clauses: [DBL-12, TRAIN-4]
  source: [engine, decision]
  note: >-
    The table of doubles-071: [5-5] on seat 1's unmarked train, the boneyard empty. Seat 2
    plays [6-4] on its own train; [5-7] may not cover [5-5] there.
  table:
    engine: 9
    seat: 2
    hands:
      0: [rest]
      1: [2-2]
      2: [5-7, 6-4]
    trains:
      0: [9-3]
      1: [9-5, 5-5]
      2: [9-6]
      mexican: [9-8, 8-1]
    open_doubles: [1]
    boneyard: []
  expect:
    - variants: [pagat+release-on-empty-boneyard]
      legal: [play 6-4 on 2]
      refused:
        play 5-7 on 1: TRAIN-4

- id: witness-071
  description: Under release-on-empty-boneyard a double nobody can cover binds while tiles are left
  clauses: [DBL-12, DBL-6]
  source: [engine, decision]
  note: >-
    The table of doubles-060: every 0 is on the table, [0-0] is open on seat 1's train, the
    boneyard holds the rest. Seat 0 can only draw.
  table:
    engine: 12
    hands:
      0: [8-3, 4-6, 2-2]
      1: [4-5]
      2: [1-1]
    trains:
      0: [12-5, 5-0, 0-6, 6-7, 7-0, 0-8]
      1: [12-0, 0-0]
      2: [12-9, 9-0, 0-10, 10-11, 11-0]
      mexican: [12-1, 1-0, 0-2, 2-3, 3-0, 0-4]
    marked: [2]
    open_doubles: [1]
  expect:
    - variants: [pagat+release-on-empty-boneyard]
      legal: [draw]

- id: witness-072
  description: Under released-after-layers-turn an uncovered double of an earlier turn binds nobody
  clauses: [DBL-13]
  source: [dualtrain, decision]
  note: >-
    The table of doubles-075: seat 0 left [8-8] uncovered on the Mexican Train. Seat 1 may
    cover it or play [4-3] on its own train.
  table:
    engine: 9
    seat: 1
    hands:
      0: [3-1, 6-2]
      1: [8-2, 4-3]
      2: [rest]
    trains:
      0: [9-5]
      1: [9-4]
      2: [9-7]
      mexican: [9-8, 8-8]
    marked: [0]
    open_doubles: [mexican]
  expect:
    - variants: [pagat+follow-up-only]
      legal: [play 8-2 on mexican, play 4-3 on 1]

- id: witness-073
  description: Under heaviest-in-hand-start the seat dealt [8-4] starts, not the one with [6-6]
  clauses: [SEAT-6]
  source: [netexl, engine, decision, computation]
  note: >-
    heavy-004's deal, round 3 ([7-7] set aside), 2 players of 15: seat 0 holds [6-6] and
    [9-0] with 13 tiles of at most 6 pips, seat 1 [8-4] with tiles of at most 11; every
    heavier tile is in the boneyard. [8-4] and [6-6] tie on 12 and [8-4]'s end is higher:
    seat 1 starts. Rotating, by the higher end first ([9-0]) or a double first ([6-6]),
    seat 0 would.
  deal:
    players: 2
    engine: 7
    order: [6-6, 9-0, 0-0, 1-0, 1-1, 2-0, 2-1, 2-2, 3-0, 3-1, 3-2, 3-3, 4-0, 4-1, 4-2,
            8-4, 4-3, 4-4, 5-0, 5-1, 5-2, 5-3, 5-4, 5-5, 6-0, 6-1, 6-2, 6-3, 6-4, 6-5,
            7-0, 7-1, 7-2, 7-3, 7-4, 7-5, 7-6, 8-0, 8-1, 8-2, 8-3, 8-5, 8-6, 8-7, 8-8,
            9-1, 9-2, 9-3, 9-4, 9-5, 9-6, 9-7, 9-8, 9-9]
  expect:
    - variants: [puremco-d9+heaviest-in-hand-start]
      state: {seat: 1, starter: 1}

"""

WITNESSES: list[Fixture] = load_file("tests/test_mutants.py", WITNESS_YAML)
BY_ID = {fx.id: fx for fx in WITNESSES}

# Which witness shows each mutant to be a real change (the mutant must fail it).
KILLED_BY: dict[str, str] = {
    "wrong-engine-double": "witness-001",
    "wrong-hand-size": "witness-002",
    "engine-not-set-aside": "witness-003",
    "engine-holder-not-starting": "witness-004",
    "start-does-not-rotate": "witness-005",
    "engine-search-from-seat-0": "witness-001",
    "engine-finder-does-not-start": "witness-004",
    "engine-holder-keeps-engine": "witness-006",
    "everyone-draws-stops-at-engine": "witness-059",
    "engine-lap-closer-places": "witness-060",
    "highest-double-ignored": "witness-068",
    "lowest-double-is-engine": "witness-068",
    "designated-opens-ignored": "witness-069",
    "designation-passes-without-drawing": "witness-069",
    "highest-draw-ignored": "witness-075",
    "draw-tie-to-lowest-seat": "witness-075",
    "draw-winner-starts-every-round": "witness-075",
    "engine-search-ignores-draw": "witness-076",
    "turn-order-reversed": "witness-007",
    "mexican-on-pagat-first-turn": "witness-008",
    "chain-on-other-trains": "witness-009",
    "chain-ends-on-coverable-double": "witness-010",
    "first-turn-draws": "witness-011",
    "chain-double-obliges-at-once": "witness-012",
    "single-start-allows-chain": "witness-013",
    "first-turns-never-end": "witness-013",
    "starter-only-mexican-ignored": "witness-014",
    "own-train-first-ignored": "witness-015",
    "play-on-unmarked-train": "witness-016",
    "mexican-treated-as-personal": "witness-017",
    "draw-while-playable": "witness-017",
    "pass-while-playable": "witness-017",
    "draw-one-draws-twice": "witness-018",
    "draw-one-keeps-drawing": "witness-018",
    "draw-until-playable-ignored": "witness-018",
    "drawn-tile-optional": "witness-019",
    "any-tile-after-draw": "witness-020",
    "pass-no-marker": "witness-021",
    "marker-up-on-draw": "witness-022",
    "marker-never-removed": "witness-023",
    "marker-anyone-under-owner-own": "witness-024",
    "marker-anyone-ignored": "witness-024",
    "marker-owner-anywhere-under-owner-own": "witness-025",
    "marker-owner-anywhere-ignored": "witness-025",
    "marker-stays-on-cover": "witness-026",
    "covered-double-stays-open": "witness-026",
    "turn-ends-on-double": "witness-027",
    "double-no-obligation": "witness-028",
    "covering-refused-on-closed-train": "witness-028",
    "restricted-follow-ignored": "witness-029",
    "follow-must-cover-own-double": "witness-029",
    "cover-own-ignored": "witness-030",
    "oldest-first-ignored": "witness-031",
    "newest-double-first": "witness-031",
    "any-open-ignored": "witness-031",
    "uncoverable-never-released": "witness-032",
    "release-on-empty-ignored": "witness-070",
    "release-on-empty-also-uncoverable": "witness-071",
    "released-double-open-to-all": "witness-070",
    "layers-turn-double-binds-others": "witness-072",
    "layers-turn-release-on-empty-only": "witness-072",
    "released-when-mover-cannot-cover": "witness-033",
    "release-off-by-one": "witness-033",
    "follow-up-no-draw": "witness-034",
    "follow-failure-no-marker": "witness-035",
    "duty-not-passed-on": "witness-036",
    "blocked-never-detected": "witness-037",
    "blocked-counts-passes": "witness-037",
    "passes-rule-ignored": "witness-037",
    "positive-blocked-scores-hands": "witness-037",
    "blocked-lightest-hand-wins": "witness-037",
    "blocked-ignores-markers": "witness-038",
    "passes-not-reset": "witness-039",
    "domino-on-double-missed": "witness-040",
    "hand-scored-twice": "witness-041",
    "winner-scores-last-tile": "witness-041",
    "blanks-scored-wrong": "witness-041",
    "double-blank-penalty-ignored": "witness-041",
    "totals-not-accumulated": "witness-041",
    "outs-not-counted": "witness-041",
    "tie-broken-by-lowest-seat": "witness-042",
    "winners-lowest-under-positive": "witness-042",
    "most-outs-ignored": "witness-042",
    "blocked-ignores-first-turns": "witness-043",
    "blocked-never-during-first-turns": "witness-044",
    "blocked-ignores-own-train-first": "witness-045",
    "last-draw-pass-uncounted": "witness-046",
    "passes-counted-with-tiles-left": "witness-047",
    "tie-to-most-outs-overall": "witness-048",
    "tie-to-fewest-outs": "witness-048",
    "lowest-seat-ignored": "witness-042",
    "own-train-mexican-ignored": "witness-055",
    "own-train-mexican-closes-all": "witness-055",
    "chain-anywhere-own-train-only": "witness-056",
    "chain-anywhere-ends-beside-double": "witness-056",
    "holder-draws-no-replacement": "witness-057",
    "blocked-winner-ignored": "witness-061",
    "blocked-winner-by-pips-alone": "witness-061",
    "blocked-winner-counts-an-out": "witness-061",
    "no-double-end-ignored": "witness-062",
    "no-double-end-last-tile-refused": "witness-063",
    "single-round-ignored": "witness-064",
    "single-round-deals-round-two": "witness-065",
    "ordinary-doubles-ignored": "witness-066",
    "ordinary-double-left-open": "witness-067",
    "after-engine-start-ignored": "witness-058",
    "heaviest-start-ignored": "witness-073",
    "heaviest-by-high-end": "witness-073",
    "heaviest-tie-to-double": "witness-073",
    "tie-to-highest-seat": "witness-042",
    "start-rotates-off-by-one": "witness-003",
    "first-turn-pass-unmarked": "witness-049",
    "starter-only-mexican-forever": "witness-050",
    "own-train-before-duty": "witness-051",
    "restricted-follow-last-double": "witness-052",
    "engine-search-drops-tiles": "witness-053",
    "restricted-follow-mexican-double-closed": "witness-054",
    "winners-highest-under-penalty": "witness-042",
}

# The mutants of an outside author's reading (conformance/mutants/outside.py, and the second
# to seventh readings) are shown to be real changes by a hand-worked fixture of the shipped
# corpus each must fail.
OUTSIDE_KILLED_BY: dict[str, str] = {
    "d15-seven-players-take-12": "rows-005",
    "celko-d15-nine-take-13": "rows-009",
    "pagat-table-stops-at-nine": "deal-023",
    "hathaway-nine-ten-take-10": "rows-009",
    "celko-d9-eight-take-7": "rows-007",
    "own-table-row-shifted": "rows-013",
    "engine-from-twelve": "deal-019",
    "search-starts-after-rotating-seat": "deal-019",
    "search-finder-draws-replacement": "search-001",
    "rotate-start-finder-starts": "search-001",
    "starter-only-means-seat-0": "first-020",
    "end-chain-before-a-tile": "chaindbl-003",
    "chain-double-draws-for-cover": "chaindbl-004",
    "chain-out-at-turn-end": "chaindbl-011",
    "single-start-duty-waits": "doubles-069",
    "follow-double-ends-turn": "doubles-025",
    "restricted-follow-double-and-mexican-only": "doubles-004",
    "cover-closes-oldest-double": "covers-001",
    "cover-own-drawn-tile-anywhere": "doubles-022",
    "release-frees-newer-doubles": "release-001",
    "release-counts-thirteen": "doubles-065",
    "stays-open-releases": "release-001",
    "marker-off-when-owner-draws": "markdraw-001",
    "anyone-rule-owner-exempt": "marker-012",
    "owner-anywhere-not-other-trains": "marker-011",
    "cover-by-other-lowers-marker": "covers-002",
    "empty-boneyard-draw": "doubles-041",
    "empty-boneyard-pass-unmarked": "doubles-042",
    "draw-pass-unmarked": "chaindbl-020",
    "draw-until-playable-keeps-offering": "turn-008",
    "passes-one-short": "end-011",
    "blocked-checked-after-pass-only": "end-026",
    "blank-tile-flat-25": "posscore-001",
    "double-blank-50-with-blanks": "posscore-001",
    "double-blank-25-at-50": "posscore-001",
    "positive-at-face-value": "score-010",
    "positive-losers-pay": "posscore-001",
    "last-round-not-totalled": "match-015",
    "last-round-out-uncounted": "match-015",
    "match-ends-a-round-early": "lastround-001",
    "most-outs-then-lowest-seat": "match-005",
    "tie-rule-ignored-under-positive": "match-008",
    # the second reading
    "own-train-first-only-first-turn": "first-022",
    "starter-may-not-open-mexican-early": "first-016",
    "after-engine-holder-loses-first-turn": "search-001",
    "after-engine-finder-starts": "search-001",
    "blocked-ignores-duties": "doubles-062",
    "blocked-round-scores-nothing": "doubles-062",
    "positive-blocked-lightest-collects": "end-026",
    "lowest-seat-on-any-tie": "ties-001",
    "cover-own-elsewhere-when-stuck": "followx-001",
    "restricted-follow-no-mexican": "followx-001",
    "owner-anywhere-marker-off-on-draw": "markdraw-001",
    "chain-double-asks-follow-up": "chaindbl-001",
    "drawn-double-ends-turn": "followx-002",
    "doubles-score-twice": "chaindbl-011",
    "tie-outs-before-last-round": "match-006",
    "own-train-mexican-not-in-follow-up": "ownmex-001",
    "anyone-rule-cover-keeps-marker": "covers-002",
    "celko-d6-three-take-9": "rows-019",
    "goodsam-two-take-15": "rows-017",
    "cardinal-seven-eight-take-10": "deal-022",
    "fundex-five-six-take-12": "deal-004",
    "puremco-d9-three-take-15": "deal-002",
    # the third reading
    "pagat-nine-take-10": "refused-001",
    "celko-d15-eight-take-11": "rows-007",
    "celko-d15-stops-at-eleven": "rows-015",
    "d15-six-players-take-11": "rows-003",
    "d15-table-stops-at-eight": "deal15-002",
    "celko-d9-five-take-9": "rows-001",
    "celko-d6-four-take-7": "rows-021",
    "hathaway-five-six-take-12": "rows-001",
    "goodsam-eight-take-9": "rows-007",
    "puremco-three-take-15": "deal-002",
    "deal-round-robin": "deal-019",
    "set-aside-top-double-every-round": "engine-003",
    "replacement-from-boneyard-end": "engine-016",
    "first-seat-with-a-double-opens": "engine-022",
    "deal-search-from-seat-0": "opener-001",
    "designated-keeps-drawing": "engine-026",
    "lap-ends-at-seat-0": "engine-018",
    "draw-for-round-one-only": "drawrot-001",
    "draw-rotation-reversed": "drawrot-001",
    "draw-by-high-end": "draw-006",
    "start-rotates-backwards": "engine-005",
    "after-engine-previous-seat": "engine-019",
    "owner-anywhere-also-by-others": "covers-002",
    "anyone-rule-owner-anywhere": "markdraw-002",
    "marking-keeps-first-turn": "chaindbl-007",
    "release-ignores-boneyard": "emptyx-004",
    "empty-boneyard-double-ends-turn": "emptyx-001",
    "release-on-empty-next-turn": "emptyx-003",
    "oldest-by-train-number": "doubles-028",
    "stays-open-skips-dead-oldest": "release-001",
    "owner-exempt-from-own-double": "chaindbl-010",
    "follow-up-not-on-marked": "doubles-004",
    "chain-ends-itself-when-stuck": "chaindbl-002",
    "chain-anywhere-cover-next": "anyx-001",
    "chain-anywhere-no-covers": "anyx-002",
    "own-train-mexican-first-turn-only": "ownmex-001",
    "starter-only-until-starter-played": "first-017",
    "blocked-winner-lowest-seat": "score-021",
    "blocked-winner-by-face-pips": "lowhand-001",
    "blocked-winner-every-round": "lowhand-004",
    "thirteen-rounds-whatever-the-set": "match-016",
    "match-never-over": "bounds-001",
    "most-outs-then-last-round": "match-005",
    "most-outs-ignored-in-single-round": "single-002",
    "lowest-seat-from-starter": "tiesx-001",
    # the fourth reading (conformance/mutants/fourth_reading.py)
    "pagat-ten-take-9": "deal-023",
    "hathaway-table-stops-at-nine": "rows-011",
    "d15-twelve-take-10": "deal15-002",
    "celko-d15-eleven-take-12": "rows-013",
    "celko-d9-four-take-10": "engx-003",
    "cardinal-six-take-11": "deal-005",
    "lap-one-seat-short": "engine-019",
    "lap-first-seat-places": "engine-019",
    "highest-double-search-drops-tiles": "engine-023",
    "designation-moves-right": "engx-002",
    "designated-smallest-double": "engine-022",
    "designated-drawn-double-kept": "engine-025",
    "engine-search-counterclockwise": "engine-008",
    "draw-lowest-wins": "draw-001",
    "after-engine-from-first-seat": "engine-022",
    "rotate-from-engine-number": "engine-022",
    "chain-anywhere-keeps-markers": "firstx-001",
    "no-double-end-every-turn": "firstx-003",
    "no-double-end-under-ordinary": "firstx-005",
    "ordinary-chain-double-covered": "doubles-ordinary-003",
    "starter-only-means-engine-holder": "firstx-008",
    "own-train-mexican-every-play": "firstx-010",
    "starter-only-closes-open-mexican": "firstx-011",
    "layers-turn-follow-no-draw": "doubles-074",
    "follow-draws-once-until-playable": "relfx-005",
    "own-double-released-by-last-draw": "relfx-001",
    "dead-double-blocks-any-open": "release-001",
    "cover-own-binds-layer-only": "doubles-040",
    "blocked-test-binds-released": "blkrel-001",
    "mexican-open-despite-duty": "chaindbl-009",
    "marked-play-lowers-own-marker": "ownmex-001",
    "marker-off-at-turn-start": "doubles-035",
    "blocked-waits-for-markers": "doubles-062",
    "blocked-winner-value-then-tiles": "score-020",
    "blanks-only-with-double-blank": "end-026",
    "double-blank-50-at-25": "score-009",
    "blocked-winner-highest-total-wins": "winx-001",
    # the fifth reading (conformance/mutants/fifth_reading.py)
    "d15-nine-to-eleven-take-10": "rows-009",
    "celko-d15-ten-take-13": "rows-011",
    "celko-d15-twelve-take-10": "rows-015",
    "own-table-row-below": "rows-005",
    "goodsam-five-take-12": "rows-001",
    "goodsam-three-take-16": "rows-019",
    "fundex-seven-eight-take-10": "deal-006",
    "hathaway-seven-eight-take-11": "rows-005",
    "puremco-eight-take-10": "deal-007",
    "turn-wraps-at-eight": "bigseat-001",
    "rotate-start-wraps-at-eight": "bigseat-003",
    "after-engine-no-wrap": "dblsearch-001",
    "holder-seat-zero-falsy": "dblsearch-002",
    "draw-start-one-seat-late": "drawrot-001",
    "designation-one-seat-late": "dblsearch-001",
    "first-turns-end-at-last-seat": "first-020",
    "heaviest-tie-to-lowest-seat": "heavyx-003",
    "double-search-first-seat-starts": "dblsearch-001",
    "deal-engine-mexican-stale": "engine-023",
    "dead-double-no-draw": "release-001",
    "blocked-test-releases-dead": "doubles-062",
    "release-on-empty-one-left": "emptyx-003",
    "single-start-own-train-beside-mexican-double": "chaindbl-016",
    "mexican-duty-cited-as-first-9": "chaindbl-016",
    "cover-own-refusal-cites-dbl-3": "emptyx-002",
    "double-leaves-marker-up": "doubles-012",
    "owner-anywhere-not-on-mexican": "markdraw-002",
    "chain-while-able": "doubles-ordinary-003",
    "end-chain-raises-marker": "chaindbl-003",
    "chain-anywhere-mexican-closed": "anyx-001",
    "chain-anywhere-draws-when-stuck": "fifthx-001",
    "ordinary-double-ends-chain": "doubles-ordinary-003",
    "draw-until-one-left": "turn-016",
    "drawn-double-blank-forgotten": "fifthx-002",
    "own-train-first-mexican-open": "ownfirst-001",
    "passes-one-too-many": "singletie-001",
    "blocked-winner-not-on-passes": "passwin-001",
    "double-blank-id-zero-skipped": "single-002",
    "double-blank-25-with-blanks": "single-005",
    "outs-capped-below-rounds": "bounds-001",
    # the sixth reading (conformance/mutants/sixth_reading.py)
    "celko-d6-two-take-8": "rows-017",
    "celko-d9-seven-take-6": "rows-005",
    "celko-d9-short-rows-of-puremco": "rowsix-001",
    "celko-d15-six-take-13": "rows-003",
    "celko-d15-seven-take-15": "rows-005",
    "goodsam-four-take-15": "rows-021",
    "goodsam-seven-take-12": "rows-005",
    "hathaway-two-take-16": "rowsix-002",
    "cardinal-five-take-11": "deal-004",
    "numbers-stop-at-fifteen": "sets-020",
    "rounds-stop-at-sixteen": "sets-010",
    "heaviest-tie-to-lower-end": "heavyx-003",
    "heaviest-hand-starts": "heavysix-003",
    "heaviest-round-one-only": "heavy-001",
    "heaviest-by-score-value": "heavysix-001",
    "lap-end-ignores-draw": "engsix-001",
    "lap-goes-on-past-empty-boneyard": "engsix-004",
    "lap-placer-draws-replacement": "engine-019",
    "everyone-draws-lap-when-dealt": "engsix-005",
    "replacement-is-the-drawn-tile": "engsix-009",
    "deal-engine-pool-less-round-double": "engine-022",
    "deal-engine-number-stale": "engine-022",
    "highest-double-holder-draws": "engine-022",
    "highest-double-prefers-round-double": "engsix-007",
    "designation-first-seat-starts": "engx-002",
    "designation-later-seats-draw-only": "engine-026",
    "chain-anywhere-skips-own-train-first": "firstsix-003",
    "chain-anywhere-skips-starter-only": "firstsix-001",
    "chain-anywhere-mexican-frozen": "firstsix-002",
    "chain-anywhere-own-train-frozen": "firstsix-004",
    "no-double-end-cited-first-4": "first-039",
    "own-train-mexican-cited-first-9": "ownmex-001",
    "single-first-double-ends-turn": "firstsix-005",
    "single-first-follow-covers": "firstsix-007",
    "single-first-follow-no-draw": "firstsix-006",
    "restricted-follow-opens-mexican": "firstsix-008",
    "restricted-follow-mexican-cited-dbl-3": "firstsix-008",
    "blocked-winner-by-tiles-alone": "lowhand-001",
    "lowest-seat-after-outs": "match-017",
    "lowest-seat-ignored-in-single-round": "singletie-001",
    "single-round-out-wins": "single-002",
    # the seventh reading (conformance/mutants/seventh_reading.py)
    "pagat-two-take-16": "deal-001",
    "pagat-eight-take-9": "deal-007",
    "puremco-two-take-15": "deal-010",
    "puremco-five-take-12": "deal-004",
    "puremco-seven-take-9": "deal-006",
    "puremco-d9-four-take-9": "deal-003",
    "celko-d9-six-take-6": "rows-004",
    "goodsam-six-take-11": "rows-003",
    "own-table-top-row-refused": "rows-015",
    "blank-25-double-blank-once": "score-009",
    "blocked-winner-tie-scores-nobody": "lowhand-003",
    "blocked-winner-counts-as-out": "lowhand-002",
    "totals-overwritten-each-round": "winx-001",
    "blocked-on-pass-with-tiles-left": "doubles-061",
    "end-chain-counts-as-pass": "end-025",
    "first-turn-starter-only": "seat-005",
    "pass-marks-next-train": "doubles-023",
    "draw-from-boneyard-end": "doubles-034",
    "drawn-tile-own-train-only": "emptyx-003",
    "single-start-stuck-marks-at-once": "engine-013",
    # the eighth reading (conformance/mutants/eighth_reading.py)
    "puremco-four-take-16": "deal15-001",
    "puremco-d9-two-take-13": "deal-019",
    "fundex-four-take-11": "deal15-001",
    "cardinal-four-take-12": "deal15-001",
    "own-table-bottom-row-refused": "owntab-001",
    "own-table-row-above": "owntab-001",
    "double-18-set-of-189": "owntab-002",
    "face-double-blank-50": "generated-blank-values-002",
    "everyone-tied-nobody-wins": "generated-tie-rule-001",
    "positive-tie-to-lowest-seat": "bounds-003",
    "blocked-last-round-no-winner": "singletie-001",
    "last-round-engine-falsy": "engine-003",
    "single-start-mexican-closed": "chaindbl-016",
    "two-players-no-mexican": "engine-003",
    "tiles-never-turned": "chaindbl-010",
    "ordinary-double-plays-again": "ordone-001",
    # the ninth reading (conformance/mutants/ninth_reading.py)
    "mexican-opens-on-top-double": "engine-002",
    "blank-end-reads-as-engine": "release-001",
    "hand-never-checked": "turnx9-001",
    "end-chain-keeps-turn": "chaindbl-003",
    "drawn-tile-any-in-hand": "drawx9-001",
    "last-tile-never-drawn": "emptyx-003",
    "marked-plays-optional": "chaindbl-009",
    "mexican-double-binds-nobody": "chaindbl-016",
    "mexican-cover-left-open": "covers-001",
    "turn-doubles-kept": "chaindbl-005",
    "restricted-follow-oldest-open": "follow9-001",
    "chain-end-held-by-any-double": "chain9-001",
    "follow-open-trains-only": "follow9-003",
    "chain-covers-elsewhere": "chaindbl-005",
    "mexican-play-lowers-marker": "release-002",
    "winner-is-next-seat": "chaindbl-011",
    "double-blank-alone-at-face": "generated-blank-values-002",
    "blank-25-high-end-only": "generated-blank-values-001",
    "pagat-seven-take-12": "deal-006",
    "puremco-six-take-14": "deal-005",
    "cardinal-three-take-16": "deal-002",
    # the tenth reading (conformance/mutants/tenth_reading.py): witnesses among the
    # agreement tables already played, but for the two only its own fixtures kill
    "first-turn-may-decline": "chaindbl-007",
    "follow-up-optional": "follow9-001",
    "any-open-optional-when-several": "release-001",
    "chain-cover-kept-in-turn": "chaindbl-003",
    "drawn-tile-kept-after-pass": "chaindbl-020",
    "follow-failure-drops-double": "doubles-023",
    "placing-engine-is-first-turn": "engsix-009",
    "markers-in-a-byte": "bytemark-001",
    "mexican-play-lowers-seat-0-marker": "markdraw-002",
    "mexican-opens-in-first-turns-only": "engine-002",
    "doubles-count-one-end": "chaindbl-011",
    "winners-by-last-round": "sets-010",
    "pagat-six-take-10": "engine-008",
    "pagat-three-take-16": "engine-016",
    "cardinal-two-take-16": "deal-001",
    "fundex-three-take-16": "deal-002",
    "hathaway-four-take-14": "rows10-001",
    "celko-d15-five-take-12": "rows-001",
    "d15-eight-take-13": "rows-007",
    # the eleventh reading (eleventh_reading.py)
    "turn-wraps-at-ten": "tenseat-001",
    "rotate-start-wraps-at-ten": "tenseat-012",
    "markers-in-ten-bits": "tenseat-005",
    "blocked-test-asks-ten-seats": "tenseat-003",
    "passes-counted-to-ten": "tenseat-006",
    "ten-seats-scored": "tenseat-008",
    "winners-among-ten-seats": "tenseat-009",
    "winners-skip-last-seat": "match-003",
    "winners-skip-zero-total": "single-001",
    "outs-from-zero-scores": "lowhand-001",
    "blocked-last-mover-goes-out": "end-010",
    "blanks-only-when-out": "end-026",
    "blanks-only-when-blocked": "generated-blank-values-001",
    "marked-empty-train-closed": "first-009",
    "owner-mexican-play-lowers-marker": "marker-013",
    "marked-player-own-train-only": "release-002",
    "pass-on-empty-train-unmarked": "marker-010",
    # the twelfth reading (twelfth_reading.py)
    "uncoverable-asked-of-double-12": "follow9-002",
    "double-nine-keeps-mixed-tens": "deal-019",
    "highest-double-search-from-twelve": "dbl12-001",
    "last-drawn-tile-frees-hand": "drawx9-001",
    "last-draw-raises-marker": "bone12-001",
    "blocked-at-last-draw": "doubles-062",
    "stuck-player-ends-round": "doubles-042",
    "stuck-player-skipped": "end-010",
    "owner-marker-off-by-last-tile": "markx5-001",
    "anyone-marker-off-by-last-tile": "markx5-001",
    "own-double-pass-unmarked": "follow10-001",
    "stuck-follow-up-unmarked": "follow10-001",
    "duty-pass-unmarked": "doubles-042",
    "blocking-pass-unmarked": "end-010",
    "out-on-double-uncredited": "bone12-007",
    "out-on-double-charged": "bone12-007",
    # the thirteenth reading
    "mut13-pool-drops-top-double": "deal-019",
    "mut13-boneyard-one-late": "deal-019",
    "mut13-d15-five-take-15": "rows-001",
    "mut13-pagat-four-take-12": "deal15-001",
    "mut13-follow-fail-marks-double-train": "doubles-026",
    "mut13-duty-fail-marks-double-train": "duty13-003",
    "mut13-first-turn-cleared-early": "open13-002",
    "mut13-follow-draw-must-cover": "doubles-022",
    "mut13-drawn-limit-outlives-double": "followx-002",
    "mut13-duty-draws-once": "duty13-001",
    "mut13-cover-asks-follow-up": "mark13-001",
    "mut13-double-elsewhere-ends-turn": "first13-002",
    "mut13-scores-in-playing-order": "lastround-001",
    "mut13-rotate-start-one-short": "owntab-002",
    "mut13-most-outs-equal-nobody-wins": "generated-tie-rule-003",
    "mut13-blocked-ignores-mexican": "block13-001",
    "mut13-owner-anywhere-cover-keeps-marker": "mark13-001",
    "mut13-released-double-forgotten": "doubles-074",
    "mut13-pass-toggles-marker": "marker-002",
    "mut13-restricted-follow-own-train-open": "doubles-027",
    "mut13-first-turns-in-a-byte": "engine-006",
    "mut13-set-rounded-up": "sets-050",
    "mut13-d18-dealt-by-d15-table": "owntab-002",
    "mut13-most-outs-against-first-tied": "bounds-003",
    "mut13-follow-pass-uncounted": "doubles-029",
    "mut13-duty-pass-uncounted": "duty13-003",
    "mut13-search-draw-kept-as-drawn": "engine-008",
    "mut13-drawn-tile-opens-mexican": "open13-001",
    "mut13-drawn-tile-skips-own-train-first": "first-023",
    "mut13-restricted-follow-drawn-anywhere": "doubles-027",
    # the fourteenth reading (fourteenth_reading.py)
    "mut14-d6-file-dealt-by-celko": "owntab-001",
    "mut14-small-sets-dealt-by-d9-rows": "sets-050",
    "mut14-own-table-ignored": "owntab-002",
    "mut14-own-table-round-one-only": "owntab-002",
    "mut14-own-table-last-row-stretched": "sets-047",
    "mut14-own-table-first-row-for-all": "rows-005",
    "mut14-own-table-sizes-ascending": "owntab-001",
    "mut14-own-table-read-by-trains": "owntab-001",
    "mut14-blocked-winner-zero-charged": "score-022",
    "mut14-blank-totals-at-face": "posscore-001",
    "mut14-positive-totals-charged": "match-007",
    "mut14-until-playable-pass-cites-turn-2": "turn-012",
    "mut14-duty-refusal-cites-train-4": "emptyx-003",
    "mut14-oldest-first-cites-dbl-6": "doubles-026",
    "mut14-own-train-first-mexican-cites-train-4": "ownfirst-001",
    "mut14-chain-anywhere-cites-first-1": "clause14-001",
    "mut14-lap-search-cites-eng-4": "lap14-001",
    "mut14-drawn-tile-refusal-cites-turn-2": "drawx9-001",
    "mut14-restricted-follow-cites-dbl-4": "doubles-027",
    "mut14-first-turn-draw-cites-turn-2": "first-008",
    "mut14-empty-boneyard-draw-cites-turn-2": "turn-016",
    "mut14-draw-while-playable-cites-turn-2": "doubles-001",
    "mut14-end-chain-outside-cites-first-7": "clause14-002",
    "mut14-round-over-cites-turn-7": "over14-001",
    "mut14-starter-only-cites-train-4": "first-017",
    "mut14-chain-elsewhere-cites-train-4": "chaindbl-005",
    "mut14-own-table-less-engine": "owntab-002",
    "mut14-draw-weighed-by-blank-rule": "drawblank14-001",
    "mut14-draw-checked-in-double-12": "drawblank14-003",
    "mut14-own-table-boneyard-by-pagat": "owntab-002",
    "mut14-one-tile-turn-end-chain-cites-first-1": "clause14-002",
    "mut14-chain-cover-due-cites-first-1": "chaindbl-001",
    "mut14-pass-while-playable-cites-turn-4": "doubles-031",
    "mut14-second-draw-cites-turn-5": "turn-012",
    "mut14-until-playable-drawn-stays-first": "turn-014",
    "mut14-blocked-winner-by-match-total": "score-022",
    "mut14-heaviest-next-seat-starts": "heavysix-001",
    "mut14-chain-anywhere-opens-on-own-train": "first-035",
    # the fifteenth reading (fifteenth_reading.py)
    "mut15-engine-cycles-by-thirteen": "lastround-004",
    "mut15-rotation-restarts-at-round-14": "lastround-004",
    "mut15-engine-search-skips-last-seat": "engine-008",
    "mut15-lap-search-skips-last-seat": "engx-001",
    "mut15-highest-double-search-eight-seats": "bigset15-001",
    "mut15-first-turns-round-one-only": "engine-003",
    "mut15-starter-only-means-rotation-seat": "firstx-008",
    "mut15-chain-anywhere-off-marked-trains": "first-038",
    "mut15-drawn-play-keeps-marker": "marker-017",
    "mut15-follow-up-play-keeps-marker": "marker15-001",
    "mut15-chain-play-keeps-marker": "firstx-001",
    "mut15-blocked-test-skipped-after-last-draw": "end-010",
    "mut15-blocked-open-doubles-on-totals": "end-026",
    "mut15-out-open-doubles-on-totals": "open15-001",
    "mut15-blocked-winner-is-last-mover": "score-020",
    "mut15-follow-up-out-uncounted": "outs15-001",
    "mut15-chain-out-uncounted": "outs15-003",
    # the sixteenth reading (sixteenth_reading.py)
    "mut16-own-table-nine-up-dealt-as-eight": "mut16-owntab-002",
    "mut16-own-table-later-rounds-row-below": "mut16-owntab-001",
    "mut16-own-table-holder-draws": "owntab14-002",
    "mut16-own-table-rotation-by-largest-row": "mut16-owntab-003",
    "mut16-own-table-keys-sorted-as-text": "mut16-owntab-002",
    "mut16-no-double-end-chain-anywhere": "mut16-chain-001",
    "mut16-chain-anywhere-no-double-end": "chainend-001",
    "mut16-starter-only-waits-for-own-train": "startermex-001",
    "mut16-own-train-started-starter-only": "firstsix-001",
    "mut16-holder-draws-searches-in-laps": "search-001",
    "mut16-released-also-when-boneyard-empty": "emptyx-003",
    "mut16-stays-open-released-when-boneyard-empty": "emptyx-003",
    "mut16-stays-open-released-after-layers-turn": "chaindbl-005",
    "mut16-passes-rule-also-ends-when-stuck": "end-010",
    "mut16-anywhere-follow-restricted": "doubles-027",
    "mut16-engine-clamped-from-twelve": "mut16-owntab-001",
    "mut16-single-round-opens-on-twelve": "mut16-single-001",
    "mut16-blank-values-stop-at-twelve": "mut16-blank-001",
    "mut16-mexican-double-followed-there-only": "doubles-004",
    "mut16-last-drawn-tile-refused": "emptyx-003",
    "mut16-blocking-pass-drawn-tile-unscored": "end-010",
    "mut16-designated-opener-draws": "dblsearch-001",
    "mut16-uncoverable-ignores-boneyard": "doubles-033",
    "mut16-high-seats-marked-trains-closed": "tenseat-005",
    "mut16-shared-win-two-at-most": "match-015",
    "mut16-lowest-seat-zero-falsy": "bounds-001",
    "mut16-holder-lays-searches-in-laps": "engine-007",
    "mut16-anyone-mexican-waits-for-own-train": "engine-002",
    "mut16-shared-tie-to-last-seat": "bounds-002",
    # the seventeenth reading (seventeenth_reading.py)
    "mut17-heaviest-search-eight-seats": "mut17-seats-001",
    "mut17-blocked-lowest-hand-eight-seats": "mut17-blocked-001",
    "mut17-positive-collects-eight-hands": "tenseat-008",
    "mut17-draw-winner-eight-seats": "mut17-seats-003",
    "mut17-anyone-marker-stays-on-high-seats": "mut17-markers-001",
    "mut17-replacement-round-one-only": "engine-017",
    "mut17-deal-engine-round-one-only": "dblsearch-002",
    "mut17-holder-start-rotates": "dblsearch-002",
    "mut17-rotation-clamped-at-last-seat": "mut16-owntab-003",
    "mut17-after-engine-start-rotates": "engine-019",
    "mut17-heaviest-start-rotates": "mut17-seats-002",
    "mut17-restricted-follow-cover-own": "followx-001",
    "mut17-released-also-after-layers-turn": "chaindbl-016",
    "mut17-empty-release-also-after-layers-turn": "emptyx-003",
    "mut17-chain-no-double-end-leak": "chaindbl-004",
    "mut17-own-train-started-own-train-first": "firstx-010",
    "mut17-stuck-rule-ends-on-passes": "end-015",
    "mut17-drawn-tile-off-marked-trains": "turn-010",
    "mut17-replacement-to-next-seat": "engine-016",
    "mut17-search-stops-at-any-double": "search-002",
    "mut17-search-draw-spends-first-turn": "engine-008",
    "mut17-pass-by-marked-player-uncounted": "mut17-passes-001",
    "mut17-passes-counted-to-eight": "mut17-passes-003",
    "mut17-blocking-pass-drawn-tile-scored-twice": "end-010",
    "mut17-blank-rule-ignored-below-twelve": "score-011",
    "mut17-single-round-opens-on-blank": "mut16-single-001",
    "mut17-most-outs-unresolved-shared-by-all": "mut17-outs-001",
    # the eighteenth reading (eighteenth_reading.py)
    "mut18-heaviest-total-compared-as-text": "heavy-003",
    "mut18-draw-totals-compared-as-text": "draw-001",
    "mut18-blocked-winner-values-compared-as-text": "mut18-blocked-001",
    "mut18-blocked-winner-counts-compared-as-text": "s46-end-002",
    "mut18-match-totals-compared-as-text": "match-007",
    "mut18-tie-outs-and-seats-compared-as-text": "mut18-ties-001",
    "mut18-passes-compared-as-text": "mut18-passes-001",
    "mut18-turn-order-seats-sorted-as-text": "tenseat-001",
    "mut18-highest-double-held-compared-as-text": "mut18-designated-001",
    "mut18-designated-double-compared-as-text": "mut18-designated-001",
    "mut18-after-engine-wraps-at-eight": "mut18-seats-001",
    "mut18-draw-start-rotation-wraps-at-eight": "mut17-seats-003",
    "mut18-owner-marker-stays-on-high-seats": "mut18-markers-001",
    "mut18-owner-anywhere-marker-stays-on-high-seats": "mut18-markers-003",
    "mut18-outs-uncounted-on-high-seats": "mut18-outs-001",
    "mut18-seat-eight-train-taken-for-mexican": "mut18-trains-001",
    "mut18-passes-uncounted-on-high-seats": "tenseat-002",
    "mut18-stuck-test-asks-eight-seats": "tenseat-003",
    "mut18-totals-uncarried-on-high-seats": "mut18-outs-002",
    "mut18-lap-ends-after-eight-seats": "mut18-laps-001",
    "mut18-blocked-winner-wipes-match-total": "score-022",
    "mut18-shared-tie-broken-by-outs": "bounds-001",
    "mut18-lowest-seat-read-as-most-outs": "singletie-001",
    "mut18-until-playable-stops-at-closed-fit": "mut18-redraw-001",
    "mut18-search-drawer-draws-again": "engine-008",
    "mut18-designated-prefers-round-double": "mut18-designated-002",
    "mut18-oldest-first-skips-mexican-double": "doubles-028",
    "mut18-anywhere-follow-not-on-the-double": "doubles-021",
    "mut18-uncoverable-judged-by-boneyard": "doubles-041",
    # the nineteenth reading (nineteenth_reading.py)
    "mut19-tie-rule-only-for-two-way-ties": "match-015",
    "mut19-most-outs-tie-to-last-seat": "mut18-ties-002",
    "mut19-penalty-best-starts-at-zero": "bounds-001",
    "mut19-shared-tie-broken-by-last-round": "bounds-001",
    "mut19-rotation-counts-mexican-train": "engine-003",
    "mut19-draw-rotation-counts-mexican-train": "mut19-seats-001",
    "mut19-after-engine-round-one-only": "engine-019",
    "mut19-laps-round-one-only": "engine-018",
    "mut19-heaviest-skips-doubles": "mut19-seats-003",
    "mut19-small-set-match-skips-blank-round": "match-016",
    "mut19-highest-double-capped-at-round-double": "mut18-designated-002",
    "mut19-designated-capped-at-round-double": "mut18-designated-002",
    "mut19-released-on-mexican-only": "release-001",
    "mut19-layers-turn-release-spares-mexican": "mut19-release-001",
    "mut19-hand-value-sums-digits": "doubles-062",
    "mut19-double-blank-hand-scores-flat": "end-026",
    "mut19-blocked-round-not-totalled": "mut19-ties-002",
    "mut19-tie-rule-ignored-under-blocked-winner": "mut19-ties-001",
    "mut19-empty-release-spares-mexican": "mut19-release-003",
    "mut19-stays-open-frees-dead-mexican-double": "mut19-release-001",
    "mut19-oldest-first-read-as-highest": "doubles-028",
    "mut19-blocked-winner-seat-zero-falsy": "mut19-ties-002",
    "mut19-seat-zero-out-uncounted": "bounds-001",
    "mut19-heaviest-seat-zero-falsy": "mut19-seats-003",
    "mut19-lowest-seat-reversed-under-positive": "match-018",
    "mut19-lap-first-seat-through-trains": "generated-engine-procedure-004",
    "mut19-cover-own-mexican-double-anywhere": "doubles-006",
    # the twentieth reading (twentieth_reading.py)
    "mut20-round-scores-in-a-byte": "s47-dbl-006",
    "mut20-match-totals-in-a-byte": "s46-match-002",
    "mut20-boneyard-array-of-91": "owntab-002",
    "mut20-hand-size-clamped-at-sixteen": "owntab-002",
    "mut20-eleven-players-refused": "deal15-002",
    "mut20-numbers-stop-at-twelve": "s46-deal-004",
    "mut20-blank-rule-ignored-above-twelve": "single-005",
    "mut20-open-doubles-on-eight-trains": "mut20-duty-001",
    "mut20-no-mexican-train-at-twelve": "s47-big-003",
    "mut20-engine-search-wraps-at-eight": "mut20-search-001",
    "mut20-lap-wraps-at-eight": "mut18-laps-001",
    "mut20-designation-wraps-at-eight": "mut20-designate-001",
    "mut20-oldest-first-by-train-order": "doubles-028",
    "mut20-any-open-skips-mexican-double": "covers-001",
    "mut20-empty-boneyard-double-asks-nothing": "emptyx-001",
    "mut20-empty-release-only-dead-doubles": "emptyx-003",
    "mut20-unfollowable-drawn-double-unplayable": "followx-002",
    "mut20-until-playable-keeps-last-draw-only": "duty13-002",
    "mut20-blocked-winner-tie-to-first-seat": "mut19-ties-002",
    "mut20-blocked-lowest-hand-counts-an-out": "s46-end-001",
    "mut20-most-outs-read-as-went-out": "s46-match-001",
    "mut20-lowest-seat-in-playing-order": "s46-match-001",
    "mut20-most-outs-ignored-in-single-round": "single-002",
    "mut20-highest-double-search-waits-for-round-double": "dblsearch-001",
    "mut20-designated-draw-put-back": "dblsearch-001",
    "mut20-hands-dealt-from-last-seat": "deal-019",
    # the twenty-first reading (twenty_first_reading.py)
    "mut21-most-outs-read-as-fewest": "s50-tie-003",
    "mut21-most-outs-over-whole-table": "s50-tie-001",
    "mut21-most-outs-then-lowest-seat": "s50-tie-002",
    "mut21-most-outs-equal-shared-by-all": "s50-tie-002",
    "mut21-outs-read-by-tie-position": "s50-big-002",
    "mut21-shared-tie-to-those-out": "s50-own-004",
    "mut21-lowest-seat-read-from-the-end": "s50-big-002",
    "mut21-last-tile-bookkeeping-skipped": "s50-mark-001",
    "mut21-outs-read-from-zero-scores": "s50-tie-003",
    "mut21-mexican-out-uncredited": "s50-own-001",
    "mut21-collector-takes-following-seats": "s50-tie-001",
    "mut21-last-seat-hand-unscored": "s50-pips-001",
    "mut21-blocked-scores-differences": "s50-blocked-001",
    "mut21-ends-in-four-bits": "mut21-pips-001",
    "mut21-engines-ascend-from-blank": "s50-own-002",
    "mut21-hands-dealt-off-the-bottom": "s50-own-005",
    "mut21-engine-search-draws-from-end": "engine-008",
    "mut21-deal-search-draws-from-end": "dblsearch-001",
    "mut21-until-playable-stops-at-double": "s50-drawdbl-001",
    "mut21-until-playable-passes-doubles": "mut21-draw-001",
    # the twenty-second reading (twenty_second_reading.py)
    "mut22-rotation-masked-by-players": "s51-seat-001",
    "mut22-after-engine-masked-by-players": "s51-seat-002",
    "mut22-draw-start-masked-by-players": "s51-seat-003",
    "mut22-starter-follows-the-turn": "s51-heavy-001",
    "mut22-last-double-asks-follow-up": "s51-out-002",
    "mut22-last-double-ends-blocked": "s51-out-002",
    "mut22-out-credited-to-train-owner": "s51-out-001",
    "mut22-drawn-kept-through-follow-up": "s51-turn-001",
    "mut22-winner-written-from-one": "s51-blank-001",
    "mut22-winner-seat-zero-written-null": "s51-single-001",
    "mut22-round-result-written-as-totals": "s51-blocked-001",
    "mut22-seat-moves-on-after-going-out": "s51-out-001",
    "mut22-deal-hands-listed-from-starter": "s51-hdh-001",
    "mut22-deal-boneyard-written-as-stack": "s51-deal-001",
    "mut22-markers-cleared-at-round-end": "s51-blocked-001",
    "mut22-open-doubles-cleared-at-round-end": "s51-out-002",
    "mut22-passes-cleared-at-round-end": "s51-blocked-001",
    "mut22-last-round-totalled-twice": "s51-out-002",
    "mut22-match-over-at-blank-engine": "s51-single-001",
    "mut22-engine-from-rounds-left": "s51-single-001",
    # the twenty-third reading (twenty_third_reading.py)
    "mut23-pass-after-draw-toggles-marker": "s52-mark-001",
    "mut23-mexican-double-not-a-turn-double": "mut23-chain-001",
    "mut23-mexican-double-filed-under-layer": "mut23-chain-001",
    "mut23-ordinary-last-double-left-open": "mut23-out-001",
    "mut23-last-double-kept-as-turn-double": "doubles-013",
    "mut23-short-boneyard-left-undrawn": "emptyx-003",
    "mut23-replacement-skipped-on-short-boneyard": "mut23-deal-001",
    "mut23-later-engines-from-even-top": "house49a-009",
    "mut23-winners-before-last-round-added": "s52-match-001",
    "mut23-most-outs-before-totals": "s50-tie-001",
    "mut23-last-out-counted-twice-in-tie": "s52-tie-001",
    "mut23-first-turn-spent-by-draw": "s52-first-001",
    "mut23-follow-fail-turn-from-double-train": "mut23-follow-001",
    "mut23-cover-clears-turn-doubles": "mut23-chain-001",
    "mut23-blocked-round-names-lowest-hand": "s50-blocked-001",
    "mut23-seat-back-to-starter-at-round-end": "s52-out-001",
    "mut23-ordinary-double-on-mexican-opens": "s52-out-001",
    "mut23-mexican-cover-lowers-marker": "mut23-cover-001",
    "mut23-short-boneyard-read-empty-for-blocked": "end-018",
    "mut23-deal-engine-search-from-even-top": "s52-engine-001",
    # the twenty-fourth reading (twenty_fourth_reading.py)
    "mut24-collector-takes-largest-hand": "s53-positive-001",
    "mut24-blocked-round-overwrites-totals": "mut18-blocked-003",
    "mut24-blocked-winner-tie-first-two": "mut24-blocked-001",
    "mut24-emptying-draw-counts-a-pass": "mut24-pass-001",
    "mut24-passes-counted-from-starter": "end-012",
    "mut24-later-engines-skip-one": "owntab-002",
    "mut24-last-round-engine-stops-at-one": "s53-match-001",
    "mut24-own-train-started-by-any-train": "ownmex-001",
    "mut24-own-train-first-by-any-train": "ownfirst-001",
    "mut24-until-playable-draws-past-marked-fit": "turn-011",
    "mut24-follow-pass-moves-turn-twice": "doubles-019",
    "mut24-blocked-unchecked-after-follow-pass": "mut24-follow-001",
    "mut24-released-double-binds-layer": "mut24-release-001",
    "mut24-turn-doubles-newest-first": "s53-order-001",
    "mut24-three-way-tie-nobody-wins": "s53-match-001",
    "mut24-fundex-two-take-16": "deal-001",
    "mut24-fundex-seven-take-11": "s53-deal-001",
    "mut24-celko-d9-two-take-10": "s53-deal-003",
    "mut24-celko-d15-two-take-16": "s53-deal-002",
    "mut24-ourpastimes-d15-two-take-16": "dbl12-001",
    # the twenty-fifth reading (twenty_fifth_reading.py)
    "mut25-draw-won-on-last-drawing": "draw-002",
    "mut25-starter-only-means-draw-winner": "mut25-starter-001",
    "mut25-chain-doubles-wait-in-round-one": "mut25-chain-001",
    "mut25-first-turn-pass-uncounted": "mut25-pass-001",
    "mut25-follow-pass-counts-twice": "mut25-follow-002",
    "mut25-passes-reset-at-home-only": "mut25-pass-002",
    "mut25-most-outs-reversed-under-positive": "match-008",
    "mut25-d16-dealt-by-d15-table": "sets-050",
    "mut25-mexican-play-lowers-mover-marker": "marker-013",
    "mut25-cover-elsewhere-lowers-marker": "mut25-cover-001",
    "mut25-unmatched-tile-cites-train-4": "doubles-010",
    "mut25-tile-not-held-cites-train-2": "turn-022",
    "mut25-own-train-mexican-cites-train-7": "ownmex-001",
    "mut25-starter-only-cites-first-10": "first-017",
    "mut25-own-train-first-cites-first-10": "ownfirst-001",
    "mut25-chain-cover-due-cites-first-12": "chaindbl-001",
    "mut25-chain-elsewhere-cites-first-1": "chaindbl-005",
    "mut25-search-move-cites-turn-2": "engine-007",
    # the twenty-sixth reading (twenty_sixth_reading.py)
    "mut26-engine-holder-round-one-only": "engine-008",
    "mut26-chain-round-one-only": "mut25-chain-001",
    "mut26-starter-only-round-one-only": "first-017",
    "mut26-first-turn-draws-after-round-one": "engine-013",
    "mut26-own-train-first-round-one-only": "ownfirst-001",
    "mut26-search-finder-keeps-engine": "engine-008",
    "mut26-search-first-seat-starts": "engine-011",
    "mut26-short-boneyard-deal-refused": "rows-005",
    "mut26-solo-game-dealt": "mut26-solo-001",
    "mut26-puremco-d9-four-take-13": "deal-003",
    "mut26-celko-d6-stops-at-three": "rows-021",
    "mut26-d16-table-stops-at-eight": "mut26-d16-002",
    "mut26-pips-tabled-for-d12": "s50-pips-001",
    "mut26-blank-25-read-as-double-blank-50": "generated-blank-values-001",
    "mut26-positive-collects-boneyard": "bounds-003",
    "mut26-outs-not-carried": "bounds-001",
    "mut26-any-open-newest-only": "doubles-026",
    "mut26-chain-doubles-forgotten": "chaindbl-005",
    # the twenty-seventh reading (twenty_seventh_reading.py)
    "mut27-blocked-out-to-last-seat": "s50-blocked-001",
    "mut27-blocked-take-to-last-seat": "s50-blocked-001",
    "mut27-positive-take-replaces-total": "bounds-003",
    "mut27-pass-toggles-marker": "marker-002",
    "mut27-marker-removal-toggles": "covers-002",
    "mut27-follow-up-keeps-markers": "marker15-001",
    "mut27-any-open-dead-frees-all": "mut27-anyopen-001",
    "mut27-release-when-boneyard-lacks-number": "emptyx-003",
    "mut27-empty-release-oldest-only": "mut27-emptyrel-001",
    "mut27-restricted-follow-last-double": "doubles-027",
    "mut27-follow-fail-marks-double-train": "doubles-026",
    "mut27-first-turn-pass-uncounted": "mut25-pass-001",
    "mut27-chain-anywhere-binds-at-once": "anyx-002",
    "mut27-draw-start-placer-starts": "s46-draw-002",
    "mut27-blank-25-doubles-twice": "s47-dbl-002",
    "mut27-double-blank-50-doubles-twice": "s49-match-003",
    "mut27-after-engine-deal-placer-starts": "dblsearch-001",
    # the twenty-eighth reading (twenty_eighth_reading.py)
    "mut28-sheet-of-thirteen-rows": "bounds-001",
    "mut28-lowest-seat-from-starter": "s50-tie-002",
    "mut28-single-round-totals-unwritten": "generated-match-length-001",
    "mut28-single-round-lowest-wins": "points-001",
    "mut28-lap-after-last-drawer": "engine-019",
    "mut28-dry-pass-unmarked": "turn-017",
    "mut28-doubles-priced-as-blank": "end-026",
    "mut28-chain-anywhere-cover-ends-chain": "mut28-chaincover-001",
    "mut28-chain-anywhere-double-follows": "first-035",
    "mut28-restricted-follow-empty-closed": "s46-dbl-001",
    "mut28-deal-search-in-laps": "mut28-dblsearch-001",
    "mut28-starter-kept-from-search": "engine-008",
    "mut28-any-open-covers-all": "doubles-052",
    "mut28-layers-turn-follow-fail-unmarked": "doubles-074",
    "mut28-rounds-of-published-set": "mut28-lastrounds-001",
    "mut28-deal-search-finder-draws": "dblsearch-001",
    # the twenty-ninth reading (twenty_ninth_reading.py)
    "mut29-own-train-first-closes-empty-trains": "mut29-ownfirst-001",
    "mut29-own-train-first-stuck-passes": "first-022",
    "mut29-own-train-first-start-beside-duty": "mut29-ownfirst-003",
    "mut29-oldest-first-within-turn": "doubles-027",
    "mut29-oldest-first-when-coverable": "doubles-051",
    "mut29-drawn-tile-never-opens-mexican": "first-027",
    "mut29-starter-only-lifted-by-own-train": "mut29-starter-001",
    "mut29-rotate-placer-loses-first-turn": "search-001",
    "mut29-replacement-to-starter": "mut29-replace-001",
    "mut29-ordinary-double-follows": "ordone-001",
    "mut29-outs-for-most-outs-only": "bounds-001",
    "mut29-follow-up-out-missed": "end-005",
    "mut29-last-draw-blocks-at-once": "end-017",
    "mut29-empty-train-unmarked": "first-009",
    # the thirtieth reading (thirtieth_reading.py)
    "mut30-heaviest-double-starts": "heavy-003",
    "mut30-draw-tie-by-higher-end": "mut30-draw-001",
    "mut30-draw-tiles-not-put-back": "mut30-draw-002",
    "mut30-published-table-last-row-stretched": "refused-001",
    "mut30-no-double-end-when-nothing-else": "first-039",
    "mut30-first-turn-mexican-before-own-train": "first-017",
    "mut30-chain-as-long-as-possible": "first-001",
    "mut30-mexican-waits-for-every-train": "mut30-mexican-001",
    "mut30-empty-train-never-draws": "regression-002",
    "mut30-mexican-plays-optional": "doubles-039",
    "mut30-until-playable-may-stop": "duty13-001",
    "mut30-own-train-first-every-turn": "mut30-ownfirst-001",
    "mut30-any-open-own-double-first": "doubles-054",
    "mut30-any-open-mexican-double-first": "doubles-050",
    "mut30-marker-frees-own-train-first": "first-022",
    "mut30-single-round-blocked-no-winner": "singletie-001",
    # the thirty-first reading (thirty_first_reading.py)
    "mut31-published-table-by-trains": "deal-019",
    "mut31-own-train-first-off-under-chain": "first-022",
    "mut31-own-train-first-marked-trains-open": "ownfirst-001",
    "mut31-own-train-first-lapses-when-dry": "end-030",
    "mut31-own-train-first-covers-released": "mut31-ownfirst-001",
    "mut31-chain-anywhere-cover-before-own-train": "mut31-chaincover-001",
    "mut31-own-train-started-by-marker": "first-030",
    "mut31-own-train-started-starter-exempt": "first-033",
    "mut31-own-train-started-blocks-mexican-cover": "mut31-mexcover-001",
    "mut31-starter-only-drawn-tile-opens-mexican": "first13-001",
    "mut31-oldest-first-drawn-covers-any": "doubles-053",
    "mut31-any-open-drawn-covers-oldest": "mut31-drawn-001",
    "mut31-chain-anywhere-covers-oldest": "mut31-chaincover-002",
    "mut31-ordinary-only-with-follow-anywhere": "doubles-ordinary-001",
    "mut31-until-playable-over-first-turn": "mut31-firstdraw-001",
    "mut31-no-double-end-chain-ends-at-will": "first-040",
    # the thirty-second reading (thirty_second_reading.py)
    "mut32-blank-25-double-blank-100": "end-026",
    "mut32-double-blank-50-per-end": "end-029",
    "mut32-drawn-double-not-opened": "doubles-025",
    "mut32-drawn-cover-keeps-double-open": "mut32-drawncover-001",
    "mut32-drawn-tile-off-closed-trains": "doubles-034",
    "mut32-engine-search-wraps-at-eight": "mut20-search-001",
    "mut32-train-back-at-engine-unstarted": "mut32-backround-001",
    "mut32-stuck-test-skips-mover": "end-015",
    "mut32-stuck-test-skips-passer": "end-016",
    "mut32-empty-release-one-tile-early": "doubles-070",
    "mut32-empty-release-spares-mexican": "blkrel-002",
    "mut32-chain-doubles-bind-one-early": "chaindbl-007",
    "mut32-marked-high-seats-closed": "mut17-markers-001",
    "mut32-lowest-total-sought-from-zero": "bounds-001",
    # the thirty-third reading (thirty_third_reading.py)
    "mut33-oldest-first-own-double-first": "doubles-019",
    "mut33-marked-double-binds-nobody": "doubles-040",
    "mut33-last-seat-double-binds-nobody": "covers-002",
    "mut33-double-blank-laid-plain": "doubles-068",
    "mut33-blank-double-dead-at-once": "doubles-066",
    "mut33-last-seat-marker-ignored": "doubles-005",
    "mut33-last-seat-first-turn-spent": "engine-005",
    "mut33-starter-only-seat-zero-unread": "first-017",
    "mut33-blocked-winner-skips-last-seat": "mut17-blocked-001",
    "mut33-positive-take-skips-last-seat": "bounds-003",
    "mut33-newest-turn-forgets-older": "mut33-older-001",
    "mut33-restricted-follow-lowest-train": "doubles-027",
    "mut33-follow-loses-unmarked-double": "mut33-unmarked-001",
    "mut33-release-counted-to-sixteen": "mut33-count-001",
    "mut33-high-double-plain": "mut33-highdbl-002",
    "mut33-heaviest-of-the-set": "heavyx-003",
    # the thirty-fourth reading (thirty_fourth_reading.py)
    "mut34-holder-start-by-top-double": "s49-big-017",
    "mut34-blocked-tested-at-starter-only": "doubles-062",
    "mut34-blocked-ignores-oldest-first": "mut34-oldest-001",
    "mut34-blocked-skips-marked-seats": "end-015",
    "mut34-top-double-unpriced": "s46-match-001",
    "mut34-round-double-unpriced": "mut34-rounddbl-001",
    "mut34-cover-clears-markers": "covers-002",
    "mut34-oldest-first-mexican-first": "doubles-050",
    "mut34-own-train-first-doubles-excepted": "house49a-016",
    "mut34-mexican-waits-for-second-tile": "mut30-mexican-001",
    "mut34-owner-own-double-anywhere-lowers-marker": "ownmex-001",
    "mut34-no-double-end-no-doubles": "first-040",
    "mut34-anywhere-follow-no-mexican": "doubles-022",
    "mut34-cover-own-or-home": "doubles-006",
    # the thirty-fifth reading (thirty_fifth_reading.py)
    "mut35-drawn-play-raises-marker": "markdraw-002",
    "mut35-failed-follow-restores-markers": "mut35-follow-001",
    "mut35-anyone-double-keeps-marker": "doubles-012",
    "mut35-pass-beside-open-double-unmarked": "doubles-042",
    "mut35-blocked-test-binds-dead": "blkrel-001",
    "mut35-blocked-reads-oldest-first": "mut35-anyopen-001",
    "mut35-blocked-keeps-home-first": "end-030",
    "mut35-first-turn-spent-by-double": "firstsix-008",
    "mut35-home-first-unless-stuck": "first-022",
    "mut35-oldest-first-nearest-mover": "doubles-028",
    "mut35-draw-run-off-first-two": "mut35-draw-001",
    "mut35-most-outs-first-two-compared": "s50-tie-002",
}


@functools.cache
def _corpus_by_id() -> dict[str, Fixture]:
    fixtures, errors = load_corpus()
    assert errors == []
    return {fx.id: fx for fx in fixtures}


def witness_of(name: str) -> Fixture:
    """The fixture that shows mutant `name` to be a real change."""
    if name in KILLED_BY:
        return BY_ID[KILLED_BY[name]]
    return _corpus_by_id()[OUTSIDE_KILLED_BY[name]]

KEBAB = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)+$")


Status = tuple[str, str, str]  # (variant, pass | fail | error, message)


def statuses(fx: Fixture, impl: adapter.Implementation,
             variants: list[str] | None = None) -> list[Status]:
    out: list[Status] = []
    for variant in variants or dict.fromkeys(v for v, _ in fx.rulesets()):
        try:
            out += [(variant, o.status, o.message) for o in run_fixture(fx, impl, [variant])]
        except Exception as e:  # a crash under a mutant is a difference too
            out.append((variant, "error", f"{type(e).__name__}: {e}"))
    return out


# --- the catalogue -----------------------------------------------------------------------


def test_catalogue_is_large_and_well_formed() -> None:
    assert len(MUTANTS) >= 44
    clauses = set(catalog().clauses)
    descriptions = [m.description for m in MUTANTS.values()]
    assert len(set(descriptions)) == len(descriptions)
    for name, m in MUTANTS.items():
        assert name == m.name and KEBAB.match(name), name
        assert m.description and "\n" not in m.description, name
        assert m.mechanism, name
        assert m.clauses and set(m.clauses) <= clauses, (name, set(m.clauses) - clauses)
        assert m.rules or m.patches or m.post_deal or m.winners, f"{name} changes nothing"


def test_the_issue_list_is_in_the_catalogue() -> None:
    required = {
        "marker-never-removed", "marker-up-on-draw", "any-tile-after-draw",
        "covered-double-stays-open", "blocked-never-detected", "hand-scored-twice",
        "wrong-engine-double", "play-on-unmarked-train", "turn-ends-on-double",
        "mexican-on-pagat-first-turn", "double-no-obligation", "wrong-hand-size",
        "blanks-scored-wrong",
    }
    assert required <= set(MUTANTS)


def test_unknown_mutant_is_refused_with_the_nearest_names() -> None:
    with pytest.raises(ValueError, match=r"unknown mutant 'no-such-bug' \(\d+ are known; the "
                       r"list: mtrain mutants --list\)"):
        mutant("no-such-bug")
    with pytest.raises(InputError, match=r"unknown mutant 'marker-never-remove'; did you mean "
                       r"marker-never-removed,"):  # an InputError: the command line's exit 2
        mutant("marker-never-remove")
    impl = mutant("marker-never-removed")
    assert isinstance(impl, adapter.Implementation)
    assert impl.info()["name"].endswith("marker-never-removed")


# --- every mutant is a real bug ------------------------------------------------------------


def test_every_mutant_has_a_witness() -> None:
    from mtrain.conformance.mutants.eighteenth_reading import EIGHTEENTH_READING
    from mtrain.conformance.mutants.eighth_reading import EIGHTH_READING
    from mtrain.conformance.mutants.eleventh_reading import ELEVENTH_READING
    from mtrain.conformance.mutants.fifteenth_reading import FIFTEENTH_READING
    from mtrain.conformance.mutants.fifth_reading import FIFTH_READING
    from mtrain.conformance.mutants.fourteenth_reading import FOURTEENTH_READING
    from mtrain.conformance.mutants.fourth_reading import FOURTH_READING
    from mtrain.conformance.mutants.nineteenth_reading import NINETEENTH_READING
    from mtrain.conformance.mutants.ninth_reading import NINTH_READING
    from mtrain.conformance.mutants.outside import OUTSIDE
    from mtrain.conformance.mutants.second_reading import SECOND_READING
    from mtrain.conformance.mutants.seventeenth_reading import SEVENTEENTH_READING
    from mtrain.conformance.mutants.seventh_reading import SEVENTH_READING
    from mtrain.conformance.mutants.sixteenth_reading import SIXTEENTH_READING
    from mtrain.conformance.mutants.sixth_reading import SIXTH_READING
    from mtrain.conformance.mutants.tenth_reading import TENTH_READING
    from mtrain.conformance.mutants.third_reading import THIRD_READING
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

    assert set(KILLED_BY) | set(OUTSIDE_KILLED_BY) == set(MUTANTS)
    assert set(OUTSIDE_KILLED_BY) == {m.name for m in (*OUTSIDE, *SECOND_READING,
                                                        *THIRD_READING, *FOURTH_READING,
                                                        *FIFTH_READING, *SIXTH_READING,
                                                        *SEVENTH_READING, *EIGHTH_READING,
                                                        *NINTH_READING, *TENTH_READING,
                                                        *ELEVENTH_READING,
                                                        *TWELFTH_READING,
                                                        *THIRTEENTH_READING,
                                                        *FOURTEENTH_READING,
                                                        *FIFTEENTH_READING,
                                                        *SIXTEENTH_READING,
                                                        *SEVENTEENTH_READING,
                                                        *EIGHTEENTH_READING,
                                                        *NINETEENTH_READING,
                                                        *TWENTIETH_READING,
                                                        *TWENTY_FIRST_READING,
                                                        *TWENTY_SECOND_READING,
                                                        *TWENTY_THIRD_READING,
                                                        *TWENTY_FOURTH_READING,
                                                        *TWENTY_FIFTH_READING,
                                                        *TWENTY_SIXTH_READING,
                                                        *TWENTY_SEVENTH_READING,
                                                        *TWENTY_EIGHTH_READING,
                                                        *TWENTY_NINTH_READING,
                                                        *THIRTIETH_READING,
                                                        *THIRTY_FIRST_READING,
                                                        *THIRTY_SECOND_READING,
                                                        *THIRTY_THIRD_READING,
                                                        *THIRTY_FOURTH_READING,
                                                        *THIRTY_FIFTH_READING)}
    assert set(KILLED_BY).isdisjoint(OUTSIDE_KILLED_BY)
    assert set(KILLED_BY.values()) <= set(BY_ID)
    assert set(OUTSIDE_KILLED_BY.values()) <= set(_corpus_by_id())


@pytest.mark.parametrize("fx", WITNESSES, ids=[fx.id for fx in WITNESSES])
def test_witness_holds_under_the_reference(fx: Fixture) -> None:
    problems = [s for s in statuses(fx, ReferenceImplementation()) if s[1] != "pass"]
    assert problems == []


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_fails_its_witness(name: str) -> None:
    fx = witness_of(name)
    outcomes = statuses(fx, mutant(name))
    assert any(s[1] != "pass" for s in outcomes), (
        f"{name} behaves as the reference on {fx.id}: {outcomes}")


def test_mutants_agree_with_the_reference_elsewhere() -> None:
    """A mutant changes its own rule, not everything: the witness of an unrelated
    topic still passes (guards against a mutant that is 'killed' by crashing)."""
    calm = BY_ID["witness-007"]  # a plain single-tile turn
    exempt = {"turn-order-reversed", "single-start-allows-chain", "first-turns-never-end"}
    for name in MUTANTS:
        if name in exempt:
            continue
        outcomes = statuses(calm, mutant(name))
        assert all(s[1] == "pass" for s in outcomes), (name, outcomes)


PARTS = 4
"""test_mutants_accept_every_action_they_list in parts (every PARTS-th mutant each), which
xdist spreads over its workers."""


def _agreement_tables() -> list[Fixture]:
    """Every witness table, the corpus's witnesses of the mutants outside included."""
    return [*WITNESSES,
            *{witness_of(n).id: witness_of(n) for n in OUTSIDE_KILLED_BY}.values()]


def _play_every_action(impl: adapter.Implementation, fx: Fixture, variant: str) -> list[str]:
    """On `fx` under `variant`, every action `impl` lists at each step, applied: those it
    refuses."""
    problems = []
    rs = resolve(variant)
    rj = ruleset_json(rs)
    try:
        state = runner.start_state(fx, rs, rj, impl)
    except Exception:
        return []  # a deal this mutant cannot make: a kill, not a disagreement
    for step in [*fx.steps, None]:
        try:
            legal = impl.legal(rj, state)
        except (codec.StateError, adapter.RefusedSetup):
            # wrong-engine-double cannot read a later round's table, nor
            # rounds-stop-at-sixteen a double-18 match's round 19
            break
        if step is not None and is_next_round(step):
            break  # the next round's deal, no action: every step before it was played
        step_action = None if step is None else action_json(step)
        after = None  # the step's own action, when listed: its result is the next state
        for action in legal:
            try:
                result = impl.apply(rj, state, action)
            except adapter.Refused as e:
                problems.append(f"{fx.id} [{variant}] {action}: {e}")
                continue
            if action == step_action:
                after = result
        if step_action is None:
            break
        if after is None:  # not listed, or refused (and so reported): applied as written
            try:
                after = impl.apply(rj, state, step_action)
            except adapter.Refused:
                break
        state = after
    return problems


@functools.cache
@functools.cache
def _hooks_reached() -> dict[tuple[str, str], frozenset[str]]:
    """Per table and rule set, the hooks of any mutant that playing every action under
    the reference reaches (conformance/mutants/runs.py traces a fixture's run alike); the
    reference itself accepts every action it lists there. Once per process (2.2 CPU s),
    not once per part: the file goes to one worker whole."""
    reference = _TracingReference()
    reached = {}
    for fx in _agreement_tables():
        for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
            reference.called.clear()
            assert _play_every_action(reference, fx, variant) == []
            reached[fx.id, variant] = frozenset(reference.called)
    return reached


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_mutants_accept_every_action_they_list(part: int) -> None:
    """legal() and apply() agree under every mutant, on every witness table and step. A
    table whose play under the reference never reaches a hook of the mutant is played by
    the mutant exactly as by the reference (runs.py's `reachable`), which accepts every
    action there (`_hooks_reached`): only the others are played again."""
    problems = []
    reached = _hooks_reached()
    for name in list(MUTANTS)[part::PARTS]:
        impl = MUTANTS[name].implementation()
        hooks = touches(impl.mutant)
        for fx in _agreement_tables():
            for variant in dict.fromkeys(v for v, _ in fx.rulesets()):
                if hooks is not None and hooks.isdisjoint(reached[fx.id, variant]):
                    continue
                if hooks is None and not impl.differs_under(ruleset_json(resolve(variant))):
                    continue
                problems += [f"{name} {p}" for p in _play_every_action(impl, fx, variant)]
    assert problems == []


# --- the reference is left alone ----------------------------------------------------------


DEEP = os.environ.get("MTRAIN_DEEP") == "1"
"""Each mutant also played outside run_mutants on every table, not on its witness alone."""


@pytest.mark.slow
def test_reference_unchanged_after_every_mutant(corpus_play_changes: list[str],
                                                corpus_blame: list[Blame]) -> None:
    # Every mutant on every run of the corpus that reaches what it swaps, through its own
    # deal/legal/apply/winners (the run's play for blame, tests/conftest.py): the
    # reference's modules and play compared before and after in the process that played
    assert corpus_play_changes == []
    # and here: every mutant of the witnesses through run_mutants (each on every witness
    # table), then every mutant through its own methods on its witness, which reaches what
    # it swaps
    before = module_snapshot(), reference_trace()
    before_witness = {fx.id: statuses(fx, ReferenceImplementation()) for fx in WITNESSES}
    report = run_mutants(WITNESSES, list(KILLED_BY))  # every mutant against every witness
    assert report.survived == []
    # The mutants outside are killed by their corpus witnesses: read from that same play
    # (blame's kills are run_mutants', test_blame_counts_the_kills_run_mutants_counts), as
    # the CI gate reads them; a run_mutants of its own here (same mutant, same swaps, same
    # kill test) took 15 of this test's 25 CPU s past the play
    outside = list({fx.id: fx for fx in map(witness_of, OUTSIDE_KILLED_BY)}.values())
    ids = {fx.id for fx in outside}
    killers = {b.mutant: b.killed_by for b in corpus_blame}
    assert [n for n in OUTSIDE_KILLED_BY if ids.isdisjoint(killers[n])] == []
    tables = [*WITNESSES, *outside]
    for name in MUTANTS:
        impl = MUTANTS[name].implementation()
        assert isinstance(impl, MutantImplementation)
        for fx in (tables if DEEP else [witness_of(name)]):
            statuses(fx, impl)
    assert changes(before) == []
    assert {fx.id: statuses(fx, ReferenceImplementation()) for fx in WITNESSES} == before_witness


def test_swaps_reach_every_module_that_imported_the_function() -> None:
    """A module that imported an engine function by name must be in the swap sites, or a
    mutant would be half applied (legal() and apply() disagreeing)."""
    from mtrain.conformance.mutants.implementation import _SITES

    modules = [engine, refusals, deal_module, codec, adapter, reference_adapter, runner, fixture]
    for name in {n for m in MUTANTS.values() for n in m.patches}:
        original = (getattr(engine, name, None) or getattr(refusals, name, None)
                    or getattr(deal_module, name))
        holders = {mod.__name__ for mod in modules if getattr(mod, name, None) is original}
        sites = {mod.__name__ for mod in _SITES.get(name, (engine,))}
        assert holders <= sites, (name, holders - sites)


def test_report_json() -> None:
    names = ["marker-never-removed", "wrong-hand-size"]
    report = run_mutants(WITNESSES, names)
    data = report.to_json()
    assert data["mutants"]["count"] == 2
    assert {d["name"] for d in data["mutants"]["details"]} == set(names)
    assert sorted(data["killed"]) == sorted(names) and data["survived"] == []
    detail = next(d for d in data["mutants"]["details"] if d["name"] == "wrong-hand-size")
    assert detail["killed_by"] == ["witness-002"]
    assert detail["clauses"] == ["DEAL-2"]
    with pytest.raises(ValueError, match="unknown mutant"):
        run_mutants(WITNESSES, ["no-such-bug"])


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`mtrain mutants`: the list, a run's lines and verdict (--need), its JSON, --blame."""
    path = tmp_path / "witnesses.yaml"
    path.write_text(WITNESS_YAML, encoding="utf-8")
    assert main(["mutants", "--list"]) == 0
    assert [line.split()[0] for line in capsys.readouterr().out.splitlines()] == list(MUTANTS)
    names = ["-m", "marker-never-removed", "-m", "wrong-hand-size"]
    assert main(["mutants", str(path), *names]) == 0
    out = capsys.readouterr().out
    assert "KILLED   wrong-hand-size: witness-002\n" in out
    assert "2 killed, 0 survived, fewest killers 1" in out
    assert main(["mutants", str(path), *names, "--need", "2"]) == 1  # one killer is not two
    capsys.readouterr()
    assert main(["mutants", str(path), *names, "--json"]) == 0
    assert sorted(json.loads(capsys.readouterr().out)["killed"]) == sorted(names[1::2])
    assert main(["mutants", str(path), *names, "--blame"]) == 0
    assert "of 2 mutants: the clause charged most is one they break" in capsys.readouterr().out


# --- the CI gate: the shipped corpus kills every mutant -------------------------------------


@pytest.mark.slow
def test_corpus_kills_every_mutant_twice(corpus_blame: list[Blame]) -> None:
    """Every mutant is killed by at least two fixtures, so that no rule rests on one. The
    kills are read from the run's one play of every mutant against the corpus (blame's,
    tests/conftest.py `corpus_blame`), which counts a kill as run_mutants does
    (test_blame_counts_the_kills_run_mutants_counts)."""
    kills = {b.mutant: b.killed_by for b in corpus_blame}
    assert list(kills) == list(MUTANTS)
    weak = [f"{n} ({', '.join(MUTANTS[n].clauses)}): {', '.join(ids) or 'no fixture'}"
            for n, ids in kills.items() if len(ids) < 2]
    assert weak == [], "mutants fewer than two fixtures kill:\n  " + "\n  ".join(weak)


def test_blame_counts_the_kills_run_mutants_counts() -> None:
    """blame's killers are run_mutants' kills, in the same order (so the CI gate above may
    read them from blame's play), and `enough` stops run_mutants at that many."""
    names = [*KILLED_BY][::25]
    full = run_mutants(WITNESSES, names)
    assert {b.mutant: list(b.killed_by) for b in blame(WITNESSES, names)} == full.kills
    assert sum(len(ids) >= 2 for ids in full.kills.values()) >= 2  # enough cuts something
    assert run_mutants(WITNESSES, names, enough=1).kills == {
        n: ids[:1] for n, ids in full.kills.items()}


def test_a_run_is_left_unplayed_only_where_the_mutant_plays_it_as_the_reference() -> None:
    """runs.py `as_reference` (replay.py): a run whose requests a mutant answers as the
    reference did is not played: played in full, each such run passes under the mutant."""
    runs, failures = passing_runs(WITNESSES)
    assert failures == []
    skipped = played = 0
    for name in [*KILLED_BY][::10]:
        impl = MUTANTS[name].implementation()
        for run in reachable(impl, runs):
            passes = all(s[1] == "pass" for s in statuses(run.fixture, impl, [run.variant]))
            if as_reference(impl, run):
                assert passes, (name, run.fixture.id, run.variant)
                skipped += 1
            else:
                played += 1
        # its witness kills it: a run of it is played
        assert any(not as_reference(impl, r) for r in runs if r.fixture.id == KILLED_BY[name])
    assert skipped > 0 and played > 0, (skipped, played)
