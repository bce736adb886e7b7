#!/usr/bin/env python3
"""Tandem: Mexican Train for two, as a couple plays it across the kitchen table, written
from docs/protocol.md and docs/implementers-guide.md alone (it imports nothing from
mtrain), to try the suite as its author would. Its house rules and planted bugs were
written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/tandem-rules.yaml; its hello declares
the same):
- HOUSE RULE, a table of its own for exactly two players: a double-12 set, 17 tiles each;
  any other number of players is refused (DEAL-7);
- the engine is set aside before the deal (`set-aside`); the start alternates, round r
  starting at seat (r - 1) mod 2 (`rotate`); one tile a turn from the start (`single`);
  anyone may open the Mexican Train at any time (`anyone`, `not-required`);
- HOUSE RULE no value describes (`doubles: other`): a double does not ask its layer for
  another tile. Laying it ends the turn like any other tile; it stays open, and the next
  player must cover it before anything else (and if they cannot, even after drawing,
  they put their marker up and the duty passes back). So no table of this engine is
  ever in the follow-up phase, and no double is ever "of this turn"; a double that is
  the last tile in hand ends the round, open;
- open doubles of earlier turns are covered oldest first (`oldest-first`), and a double
  nobody can cover any more (all 13 tiles of its number on the table) is released
  (`released`); as no follow-up exists, `follow_up` decides nothing (`anywhere` is
  written because the file needs a value);
- a marker comes off when its owner plays on their own train (`owner-plays-own`); a
  player who cannot play draws one tile (`draw-one`), and plays it or passes;
- with the boneyard empty, two passes in a row end the round blocked
  (`full-round-of-passes`);
- penalty scoring (`penalty`), each blank end counting 25 (`blank-25`: [0-0] is 50,
  [5-0] is 30); equal totals share the win (`shared`); a full match of 13 rounds.

Planted bugs (what the suite must find), each with the clause it breaks:
1. "redraw": a player whose drawn tile cannot be played is offered `draw` again, not
   `pass`, while the boneyard holds tiles (TURN-2);
2. "mexican-escape": a player who must cover an open double may instead play on the
   Mexican Train (DBL-6);
3. "blank-pair": the double blank is counted 25, as one blank end, not 50 (SCORE-2).

Its refusals name a clause where one says why. All three bugs are on by default;
`--fixed 1,2,3` switches them off (or some of them).

    mtrain conform --impl "python tests/examples/tandem_engine.py --fixed 1,2,3" \\
        --rules tests/examples/tandem-rules.yaml
"""
