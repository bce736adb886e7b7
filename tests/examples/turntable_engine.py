"""Turntable: Mexican Train on a double-12 set as a model-railway club plays it on
Thursday nights (a turntable turns a locomotive round at the end of the line), written
from docs/implementers-guide.md and docs/protocol.md alone, as an in-process Python
adapter (`--adapter`), not a server: the other engines of tests/examples/ speak the
protocol. Inside it, a tile is one small integer (its index in the set), a hand is a
bit mask of those, and a train is the path of numbers it runs through (the engine's
number first): the JSON forms are made at the boundary. Its house rules and planted bugs
were written down here before the suite ran on it.

Rules it plays (its rule-set file: tests/examples/turntable-rules.yaml; its `info()`
declares the same):
- a double-12 set (91 tiles, 13 rounds from [12-12] down to [0-0]); the engine is set
  aside before the deal (`set-aside`), and round r starts at seat (r - 1) mod players
  (`rotate`);
- HOUSE RULE, a hand table of its own: 2-3 players 14, 4 players 12, 5 players 11,
  6 players 10, 7 players 9, 8 players 8;
- one tile a turn from the start (`single`), anyone may open the Mexican Train
  (`anyone`), nobody must start their own train first (`not-required`);
- open doubles (`open`): the tile after a double goes anywhere the player may play
  (`anywhere`), several open doubles are covered oldest first (`oldest-first`), a double
  nobody can cover any more (all 13 tiles of its number on the table) is released
  (`released`); a marker comes off when its owner plays on their own train
  (`owner-plays-own`);
- HOUSE RULE no value describes (`draw_rule: other`, "you drew it, you may keep it"): a
  player who cannot play draws one tile; if that tile can be played they may play it,
  or keep it and pass, marker up, as if it could not (the drawn tile is never forced,
  in an ordinary turn, under an open double's duty or after one's own double alike); as
  ever, only the drawn tile may be played after a draw, and one draw a turn;
- HOUSE RULE no value describes (`blocked_round: other`, "nobody can play now"): with
  the boneyard empty, the round ends blocked at the end of any turn after which no
  player holds a tile they could lay on the table as it stands: their own train, the
  Mexican Train, a marked train, and under an open double's duty only a cover of the
  oldest double that binds (the markers a round of passes would raise are not counted,
  as END-2 counts them, nor are passes counted, as END-3 does);
- penalty scoring (`penalty`), the [0-0] counting 25 and other blanks 0
  (`double-blank-25`); the lowest total wins, a tie goes to the most rounds gone out,
  then is shared (`most-outs`); a full match (`full`).

Planted bugs (what the suite must find), each with the clause it breaks:
1. "round-robin": the deal gives one tile to each seat in turn from the front of the
   pool, as at a table, not each hand whole from the front, seat 0 first (DEAL-1);
2. "mexican-unflipped": a tile laid on the Mexican Train is written as it is held,
   high end first, even where its low end is the one that matches (the personal trains
   flip it; the Mexican Train's code path was written apart); its open end is right
   (TRAIN-2);
3. "blank-out": when a player goes out, a [0-0] left in another hand counts 0: the 25
   was written only in the scoring of a blocked round (and of `score` without a
   winner) (SCORE-4).

Its refusals name a clause where one says why (none for its house rules). All three
bugs are on in `Turntable`; `Fixed` switches them off (`Turntable(fixed={1, 3})` some).

    mtrain conform --adapter tests/examples/turntable_engine.py:Fixed \\
        --rules tests/examples/turntable-rules.yaml
"""
